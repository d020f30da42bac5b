"""The trainer an old launch runs on, on the newest release (verl 0.9's ``trainer.use_v1: true``,
verl#6823): verl's real CLI (``python -m verl.trainer.main_ppo … --cfg job``) for what a user sees,
the compose API for the other cases.

Without verl-compat a plain old launch silently gets the V1 trainer, which its release never had;
with it, the legacy trainer unless the launch asks for V1 or sets what only V1 reads; with V1, what
V1 cannot do stops the launch before any worker, named.
"""

import pytest
from cfg_job import cli, composed
from cfg_job import warning_lines as shim_warnings
from hydra.errors import ConfigCompositionException
from verl_config import verl_compose

from verl_compat.fixes.old_math import decide, releases

pytestmark = pytest.mark.once

PLAIN_GRPO = ["algorithm.adv_estimator=grpo", "data.train_batch_size=16", "actor_rollout_ref.rollout.n=4"]


@pytest.fixture(autouse=True)
def _this_verl_has_both_trainers():
    if "use_v1" not in verl_compose([]).trainer or not decide.legacy_trainer():
        pytest.skip("this verl has one trainer")


def test_without_verl_compat_a_plain_old_launch_runs_v1(tmp_path):
    result = cli(*PLAIN_GRPO, env={"VERL_COMPAT_DISABLE": "1"}, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert composed(result.stdout)["trainer"]["use_v1"] is True  # silently: no line says so
    assert shim_warnings(result.stderr) == []


def test_a_plain_old_launch_runs_the_legacy_trainer_with_one_warning(tmp_path):
    result = cli(*PLAIN_GRPO, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert composed(result.stdout)["trainer"]["use_v1"] is False
    warned = [line for line in shim_warnings(result.stderr) if "trainer.use_v1=false" in line]
    assert len(warned) == 1
    assert "verl#6823" in warned[0] and "Set trainer.use_v1=true to opt in" in warned[0]


def test_declared_as_written_for_the_installed_release_is_untouched(tmp_path):
    installed = releases.releases()[-1]
    without = cli(*PLAIN_GRPO, env={"VERL_COMPAT_DISABLE": "1"}, cwd=tmp_path)
    by_env = cli(*PLAIN_GRPO, env={releases.DECLARE_ENV: installed}, cwd=tmp_path)
    by_override = cli(*PLAIN_GRPO, f"+{releases.DECLARE_KEY}={installed}", cwd=tmp_path)
    for result in (by_env, by_override):
        assert result.returncode == 0, result.stderr[-3000:]
        assert result.stdout == without.stdout  # byte-identical
        assert shim_warnings(result.stderr) == []


def test_balance_batch_false_runs_the_legacy_trainer(shim):
    config = verl_compose([*PLAIN_GRPO, "trainer.balance_batch=false"])
    assert config.trainer.use_v1 is False and config.trainer.balance_batch is False


@pytest.mark.parametrize(
    "v1_only", ["algorithm.filter_groups.enable=true", "transfer_queue.enable=true", "trainer.v1.trainer_mode=sync"]
)
def test_a_v1_only_feature_keeps_v1(shim, shim_warnings, v1_only):
    config = verl_compose([*PLAIN_GRPO, v1_only])
    assert config.trainer.use_v1 is True
    assert not any("trainer.use_v1=false: this launch" in text for text in shim_warnings())


def test_use_v1_true_is_kept(shim, shim_warnings):
    assert verl_compose([*PLAIN_GRPO, "trainer.use_v1=true"]).trainer.use_v1 is True
    assert not any("trainer.use_v1=false: this launch" in text for text in shim_warnings())


def test_v1_with_remax_stops_before_any_worker_named(tmp_path):
    result = cli("algorithm.adv_estimator=remax", "trainer.use_v1=true", cwd=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "algorithm.adv_estimator=remax" in result.stderr and "trainer.use_v1=false" in result.stderr


def test_every_key_v1_cannot_honour_is_named_in_one_stop(shim):
    with pytest.raises(ConfigCompositionException) as stop:
        verl_compose(["trainer.use_v1=true", "trainer.balance_batch=false", "algorithm.use_pf_ppo=true"])
    assert "trainer.balance_batch=false" in str(stop.value) and "algorithm.use_pf_ppo=true" in str(stop.value)


def test_without_the_legacy_trainer_the_legacy_only_cases_stop(shim, monkeypatch):
    """A verl that no longer ships verl.trainer.main_ppo_v0: nothing to switch to, so REMAX stops."""
    monkeypatch.setattr(decide, "legacy_trainer", lambda: False)
    assert verl_compose(PLAIN_GRPO).trainer.use_v1 is True
    with pytest.raises(ConfigCompositionException, match=r"algorithm\.adv_estimator=remax"):
        verl_compose(["algorithm.adv_estimator=remax"])
