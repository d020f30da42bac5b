"""The torch_memory fix inside verl's real ``RayPPOTrainer.fit()`` (3 steps, CPU stand-ins, real Ray).

Each scenario runs without the shim (the baseline users have today) and with it. Where the baseline
differs between releases, the test asks the installed verl, not its version string: releases whose
``fit()`` still makes the legacy ``dump_memory_snapshot`` call (<= 0.7.x) crash on engine workers,
later ones silently dump nothing.
"""

import logging
import traceback

import pytest
from harness import TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT, compose_config, run_fit, tiny_model_dir

import verl_compat
from verl_compat.fixes import torch_memory

STEPS = 3
LEGACY = ["actor_rollout_ref.actor.profiler.tool=torch_memory"]
# verl #6181's overrides: steps given, the actor's enable left False (save_path comes from compose_config).
ISSUE_6181 = [
    "global_profiler.tool=torch_memory",
    "actor_rollout_ref.actor.profiler.all_ranks=True",
    "global_profiler.steps=[1,2]",
]
# verl #6198's documented replacement.
NEW_STYLE = [
    "global_profiler.tool=torch_memory",
    "global_profiler.steps=[1,2]",
    "actor_rollout_ref.actor.profiler.enable=True",
    "actor_rollout_ref.actor.profiler.all_ranks=True",
]
PROFILE_METHODS = ("start_profile", "stop_profile", "dump_memory_snapshot")


def profile_calls(rank_calls):
    """A rank's profiling calls as ``(method, profile_step)``; stop has no step, a dump its sub_dir."""
    out = []
    for call in rank_calls:
        if call["method"] in PROFILE_METHODS:
            kwargs = call["kwargs"]
            out.append((call["method"], kwargs.get("profile_step", kwargs.get("sub_dir"))))
    return out


def one_pair_per_step(steps):
    return [call for step in steps for call in (("start_profile", step), ("stop_profile", None))]


def empty_step_folders(steps):
    # On a machine without CUDA, DistProfiler creates the step folder and writes no pickle into it.
    return {f"step{step}": [] for step in steps}


def profiler_settings(result):
    """The profiler config each actor rank was built with (enable, all_ranks, ...)."""
    return [rank[0]["kwargs"]["profiler"] for rank in result.actor_calls]


def assert_one_dump_per_rank_per_step(result, steps):
    result.raise_error()
    assert result.profile_tree() == empty_step_folders(steps)
    assert len(result.actor_calls) == 2
    for rank_calls in result.actor_calls:
        assert profile_calls(rank_calls) == one_pair_per_step(steps)
    for settings in profiler_settings(result):
        assert settings["enable"] is True and settings["all_ranks"] is True


# ----------------------------------------------------------------------------------- legacy key only


def test_baseline_legacy_key(no_shim, tmp_path):
    result = run_fit(compose_config(LEGACY, tmp_path), actor="engine")
    if TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT:  # verl <= 0.7.x: the crash of verl #6180/#6181
        assert isinstance(result.error, AttributeError)
        assert "dump_memory_snapshot" in str(result.error)
    else:  # verl >= 0.8: the silence
        result.raise_error()
        assert result.profile_tree() == {}
        for rank_calls in result.actor_calls:
            assert profile_calls(rank_calls) == []


def test_legacy_key_engine_workers(shim, shim_warnings, tmp_path):
    result = run_fit(compose_config(LEGACY, tmp_path), actor="engine")

    assert_one_dump_per_rank_per_step(result, range(1, STEPS + 1))
    [message] = shim_warnings()
    for text in (
        "actor_rollout_ref.actor.profiler.tool=torch_memory",
        "global_profiler.tool=torch_memory",
        "global_profiler.steps=[1,2,3]",
        f"global_profiler.save_path={tmp_path / 'prof'}",
        "actor_rollout_ref.actor.profiler.enable=True",
        "actor_rollout_ref.actor.profiler.all_ranks=True",
        "step{N}/torch_memory_rank{R}_pid{P}.pickle",
        "post_update_step{N+1}",
        "verl-compat migrate",
    ):
        assert text in message
    assert verl_compat.status()["fixes"]["torch_memory"]["case"] == torch_memory.Case.LEGACY


def test_legacy_key_fsdp_workers_dump_once(shim, shim_warnings, tmp_path):
    """Workers that still have the legacy method: one DistProfiler dump per step, no legacy dump."""
    result = run_fit(compose_config(LEGACY, tmp_path), actor="fsdp")

    assert_one_dump_per_rank_per_step(result, range(1, STEPS + 1))  # no dump_memory_snapshot call
    assert len(shim_warnings()) == 1


# ----------------------------------------------------------------------------------- verl #6181


def test_baseline_issue_6181(no_shim, tmp_path):
    result = run_fit(compose_config(ISSUE_6181, tmp_path), actor="engine")
    if TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT:
        assert isinstance(result.error, AttributeError)
        assert "dump_memory_snapshot" in str(result.error)
    else:
        result.raise_error()
        # The trainer starts and stops the actor at steps 1 and 2, but its profiler is disabled.
        assert result.profile_tree() == {}
        assert [s["enable"] for s in profiler_settings(result)] == [False, False]


