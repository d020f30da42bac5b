"""One way to build the virtualenvs the suite and the benchmarks need: with uv (bootstrapped into
``.venvs/_uv`` by ``scripts/_envs.sh``), bytecode compiled as pip does, and bounded waits."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
UV = REPO / ".venvs/_uv/bin/uv"
INSTALL_TIMEOUT_S = 600  # a uv venv, build or install; past this it hangs
SHIM = ("verl_compat", "verl_compat_autoload")  # verl-compat's top-level names in site-packages


def uv(*args) -> None:
    """Run uv; ``pip install`` also finds the local wheels of ``PIP_FIND_LINKS`` (torch's CPU wheel)."""
    if not UV.exists():
        raise RuntimeError(f"{UV} is missing: run scripts/test.sh once (it bootstraps uv)")
    find_links = ["--find-links", os.environ["PIP_FIND_LINKS"]] if os.environ.get("PIP_FIND_LINKS") else []
    extra = find_links if args[:2] == ("pip", "install") else []
    subprocess.run([str(UV), *map(str, args), *extra], check=True, timeout=INSTALL_TIMEOUT_S)


def build_wheel(out: Path) -> Path:
    """The wheel a user gets, built from this checkout by the project's own build backend."""
    shutil.rmtree(out, ignore_errors=True)
    uv("build", "-q", "--wheel", "--out-dir", out, REPO)
    (wheel,) = out.glob("verl_compat-*.whl")
    return wheel


def venv(path: Path, *install, python=sys.executable) -> Path:
    """A fresh virtualenv at ``path`` with ``install`` (bytecode compiled); returns its python."""
    shutil.rmtree(path, ignore_errors=True)
    uv("venv", "-q", "-p", python, path)
    if install:
        uv("pip", "install", "-q", "--compile-bytecode", "-p", path / "bin/python", *install)
    return path / "bin/python"


def site_packages(python) -> Path:
    return next((Path(python).parent.parent / "lib").glob("python3*/site-packages"))


def farm(path: Path, source_python=sys.executable, leave_out=()) -> Path:
    """A virtualenv with every package of ``source_python``'s environment but ``leave_out`` (top-level
    names), each linked rather than copied, so that it reads the very same files; returns its python.
    Leaving out ``SHIM`` gives an environment where nothing of verl-compat auto-loads."""
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
