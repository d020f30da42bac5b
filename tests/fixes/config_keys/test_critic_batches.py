"""The critic's micro-batching keys (``critic.ppo_micro_batch_size_per_gpu`` in 106 of verl's own old
launches, ``forward_max_token_len_per_gpu`` 17, ``ulysses_sequence_parallel_size`` 14).

verl 0.7.1's legacy critic read them; verl 0.8.0 deleted it (verl#6067) and builds the critic's
``TrainingWorker`` from ``critic.fsdp``, whose ``use_dynamic_bsz`` defaults to true. What the worker
gets is taken here as verl's trainer takes it (0.9.1 ``RayPPOTrainer.init_workers``: the critic's
dataclass, its ``engine``, and the two token limits copied onto it).
"""

import pytest
from verl_config import verl_compose

from verl_compat.fixes.config_keys import readers
from verl_compat.fixes.config_keys.table import legacy_worker

OLD_WORKER = legacy_worker("fsdp", "critic.fsdp", "")
legacy_workers = readers.calls(OLD_WORKER.entry, OLD_WORKER.function)
engines_only = pytest.mark.skipif(legacy_workers, reason="this verl's own critic worker reads the keys")
GAE = ["algorithm.adv_estimator=gae"]


def critic_engine(config):
    """The critic worker's engine config, as verl 0.9.1's ``init_workers`` makes it (without the
    model: its config would load the checkpoint's tokenizer)."""
    from omegaconf import OmegaConf, open_dict
    from verl.utils.config import omega_conf_to_dataclass

    critic = OmegaConf.create(OmegaConf.to_container(config.critic, resolve=True))
    with open_dict(critic):
        critic.model = None
    critic_cfg = omega_conf_to_dataclass(critic)
    engine_config = critic_cfg.engine
    engine_config.infer_max_token_len_per_gpu = critic_cfg.ppo_infer_max_token_len_per_gpu
    engine_config.max_token_len_per_gpu = critic_cfg.ppo_max_token_len_per_gpu
    return engine_config


def micro_batching(engine) -> tuple:
    return engine.use_dynamic_bsz, engine.micro_batch_size_per_gpu, engine.infer_micro_batch_size_per_gpu


@engines_only
def test_baseline_the_critic_trains_on_token_packed_micro_batches(no_shim):
    engine = critic_engine(verl_compose([*GAE, "critic.ppo_micro_batch_size_per_gpu=4"]))
    assert micro_batching(engine) == (True, None, None)
    assert engine.max_token_len_per_gpu == 32768


@engines_only
def test_the_old_micro_batch_size_reaches_the_critics_engine(shim, shim_warnings):
    engine = critic_engine(verl_compose([*GAE, "critic.ppo_micro_batch_size_per_gpu=4"]))
    assert micro_batching(engine) == (False, 4, 4)  # forward_micro_batch_size_per_gpu follows it
    warned = [w for w in shim_warnings() if "critic.ppo_micro_batch_size_per_gpu" in w]
    assert len(warned) == 1, warned
    old, engine = "critic.ppo_micro_batch_size_per_gpu=4", "+critic.fsdp.use_dynamic_bsz=false"
    written = f"{old} {engine} +critic.fsdp.micro_batch_size_per_gpu=4"
    assert f"Write instead: {written}" in warned[0]


@engines_only
def test_the_forward_size_is_the_inference_size(shim):
    overrides = [*GAE, "critic.ppo_micro_batch_size_per_gpu=4", "critic.forward_micro_batch_size_per_gpu=8"]
    assert micro_batching(critic_engine(verl_compose(overrides))) == (False, 4, 8)


@engines_only
def test_with_dynamic_batching_the_forward_token_limit_reaches_the_engine(shim, shim_warnings):
    overrides = [*GAE, "critic.use_dynamic_bsz=true", "critic.forward_max_token_len_per_gpu=8192"]
    engine = critic_engine(verl_compose(overrides))
    assert engine.use_dynamic_bsz is True and engine.infer_max_token_len_per_gpu == 8192
    assert sum("critic.forward_max_token_len_per_gpu" in w for w in shim_warnings()) == 1


@engines_only
def test_the_critics_ulysses_size_reaches_its_engine(shim):
    config = verl_compose([*GAE, "critic.use_dynamic_bsz=true", "critic.ulysses_sequence_parallel_size=2"])
    assert critic_engine(config).ulysses_sequence_parallel_size == 2


@engines_only
def test_a_run_without_a_critic_is_left_alone(shim, shim_warnings):
    config = verl_compose(["algorithm.adv_estimator=grpo", "critic.ppo_micro_batch_size_per_gpu=4"])
    assert config.critic.fsdp.get("micro_batch_size_per_gpu") is None
    assert not any("critic." in w for w in shim_warnings())


@engines_only
def test_the_engines_own_micro_batches_are_left_as_written(shim, shim_warnings):
    own = ["+critic.fsdp.use_dynamic_bsz=false", "+critic.fsdp.micro_batch_size_per_gpu=2"]
    engine = critic_engine(verl_compose([*GAE, "critic.ppo_micro_batch_size_per_gpu=4", *own]))
    assert micro_batching(engine) == (False, 2, None)
    assert not any("critic." in w for w in shim_warnings())


@engines_only
def test_what_the_engine_does_anyway_asks_for_nothing(shim, shim_warnings):
    engine = critic_engine(verl_compose([*GAE, "critic.use_dynamic_bsz=true"]))
    assert engine.infer_max_token_len_per_gpu == 32768
    assert not any("critic." in w for w in shim_warnings())


@pytest.mark.skipif(not legacy_workers, reason="needs verl's legacy critic worker")
def test_where_the_legacy_critic_reads_them_nothing_changes(shim, shim_warnings):
    config = verl_compose([*GAE, "critic.ppo_micro_batch_size_per_gpu=4"])
    assert "micro_batch_size_per_gpu" not in config.critic.get("fsdp", {})
    assert not any("critic.ppo_micro_batch_size_per_gpu" in w for w in shim_warnings())
