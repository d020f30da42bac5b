"""verl-omni's own launcher reaches its trainer inside a Ray actor, with the shim: verl-omni's real
``run_diffusion`` (it calls ``ray.init`` itself, not through verl's ``run_ppo``) ships the config to
the task runner's Ray actor, where verl-omni's real ``PolicyGradientRayTrainer`` is built and its
step-end profiling runs (``omni_trainers.OmniTrainerProbe``; its ``fit()`` needs a GPU rollout).

- Auto-load: verl-compat installed in the environment, the launcher imports nothing of it, Ray
  local. Baseline: ``VERL_COMPAT_DISABLE=1``.
- Propagation: the launcher has verl-compat through ``PYTHONPATH`` only and ``import verl_compat``
  first, against a ``ray start`` cluster whose environment has neither verl-compat nor wrapt
  (``test_reach_ray``'s cluster): the wrapped ``run_diffusion`` ships them.

"""

import sys

import pytest
from launches import launch, ray_start_cluster
from omni_trainers import one_pair_per_step
from paths import REPO, SUPPORT

pytestmark = pytest.mark.omni
OMNI_LAUNCHER = SUPPORT / "omni_launcher.py"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with ray_start_cluster(tmp_path_factory.mktemp("cluster")) as started:
        yield started


def assert_driven(report):
    assert [tuple(call) for call in report["calls"]] == one_pair_per_step()
    assert (report["profiler"]["enable"], report["profiler"]["all_ranks"]) == (True, True)
    assert report["warnings"] == 1


def test_auto_load_reaches_the_trainer_in_the_task_runner(tmp_path):
    report, _ = launch(sys.executable, tmp_path, launcher=OMNI_LAUNCHER)

    assert_driven(report)


def test_auto_load_baseline_without_the_shim(tmp_path):
    report, _ = launch(sys.executable, tmp_path, launcher=OMNI_LAUNCHER, VERL_COMPAT_DISABLE="1")

    assert report["calls"] == [] and report["warnings"] == 0
    assert (report["profiler"]["enable"], report["profiler"]["all_ranks"]) == (False, False)


def test_run_diffusion_carries_the_shim_to_a_ray_start_cluster(cluster, tmp_path):
    address, python = cluster
    flags = ("--import-shim", "--address", address)
    report, _ = launch(python, tmp_path, *flags, launcher=OMNI_LAUNCHER, PYTHONPATH=str(REPO))

    assert report["decision"]["injected"] is True
    # Translated in the launcher, so the config the actor received already asks for the dumps.
    assert (report["received"]["enable"], report["received"]["all_ranks"]) == (True, True)
    assert_driven(report)
