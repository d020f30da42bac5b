"""The deprecated global micro-batch sizes (``actor.ppo_micro_batch_size``,
``{rollout,ref}.log_prob_micro_batch_size``; ~40 of verl's own v0.4.1–v0.7.1 launches each).

verl 0.7.1's FSDP worker divided them per GPU itself; verl 0.8.0+ composes them, passes its checks and
then stops at worker start (``assert ….log_prob_micro_batch_size_per_gpu is not None``). The expected
per-GPU sizes are verl 0.7.1's own (``scripts/global_micro_batches_expected.py`` runs its worker's
statements on each case).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from paths import REPO
from verl_config import verl_compose

from verl_compat.fixes.config_keys import readers
from verl_compat.fixes.config_keys.table import LEGACY_FSDP_WORKERS

DATA = json.loads((Path(__file__).parent / "data" / "global_micro_batches_v0_7_1.json").read_text())
INPUTS = (
    "trainer.n_gpus_per_node",
    "trainer.nnodes",
    "actor_rollout_ref.actor.ulysses_sequence_parallel_size",
    "actor_rollout_ref.actor.ppo_micro_batch_size",
    "actor_rollout_ref.rollout.log_prob_micro_batch_size",
    "actor_rollout_ref.ref.log_prob_micro_batch_size",
)
GLOBAL = INPUTS[3:]

legacy_workers = readers.calls(LEGACY_FSDP_WORKERS.entry, LEGACY_FSDP_WORKERS.function)
engines_only = pytest.mark.skipif(legacy_workers, reason="this verl's own FSDP worker divides them")


def overrides(case) -> list:
    return [f"{key}={case[key]}" for key in INPUTS] + [f"actor_rollout_ref.actor.ppo_mini_batch_size={case[GLOBAL[0]]}"]


@pytest.mark.skipif(not legacy_workers, reason="needs verl's legacy FSDP worker (the 0.7.1 environment)")
def test_the_expectations_are_what_this_verls_own_worker_makes():
    import verl

    if verl.__version__ != DATA["verl"]:
        pytest.skip(f"the data are verl {DATA['verl']}'s")
    script = REPO / "scripts" / "global_micro_batches_expected.py"
    result = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


@engines_only
def test_baseline_the_global_sizes_compose_and_the_per_gpu_sizes_the_workers_assert_on_stay_unset(no_shim):
    config = verl_compose(overrides(DATA["cases"][0]))
    for key in DATA["cases"][0]["per_gpu"]:
        assert config.actor_rollout_ref[key.split(".")[1]][key.rpartition(".")[2]] is None, key


@engines_only
@pytest.mark.parametrize("case", DATA["cases"], ids=lambda case: "-".join(str(case[key]) for key in INPUTS))
def test_each_global_size_is_divided_as_verl_0_7_1_divided_it(shim, shim_warnings, case):
    from omegaconf import OmegaConf
    from verl.utils.config import omega_conf_to_dataclass

    config = verl_compose(overrides(case))
    for key, expected in case["per_gpu"].items():
        assert OmegaConf.select(config, key) == expected, key
    for key in GLOBAL:
        assert OmegaConf.select(config, key) is None, key  # cleared: verl's checks refuse both set
    omega_conf_to_dataclass(config.actor_rollout_ref.actor)  # ActorConfig.__post_init__ accepts it
    warned = shim_warnings()
    for key in GLOBAL:
        assert sum(f"verl-compat: {key}={case[key]} is a global size" in w for w in warned) == 1, key


@engines_only
def test_a_launch_that_sets_the_per_gpu_size_is_left_as_it_is(shim, shim_warnings):
    config = verl_compose(["actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2"])
    assert config.actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu == 2
    assert not any("global size" in w for w in shim_warnings())