def test_issue_6181(shim, shim_warnings, tmp_path):
    result = run_fit(compose_config(ISSUE_6181, tmp_path), actor="engine")

    assert_one_dump_per_rank_per_step(result, [1, 2])  # the trainer's own calls, now enabled
    [message] = shim_warnings()
    assert "case 3" in message
    assert "forced actor_rollout_ref.actor.profiler.enable=True" in message
    assert "global_profiler.steps=[1,2]" in message


# ----------------------------------------------------------------------------------- verl #6198


def test_new_style_config_is_left_alone(shim_warnings, tmp_path):
    """The documented new form: same worker calls and folders with the shim as without, no warning.

    Where ``fit()`` still makes the legacy call (<= 0.7.x), the run needs workers that have the
    method, and the shim's one change is that the legacy call no longer dumps a second time.
    """
    actor = "fsdp" if TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT else "engine"
    verl_compat.deactivate()
    baseline = run_fit(compose_config(NEW_STYLE, tmp_path / "baseline"), actor=actor)
    verl_compat.activate()
    try:
        shimmed = run_fit(compose_config(NEW_STYLE, tmp_path / "shim"), actor=actor)
    finally:
        verl_compat.deactivate()

    baseline.raise_error()
    shimmed.raise_error()
    assert shim_warnings() == []
    assert verl_compat.status()["fixes"]["torch_memory"]["case"] is None  # deactivate forgets
    legacy_dumps = {("dump_memory_snapshot", f"step{n}") for n in range(2, STEPS + 2)}
    for base_rank, shim_rank in zip(baseline.actor_calls, shimmed.actor_calls, strict=True):
        assert profile_calls(shim_rank) == one_pair_per_step([1, 2])
        assert [c for c in profile_calls(base_rank) if c not in legacy_dumps] == profile_calls(shim_rank)
    assert shimmed.profile_tree() == empty_step_folders([1, 2])
    if TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT:
        assert baseline.profile_tree() == empty_step_folders([1, 2, 3, 4])  # + legacy step{N+1}
    else:
        assert baseline.profile_tree() == shimmed.profile_tree()


# ----------------------------------------------------------------------------------- reversibility


def test_deactivate_brings_back_the_baseline(tmp_path):
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    originals = {name: RayPPOTrainer.__dict__[name] for name in ("__init__", "_stop_profiling")}
    verl_compat.activate()
    assert all(RayPPOTrainer.__dict__[name] is not f for name, f in originals.items())
    verl_compat.deactivate()
    assert all(RayPPOTrainer.__dict__[name] is f for name, f in originals.items())

    result = run_fit(compose_config(LEGACY, tmp_path), actor="engine")
    if TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT:
        assert isinstance(result.error, AttributeError)
    else:
        result.raise_error()
        assert result.profile_tree() == {}


# ----------------------------------------------------------------------------------- fail open


def test_fault_in_shim_logic_is_logged_once_and_the_run_completes(shim, tmp_path, monkeypatch, caplog):
    def broken(trainer):
        raise RuntimeError("injected fault in the shim")

    monkeypatch.setattr(torch_memory, "_drive_actor_profiler", broken)
    with caplog.at_level(logging.ERROR, logger="verl_compat"):
        result = run_fit(compose_config(LEGACY, tmp_path), actor="engine")

    result.raise_error()  # the run completes: the legacy call is still neutralised
    failures = [r for r in caplog.records if "injected fault" in str(r.exc_info and r.exc_info[1])]
    assert len(failures) == 1
    assert "'torch_memory'" in failures[0].getMessage()
    assert verl_compat.status()["fixes"]["torch_memory"]["errors"] == {"after _stop_profiling": STEPS}


def _construct_without_actor(tmp_path):
    """Call verl's real RayPPOTrainer with no actor role: verl's own __init__ asserts."""
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer
    from verl.utils import hf_tokenizer

    config = compose_config(LEGACY, tmp_path)
    try:
        RayPPOTrainer(
            config=config,
            tokenizer=hf_tokenizer(str(tiny_model_dir(tmp_path / "model"))),
            role_worker_mapping={},
            resource_pool_manager=None,
        )
    except Exception as error:  # noqa: BLE001 - compared below
        return error
    pytest.fail("verl accepted a trainer without an actor")


def test_verl_exceptions_pass_through_unchanged(tmp_path):
    verl_compat.deactivate()
    baseline = _construct_without_actor(tmp_path)
    verl_compat.activate()
    try:
        shimmed = _construct_without_actor(tmp_path)
    finally:
        verl_compat.deactivate()

    assert type(shimmed) is type(baseline) is AssertionError
    assert str(shimmed) == str(baseline)
    tail = [(f.filename, f.name, f.line) for f in traceback.extract_tb(shimmed.__traceback__)][-1]
    assert tail == [(f.filename, f.name, f.line) for f in traceback.extract_tb(baseline.__traceback__)][-1]
    assert tail[0].endswith("verl/trainer/ppo/ray_trainer.py")
