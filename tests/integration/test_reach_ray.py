"""verl-compat reaches the trainer where production builds it: inside verl's TaskRunner Ray actor.

Each scenario is a user's launcher in its own interpreter (``reach_launcher.py``): verl's real
``run_ppo`` with a TaskRunner subclass mapping the roles to the CPU stand-ins, 3 steps, the legacy
``actor_rollout_ref.actor.profiler.tool=torch_memory`` key only, and Ray started by ``run_ppo``.

- Auto-load: verl-compat installed in the environment (this test venv), the launcher imports
  nothing from it, Ray local. Baseline: ``VERL_COMPAT_DISABLE=1`` exported to the workers.
- PYTHONPATH only: verl-compat importable in the launcher only through ``PYTHONPATH`` (no ``.pth``),
  ``import verl_compat`` at the script's top, against a cluster started beforehand with
  ``ray start --head`` in its own environment, which has neither verl-compat nor wrapt. Works with
  propagation; does not with propagation off (so propagation is what carried it); and when
  verl-compat cannot be shipped the run is exactly the baseline: no worker dies on ``import verl``.

Expected outcomes come from the installed verl, not its version string: where ``fit()`` still makes
the legacy ``dump_memory_snapshot`` call (<= 0.7.x) the baseline crashes with the users'
AttributeError on engine workers (the launcher picks them where verl has the switch, 0.7.x), or,
on an actor that still has the method (0.6.x builds only FSDP actors), dumps into folders labelled
one step late; later releases silently write no step folder.
"""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from harness import TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT
from pyrun import USER_SHELL, clean_env, last_json, run_argv, run_python
from venvs import SHIM, farm

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = Path(__file__).resolve().parent / "reach_launcher.py"
FIXED_STEPS = ["step1", "step2", "step3"]
TASK_RUNNER_WARNING = re.compile(r"^\(CPUTaskRunner pid=\d+\).*VerlCompatDeprecationWarning", re.MULTILINE)
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # Ray colours the prefixes of the workers' lines
NOT_IN_CLUSTER = ("verl_compat", "wrapt")  # the cluster's environment has neither


def launch(python, workdir, *flags, launcher=LAUNCHER, **env) -> tuple:
    """Run ``launcher`` from ``workdir`` (never from the checkout: Ray puts the driver's working
    directory on the workers' ``sys.path``) in the environment of a user's shell plus ``env`` (an
    in-process ``ray.init`` of an earlier test leaves ``RAY_AUTH_MODE=token``, which would make a
    launcher fail against the token-less cluster here); return its JSON report and its combined
    output."""
    command = [launcher, workdir, *flags]
    result = run_argv(command, python=python, cwd=workdir, env=env, drop=USER_SHELL, timeout=900, check=False)
    output = ANSI.sub("", result.stdout + result.stderr)
    assert result.returncode == 0, output[-6000:]
    return last_json(result), output


def assert_fixed(report, output):
    assert (report["error"], report["steps"]) == (None, FIXED_STEPS), report
    warnings = TASK_RUNNER_WARNING.findall(output)
    assert len(warnings) == 1, f"{len(warnings)} deprecation warnings from the TaskRunner actor, not one"


def assert_baseline(report):
    if not TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT:  # verl >= 0.8: the silence
        assert (report["error"], report["steps"]) == (None, []), report
    elif report["actor_dumps_legacy"]:  # 0.6.x's FSDP actor: the legacy dumps, labelled one step late
        assert (report["error"], report["steps"]) == (None, ["step2", "step3", "step4"]), report
    else:  # engine workers: the crash of verl #6180/#6181
        assert "AttributeError" in report["error"] and "dump_memory_snapshot" in report["error"], report


# --- auto-load ---------------------------------------------------------------------------------


def test_auto_load_reaches_the_task_runner(tmp_path):
    report, output = launch(sys.executable, tmp_path)
    assert_fixed(report, output)


def test_auto_load_baseline_without_the_shim(tmp_path):
    report, _ = launch(sys.executable, tmp_path, VERL_COMPAT_DISABLE="1")
    assert_baseline(report)


