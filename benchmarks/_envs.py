"""Environments for the benchmarks: pairs that differ only by verl-compat being installed (built
with the suite's ``tests/support/venvs.py``), and interleaved timing."""

import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests/support"))  # the suite's own helpers: one way to build a venv or a clean env

from pyrun import USER_SHELL, clean_env, run, run_python  # noqa: E402, F401
from venvs import SHIM as LEAVE_OUT  # noqa: E402, F401
from venvs import build_wheel, farm, site_packages, uv, venv  # noqa: E402, F401


def interleaved(commands: dict, rounds: int, warmup: int = 3) -> dict:
    """Wall time of each command, ``rounds`` times, in a shuffled order each round so that drift in
    the machine's load falls on every command alike."""
    env = clean_env()
    times = {name: [] for name in commands}
    for round_ in range(warmup + rounds):
        names = list(commands)
        random.shuffle(names)
        for name in names:
            start = time.perf_counter()
            # Not pyrun: what is timed is the process alone, its output thrown away unread.
            subprocess.run(commands[name], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if round_ >= warmup:
                times[name].append(time.perf_counter() - start)
    return times


def summary(samples: list) -> dict:
    q = statistics.quantiles(samples, n=4)
    median = statistics.median(samples)
    return {"median_ms": median * 1e3, "p25_ms": q[0] * 1e3, "p75_ms": q[2] * 1e3, "n": len(samples)}


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"
