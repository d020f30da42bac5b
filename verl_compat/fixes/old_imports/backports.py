"""The old functions that old custom ``fit()`` loops call, served where verl removed them.

verl 0.7.1 removed ``compute_reward`` and ``compute_reward_async`` from ``verl.trainer.ppo.reward``
(and their re-export from ``verl.trainer.ppo.ray_trainer``; verl#5237, 3df21a68): the reward loop
writes ``rm_scores`` into the batch during the rollout instead. Recipe trainers and teams' own
``fit()`` loops written for verl 0.4-0.7.0 still call them with an old-contract reward manager (or
any callable of that shape) and unpack the old return value. These are the old functions, with the
old arguments and return shapes (verl 0.7.0 ``verl/trainer/ppo/reward.py``, ``compute_reward`` and
``compute_reward_async``), so such a loop computes what it did.

Only the path with a ``reward_fn`` is kept: ``compute_reward_async(data, config, tokenizer)``
without one built an old-contract manager from the config, which verl 0.7.0 already deprecated, and
today's config names a reward-loop manager that cannot be called on a batch; that call stops with
an error that says to pass ``reward_fn=``.

Where verl-compat's old_rewards has verl's reward workers return a placeholder (the trainer was
given old reward code), the step batch carries that placeholder as ``rm_scores``, which old reward
managers would return as the reward: both functions take it off first (only the placeholder: a
reward model's ``rm_scores`` stay, as old verl gave them; :mod:`verl_compat.driver_rewards`).

Imported only when an old path asks for one of them (verl, torch and Ray are imported by then).
"""

from __future__ import annotations

import functools
from typing import Any

from ... import driver_rewards

# old path -> the name of its backport in this module
BACKPORTS = {
    "verl.trainer.ppo.reward:compute_reward": "compute_reward",
    "verl.trainer.ppo.reward:compute_reward_async": "compute_reward_async",
    "verl.trainer.ppo.ray_trainer:compute_reward": "compute_reward",
    "verl.trainer.ppo.ray_trainer:compute_reward_async": "compute_reward_async",
}

INSTEAD = (
    "on today's verl the reward loop scores each trajectory during the rollout and writes rm_scores into the "
    "batch: read them with `from verl.trainer.ppo.reward import extract_reward` (reward_tensor, "
    "reward_extra_infos_dict = extract_reward(batch)), and name your reward function or manager in the config "
    "(reward.custom_reward_function.path / reward.reward_manager)"
)


def message(dotted: str, since: str, evidence: str) -> str:
    """What the user reads where verl removed a function and verl-compat serves the old one."""
    return (
        f"verl-compat: {dotted} was removed in verl {since} ({evidence}); verl-compat serves the old function "
        f"(same arguments, same return value) so that an old fit() loop computes what it did. To drop "
        f"verl-compat: {INSTEAD}"
    )


def compute_reward(data: Any, reward_fn: Any) -> tuple[Any, dict[str, Any]]:
    """``(reward_tensor, reward_extra_infos_dict)`` of ``reward_fn`` on the whole batch, as verl
    0.4-0.7.0 computed it: ``reward_fn(data, return_dict=True)``, and where that raises, the old
    fallback ``reward_fn(data)`` with no extra info (verl printed the error and went on)."""
    driver_rewards.strip_placeholder(data)
    driver_rewards.note_scored()
    try:
        reward_result = reward_fn(data, return_dict=True)
        reward_tensor = reward_result["reward_tensor"]
        reward_extra_infos_dict = reward_result.get("reward_extra_info", {})
    except Exception as e:
        print(f"Error in reward_fn: {e}")
        reward_tensor = reward_fn(data)
        reward_extra_infos_dict = {}
    return reward_tensor, reward_extra_infos_dict


class MissingRewardFnError(TypeError):
    """``compute_reward_async`` was asked to build the reward manager from the config itself."""


def _compute_reward_async(data: Any, config: Any = None, tokenizer: Any = None, reward_fn: Any = None):
    if reward_fn is None:
        raise MissingRewardFnError(
            "verl-compat: compute_reward_async(data, config=..., tokenizer=...) without reward_fn= built an "
            "old-contract reward manager from the config, which verl 0.7.0 deprecated and verl 0.7.1 removed "
            "(verl#5237, 3df21a68): today's config names a reward-loop manager, which cannot score a whole batch. "
            "Pass the reward manager you built: compute_reward_async.remote(data=batch, reward_fn=reward_fn)"
        )
    return compute_reward(data, reward_fn)


@functools.cache
def _remote_compute_reward_async() -> Any:
    """The Ray remote function, made once per process (``@ray.remote(num_cpus=1)`` as in verl 0.7.0)."""
    import ray

    return ray.remote(num_cpus=1)(_compute_reward_async)


class _ComputeRewardAsync:
    """``compute_reward_async``: the Ray remote function, whose ``.remote(data, ...)`` takes the
    placeholder off ``data`` here, in the trainer's process, before Ray ships it to the task."""

    def remote(self, data: Any = None, *args: Any, **kwargs: Any) -> Any:
        if data is not None:
            driver_rewards.strip_placeholder(data)
            driver_rewards.note_scored()
        return _remote_compute_reward_async().remote(data, *args, **kwargs)

    def options(self, *args: Any, **kwargs: Any) -> Any:
        return _remote_compute_reward_async().options(*args, **kwargs)


_COMPUTE_REWARD_ASYNC = _ComputeRewardAsync()


def backport(path: str) -> Any:
    """The backport served for the old ``path`` (a key of :data:`BACKPORTS`)."""
    name = BACKPORTS[path]
    return _COMPUTE_REWARD_ASYNC if name == "compute_reward_async" else compute_reward
