"""Where an old reward setup cannot be kept, the launch stops before any worker starts, naming why:
never a run that trains on another reward without a word.

REMAX scores a greedy baseline rollout per prompt, and verl 0.7.1+ scores it in its reward loop
alone (``RayPPOTrainer.fit``: ``gen_baseline_output.batch["rm_scores"]``), which never calls old
reward code: with a ``reward_fn`` or an old-contract manager, the baseline would come from another
reward than the samples.
"""

import pytest
from harness import Built, build_only, compose_config, run_fit
from old_reward_managers import user_reward_fn

from verl_compat.fixes.old_rewards import OldRewardManagerError

pytestmark = pytest.mark.once


def test_remax_with_a_users_reward_fn_stops_before_any_worker(shim, tmp_path):
    config = compose_config(["algorithm.adv_estimator=remax", "actor_rollout_ref.rollout.n=2"], tmp_path)
    result = run_fit(config, reward_fns={"reward_fn": user_reward_fn})
    assert isinstance(result.error, OldRewardManagerError)
    message = str(result.error)
    assert "algorithm.adv_estimator=remax with reward_fn=" in message and "Nothing was started" in message
    assert result.actor_calls == []  # no worker was built


def test_without_remax_the_same_reward_fn_is_kept(shim, tmp_path):
    """The stop is REMAX's alone: the trainer is built with the callable kept (the fits run it)."""
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    from verl_compat.fixes.old_rewards import trainer_args

    config = compose_config([], tmp_path)
    result = run_fit(config, trainer_cls=build_only, reward_fns={"reward_fn": user_reward_fn})
    assert isinstance(result.error, Built)
    assert isinstance(result.error.trainer, RayPPOTrainer)
    assert trainer_args.kept(result.error.trainer) == {"reward_fn": user_reward_fn}