# --- PYTHONPATH only, against a `ray start` cluster ----------------------------------------------


def _free_ports(count: int) -> list:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """``ray start --head`` in its own environment; yields ``(address, launcher python)``.

    Its own temp dir keeps other drivers on this machine from finding it (``ray.init()`` without an
    address joins the cluster recorded in the default temp dir), and its own ports from colliding
    with another cluster's. Token authentication, on by default for ``ray start``, is turned off
    (the drivers here have no token). Stopped by ending its own process group, never with
    ``ray stop``, which stops every Ray cluster of the machine.
    """
    root = tmp_path_factory.mktemp("cluster")
    # Linked copies of this test venv; neither has verl-compat's .pth: nothing auto-loads there.
    cluster_python = farm(root / "cluster-venv", leave_out=NOT_IN_CLUSTER + SHIM)
    launcher_python = farm(root / "launcher-venv", leave_out=SHIM)
    temp_dir = tempfile.mkdtemp(prefix="vcr-")  # short: Ray's socket paths must fit in 107 bytes
    port, client, dashboard, agent, agent_grpc, metrics = _free_ports(6)
    command = [
        str(cluster_python),
        "-m",
        "ray.scripts.scripts",
        "start",
        "--head",
        "--block",
        f"--port={port}",
        "--num-cpus=4",
        "--include-dashboard=false",
        "--disable-usage-stats",
        f"--temp-dir={temp_dir}",
        f"--ray-client-server-port={client}",
        f"--dashboard-port={dashboard}",
        f"--dashboard-agent-listen-port={agent}",
        f"--dashboard-agent-grpc-port={agent_grpc}",
        f"--metrics-export-port={metrics}",
    ]
    log = open(root / "ray-start.log", "w")
    head = subprocess.Popen(
        command,
        cwd=root,
        env=clean_env(RAY_AUTH_MODE="disabled"),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    address = f"127.0.0.1:{port}"
    try:
        _wait_for(cluster_python, address, root, head, root / "ray-start.log")
        yield address, launcher_python
    finally:
        # SIGTERM, then SIGKILL: Ray's graceful shutdown of the group takes ~30 s and proves nothing here.
        os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait(timeout=60)
        log.close()
        shutil.rmtree(temp_dir, ignore_errors=True)


def _wait_for(python, address, cwd, head, log, timeout_s=180):
    probe = f"import ray; ray.init(address={address!r}, log_to_driver=False); ray.shutdown()"
    deadline = time.monotonic() + timeout_s
    while True:
        if head.poll() is not None:
            raise RuntimeError(f"ray start exited: {log.read_text()[-4000:]}")
        probed = run_python(probe, python=python, cwd=cwd, drop=USER_SHELL, timeout=120, check=False)
        if probed.returncode == 0:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"no Ray cluster at {address} after {timeout_s} s")
        time.sleep(2)


def pythonpath_only(**extra) -> dict:
    return {"PYTHONPATH": str(REPO), **extra}


def test_pythonpath_only_launcher_carries_the_shim_to_a_ray_start_cluster(cluster, tmp_path):
    address, python = cluster
    report, output = launch(python, tmp_path, "--import-shim", "--address", address, **pythonpath_only())
    assert report["decision"]["injected"] is True
    assert_fixed(report, output)


def test_with_propagation_off_the_cluster_runs_without_the_shim(cluster, tmp_path):
    address, python = cluster
    env = pythonpath_only(VERL_COMPAT_DISABLED_FIXES="propagation")
    report, _ = launch(python, tmp_path, "--import-shim", "--address", address, **env)
    assert report["decision"] is None
    assert_baseline(report)


def test_unshippable_runs_exactly_as_without_the_shim(cluster, tmp_path):
    address, python = cluster
    flags = ("--import-shim", "--unshippable", "--address", address)
    report, output = launch(python, tmp_path, *flags, **pythonpath_only())
    assert report["decision"]["injected"] is False
    assert "cannot be shipped to the workers" in output
    assert_baseline(report)
    for death in ("No module named 'verl_compat'", "ActorDiedError", "WorkerCrashedError", "RuntimeEnvSetupError"):
        assert death not in output
