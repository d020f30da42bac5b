"""Old-contract reward managers on today's verl: the baseline failures, verl's own old managers and a
user's, adapted, giving exactly what they give when called directly (the driver pass and verl's
real ``RewardLoopManager.compute_rm_score``, on a real local Ray cluster)."""

import copy

import pytest
import torch
from harness import tiny_model_dir
from old_reward_batches import CUSTOM_FILE, config_for, importlib_overrides, step_batch
from old_reward_managers import GroupRewardManager
from verl.utils import hf_tokenizer

from verl_compat.fixes.old_rewards import adapter, contract, driver, resolve

pytestmark = pytest.mark.once


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """The suite's offline tiny model folder (tokenizer + config)."""
    return tiny_model_dir(tmp_path_factory.mktemp("model") / "model")


VERLS_OLD = {  # verl's own old managers: name -> (module, class); naive and dapo also exist in the new registry
    "naive": ("verl.workers.reward_manager.naive", "NaiveRewardManager"),
    "dapo": ("verl.workers.reward_manager.dapo", "DAPORewardManager"),
    "batch": ("verl.workers.reward_manager.batch", "BatchRewardManager"),
    "prime": ("verl.workers.reward_manager.prime", "PrimeRewardManager"),
}


DAPO_KWARGS = {"max_resp_len": 8, "overlong_buffer_cfg": {"enable": True, "len": 4, "penalty_factor": 1.0, "log": True}}


def called_directly(cls, config, tokenizer, batch, num_examine=0):
    """What the old manager gives on a copy of ``batch``, built here as verl 0.6.1's
    ``load_reward_manager`` built it (not with the shim's builder)."""
    import old_reward_managers
    from omegaconf import OmegaConf
    from verl.utils.reward_score import default_compute_score

    kwargs = OmegaConf.create(DAPO_KWARGS) if cls.__name__ == "DAPORewardManager" else {}
    score = old_reward_managers.compute_score_batch if cls.__name__ == "BatchRewardManager" else default_compute_score
    manager = cls(
        tokenizer=tokenizer, num_examine=num_examine, compute_score=score, reward_fn_key="data_source", **kwargs
    )
    result = manager(copy.deepcopy(batch), return_dict=True)
    return result["reward_tensor"], result.get("reward_extra_info", {})


# --- without the shim ---------------------------------------------------------------------------------


def test_without_the_shim_a_name_of_the_old_register_is_unknown(no_shim, model):
    from verl.trainer.ppo.reward import resolve_reward_manager_cls

    config = config_for(
        model,
        f"reward.custom_reward_function.path={CUSTOM_FILE}",
        "reward.custom_reward_function.name=compute_score",
        "reward.reward_manager.name=old_file_manager",
    )
    with pytest.raises(ValueError, match="Unknown reward manager: old_file_manager"):
        resolve_reward_manager_cls(config)


def test_without_the_shim_an_old_class_by_importlib_dies_when_built(no_shim, model):
    from verl.trainer.ppo.reward import load_reward_manager

    config = config_for(model, *importlib_overrides("old_reward_managers", "GroupRewardManager"))
    with pytest.raises(TypeError, match="unexpected keyword argument 'config'"):
        load_reward_manager(config, hf_tokenizer(str(model)))


# --- resolution ---------------------------------------------------------------------------------------


def test_the_custom_files_old_register_is_found_and_adapted(shim, model):
    from verl.trainer.ppo.reward import load_reward_manager, resolve_reward_manager_cls

    config = config_for(
        model,
        f"reward.custom_reward_function.path={CUSTOM_FILE}",
        "reward.reward_manager.name=old_file_manager",
    )
    cls = resolve_reward_manager_cls(config)
    assert adapter.adapted_class(cls).__name__ == "FileRewardManager"
    assert resolve.reward_path(config).kind == "old"
    # What each reward worker does; its import of the custom file registers the class anew.
    built = load_reward_manager(config, hf_tokenizer(str(model)))
    assert adapter.adapted_class(type(built)).__name__ == "FileRewardManager"


