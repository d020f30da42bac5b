"""Users' launchers in their own interpreters, and a ``ray start`` cluster to launch them against.

A launcher (``tests/reach/reach_launcher.py``, ``omni_launcher.py``) is a user's script: verl's real
``run_ppo`` (or verl-omni's ``run_diffusion``) with the CPU stand-ins, printing a JSON report on its
last line. The cluster is ``ray start --head`` in an environment of its own, as on a cluster whose
workers do not inherit the launcher's environment.
"""

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from paths import TESTS
from pyrun import USER_SHELL, clean_env, last_json, ray_start, run_argv, run_python
from venvs import SHIM, farm

REACH_LAUNCHER = TESTS / "reach" / "reach_launcher.py"
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # Ray colours the prefixes of the workers' lines
NOT_IN_CLUSTER = ("verl_compat", "wrapt")  # the cluster's environment has neither


def launch(python, workdir, *flags, launcher=REACH_LAUNCHER, **env) -> tuple:
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


def _free_ports(count: int) -> list:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


@contextlib.contextmanager
def ray_start_cluster(root: Path):
    """``ray start --head`` in its own environment, under ``root``; yields ``(address, launcher
    python)``: a linked copy of this test venv without verl-compat's ``.pth``, to launch drivers from.

    Its own temp dir keeps other drivers on this machine from finding it (``ray.init()`` without an
    address joins the cluster recorded in the default temp dir), and its own ports from colliding
    with another cluster's. Token authentication, on by default for ``ray start``, is turned off
    (the drivers here have no token). Stopped by ending its own process group, never with
    ``ray stop``, which stops every Ray cluster of the machine.
    """
    # Linked copies of this test venv; neither has verl-compat's .pth: nothing auto-loads there.
    cluster_python = farm(root / "cluster-venv", leave_out=NOT_IN_CLUSTER + SHIM)
    launcher_python = farm(root / "launcher-venv", leave_out=SHIM)
    head, address, temp_dir = ray_start(lambda: _start_head(cluster_python, root), "ray start --head")
    try:
        yield address, launcher_python
    finally:
        _stop_head(head, temp_dir)


def _start_head(python, root: Path) -> tuple:
    """``ray start --head --block`` on free ports and a temp dir of its own, waited for until a driver
    can connect: ``(process, address, temp dir)``. What a failed start leaves is stopped."""
    temp_dir = tempfile.mkdtemp(prefix="vcr-")  # short: Ray's socket paths must fit in 107 bytes
    port, client, dashboard, agent, agent_grpc, metrics = _free_ports(6)
    command = [
        str(python),
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
    with open(root / "ray-start.log", "w") as log:
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
        _wait_for(python, address, root, head, root / "ray-start.log")
    except BaseException:
        _stop_head(head, temp_dir)
        raise
    return head, address, temp_dir


def _stop_head(head, temp_dir: str) -> None:
    # SIGTERM, then SIGKILL: Ray's graceful shutdown of the group takes ~30 s and proves nothing here.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(head.pid, signal.SIGTERM)
    try:
        head.wait(timeout=5)
    except subprocess.TimeoutExpired:
        os.killpg(head.pid, signal.SIGKILL)
        head.wait(timeout=60)
    shutil.rmtree(temp_dir, ignore_errors=True)


def _wait_for(python, address, cwd, head, log, timeout_s=300):
    """Until a driver connects to ``address``: a minute on a quiet machine at worst, several on a
    loaded one."""
    probe = f"import ray; ray.init(address={address!r}, log_to_driver=False); ray.shutdown()"
    deadline = time.monotonic() + timeout_s
    while True:
        if head.poll() is not None:  # its log names RAY_STARTUP_TIMEOUT where the node timed out
            raise RuntimeError(f"ray start exited: {log.read_text()[-4000:]}")
        probed = run_python(probe, python=python, cwd=cwd, drop=USER_SHELL, check=False)
        if probed.returncode == 0:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"no Ray cluster at {address} after {timeout_s} s")
        time.sleep(2)
