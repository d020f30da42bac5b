"""The added cost of verl-compat on ``import verl.trainer.ppo.ray_trainer``, per verl release.

    .venvs/verl-0.9.1/bin/python benchmarks/import_cost.py [--venv .venvs/verl-0.7.1 ...] [--rounds 10]

For each test environment (built by ``scripts/test.sh``, verl-compat installed in it) builds two
linked virtualenvs in ``.bench/import``: ``with`` (every package) and ``without`` (all but
verl-compat). Times the import statement inside the interpreter (start-up excluded), interleaved,
all in this one run, and reports the medians and their difference. With verl-compat, the first
``import verl`` imports verl_compat (and wrapt) and the post-import hook patches ``RayPPOTrainer``;
``-X importtime`` tells how much of it is ``import verl_compat`` itself.
"""

import argparse
import json
import random
import statistics
from pathlib import Path

from _envs import LEAVE_OUT, REPO, USER_SHELL, farm, load_average, run_python

WORK = REPO / ".bench/import"
TARGET = "verl.trainer.ppo.ray_trainer"
TIMED = f"import time; t = time.perf_counter(); import {TARGET}; print(time.perf_counter() - t)"


def timed_import(python: Path) -> float:
    return float(run_python(TIMED, python=python, drop=USER_SHELL).stdout.strip().splitlines()[-1])


def shim_import_us(python: Path) -> int:
    """Cumulative ``-X importtime`` of ``verl_compat`` (wrapt included) during the import."""
    err = run_python(f"import {TARGET}", python=python, flags=("-X", "importtime"), drop=USER_SHELL).stderr
    for line in err.splitlines():
        fields = line.split("|")
        if len(fields) == 3 and fields[2].strip() == "verl_compat":
            return int(fields[1])
    return 0


def measure(source: Path, rounds: int) -> dict:
    name = source.name
    pair = {
        "with": farm(WORK / name / "with", source / "bin/python"),
        "without": farm(WORK / name / "without", source / "bin/python", leave_out=LEAVE_OUT),
    }
    times = {key: [] for key in pair}
    for key in pair:  # warm the page cache
        timed_import(pair[key])
    for _ in range(rounds):
        keys = list(pair)
        random.shuffle(keys)
        for key in keys:
            times[key].append(timed_import(pair[key]))
    with_s, without_s = statistics.median(times["with"]), statistics.median(times["without"])
    return {
        "with_median_s": with_s,
        "without_median_s": without_s,
        "added_ms": (with_s - without_s) * 1e3,
        "ratio": with_s / without_s,
        "verl_compat_import_us": statistics.median(shim_import_us(pair["with"]) for _ in range(5)),
        "rounds": rounds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, action="append", help="a test environment (default: all in .venvs)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    sources = args.venv or sorted(p for p in (REPO / ".venvs").glob("verl-*") if (p / "bin/python").exists())
    results = {}
    for source in sources:
        load = load_average()
        result = measure(source.resolve(), args.rounds)
        result["load_average_before_after"] = [load, load_average()]
        results[source.name] = result
        print(
            f"{source.name}: import {TARGET}  without {result['without_median_s']:.3f} s  with "
            f"{result['with_median_s']:.3f} s  added {result['added_ms']:+.0f} ms (x{result['ratio']:.3f}); "
            f"import verl_compat itself {result['verl_compat_import_us'] / 1e3:.1f} ms; "
            f"{args.rounds} interleaved rounds, load average {load} -> {result['load_average_before_after'][1]}"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