def test_a_new_contract_manager_is_left_alone(shim, model):
    from verl.experimental.reward_loop.reward_manager.naive import NaiveRewardManager
    from verl.trainer.ppo.reward import resolve_reward_manager_cls

    assert resolve_reward_manager_cls(config_for(model)) is NaiveRewardManager
    assert resolve.reward_path(config_for(model)).kind == "native"


# --- same scores ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(VERLS_OLD))
def test_verls_own_old_managers_give_their_direct_scores_in_the_driver_pass(shim, model, name):
    module, cls_name = VERLS_OLD[name]
    overrides = (
        importlib_overrides(module, cls_name) if name in ("naive", "dapo") else [f"reward.reward_manager.name={name}"]
    )
    if name == "batch":  # its compute_score takes the batch's lists
        overrides += [
            f"reward.custom_reward_function.path={CUSTOM_FILE}",
            "reward.custom_reward_function.name=compute_score_batch",
        ]
    if name == "dapo":
        overrides += [
            "+reward.reward_kwargs.max_resp_len=8",
            "+reward.reward_kwargs.overlong_buffer_cfg.enable=true",
            "+reward.reward_kwargs.overlong_buffer_cfg.len=4",
            "+reward.reward_kwargs.overlong_buffer_cfg.penalty_factor=1.0",
            "+reward.reward_kwargs.overlong_buffer_cfg.log=true",
        ]
    config = config_for(model, *overrides)
    tokenizer = hf_tokenizer(str(model))
    path = resolve.reward_path(config)
    assert path.kind == "old" and path.cls.__name__ == cls_name
    batch = step_batch(tokenizer)
    expected, expected_extra = called_directly(path.cls, config, tokenizer, batch)
    scorer = driver.scorer_for_config(config, tokenizer)
    driver.score_batch(scorer, batch)
    assert torch.equal(batch.batch["rm_scores"], expected)
    assert batch.meta_info["reward_extra_keys"] == list(expected_extra)
    for key, values in expected_extra.items():
        assert list(batch.non_tensor_batch[key]) == list(values)


def test_the_batch_manager_needs_the_batch(shim, model):
    """Per sample, the group manager gives other scores: what the driver pass exists for."""
    config = config_for(model, *importlib_overrides("old_reward_managers", "GroupRewardManager"))
    tokenizer = hf_tokenizer(str(model))
    batch = step_batch(tokenizer)
    expected, _ = called_directly(GroupRewardManager, config, tokenizer, batch)
    manager = contract.build_old_manager(GroupRewardManager, config, tokenizer, 0)
    per_sample = [adapter.per_sample(manager, batch[i : i + 1])["reward_score"] for i in range(len(batch))]
    assert per_sample != expected.sum(-1).tolist()
    driver.score_batch(driver.scorer_for_config(config, tokenizer), batch)
    assert torch.equal(batch.batch["rm_scores"], expected)
    assert "group_acc" in batch.batch.keys()  # what the manager wrote into data.batch stays there  # noqa: SIM118 (a TensorDict)


@pytest.mark.parametrize("name", ["batch", "prime", "group"])
def test_compute_rm_score_gives_what_call_gives(shim, model, name):
    import harness
    from verl.experimental.reward_loop.reward_loop import RewardLoopManager

    harness.ray_session()
    if name == "group":
        config = config_for(model, *importlib_overrides("old_reward_managers", "GroupRewardManager"))
    elif name == "batch":
        config = config_for(
            model,
            "reward.reward_manager.name=batch",
            f"reward.custom_reward_function.path={CUSTOM_FILE}",
            "reward.custom_reward_function.name=compute_score_batch",
        )
    else:
        config = config_for(model, f"reward.reward_manager.name={name}")
    tokenizer = hf_tokenizer(str(model))
    batch = step_batch(tokenizer)
    cls = resolve.reward_path(config).cls
    expected, expected_extra = called_directly(cls, config, tokenizer, batch)
    manager = RewardLoopManager(config)
    try:
        assert adapter.adapted_class(manager.reward_manager_cls) is cls
        output = manager.compute_rm_score(batch)
    finally:
        import ray

        for worker in manager.reward_loop_workers:
            ray.kill(worker)
    assert torch.equal(output.batch["rm_scores"], expected)
    assert output.meta_info["reward_extra_keys"] == list(expected_extra)
