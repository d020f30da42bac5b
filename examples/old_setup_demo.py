"""An old verl setup on the installed verl, without and with verl-compat: a launch script from
verl's own v0.7.1 examples, old Python imports, and the memory page of a (synthetic) run.

Run by ``scripts/demo.sh`` in the newest release's environment, where verl-compat is installed
(auto-load): each "without" is the same command in a fresh process with ``VERL_COMPAT_DISABLE=1``.
Everything is verl's real code path: ``python -m verl.trainer.main_ppo … --cfg job`` composes the
launch with Hydra and prints it instead of training, so no GPU is needed.
"""

import itertools
import json
import linecache
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent
OLD_LAUNCH = EXAMPLES / "data" / "run_deepseek7b_llm.v0.7.1.json"
SNAPSHOTS = EXAMPLES.parent / "scripts" / "make_snapshots.py"
LOG_LINE = re.compile(r"^(WARNING|INFO|DEBUG|[WIE]\d{4} |\d{4}-\d\d-\d\d|Set the environment| )")
OLD_IMPORTS = (
    "from verl.trainer.main_ppo import create_rl_sampler",  # moved in verl 0.9.0
    "from verl.workers.fsdp_workers import ActorRolloutRefWorker",  # removed in verl 0.8.0
)


def run(argv: list, shim: bool, release: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "VERL_COMPAT_DISABLE": "0" if shim else "1", "PYTHONWARNINGS": "default"}
    if release:  # the release the launch was written for, as a pinned image declares it
        env["VERL_COMPAT_LAUNCH_RELEASE"] = release
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300, cwd=tempfile.gettempdir())


def first_error_line(output: str) -> str:
    """Hydra's error, without the log lines verl prints as it imports."""
    lines = [line for line in output.splitlines() if line.strip() and not LOG_LINE.match(line)]
    return lines[0] if lines else "(no output)"


def warnings_of(stderr: str) -> list:
    """The text of each VerlCompatDeprecationWarning in a process's stderr, each line of it: Python
    prints ``file:line: Category: message`` and then the source line that warned, indented like
    the message's own further lines, so that line is told apart by reading it from its file."""
    marker = "VerlCompatDeprecationWarning: "
    lines, found = stderr.splitlines(), []
    for index, line in enumerate(lines):
        if marker not in line:
            continue
        where, _, text = line.partition(marker)
        path, _, number = where.rstrip(": ").rpartition(":")
        source = linecache.getline(path, int(number)).strip() if number.isdigit() else ""
        more = list(itertools.takewhile(lambda ln: ln.startswith(" "), lines[index + 1 :]))
        if more and source and more[-1].strip() == source:
            more.pop()
        found.append("\n".join([text, *more]))
    return found


def old_launch() -> None:
    source = json.loads(OLD_LAUNCH.read_text())
    overrides = source["overrides"]
    print(f"===== verl's own launch at {source['tag']}: {source['path']} ({len(overrides)} overrides) =====")
    argv = [sys.executable, "-m", "verl.trainer.main_ppo", *overrides, "--cfg", "job"]
    without = run(argv, shim=False)
    print("--- without verl-compat")
    print(f"exit {without.returncode}: {first_error_line(without.stderr or without.stdout)}")
    release = source["tag"].removeprefix("v")
    shimmed = run(argv, shim=True, release=release)
    said = warnings_of(shimmed.stderr)
    print(f"--- with verl-compat, VERL_COMPAT_LAUNCH_RELEASE={release}")
    print(f"exit {shimmed.returncode}: the config composes; {len(said)} warnings, one per old key or change:")
    for text in said:
        print("\n".join(f"  {line}" for line in text.splitlines()))


def old_imports() -> None:
    print("===== old Python code =====")
    for line in OLD_IMPORTS:
        name = line.rpartition(" ")[2]
        code = f"{line}\nprint('imported', {name}.__module__ + '.' + {name}.__qualname__)"
        print(f"$ python -c '{line}'")
        for title, shim in (("without verl-compat", False), ("with verl-compat", True)):
            proc = run([sys.executable, "-c", code], shim=shim)
            errors = [ln for ln in proc.stderr.splitlines() if ln and not ln.startswith((" ", "Traceback"))]
            said = warnings_of(proc.stderr)
            outcome = proc.stdout.strip() or (errors[-1] if errors else f"exit {proc.returncode}")
            print(f"--- {title}: {outcome}")
            for text in said:
                print(f"  warning: {text}")


def memory_page(workdir: Path) -> None:
    print("===== the memory page of a run (synthetic snapshots: 4 ranks, 5 steps, an OOM) =====")
    profile = workdir / "profile"
    subprocess.run(
        [sys.executable, str(SNAPSHOTS), str(profile), "--ranks", "4", "--steps", "5"],
        check=True,
        capture_output=True,
        timeout=300,
    )
    page = workdir / "memory.html"
    proc = run([sys.executable, "-m", "verl_compat", "view", str(profile), "-o", str(page)], shim=True)
    print(f"$ verl-compat view {profile} -o {page}")
    print(proc.stdout.strip() or proc.stderr.strip().splitlines()[-1])


def main() -> int:
    workdir = Path(tempfile.mkdtemp(prefix="verl-compat-demo-"))
    old_launch()
    old_imports()
    memory_page(workdir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
