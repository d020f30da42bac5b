"""Interpreter start-up with and without verl-compat installed, and what the bootstrap imports.

    .venvs/verl-0.9.1/bin/python benchmarks/startup.py [--rounds 500] [--instructions] [--json out.json]

Two pairs of environments in ``.bench/startup``, each pair differing only by the wheel built from
this checkout (so by the auto-load ``.pth`` that runs at every start):

- ``bare``: fresh virtualenvs with wrapt only;
- ``verl``: the packages of a test environment (``--venv``, default ``.venvs/verl-0.9.1``: verl, torch,
  Ray, ...), linked, as in an environment users install verl-compat into.

Each pair has a third environment, its ``floor``: the ``without`` one plus a ``.pth`` whose one line
is ``import sys``, what any start-up hook through a ``.pth`` line costs at the least.

Times ``python -c pass`` in all six, interleaved in a shuffled order each round, all in this one
run, and reports each pair's medians and the ratios with/without and floor/without.
``--instructions`` also counts the instructions of one start of each under valgrind (deterministic,
with ``PYTHONHASHSEED=0``), which this shared 2-core machine's load cannot blur, and reports the same
two ratios. Then lists the modules present at start-up only with verl-compat, and what the
bootstrap's own import pulled in (``-X importtime``).
"""

import argparse
import json
import shutil
import statistics
import sys
from pathlib import Path

from _envs import (
    LEAVE_OUT,
    REPO,
    USER_SHELL,
    build_wheel,
    farm,
    interleaved,
    load_average,
    run,
    run_python,
    site_packages,
    summary,
    uv,
    venv,
)

WORK = REPO / ".bench/startup"
SIDES = ("without", "with", "floor")


def startup_modules(python: Path) -> set:
    code = "import sys; print(repr(sorted(sys.modules)))"
    return set(eval(run_python(code, python=python, drop=USER_SHELL).stdout))


def bootstrap_import(python: Path, runs: int = 30) -> tuple:
    """(modules imported while importing the bootstrap, median self time in µs) from -X importtime."""
    nested, self_us = [], []
    for _ in range(runs):
        err = run_python("pass", python=python, flags=("-X", "importtime"), drop=USER_SHELL).stderr
        entries = []
        for line in err.splitlines():
            fields = line.split("|")
            if line.startswith("import time:") and len(fields) == 3 and fields[0].split(":")[1].strip().isdigit():
                name = fields[2][1:]
                entries.append((int(fields[0].split(":")[1]), len(name) - len(name.lstrip()), name.strip()))
        (index,) = [i for i, entry in enumerate(entries) if entry[2] == "verl_compat_autoload"]
        self_us.append(entries[index][0])
        nested = []
        for _, indent, name in reversed(entries[:index]):
            if indent <= entries[index][1]:
                break
            nested.append(name)
    return nested, statistics.median(self_us)


def instructions(python: Path) -> int:
    """Instructions executed by one ``python -c pass`` under valgrind."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, "-c", "pass"]
    result = run(command, env={"PYTHONHASHSEED": "0"}, drop=USER_SHELL, timeout=600)
    return int(next(line for line in result.stderr.splitlines() if "Collected" in line).split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--venv", type=Path, default=REPO / ".venvs/verl-0.9.1")
    parser.add_argument("--instructions", action="store_true", help="also count instructions under valgrind")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.instructions and not shutil.which("valgrind"):
        sys.exit("--instructions needs valgrind (apt-get install valgrind)")

    wheel = build_wheel(WORK / "dist")
    envs = {
        "bare": {side: venv(WORK / f"bare-{side}", str(wheel) if side == "with" else "wrapt>=2.5") for side in SIDES},
        "verl": {side: farm(WORK / f"verl-{side}", args.venv / "bin/python", leave_out=LEAVE_OUT) for side in SIDES},
    }
    uv("pip", "install", "-q", "--compile-bytecode", "--no-deps", "-p", str(envs["verl"]["with"]), str(wheel))
    for pair in envs.values():
        (site_packages(pair["floor"]) / "floor.pth").write_text("import sys\n")

    load_before = load_average()
    commands = {f"{pair}/{side}": [str(envs[pair][side]), "-c", "pass"] for pair in envs for side in SIDES}
    times = interleaved(commands, args.rounds)
    result = {"python": sys.version.split()[0], "rounds": args.rounds, "load_average": [load_before, load_average()]}
    print(
        f"python -c pass, {args.rounds} interleaved rounds "
        f"(load average before / after: {load_before} / {load_average()})"
    )
    for pair, pythons in envs.items():
        samples = {side: times[f"{pair}/{side}"] for side in SIDES}
        medians = {side: statistics.median(samples[side]) for side in SIDES}
        entry = {side: summary(samples[side]) for side in SIDES}
        entry["ratio_of_medians"] = medians["with"] / medians["without"]
        pairs = zip(samples["with"], samples["without"], strict=True)
        entry["median_paired_ratio"] = statistics.median(w / wo for w, wo in pairs)
        entry["floor_ratio_of_medians"] = medians["floor"] / medians["without"]
        print(
            f"  {pair:5} without {medians['without'] * 1e3:.2f} ms, with {medians['with'] * 1e3:.2f} ms, "
            f"floor {medians['floor'] * 1e3:.2f} ms: ratio of medians {entry['ratio_of_medians']:.4f} "
            f"(floor {entry['floor_ratio_of_medians']:.4f}), median of paired ratios {entry['median_paired_ratio']:.4f}"
        )
        if args.instructions:
            counts = {side: instructions(pythons[side]) for side in SIDES}
            entry["instructions"] = counts
            entry["instructions_ratio"] = counts["with"] / counts["without"]
            entry["floor_instructions_ratio"] = counts["floor"] / counts["without"]
            print(
                f"        instructions (valgrind) without {counts['without']:,}, with {counts['with']:,}, "
                f"floor {counts['floor']:,}: ratio {entry['instructions_ratio']:.4f} "
                f"(floor {entry['floor_instructions_ratio']:.4f})"
            )
        result[pair] = entry
    print("  (floor: a one-line `import sys` .pth instead of verl-compat, the least any .pth hook costs)")

    extra = sorted(startup_modules(envs["verl"]["with"]) - startup_modules(envs["verl"]["without"]))
    nested, self_us = bootstrap_import(envs["bare"]["with"])
    result["modules_added_at_startup"] = extra
    result["outside_stdlib"] = [
        m for m in extra if m != "verl_compat_autoload" and m.split(".")[0] not in sys.stdlib_module_names
    ]
    result["imported_by_the_bootstrap"] = nested
    result["bootstrap_self_import_us"] = self_us
    print(f"modules present at start-up only with verl-compat: {extra}")
    print(f"  of which outside the standard library, the bootstrap aside: {result['outside_stdlib'] or 'none'}")
    print(f"imported by the bootstrap's own import: {nested or 'nothing'}; its self time {self_us:.0f} µs (median)")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
