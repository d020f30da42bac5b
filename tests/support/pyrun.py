"""One way for the suite to run Python in a fresh interpreter: the environment's own python, a
bounded wait, and the output kept for the assertion message."""

import os
import subprocess
import sys
import textwrap

TIMEOUT_S = 300  # a fresh interpreter imports verl (~8 s); past this something hangs


def run_python(code: str, *args: str, env: dict | None = None, timeout: float = TIMEOUT_S, check: bool = True):
    """Run ``code`` (dedented) as ``python -c`` with ``args``; ``env`` is added to this process's
    environment (a value of None removes the variable). Returns the CompletedProcess."""
    return run_argv(["-c", textwrap.dedent(code), *args], env=env, timeout=timeout, check=check)


def run_argv(argv: list, env: dict | None = None, timeout: float = TIMEOUT_S, check: bool = True):
    """Run this environment's python with ``argv`` (``["-m", "verl_compat", ...]``)."""
    merged = dict(os.environ)
    for name, value in (env or {}).items():
        if value is None:
            merged.pop(name, None)
        else:
            merged[name] = value
    result = subprocess.run(
        [sys.executable, *argv],
        env=merged,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if check:
        assert result.returncode == 0, f"exit {result.returncode}\n{result.stderr[-4000:]}"
    return result
