"""A ``custom_reward_function.path`` file of an old setup: the reward function, and a reward
manager it registers with verl's OLD ``register`` (found by ``reward_model.reward_manager=<name>``
because verl 0.6 imported this file first)."""

from old_reward_managers import GroupRewardManager, PerSampleRewardManager, compute_score, compute_score_batch  # noqa: F401
from verl.workers.reward_manager import register


@register("old_file_manager")
class FileRewardManager(PerSampleRewardManager):
    KIND = "file"


@register("old_group_manager")
class FileGroupRewardManager(GroupRewardManager):
    KIND = "file_group"
