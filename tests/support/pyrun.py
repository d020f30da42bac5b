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
# child, a user's shell included. No idle workers started ahead of need: Ray prestarts one per CPU
# it is given (the harness gives 8 on 2 cores) and again for each job; most are never used, and
# each costs its interpreter start. And Ray's startup waits sized for a loaded machine (load 8 on 2
# cores), where each of Ray's processes starts several times slower: the GCS's port file and the
# connection to it (Ray: 30 s and 20 tries), a worker's registration (Ray: 60 s, then the worker
# is killed; a worker imports verl, ~8 s on a quiet machine). And Ray's workers at the suite's own
# priority: Ray starts them at nice 15, which beside other work at nice 0 (a busy CI machine, two
# ``yes``) leaves them a few percent of a core, and a TaskRunner that imports verl then takes ~11
# minutes to start. Nothing the tests observe depends on these. The raylet's registration wait
# (30 s) is no setting: ``ray_start`` retries instead.
RAY_SETTINGS = {
    "RAY_enable_worker_prestart": "0",
    "RAY_prestart_worker_first_driver": "0",
    "RAY_worker_niceness": "0",
    "RAY_gcs_server_port_wait_time_s": "180",
    "RAY_worker_register_timeout_seconds": "600",
}
# What Ray says when its node did not come up within its fixed wait (``ray._private.node``).
RAY_STARTUP_TIMEOUT = "The current node timed out during startup"


class RayStartupTimeout(RuntimeError):
    """A process that started Ray stopped at ``RAY_STARTUP_TIMEOUT``; ``result`` is its run."""

    def __init__(self, result):
        super().__init__(f"{RAY_STARTUP_TIMEOUT}\n{_ends(result)}")
        self.result = result


def ray_start(start, what: str):
    """``start()``, a start of Ray (``ray.init``, ``ray start``, a launcher whose ``run_ppo`` calls
    ``ray.init``), again once where Ray's own startup timed out: on a loaded machine its node can
    miss Ray's fixed 30 s once and come up the next time. A second timeout fails, saying so."""
    try:
        return start()
    except Exception as error:
        if RAY_STARTUP_TIMEOUT not in str(error):
            raise
    try:
        return start()
    except Exception as error:
        if RAY_STARTUP_TIMEOUT not in str(error):
            raise
        raise RuntimeError(
            f"{what}: Ray's node timed out during startup twice (Ray waits a fixed 30 s for it; the "
            f"machine is too loaded to start Ray); the second time:\n{error}"
        ) from error


# The suite's declaration that its launches are written for the release under test (set by
# tests/conftest.py, cleared by tests/fixes/old_math): a child keeps it whatever ``drop`` says, as a
# user's pinned image keeps it in every process; ``env={LAUNCH_DECLARATION: None}`` removes it.
LAUNCH_DECLARATION = "VERL_COMPAT_LAUNCH_RELEASE"


def environment(env: dict | None = None, drop: tuple = ()) -> dict:
    """This process's environment without the variables whose names start with one of ``drop``
    (``LAUNCH_DECLARATION`` kept), plus the suite's ``RAY_SETTINGS``, then ``env`` on top (a value
    of None removes the variable)."""
    merged = {
        name: value
        for name, value in os.environ.items()
        if name == LAUNCH_DECLARATION or not name.startswith(tuple(drop))
    }
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
    A run that fails where Ray's startup timed out is run again once (``ray_start``). With
    ``check``, a non-zero exit fails the test with the ends of both outputs."""

    def attempt():
        result = subprocess.run(
            [str(part) for part in command],
            env=environment(env, drop),
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if result.returncode != 0 and RAY_STARTUP_TIMEOUT in result.stdout + result.stderr:
            raise RayStartupTimeout(result)
        return result

    result = ray_start(attempt, " ".join(str(part) for part in command)[:300])
    if check:
        assert result.returncode == 0, _ends(result)
    return result


def _ends(result) -> str:
    return f"exit {result.returncode}\n--- stdout\n{result.stdout[-3000:]}\n--- stderr\n{result.stderr[-4000:]}"


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
