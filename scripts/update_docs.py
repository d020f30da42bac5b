#!/usr/bin/env python3
"""Regenerate every example output in README.md and docs/ from the real tools.

An example output in a Markdown file sits between two markers, and is never edited by hand:

    <!-- generated: doctor-legacy -->
    ```
    $ verl-compat doctor ...
    ...
    ```
    <!-- end -->

Each block name is a ``Block`` below: the verl release whose environment produces it and what
runs there (``verl-compat doctor`` with arguments, or the demo). Output is normalised
(``normalise``) so that it reads the same on every machine: the environment's prefix becomes
``/venv``, the demo's temporary folder ``/tmp/verl-compat-demo-…``.

    scripts/update_docs.py            # rewrite every block (environments built as scripts/test.sh does)
    scripts/update_docs.py --check    # write nothing; exit 1 and name the blocks that differ
    scripts/update_docs.py doctor-legacy demo   # only these blocks

tests/docs/test_docs.py regenerates each block in the release environment it belongs to and
compares, with this module's own functions, so a block that drifts fails the suite.
Standard library only: it runs with any Python 3.10+, and is imported by the tests.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "support"))  # uv, as the suite and the benchmarks run it
import venvs  # noqa: E402

FILES = ("README.md", "docs/doctor.md")
BLOCK = re.compile(r"(<!-- generated: (?P<name>[\w.-]+) -->\n)(?P<body>.*?)(<!-- end -->)", re.S)
DEMO_TMP = re.compile(r"[\w./-]*/verl-compat-demo-[\w-]+")  # a path, not the `key=` before it
TIMEOUT_S = 900  # a demo is two real fits; a doctor run imports verl (seconds)


@dataclass(frozen=True)
class Block:
    releases: tuple  # the verl releases whose environments produce it (None: an environment without verl)
    doctor: tuple | None = None  # `verl-compat doctor` arguments; None: the demo runs
    exit_status: bool = True  # end with the exit status (`$ echo $?`)
    from_demo: bool = False  # the deprecation warning, as the demo shows it
    script: str = "legacy_config_demo.py"  # the demo under examples/ that prints it

    @property
    def runs_demo(self) -> bool:
        return self.doctor is None

    @property
    def command(self) -> str:
        return shlex.join(["verl-compat", "doctor", *self.doctor])


BLOCKS = {
    "doctor-help": Block(("0.9.1",), ("--help",), exit_status=False),
    "doctor-legacy": Block(
        ("0.7.1",), ("actor_rollout_ref.actor.profiler.tool=torch_memory", "trainer.total_training_steps=3")
    ),
    "doctor-mixed-v1": Block(
        ("0.9.1",),
        ("actor_rollout_ref.actor.profiler.tool=torch_memory", "global_profiler.steps=[2,4]", "trainer.use_v1=true"),
    ),
    "doctor-no-verl": Block((None,), ()),
    "demo": Block(("0.7.1", "0.9.1")),  # the crash (0.7.x) and the silence (0.9.x)
    "legacy-warning": Block(("0.9.1",), from_demo=True),
    # an old launch from verl's own v0.7.1 examples, old imports, a memory page: on today's verl
    "old-setup-demo": Block(("0.9.1",), script="old_setup_demo.py"),
}


def normalise(text: str, prefixes=()) -> str:
    """Machine-specific parts replaced: each environment prefix by ``/venv``, the demo's temporary
    folder by ``/tmp/verl-compat-demo-…``, trailing blanks dropped."""
    for prefix in sorted({str(p) for p in prefixes}, key=len, reverse=True):
        text = text.replace(prefix, "/venv")
    text = DEMO_TMP.sub("/tmp/verl-compat-demo-…", text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def prefixes(python: str) -> set:
    """The environment prefix of ``python`` as it reports itself, resolved or not."""
    out = subprocess.run(
        [python, "-c", "import sys; print(sys.prefix)"], capture_output=True, text=True, check=True, timeout=60
    ).stdout.strip()
    return {out, os.path.realpath(out), str(Path(python).parent.parent)}


def user_environment() -> dict:
    """This process's environment as a user's shell has it: without the suite's declaration that its
    launches are written for the release under test (tests/conftest.py), which the docs' users lack."""
    return {key: value for key, value in os.environ.items() if key != "VERL_COMPAT_LAUNCH_RELEASE"}


def doctor_output(block: Block, python: str) -> str:
    """``$ verl-compat doctor …``, its report (stdout) and its one-line reason (stderr's last line).
    verl's own import chatter on stderr is left out: it differs from machine to machine."""
    proc = subprocess.run(
        [python, "-m", "verl_compat", "doctor", *block.doctor],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        cwd=tempfile.gettempdir(),
        env={**user_environment(), "COLUMNS": "100"},  # argparse wraps --help to the terminal's width
    )
    lines = [f"$ {block.command}", proc.stdout.rstrip("\n")]
    reason = [line for line in proc.stderr.splitlines() if line.startswith("verl-compat doctor: ")]
    if reason:
        lines.append(reason[-1])
    if block.exit_status:
        lines.append(f"$ echo $?\n{proc.returncode}")
    return normalise("\n".join(lines), prefixes(python))


