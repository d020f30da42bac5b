"""The adapter in a reward worker (placeholder where the driver pass scores, per sample elsewhere),
the warning, and what doctor shows."""

import asyncio

import pytest
import torch
from harness import tiny_model_dir
from old_reward_batches import CUSTOM_FILE, config_for, importlib_overrides, step_batch
from old_reward_managers import PerSampleRewardManager
from verl.utils import hf_tokenizer
from verl.utils.reward_score import default_compute_score

from verl_compat import configs
from verl_compat.fixes.old_rewards import adapter, describe

pytestmark = pytest.mark.once


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """The suite's offline tiny model folder (tokenizer + config)."""
    return tiny_model_dir(tmp_path_factory.mktemp("model") / "model")


def worker_manager(config, tokenizer):
    """The adapter as verl's RewardLoopWorker builds it (``load_reward_manager``'s keywords)."""
    cls = adapter.adapter_for(PerSampleRewardManager)
    return cls(config=config, tokenizer=tokenizer, compute_score=default_compute_score, reward_router_address=None)


def test_where_the_driver_scores_the_worker_returns_a_placeholder_and_never_calls_it(shim, model, monkeypatch):
    config = config_for(model, *importlib_overrides("old_reward_managers", "PerSampleRewardManager"))
    configs.set_key(config, adapter.SCORED_IN_DRIVER, True)
    tokenizer = hf_tokenizer(str(model))
    calls = []
    monkeypatch.setattr(PerSampleRewardManager, "_score_rows", lambda self, data: calls.append(data))
    out = asyncio.run(worker_manager(config, tokenizer).run_single(step_batch(tokenizer)[0:1]))
    assert out == {"reward_score": 0.0, "reward_extra_info": {}}
    assert calls == []


def test_elsewhere_it_scores_each_trajectory_as_verl_060_did_and_warns_once(shim, shim_warnings, model):
    config = config_for(model, *importlib_overrides("old_reward_managers", "PerSampleRewardManager"))
    tokenizer = hf_tokenizer(str(model))
    batch = step_batch(tokenizer)
    direct = PerSampleRewardManager(tokenizer, 0, default_compute_score)(batch, return_dict=True)
    manager = worker_manager(config, tokenizer)
    outs = [asyncio.run(manager.run_single(batch[i : i + 1])) for i in range(len(batch))]
    assert [o["reward_score"] for o in outs] == direct["reward_tensor"].sum(-1).tolist()
    assert [o["reward_extra_info"]["acc"] for o in outs] == direct["reward_extra_info"]["acc"]
    assert len(shim_warnings()) == 1 and "one trajectory at a time" in shim_warnings()[0]
    assert torch.equal(batch.batch["responses"], step_batch(tokenizer).batch["responses"])


def test_doctor_shows_the_reward_path(shim, model):
    adapted = describe(
        config_for(
            model, f"reward.custom_reward_function.path={CUSTOM_FILE}", "reward.reward_manager.name=old_group_manager"
        )
    )
    assert adapted["acts"] is True and adapted["cannot"] == []
    assert adapted["rows"] == [
        ("reward path", "manager old_group_manager (old contract, adapted: whole batch in the driver)")
    ]
    native = describe(config_for(model))
    assert native["acts"] is False and native["rows"] == [("reward path", "manager naive (native)")]
    function = describe(config_for(model, f"reward.custom_reward_function.path={CUSTOM_FILE}"))
    assert function["rows"] == [("reward path", "function (custom_reward_function, native)")]
    unknown = describe(config_for(model, "reward.reward_manager.name=nobody_registered_this"))
    assert unknown["cannot"] and unknown["rows"][0][1].endswith("(unknown to both registries)")


def test_a_name_the_launcher_registered_travels_as_its_module(shim, shim_warnings, model):
    """The launcher's ``run_ppo`` step: the TaskRunner and reward workers never ran the launcher's import,
    so the name is replaced by the class's module (``source=importlib``), with the warning saying so."""
    from verl.workers.reward_manager import register
    from verl.workers.reward_manager.registry import REWARD_MANAGER_REGISTRY

    from verl_compat.fixes.old_rewards import translate_launcher_names

    if "launcher_per_sample" not in REWARD_MANAGER_REGISTRY:
        register("launcher_per_sample")(PerSampleRewardManager)
    config = config_for(model, "reward.reward_manager.name=launcher_per_sample")
    translate_launcher_names(config)
    assert (config.reward.reward_manager.source, config.reward.reward_manager.module.path) == (
        "importlib",
        "pkg://old_reward_managers",
    )
    assert config.reward.reward_manager.name == "PerSampleRewardManager"
    assert "the workers import it through reward.reward_manager.source=importlib" in shim_warnings()[0]
