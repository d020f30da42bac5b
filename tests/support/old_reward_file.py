"""A ``custom_reward_function.path`` file of an old setup: the reward function, and a reward
manager it registers with verl's OLD ``register`` (found by ``reward_model.reward_manager=<name>``
because verl 0.6 imported this file first)."""

from old_reward_managers import GroupRewardManager, PerSampleRewardManager
from verl.workers.reward_manager import register


def compute_score(data_source, solution_str, ground_truth, extra_info=None, scale=1.0):
    """1 * scale when the last number of the response is the ground truth, else 0."""
    words = [w for w in solution_str.split() if w.isdigit()]
    return scale * float(bool(words) and words[-1] == str(ground_truth))


@register("old_file_manager")
class FileRewardManager(PerSampleRewardManager):
    KIND = "file"


def compute_score_batch(data_sources, solution_strs, ground_truths, extra_infos, **kwargs):
    """The batched reward function verl's old ``BatchRewardManager`` calls (plural arguments)."""
    return [compute_score(*row, **kwargs) for row in zip(data_sources, solution_strs, ground_truths, extra_infos)]


@register("old_group_manager")
class FileGroupRewardManager(GroupRewardManager):
    KIND = "file_group"