def demo_output(python: str, script: str = "legacy_config_demo.py") -> str:
    """What ``scripts/demo.sh`` shows of ``examples/<script>`` for one release: the console, stdout
    and stderr together."""
    env = {**user_environment(), "PYTHONPATH": str(ROOT / "tests" / "support")}
    proc = subprocess.run(
        [python, str(ROOT / "examples" / script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        timeout=TIMEOUT_S,
        cwd=ROOT,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the demo failed (exit {proc.returncode}):\n{proc.stdout}")
    return normalise(proc.stdout, prefixes(python))


def warning_of(demo: str) -> str:
    """The deprecation warning in one release's demo output: its first line and the indented
    lines after it."""
    lines = demo.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("VerlCompatDeprecationWarning:"))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith(" ")), len(lines))
    return "\n".join(lines[start:end])


def produce(name: str, python: str, demos: dict) -> str:
    """Block ``name``'s text for one release, produced by ``python`` (an interpreter of that
    release's environment, with verl-compat installed). ``demos`` caches the demo's output by
    interpreter: the demo runs once per release, whichever blocks show it."""
    block = BLOCKS[name]
    if not block.runs_demo:
        return doctor_output(block, python)
    key = (python, block.script)
    if key not in demos:
        demos[key] = demo_output(python, block.script)
    return warning_of(demos[key]) if block.from_demo else demos[key]


def fence(outputs: list) -> str:
    """A block's Markdown body: its releases' outputs, in order, as one code block."""
    return "```\n" + "\n".join(outputs) + "\n```\n"


def blocks_in(text: str) -> dict:
    return {match["name"]: match["body"] for match in BLOCK.finditer(text)}


def replace_blocks(text: str, new: dict) -> str:
    def _sub(match):
        body = new.get(match["name"], match["body"])
        return f"{match.group(1)}{body}{match.group(4)}"

    return BLOCK.sub(_sub, text)


# --- environments ------------------------------------------------------------------------------


def release_python(release: str) -> str:
    """The release's test environment, built or refreshed (verl-compat from this checkout) by
    scripts/_envs.sh, as scripts/test.sh does."""
    subprocess.run(["bash", "-c", 'source scripts/_envs.sh && ensure_env "$0"', release], cwd=ROOT, check=True)
    return str(ROOT / ".venvs" / f"verl-{release}" / "bin" / "python")


def build(out_dir: Path, *kinds: str) -> list:
    """Build this checkout's sdist and/or wheel (``--sdist``, ``--wheel``) into ``out_dir``."""
    venvs.uv("build", "-q", *kinds, "--out-dir", out_dir, ROOT)
    return sorted(path for path in out_dir.iterdir() if path.name.endswith((".whl", ".tar.gz")))


def python_without_verl(workdir: Path, wheel: Path) -> str:
    """A fresh environment with only verl-compat (``wheel``) and its dependency: what a user has
    before installing verl."""
    python = os.environ.get("VERL_COMPAT_TEST_PYTHON", "python3.11")
    return str(venvs.venv(workdir / "venv", wheel, python=python))


def generate(names) -> dict:
    outputs, demos = {}, {}
    with tempfile.TemporaryDirectory(prefix="verl-compat-docs-") as tmp:
        for name in names:
            parts = []
            for release in BLOCKS[name].releases:
                print(f"update_docs: {name}: verl {release or '(none)'}", file=sys.stderr)
                if release is None:
                    subprocess.run(["bash", "-c", "source scripts/_envs.sh && ensure_uv"], cwd=ROOT, check=True)
                    (wheel,) = build(Path(tmp, "dist"), "--wheel")
                    python = python_without_verl(Path(tmp), wheel)
                else:
                    python = release_python(release)
                parts.append(produce(name, python, demos))
            outputs[name] = fence(parts)
    return outputs


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate the example outputs in README.md and docs/.")
    parser.add_argument("names", nargs="*", help=f"blocks to regenerate (default: all of {', '.join(BLOCKS)})")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a block differs")
    args = parser.parse_args(argv)
    names = args.names or list(BLOCKS)
    unknown = set(names) - set(BLOCKS)
    if unknown:
        parser.error(f"unknown blocks: {', '.join(sorted(unknown))}")
    new = generate(names)
    stale = []
    for file in FILES:
        path = ROOT / file
        text = path.read_text(encoding="utf-8")
        updated = replace_blocks(text, new)
        stale += [f"{file}: {name}" for name, body in blocks_in(text).items() if name in new and body != new[name]]
        if not args.check and updated != text:
            path.write_text(updated, encoding="utf-8")
    for line in stale:
        print(f"{'differs' if args.check else 'updated'}: {line}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
