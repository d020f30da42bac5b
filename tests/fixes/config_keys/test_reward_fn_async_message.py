"""``reward_model.launch_reward_fn_async`` is dropped with a message that is true for every reward
path: today's managers and reward functions run in the reward loop, asynchronously; an old-contract
manager or a ``reward_fn`` is called by verl-compat (old_rewards) synchronously on the step batch in
the trainer, as ``launch_reward_fn_async=False`` called it."""

import pytest
from verl_config import verl_compose

from verl_compat.fixes.config_keys import translate

pytestmark = pytest.mark.once

KEY = "reward_model.launch_reward_fn_async"


def test_the_message_says_where_each_reward_path_runs(shim, shim_warnings):
    verl_compose([f"{KEY}=True"])  # as a 0.6-era launch wrote it
    row = translate.row_for(KEY)
    said = [w for w in shim_warnings() if KEY in w]
    assert said == [translate.Finding(row, KEY, "True").warning()]
    assert "in the reward loop, asynchronously" in said[0]
    assert (
        "an old-contract reward manager or a reward_fn is called by verl-compat synchronously on the step batch"
        in said[0]
    )
