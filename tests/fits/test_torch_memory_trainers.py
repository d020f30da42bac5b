"""The torch_memory fix in verl's TransferQueue trainers: the v1 trainer that ``main_ppo`` runs by
default from 0.9 (picked as main_ppo picks it, ``get_trainer_cls(config.trainer.v1.trainer_mode)``,
inside verl's own ``TaskRunnerV1.run``), and 0.8.0's ``main_ppo_sync.PPOTrainer`` (GRPO: its critic
path has a bug of its own). Real loops, 3 steps, CPU stand-ins, real Ray and TransferQueue.

Both trainers' ``_stop_profiling(self)`` has no ``do_profile``, and neither has a legacy call: with
the legacy key alone they silently dump nothing. Which trainers a release has is asked of it
(``probes``), so the module runs where they exist.
"""

import pytest
from expectations import (
    ISSUE_6181,
    LEGACY,
    NEW_STYLE,
    add_finish_hook,
    assert_no_profiling,
    assert_one_dump_per_rank_per_step,
    assert_only_the_actor_profiled,
    assert_replacement_named,
    empty_step_folders,
    finish_hook_ranks,
    one_pair_per_step,
    other_profilers_enable,
    profile_calls,
    profiler_settings,
)

import verl_compat
from verl_compat import probes
from verl_compat.fixes import torch_memory

TRAINERS = [
    *([pytest.param("v1", id="v1")] if probes.has_v1_trainer() else []),
    *([pytest.param("sync", id="main_ppo_sync")] if probes.has_sync_trainer() else []),
]
pytestmark = pytest.mark.skipif(not TRAINERS, reason="this verl has no TransferQueue trainer")


@pytest.fixture(params=TRAINERS)
def fit(request):
    """``fit(overrides, workdir)``: one real fit of the trainer, and the class it ran (by name)."""
    import harness_trainers

    sync = request.param == "sync"
    run = harness_trainers.run_sync_fit if sync else harness_trainers.run_v1_fit

    def fit(overrides, workdir, edit=None):
        config = harness_trainers.compose_tq_config(overrides, workdir, sync=sync)
        if edit is not None:
            edit(config)
        return run(config)

    fit.trainer = "verl.trainer.main_ppo_sync.PPOTrainer" if sync else "verl.trainer.ppo.v1.trainer_sync.PPOTrainerSync"
    return fit


def test_baseline_legacy_key(fit, no_shim, tmp_path):
    assert_no_profiling(fit(LEGACY, tmp_path))


def test_legacy_key(fit, shim, shim_warnings, tmp_path):
    """The actor alone is driven; where ``stop_profile`` takes ``run_command`` (0.9.1+) the user's
    finish hook runs once per rank, after the last step."""
    seen = {}

    def edit(config):
        seen["hook_log"] = add_finish_hook(config, tmp_path)
        seen["others"] = other_profilers_enable(config)

    result = fit(LEGACY, tmp_path, edit)

    assert_one_dump_per_rank_per_step(result, [1, 2, 3])
    assert_only_the_actor_profiled(result, seen["others"])
    if seen["hook_log"] is not None:
        assert finish_hook_ranks(seen["hook_log"]) == [0, 1]
    [message] = shim_warnings()
    assert_replacement_named(message, tmp_path / "prof")
    fix = shim.status()["fixes"]["torch_memory"]
    assert fix["case"] == torch_memory.Case.LEGACY and fix["errors"] == {}
    assert fix["trainers"][fit.trainer]["patched"] is True


def test_baseline_issue_6181(fit, no_shim, tmp_path):
    result = fit(ISSUE_6181, tmp_path)

    result.raise_error()
    # The trainer starts and stops the actor at steps 1 and 2, but its profiler is disabled.
    assert result.profile_tree() == {}
    assert [profile_calls(rank) for rank in result.actor_calls] == [one_pair_per_step([1, 2])] * 2
    assert [s["enable"] for s in profiler_settings(result)] == [False, False]


def test_issue_6181(fit, shim, shim_warnings, tmp_path):
    result = fit(ISSUE_6181, tmp_path)

    assert_one_dump_per_rank_per_step(result, [1, 2])  # the trainer's own calls, now enabled
    [message] = shim_warnings()
    assert (
        "the mixed form of verl #6181" in message and "forced actor_rollout_ref.actor.profiler.enable=True" in message
    )


def test_new_style_config_is_left_alone(fit, shim_warnings, tmp_path):
    """The documented form: the same worker calls and folders with the shim as without (the
    trainer's own start/stop at the configured steps), no config edit and no warning."""
    verl_compat.deactivate()
    baseline = fit(NEW_STYLE, tmp_path / "baseline")
    verl_compat.activate()
    try:
        shimmed = fit(NEW_STYLE, tmp_path / "shim")
        case = verl_compat.status()["fixes"]["torch_memory"]["case"]
    finally:
        verl_compat.deactivate()

    baseline.raise_error()
    shimmed.raise_error()
    assert case == torch_memory.Case.NEW_STYLE and shim_warnings() == []
    for base_rank, shim_rank in zip(baseline.actor_calls, shimmed.actor_calls, strict=True):
        assert profile_calls(base_rank) == profile_calls(shim_rank) == one_pair_per_step([1, 2])
    settings = [[dict(s, save_path=None) for s in profiler_settings(run)] for run in (baseline, shimmed)]
    assert settings[0] == settings[1]  # the workers' profilers were built from the same config
    assert baseline.profile_tree() == shimmed.profile_tree() == empty_step_folders([1, 2])
