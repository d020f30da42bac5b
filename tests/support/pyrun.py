"""One way for the suite (and the benchmarks) to run a program in a fresh process: an environment
built from this one, a bounded wait, and the output kept for the assertion message."""

import json
import os
import subprocess
import sys
import textwrap

TIMEOUT_S = 300  # a fresh interpreter imports verl (~8 s); past this something hangs

# What a user's shell would not have: the suite's verl and verl-compat settings, this interpreter's
# Python settings (PYTHONPATH above all), and what an in-process ``ray.init`` (an earlier test's
# fit) leaves behind, such as ``RAY_AUTH_MODE=token``.
USER_SHELL = ("VERL_", "PYTHON", "RAY_")
# The ways this process may have configured the shim: a child must not inherit them by accident.
SHIM_SETTINGS = ("VERL_COMPAT_", "VERL_USE_EXTERNAL_")
# Ray settings of every cluster the suite starts, in this process (tests/conftest.py) and in every
# child, a user's shell included: no idle workers started ahead of need. Ray prestarts one per CPU
# it is given (the harness gives 8 on 2 cores) and again for each job; most are never used, and
# each costs its interpreter start. Nothing the tests observe depends on it.
RAY_SETTINGS = {"RAY_enable_worker_prestart": "0", "RAY_prestart_worker_first_driver": "0"}


def environment(env: dict | None = None, drop: tuple = ()) -> dict:
    """This process's environment without the variables whose names start with one of ``drop``,
    plus the suite's ``RAY_SETTINGS``, then ``env`` on top (a value of None removes the variable)."""
    merged = {name: value for name, value in os.environ.items() if not name.startswith(tuple(drop))}
    merged.update(RAY_SETTINGS)
    for name, value in (env or {}).items():
        if value is None:
            merged.pop(name, None)
        else:
            merged[name] = value
    return merged


def clean_env(**env) -> dict:
    """The environment a user's shell would give a new process, plus ``env``."""
    return environment(env, drop=USER_SHELL)


def run(
    command: list,
    *,
    env: dict | None = None,
    drop: tuple = (),
    cwd=None,
    timeout: float = TIMEOUT_S,
    check: bool = True,
):
    """Run ``command`` with ``environment(env, drop)``; return the CompletedProcess (text output).
    With ``check``, a non-zero exit fails the test with the ends of both outputs."""
    result = subprocess.run(
        [str(part) for part in command],
        env=environment(env, drop),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if check:
        assert result.returncode == 0, (
            f"exit {result.returncode}\n--- stdout\n{result.stdout[-3000:]}\n--- stderr\n{result.stderr[-4000:]}"
        )
    return result


def run_argv(argv: list, *, python=sys.executable, **options):
    """Run ``python`` (this environment's by default) with ``argv`` (``["-m", "verl_compat", ...]``);
    ``options`` as for :func:`run`."""
    return run([python, *argv], **options)


def run_python(code: str, *args: str, flags: tuple = (), **options):
    """Run ``code`` (dedented) as ``python [flags] -c code args``; ``options`` as for :func:`run_argv`."""
    return run_argv([*flags, "-c", textwrap.dedent(code), *args], **options)


def last_json(result):
    """The JSON document on the last line of a run's standard output."""
    return json.loads(result.stdout.strip().splitlines()[-1])
