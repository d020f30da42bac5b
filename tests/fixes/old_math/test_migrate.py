"""``verl-compat migrate --release X.Y.Z``: the restoring keys written into an old script, as the
fix sets them at composition; nothing without ``--release``."""

import pytest

from verl_compat import migrate

pytestmark = pytest.mark.once

SCRIPT = """\
python3 -m verl.trainer.main_ppo \\
    algorithm.adv_estimator=grpo \\
    data.train_batch_size=1024 \\
    actor_rollout_ref.actor.shuffle=True \\
    trainer.total_epochs=15
"""


def test_without_release_nothing_changes():
    assert migrate.migrate(SCRIPT, "shell") == SCRIPT


def test_the_restoring_keys_of_the_release_are_written():
    new = migrate.migrate(SCRIPT, "shell", release="0.6.0")
    assert "actor_rollout_ref.actor.shuffle=False" in new  # dp_actor ignored it (v0.6.0)
    assert "trainer.use_v1=False" in new and "data.seed=1" in new
    assert migrate.migrate(new, "shell", release="0.6.0") == new  # twice changes nothing
    assert "data.seed" not in migrate.migrate(SCRIPT, "shell", release="0.7.1")  # seeded since 0.6.1


def test_a_launch_v1_cannot_run_is_refused():
    script = SCRIPT.replace("algorithm.adv_estimator=grpo", "algorithm.adv_estimator=remax trainer.use_v1=true")
    with pytest.raises(migrate.Refused, match=r"algorithm\.adv_estimator=remax"):
        migrate.migrate(script, "shell", release="0.6.0")
