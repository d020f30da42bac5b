"""What the old_imports hook costs imports that never needed it.

    .venvs/verl-0.9.1/bin/python benchmarks/old_imports_cost.py [--venv .venvs/verl-0.9.1] [--rounds 10]
        [--json out.json]

1. ``import verl.trainer.ppo.ray_trainer`` with and without verl-compat installed: the linked
   environments of ``import_cost.py`` (``with``: every package; ``without``: all but verl-compat),
   the import timed inside fresh interpreters, interleaved, medians.
2. The finder at the end of ``sys.meta_path``, in a process where verl-compat is active, for an import
   outside the table: a missing module outside verl, and a missing ``verl.*`` module the table does
   not know. Its ``find_spec`` is called directly with ``timeit``, as an import calls it (through a
   frame named ``_find_and_load_unlocked``, which the finder looks for) and as a probe
   (``importlib.util.find_spec``), each for a name asked once (distinct names) and for one asked
   again; then a failing ``import`` of each, with and without the finder in ``sys.meta_path``.

Start-up with auto-load is ``startup.py``'s.
"""

import argparse
import json
import statistics
from pathlib import Path

import import_cost
from _envs import REPO, USER_SHELL, load_average, run_python

# Runs in the environment's interpreter, where verl-compat is installed (auto-load).
FINDER = r"""
import importlib, json, sys, timeit
import verl  # verl-compat activates here
from verl_compat import importing

finder = importing._FINDER
assert finder in sys.meta_path
N = 20000


def _find_spec(name):
    return finder.find_spec(name, None)


def _find_and_load_unlocked(name):  # the frame the finder recognises as an import
    return _find_spec(name)


def per_call_ns(function, names):
    best = min(timeit.repeat(lambda: [function(name) for name in names], number=1, repeat=7))
    return best / len(names) * 1e9


def failing_import_ns(name, rounds=2000):
    def attempt():
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    return min(timeit.repeat(attempt, number=rounds, repeat=7)) / rounds * 1e9


result = {}
for label, prefix in (("outside verl", "no_such_package_"), ("verl, not in the table", "verl.no_such_module_")):
    fresh = [f"{prefix}{i}" for i in range(N)]
    again = [f"{prefix}again"] * N
    entry = {
        "import, asked once": per_call_ns(_find_and_load_unlocked, fresh),
        "import, asked again": per_call_ns(_find_and_load_unlocked, again),
        "probe": per_call_ns(finder.find_spec, again),
        "failing import with the finder": failing_import_ns(f"{prefix}x"),
    }
    sys.meta_path.remove(finder)
    entry["failing import without the finder"] = failing_import_ns(f"{prefix}x")
    sys.meta_path.append(finder)
    result[label] = entry
print(json.dumps(result))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, default=REPO / ".venvs/verl-0.9.1")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    source = args.venv.resolve()
    load = load_average()
    imports = import_cost.measure(source, args.rounds)
    imports["load_average_before_after"] = [load, load_average()]
    print(
        f"{source.name}: import {import_cost.TARGET}  without {imports['without_median_s']:.3f} s  with "
        f"{imports['with_median_s']:.3f} s: x{imports['ratio']:.3f} ({imports['added_ms']:+.0f} ms); "
        f"{args.rounds} interleaved rounds, load average {load} -> {load_average()}"
    )
    runs = [json.loads(run_python(FINDER, python=source / "bin/python", drop=USER_SHELL).stdout) for _ in range(3)]
    finder = {
        label: {key: statistics.median(run[label][key] for run in runs) for key in runs[0][label]} for label in runs[0]
    }
    for label, entry in finder.items():
        added = entry["failing import with the finder"] - entry["failing import without the finder"]
        entry["failing import, added"] = added
        print(
            f"  finder.find_spec, a missing module {label}: as an import asks it {entry['import, asked once']:.0f} ns "
            f"(a name asked once), {entry['import, asked again']:.0f} ns (asked again); as a probe "
            f"{entry['probe']:.0f} ns; a failing import {entry['failing import without the finder']:.0f} ns "
            f"without the finder, {added:+.0f} ns with it (median of 3 processes, best of 7 each)"
        )
    if args.json:
        args.json.write_text(json.dumps({"import": imports, "finder": finder}, indent=2))


if __name__ == "__main__":
    main()
