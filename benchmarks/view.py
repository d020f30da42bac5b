"""Time and peak memory of ``verl-compat view``: against the number of worker processes, and against
the number of snapshots.

    .venvs/verl-0.9.1/bin/python benchmarks/view.py [--data DIR] [--events 43000] [--rounds 3] [--sweep]

Writes a run of 4 ranks x 10 steps of ~20 MB synthetic snapshots (``scripts/make_snapshots.py``;
into a temporary folder, or ``--data DIR``, kept for a rerun) and runs ``verl-compat view`` on all
40 with ``--jobs 1`` (read in the command's own process), 2 and one per core (each count once: on a
2-core machine "every core" is 2), each in a fresh process, ``--rounds`` times in turn (a shared
machine's load drifts): the time of the command inside it (reading, summarising, writing the page;
start-up excluded), snapshots per second, the CPU time of its whole process tree, and memory.
Before and after, it measures how many cores' worth of CPU-bound work that many processes get done
at once on the machine as it is (``capacity``): on a shared machine, the ceiling of any speed-up.

Memory is sampled every 20 ms from ``/proc`` over the whole process tree (the command, the
``forkserver`` process and its workers, which are not the command's own children): the peak of the
tree's summed RSS (shared pages counted in each process), and the peaks of the command's process
(its ``ru_maxrss``) and of the largest worker. Each worker holds one unpickled snapshot at a time.

``--sweep`` also runs ``--jobs 1`` on the first 8, 16, ... 40 snapshots (steps 1..k of every rank,
linked into a folder of their own): time grows linearly with the count and peak memory stays near
one snapshot's unpickled size. The last line is a JSON record of every point.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _envs import REPO, load_average, run_python

sys.path.insert(0, str(REPO / "tests/support"))
from synthetic_snapshots import write_run

RANKS, STEPS = 4, 10
TIMEOUT_S = 1800  # one core reading 40 snapshots on a loaded machine
# Each measured program runs as a child of a small wrapper, which samples the RSS of its process
# tree from /proc: workers started by a forkserver are the forkserver's children, not the measured
# program's, so neither the program's nor the wrapper's RUSAGE_CHILDREN would see them.
WRAPPER = """
import os, subprocess, sys, time

def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return 0

