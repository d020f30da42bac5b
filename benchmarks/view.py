"""Time and peak memory of ``verl-compat view`` against the number of snapshots it reads.

    .venvs/verl-0.9.1/bin/python benchmarks/view.py [--data DIR] [--events 43000]

Writes a run of 4 ranks x 10 steps of ~20 MB synthetic snapshots (``scripts/make_snapshots.py``;
into a temporary folder, or ``--data DIR``, kept for a rerun) and runs ``verl-compat view`` on the
first 8, 16, ... 40 of them (steps 1..k of every rank, linked into a folder of their own), each in a
fresh process: the time of the command inside it (reading, summarising, writing the page; start-up
excluded), the process's peak RSS (``ru_maxrss``) and the page's size. Reading holds
one snapshot at a time, so time grows linearly with the count and peak memory stays near one
snapshot's unpickled size; the last line is a JSON record of every point.
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

from _envs import REPO, load_average, run_python

sys.path.insert(0, str(REPO / "tests/support"))
from synthetic_snapshots import write_run  # noqa: E402

RANKS, STEPS = 4, 10
# Each measured program runs as the grandchild of a small wrapper, which reports its children's
# peak RSS: Linux carries ru_maxrss across exec, so a process forked from this (large) one would
# start from this one's peak.
WRAPPER = """
import resource, subprocess, sys
proc = subprocess.run([sys.executable, *sys.argv[1:]], capture_output=True, text=True)
assert proc.returncode == 0, proc.stderr
print(proc.stdout.strip().splitlines()[-1], resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
VIEW = """
import sys, time
from verl_compat.cli import main
start = time.perf_counter()
status = main(["view", sys.argv[1], "-o", sys.argv[2]])
assert status == 0, status
print(time.perf_counter() - start)
"""
LOAD_ONE = """
import sys, time
from pathlib import Path
from verl_compat.view.read import load
start = time.perf_counter()
data = load(Path(sys.argv[1]))
print(time.perf_counter() - start)
"""
BASELINE = "import verl_compat.view.command; print(0)"


def measure(code: str, *args) -> tuple:
    """(seconds the program reports, its peak RSS in MiB)."""
    seconds, rss_kib = run_python(WRAPPER, "-c", code, *map(str, args)).stdout.split()
    return float(seconds), int(rss_kib) / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="where the snapshots are (written there if empty)")
    parser.add_argument("--events", type=int, default=43000, help="trace scale per step: 43000 gives ~20 MB files")
    args = parser.parse_args()
    scratch = tempfile.TemporaryDirectory(prefix="verl-compat-view-bench-")
    data = args.data or Path(scratch.name) / "prof"
    if not any(data.glob("step*/*.pickle")):
        write_run(data, ranks=RANKS, steps=STEPS, events=args.events, oom_rank=None)
    files = sorted(data.glob("step*/*.pickle"))
    sizes = [f.stat().st_size for f in files]
    print(f"{len(files)} snapshots, {min(sizes) / 2**20:.1f}-{max(sizes) / 2**20:.1f} MB each; load {load_average()}")
    points = []
    _, baseline_mib = measure(BASELINE)
    one_s, one_mib = measure(LOAD_ONE, files[0])
    print(f"python + view imported: {baseline_mib:.0f} MiB RSS; one snapshot unpickled: {one_s:.2f} s, {one_mib:.0f} MiB RSS")
    print(f"{'snapshots':>9} {'seconds':>8} {'s/snapshot':>10} {'peak RSS MiB':>12} {'page KB':>8}")
    for steps in range(2, STEPS + 1, 2):
        folder = Path(scratch.name) / f"first{steps}"
        for f in files:
            if int(f.parent.name.removeprefix("step")) <= steps:
                (folder / f.parent.name).mkdir(parents=True, exist_ok=True)
                link = folder / f.parent.name / f.name
                if not link.exists():
                    link.symlink_to(f)
        page = Path(scratch.name) / f"page{steps}.html"
        seconds, rss_mib = measure(VIEW, folder, page)
        count = steps * RANKS
        points.append({"snapshots": count, "seconds": seconds, "peak_rss_mib": rss_mib, "page_bytes": page.stat().st_size})
        print(f"{count:>9} {seconds:>8.2f} {seconds / count:>10.3f} {rss_mib:>12.0f} {page.stat().st_size / 1e3:>8.0f}")
    first, last = points[0], points[-1]
    slope = (last["seconds"] - first["seconds"]) / (last["snapshots"] - first["snapshots"])
    print(f"time: {slope:.3f} s per extra snapshot; peak RSS {first['peak_rss_mib']:.0f} -> {last['peak_rss_mib']:.0f} MiB")
    print(json.dumps({"baseline_rss_mib": baseline_mib, "one_snapshot": [one_s, one_mib], "points": points}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
