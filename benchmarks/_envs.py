"""Environments for the benchmarks: pairs that differ only by verl-compat being installed."""

import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
UV = REPO / ".venvs/_uv/bin/uv"
LEAVE_OUT = ("verl_compat", "verl_compat_autoload")


def uv(*args) -> None:
    if not UV.exists():
        sys.exit(f"{UV} is missing: run scripts/test.sh once (it bootstraps uv)")
    find_links = ["--find-links", os.environ["PIP_FIND_LINKS"]] if os.environ.get("PIP_FIND_LINKS") else []
    subprocess.run([str(UV), *args, *(find_links if args[:2] == ("pip", "install") else [])], check=True)


def build_wheel(out: Path) -> Path:
    """The wheel a user gets, built from this checkout."""
    shutil.rmtree(out, ignore_errors=True)
    uv("build", "-q", "--wheel", "--out-dir", str(out), str(REPO))
    (wheel,) = out.glob("verl_compat-*.whl")
    return wheel


def venv(path: Path, *install, python=sys.executable) -> Path:
    """A fresh virtualenv with ``install`` (bytecode compiled, as pip does); returns its python."""
    shutil.rmtree(path, ignore_errors=True)
    uv("venv", "-q", "-p", str(python), str(path))
    if install:
        uv("pip", "install", "-q", "--compile-bytecode", "-p", str(path / "bin/python"), *install)
    return path / "bin/python"


def site_packages(python: Path) -> Path:
    return next((python.parent.parent / "lib").glob("python3*/site-packages"))


def farm(path: Path, source_python: Path, leave_out=()) -> Path:
    """A virtualenv with every package of ``source_python``'s environment but ``leave_out``, each
    linked rather than copied (so both members of a pair read the very same files)."""
    python = venv(path, python=source_python)
    target = site_packages(python)
    for entry in site_packages(source_python).iterdir():
        if entry.name == "__pycache__":  # the bytecode of top-level modules: link it file by file
            (target / "__pycache__").mkdir(exist_ok=True)
            for pyc in entry.iterdir():
                if pyc.name.split(".")[0] not in leave_out:
                    (target / "__pycache__" / pyc.name).symlink_to(pyc)
        elif entry.name.split("-")[0].split(".")[0] not in leave_out and not (target / entry.name).exists():
            (target / entry.name).symlink_to(entry)
    return python


def clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VERL_", "PYTHON"))}
    env.update(extra)
    return env


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