def cpu_s(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0

def tree(root):
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    found, todo = [root], [root]
    while todo:
        pid = todo.pop()
        children = [child for child, parent in parents.items() if parent == pid]
        found += children
        todo += children
    return found

proc = subprocess.Popen([sys.executable, *sys.argv[1:]], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
tree_peak = worker_peak = 0
cpu = {}  # each process's CPU seconds when last seen
while proc.poll() is None:
    pids = tree(proc.pid)
    sizes = {pid: rss_kib(pid) for pid in pids}
    cpu.update({pid: max(cpu.get(pid, 0.0), cpu_s(pid)) for pid in pids})
    tree_peak = max(tree_peak, sum(sizes.values()))
    worker_peak = max([worker_peak] + [size for pid, size in sizes.items() if pid != proc.pid])
    time.sleep(0.02)
out, err = proc.communicate()
assert proc.returncode == 0, err
print(out.strip().splitlines()[-1], tree_peak, worker_peak, sum(cpu.values()))
"""
VIEW = """
import resource, sys, time
from verl_compat.cli import main
start = time.perf_counter()
status = main(["view", sys.argv[1], "-o", sys.argv[2], "--jobs", sys.argv[3]])
assert status == 0, status
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""
LOAD_ONE = """
import resource, sys, time
from pathlib import Path
from typing import Any
from verl_compat.view.read import load
start = time.perf_counter()
data = load(Path(sys.argv[1]))
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""
BASELINE = "import resource, verl_compat.view.cli; print(0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
SPIN = "for _ in range(20_000_000): pass"


def capacity(processes: int) -> float:
    """How many cores' worth of work ``processes`` CPU-bound processes get done at once, right now:
    the time of one alone over the time of ``processes`` started together (a shared machine's
    neighbours, or hyperthreads, can keep this well under ``processes``)."""

    def spin(count: int) -> float:
        start = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(count)]
        assert all(proc.wait() == 0 for proc in procs)
        return time.perf_counter() - start

    alone = statistics.median(spin(1) for _ in range(3))
    together = statistics.median(spin(processes) for _ in range(3))
    return processes * alone / together


def measure(code: str, *args: object) -> dict[str, float]:
    """What the program reports (seconds, its own peak RSS) and the sampled peaks, in MiB."""
    result = run_python(WRAPPER, "-c", code, *map(str, args), timeout=TIMEOUT_S)
    seconds, own_kib, tree_kib, worker_kib, cpu_s = result.stdout.split()
    return {
        "seconds": float(seconds),
        "cpu_s": float(cpu_s),
        "own_rss_mib": int(own_kib) / 1024,
        "tree_rss_mib": int(tree_kib) / 1024,
        "worker_rss_mib": int(worker_kib) / 1024,
    }


def view(folder: Path, page: Path, jobs: int, count: int) -> dict[str, Any]:
    point = {"jobs": jobs, "snapshots": count, **measure(VIEW, folder, page, jobs), "page_bytes": page.stat().st_size}
    point["snapshots_per_s"] = count / point["seconds"]
    return point


def first_steps(files: list[Path], steps: int, folder: Path) -> Path:
    """Steps 1..``steps`` of every rank, linked into ``folder``."""
    for f in files:
        if int(f.parent.name.removeprefix("step")) <= steps:
            (folder / f.parent.name).mkdir(parents=True, exist_ok=True)
            link = folder / f.parent.name / f.name
            if not link.exists():
                link.symlink_to(f)
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="where the snapshots are (written there if empty)")
    parser.add_argument("--events", type=int, default=43000, help="trace scale per step: 43000 gives ~20 MB files")
    parser.add_argument("--rounds", type=int, default=1, help="runs per job count, taken in turn")
    parser.add_argument("--sweep", action="store_true", help="also --jobs 1 on 8, 16, ... 40 snapshots")
    args = parser.parse_args()
    scratch = tempfile.TemporaryDirectory(prefix="verl-compat-view-bench-")
    data = args.data or Path(scratch.name) / "prof"
    if not any(data.glob("step*/*.pickle")):
        write_run(data, ranks=RANKS, steps=STEPS, events=args.events, oom_rank=None)
    files = sorted(data.glob("step*/*.pickle"))
    sizes = [f.stat().st_size for f in files]
    every = len(os.sched_getaffinity(0))  # what view's default --jobs counts
    print(f"{len(files)} snapshots, {min(sizes) / 2**20:.1f}-{max(sizes) / 2**20:.1f} MB each; {every} cores")
    baseline = measure(BASELINE)
    one = measure(LOAD_ONE, files[0])
    print(
        f"python + view imported: {baseline['own_rss_mib']:.0f} MiB RSS; "
        f"one snapshot unpickled: {one['seconds']:.2f} s, {one['own_rss_mib']:.0f} MiB RSS"
    )
    header = " ".join(
        f"{name:>{width}}"
        for name, width in (
            ("jobs", 5),
            ("snapshots", 9),
            ("seconds", 8),
            ("snap/s", 7),
            ("CPU s", 6),
            ("tree MiB", 9),
            ("main MiB", 9),
            ("worker MiB", 10),
        )
    )
    row = (
        "{jobs:>5} {snapshots:>9} {seconds:>8.1f} {snapshots_per_s:>7.3f} {cpu_s:>6.1f} {tree_rss_mib:>9.0f} "
        "{own_rss_mib:>9.0f} {worker_rss_mib:>10.0f}"
    )
    capacity_before = capacity(every)
    print(f"{every} CPU-bound processes at once get {capacity_before:.2f} cores' worth of work done")
    print(f"by worker processes, {args.rounds} round(s) in turn (load average before: {load_average()})")
    print(header)
    by_jobs = []
    for round_ in range(args.rounds):
        for jobs in sorted({1, 2, every}):
            point = view(data, Path(scratch.name) / f"page-jobs{jobs}.html", jobs, len(files))
            point["round"], point["load_average_after"] = round_, load_average()
            by_jobs.append(point)
            every_core = "  (every core)" if jobs == every else ""
            print(f"{row.format(**point)}{every_core}  load after: {point['load_average_after']}")
    for jobs in sorted({1, 2, every}):
        rate = statistics.median(p["snapshots_per_s"] for p in by_jobs if p["jobs"] == jobs)
        cpu = statistics.median(p["cpu_s"] for p in by_jobs if p["jobs"] == jobs) / len(files)
        print(f"--jobs {jobs}: median {rate:.3f} snapshots/s, {cpu:.2f} CPU s per snapshot")
    capacity_after = capacity(every)
    print(f"{every} CPU-bound processes at once get {capacity_after:.2f} cores' worth of work done")
    by_count = []
    if args.sweep:
        print("by snapshots, --jobs 1")
        print(header)
        for steps in range(2, STEPS + 1, 2):
            folder = first_steps(files, steps, Path(scratch.name) / f"first{steps}")
            point = view(folder, Path(scratch.name) / f"page{steps}.html", 1, steps * RANKS)
            by_count.append(point)
            print(row.format(**point))
    record = {
        "cores": every,
        "capacity": [capacity_before, capacity_after],
        "baseline": baseline,
        "one_snapshot": one,
        "by_jobs": by_jobs,
        "by_count": by_count,
    }
    print(json.dumps(record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
