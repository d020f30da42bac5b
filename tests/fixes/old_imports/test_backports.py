"""``compute_reward`` and ``compute_reward_async``, which old custom ``fit()`` loops call: verl 0.7.1
removed them (verl#5237); verl-compat serves the old functions, with the old arguments and return
shapes, computing what the reward function gives on the whole batch.

Runs where the installed verl lacks them (0.7.1 and later); on 0.6.1 they are verl's own.
"""

import importlib
import sys

import pytest
import torch
from verl import DataProto

import verl_compat
from verl_compat.fixes.old_imports import backports

PATHS = [path.split(":") for path in backports.BACKPORTS]
VERL_HAS_THEM = "compute_reward" in vars(importlib.import_module("verl.trainer.ppo.reward"))


def batch(scores):
    """Two responses of three tokens, the second one token shorter: an old-contract reward puts each
    score at the last valid token."""
    responses = torch.ones((len(scores), 3), dtype=torch.long)
    attention_mask = torch.ones((len(scores), 5), dtype=torch.long)
    attention_mask[1, -1] = 0
    return DataProto.from_dict(
        tensors={"responses": responses, "attention_mask": attention_mask, "prompts": torch.ones((len(scores), 2))},
        non_tensors={"score": scores},
    )


class GroupMeanReward:
    """An old-contract reward manager (``__call__(data, return_dict=False)``) whose score of a sample
    depends on the other samples of the batch: the batch is what it must be given, whole."""

    calls = 0

    def __call__(self, data, return_dict=False):
        type(self).calls += 1
        scores = [float(s) for s in data.non_tensor_batch["score"]]
        mean = sum(scores) / len(scores)
        tensor = torch.zeros(data.batch["responses"].shape, dtype=torch.float32)
        valid = data.batch["attention_mask"][:, -3:].sum(-1)
        for i, score in enumerate(scores):
            tensor[i, valid[i] - 1] = score - mean
        if return_dict:
            return {"reward_tensor": tensor, "reward_extra_info": {"raw": scores}}
        return tensor


class TensorOnlyReward:
    """An old reward callable that never took ``return_dict``: the old fallback calls it plainly."""

    def __call__(self, data):
        return torch.full(data.batch["responses"].shape, 2.0)


@pytest.mark.skipif(VERL_HAS_THEM, reason="this verl still has compute_reward: its own, not verl-compat's")
def test_without_verl_compat_the_old_import_fails(no_shim):
    for module in [name for name in sys.modules if name.startswith("verl.trainer.ppo.reward")]:
        del sys.modules[module]
    with pytest.raises(ImportError):
        from verl.trainer.ppo.reward import compute_reward  # noqa: F401


@pytest.mark.skipif(VERL_HAS_THEM, reason="this verl still has compute_reward: its own, not verl-compat's")
@pytest.mark.parametrize(("module", "name"), PATHS, ids=[":".join(path) for path in PATHS])
def test_the_old_path_gives_the_backport_with_one_warning(shim, shim_warnings, module, name):
    scope: dict = {}
    exec(f"from {module} import {name}", scope)
    assert scope[name] is backports.backport(f"{module}:{name}")
    texts = [text for text in shim_warnings() if f"{module}.{name} was removed" in text]
    assert len(texts) == 1
    assert "verl#5237" in texts[0] and "extract_reward" in texts[0]
    assert verl_compat.status()["fixes"]["old_imports"]["imports"][f"{module}.{name}"] == "backported"


@pytest.mark.skipif(VERL_HAS_THEM, reason="this verl still has compute_reward: its own, not verl-compat's")
def test_compute_reward_gives_the_old_return_shapes_on_the_whole_batch(shim):
    from verl.trainer.ppo.reward import compute_reward

    data = batch([1.0, 3.0])
    GroupMeanReward.calls = 0
    reward_tensor, extra = compute_reward(data, GroupMeanReward())
    assert GroupMeanReward.calls == 1  # once, on the whole batch
    expected = torch.tensor([[0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
    assert torch.equal(reward_tensor, expected)
    assert extra == {"raw": [1.0, 3.0]}

    reward_tensor, extra = compute_reward(data, TensorOnlyReward())  # the old fallback: no return_dict
    assert torch.equal(reward_tensor, torch.full((2, 3), 2.0)) and extra == {}


@pytest.mark.skipif(VERL_HAS_THEM, reason="this verl still has compute_reward: its own, not verl-compat's")
def test_compute_reward_async_runs_in_a_ray_worker_and_needs_a_reward_fn(shim):
    import harness
    import ray
    from standins import RAY_GET_TIMEOUT_S
    from verl.trainer.ppo.ray_trainer import compute_reward_async

    harness.ray_session()
    # This test module is not importable in Ray's workers: its reward class travels by value.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    data = batch([1.0, 3.0])
    reward = compute_reward_async.remote(data=data, reward_fn=GroupMeanReward())
    reward_tensor, extra = ray.get(reward, timeout=RAY_GET_TIMEOUT_S)
    assert torch.equal(reward_tensor, torch.tensor([[0.0, 0.0, -1.0], [0.0, 1.0, 0.0]]))
    assert extra == {"raw": [1.0, 3.0]}
    with pytest.raises(ray.exceptions.RayTaskError, match="Pass the reward manager you built"):
        ray.get(compute_reward_async.remote(data=data, config={}, tokenizer=None), timeout=RAY_GET_TIMEOUT_S)
