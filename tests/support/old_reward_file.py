"""A ``custom_reward_function.path`` file of an old setup: the reward function, and a reward
manager it registers with verl's OLD ``register`` (found by ``reward_model.reward_manager=<name>``
because verl 0.6 imported this file first)."""

from old_reward_managers import (  # noqa: F401
    ColumnReadingManager,
    GroupRewardManager,
    PerSampleRewardManager,
    RewardModelPlusRuleManager,
    compute_score,
    compute_score_batch,
    compute_score_by_source,
)
from verl.workers.reward_manager import register


@register("old_file_manager")
class FileRewardManager(PerSampleRewardManager):
    KIND = "file"


@register("old_group_manager")
class FileGroupRewardManager(GroupRewardManager):
    KIND = "file_group"


@register("old_rm_plus_rule")
class FileRewardModelPlusRuleManager(RewardModelPlusRuleManager):
    pass


@register("old_column_manager")
class FileColumnReadingManager(ColumnReadingManager):
    pass
