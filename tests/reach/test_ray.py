"""verl-compat reaches the trainer where production builds it: inside verl's TaskRunner Ray actor.

Each scenario is a user's launcher in its own interpreter (``reach_launcher.py``): verl's real
``run_ppo`` with a TaskRunner subclass mapping the roles to the CPU stand-ins, 3 steps, the legacy
``actor_rollout_ref.actor.profiler.tool=torch_memory`` key only, and Ray started by ``run_ppo``.

- Auto-load (on both sides of verl #6198, ``sides``: 0.7.1's ``run_ppo`` and the newest's): verl-compat
  installed in the environment (this test venv), the launcher imports nothing from it, Ray local.
  Baseline: ``VERL_COMPAT_DISABLE=1`` exported to the workers. What the trainer does with the key
  on each release, baseline and fixed, is ``tests/fits/test_torch_memory.py``'s, in every release.
- PYTHONPATH only (``once``: what carries verl-compat here is Ray's ``runtime_env``, the same Ray
  2.60 and the same propagation code in every environment; tested per release by
  ``tests/fixes/propagation``): verl-compat importable in the launcher only through ``PYTHONPATH``
  (no ``.pth``), ``import verl_compat`` at the script's top, against a cluster started beforehand
  with ``ray start --head`` in its own environment, which has neither verl-compat nor wrapt. Works
  with propagation; does not with propagation off (so propagation is what carried it); and when
  verl-compat cannot be shipped the run is exactly the baseline: no worker dies on ``import verl``.

Expected outcomes come from the installed verl, not its version string: where ``fit()`` still makes
the legacy ``dump_memory_snapshot`` call (<= 0.7.x) the baseline crashes with the users'
AttributeError on engine workers (the launcher picks them where verl has the switch, 0.7.x), or,
on an actor that still has the method (0.6.x builds only FSDP actors), dumps into folders labelled
one step late; later releases silently write no step folder.
"""

import re
import sys

import pytest
from harness import TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT
from launches import launch, ray_start_cluster
from paths import REPO

FIXED_STEPS = ["step1", "step2", "step3"]
TASK_RUNNER_WARNING = re.compile(r"^\(CPUTaskRunner pid=\d+\).*VerlCompatDeprecationWarning", re.MULTILINE)


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


@pytest.mark.sides
def test_auto_load_reaches_the_task_runner(tmp_path):
    report, output = launch(sys.executable, tmp_path)
    assert_fixed(report, output)


@pytest.mark.sides
def test_auto_load_baseline_without_the_shim(tmp_path):
    report, _ = launch(sys.executable, tmp_path, VERL_COMPAT_DISABLE="1")
    assert_baseline(report)


# --- PYTHONPATH only, against a `ray start` cluster ----------------------------------------------


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with ray_start_cluster(tmp_path_factory.mktemp("cluster")) as started:
        yield started


def pythonpath_only(**extra) -> dict:
    return {"PYTHONPATH": str(REPO), **extra}


@pytest.mark.once
def test_pythonpath_only_launcher_carries_the_shim_to_a_ray_start_cluster(cluster, tmp_path):
    address, python = cluster
    report, output = launch(python, tmp_path, "--import-shim", "--address", address, **pythonpath_only())
    assert report["decision"]["injected"] is True
    assert_fixed(report, output)


@pytest.mark.once
def test_with_propagation_off_the_cluster_runs_without_the_shim(cluster, tmp_path):
    address, python = cluster
    env = pythonpath_only(VERL_COMPAT_DISABLED_FIXES="propagation")
    report, _ = launch(python, tmp_path, "--import-shim", "--address", address, **env)
    assert report["decision"] is None
    assert_baseline(report)


@pytest.mark.once
def test_unshippable_runs_exactly_as_without_the_shim(cluster, tmp_path):
    address, python = cluster
    flags = ("--import-shim", "--unshippable", "--address", address)
    report, output = launch(python, tmp_path, *flags, **pythonpath_only())
    assert report["decision"]["injected"] is False
    assert "cannot be shipped to the workers" in output
    assert_baseline(report)
    for death in ("No module named 'verl_compat'", "ActorDiedError", "WorkerCrashedError", "RuntimeEnvSetupError"):
        assert death not in output
