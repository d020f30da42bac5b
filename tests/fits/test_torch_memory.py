"""The torch_memory fix inside verl's real ``RayPPOTrainer.fit()`` (3 steps, CPU stand-ins, real Ray).

Each scenario runs without the shim (the baseline users have today) and with it. Where the baseline
differs between releases, the test asks the installed verl, not its version string: releases whose
``fit()`` still makes the legacy ``dump_memory_snapshot`` call (<= 0.7.x) crash on actor workers
without the method (0.7.x's engine workers; 0.6.0's Megatron workers), and dump one step late on
workers that have it (0.6.1's FSDP and Megatron workers both do, 0.7.x's FSDP workers); later
releases silently dump nothing; DistProfiler ignores ``enable`` before 0.7.1.
"""

import logging
import traceback

import pytest
from expectations import (
    ISSUE_6181,
    LEGACY,
    NEW_STYLE,
    STEPS,
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
from harness import (
    BASELINE_ACTOR,
    TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT,
    compose_config,
    run_fit,
    tiny_model_dir,
    verl_actor_workers,
)

import verl_compat
from verl_compat.fixes import torch_memory
from verl_compat.fixes.torch_memory import probes

# ----------------------------------------------------------------------------------- legacy key only


def test_baseline_legacy_key(tmp_path):
    """verl as released, reached by deactivating verl-compat: its own methods come back by identity,
    and the run is the baseline users have today, on an actor shaped like verl's own workers."""
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    verl_compat.deactivate()
    originals = {name: RayPPOTrainer.__dict__[name] for name in ("__init__", "_stop_profiling")}
    verl_compat.activate()
    assert all(RayPPOTrainer.__dict__[name] is not f for name, f in originals.items())
    verl_compat.deactivate()
    assert all(RayPPOTrainer.__dict__[name] is f for name, f in originals.items())

    result = run_fit(compose_config(LEGACY, tmp_path), actor=BASELINE_ACTOR)
    workers = verl_actor_workers()
    if TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT and BASELINE_ACTOR == "fsdp":
        # 0.6.1: every actor worker verl builds registers the legacy method: no crash; each rank
        # dumps after each step, into folders labelled one step late (step2..step4).
        assert workers and all(workers.values()), workers
        result.raise_error()
        assert result.profile_tree() == empty_step_folders(range(2, STEPS + 2))
        for rank_calls in result.actor_calls:
            assert profile_calls(rank_calls) == [("dump_memory_snapshot", f"step{n}") for n in range(2, STEPS + 2)]
    elif TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT:  # 0.7.x's engine workers: the crash of verl #6180/#6181
        assert not all(workers.values()), workers
        assert isinstance(result.error, AttributeError)
        assert "dump_memory_snapshot" in str(result.error)
    else:  # verl >= 0.8: the silence
        assert_no_profiling(result)


def test_legacy_key_engine_workers(shim, shim_warnings, tmp_path):
    """One start/stop pair per rank per step on the actor alone; where ``stop_profile`` takes
    ``run_command`` (0.9.1+) it is True on the last step only, so the user's finish hook runs once
    per rank, not once per step."""
    config = compose_config(LEGACY, tmp_path)
    hook_log = add_finish_hook(config, tmp_path)
    others = other_profilers_enable(config)
    result = run_fit(config, actor="engine")

    assert_one_dump_per_rank_per_step(result, range(1, STEPS + 1))
    assert_only_the_actor_profiled(result, others)
    if hook_log is not None:
        assert finish_hook_ranks(hook_log) == [0, 1]
    [message] = shim_warnings()
    assert_replacement_named(message, tmp_path / "prof")
    assert verl_compat.status()["fixes"]["torch_memory"]["case"] == torch_memory.Case.LEGACY


def test_legacy_key_fsdp_workers_dump_once_on_the_chosen_rank(shim, shim_warnings, tmp_path, caplog):
    """Workers that still have the legacy method (whose body dumps on every rank): one DistProfiler
    dump per step, no legacy dump, and with ``ranks=[1]`` only rank 1's profiler can dump:
    ``all_ranks`` is not forced. The actor's own save_path contradicts global_profiler.save_path:
    the actor's wins, as the message says (docs/torch_memory.md, precedence)."""
    actor_path = tmp_path / "actor-profile"
    actor_profiler = "actor_rollout_ref.actor.profiler"
    config = compose_config(
        [*LEGACY, f"{actor_profiler}.save_path={actor_path}", f"{actor_profiler}.ranks=[1]"], tmp_path
    )
    hook_log = add_finish_hook(config, tmp_path)
    with caplog.at_level(logging.WARNING, logger="verl_compat"):
        result = run_fit(config, actor="fsdp")

    result.raise_error()
    assert result.profile_tree() == empty_step_folders(range(1, STEPS + 1))
    for rank_calls in result.actor_calls:  # the pairs reach every rank; no dump_memory_snapshot call
        assert profile_calls(rank_calls) == one_pair_per_step(range(1, STEPS + 1))
    settings = profiler_settings(result)
    assert [(s["enable"], s["all_ranks"], s["ranks"]) for s in settings] == [(True, False, [1])] * 2
    if probes.profiler_gated_by_enable():  # verl's own verdict, where its DistProfiler gives one
        assert [s["this_rank"] for s in settings] == [False, True]
    if hook_log is not None:  # the finish hook follows the profiled ranks: rank 1, once
        assert finish_hook_ranks(hook_log) == [1]
    assert result.profile_dir == actor_path and not (tmp_path / "prof").exists()
    assert len(shim_warnings()) == 1
    said = [r.getMessage() for r in caplog.records if "the actor's own key wins" in r.getMessage()]
    assert len(said) == 1 and f"the snapshots go to '{actor_path}'" in said[0]


# ----------------------------------------------------------------------------------- verl #6181


def test_baseline_issue_6181(no_shim, tmp_path):
    if TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT and BASELINE_ACTOR == "fsdp":
        pytest.skip("every actor worker of this verl has dump_memory_snapshot: see the _legacy_workers baseline")
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
    assert "the mixed form of verl #6181" in message
    assert "forced actor_rollout_ref.actor.profiler.enable=True" in message
    assert "global_profiler.steps=[1,2]" in message


legacy_workers = pytest.mark.skipif(
    not TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT, reason="fit() makes the legacy dump call in verl <= 0.7.x only"
)


@legacy_workers
def test_baseline_issue_6181_legacy_workers(no_shim, tmp_path):
    """Workers that have the legacy method (0.6.x's FSDP and Megatron ones, 0.7.x's FSDP ones): the
    legacy dumps land one step late in step2..4, and where DistProfiler is not gated by ``enable``
    (before 0.7.1; asked of verl), the trainer's own start/stop at steps 1, 2 dump despite it."""
    result = run_fit(compose_config(ISSUE_6181, tmp_path), actor="fsdp")

    result.raise_error()
    legacy = {2, 3, 4}
    own = set() if probes.profiler_gated_by_enable() else {1, 2}
    assert result.profile_tree() == empty_step_folders(sorted(legacy | own))


@legacy_workers
def test_issue_6181_legacy_workers(shim, shim_warnings, tmp_path):
    """With the shim: only the trainer's own calls at steps 1, 2, now enabled; no legacy dump."""
    result = run_fit(compose_config(ISSUE_6181, tmp_path), actor="fsdp")

    assert_one_dump_per_rank_per_step(result, [1, 2])  # exactly the pairs: no dump_memory_snapshot
    assert len(shim_warnings()) == 1


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
    legacy_dumps = [("dump_memory_snapshot", f"step{n}") for n in range(2, STEPS + 2)]
    for base_rank, shim_rank in zip(baseline.actor_calls, shimmed.actor_calls, strict=True):
        assert profile_calls(shim_rank) == one_pair_per_step([1, 2])
        assert [c for c in profile_calls(base_rank) if c not in legacy_dumps] == profile_calls(shim_rank)
    assert shimmed.profile_tree() == empty_step_folders([1, 2])
    if TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT:
        assert baseline.profile_tree() == empty_step_folders([1, 2, 3, 4])  # + legacy step{N+1}
    else:
        assert baseline.profile_tree() == shimmed.profile_tree()


# ----------------------------------------------------------------------------------- fail open


@pytest.mark.once  # the guard is the same code on every release
@pytest.mark.shim_errors("torch_memory:after _stop_profiling")
def test_fault_in_shim_logic_is_logged_once_and_the_run_completes(shim, tmp_path, monkeypatch, caplog):
    def broken(trainer):
        raise RuntimeError("injected fault in the shim")

    monkeypatch.setattr(torch_memory.runtime, "drive_actor_profiler", broken)
    with caplog.at_level(logging.ERROR, logger="verl_compat"):
        result = run_fit(compose_config(LEGACY, tmp_path), actor="engine")

    result.raise_error()  # the run completes: the legacy call is still neutralised
    failures = [r for r in caplog.records if "injected fault" in str(r.exc_info and r.exc_info[1])]
    assert len(failures) == 1
    assert "'torch_memory'" in failures[0].getMessage()
    assert verl_compat.status()["fixes"]["torch_memory"]["errors"] == {"after _stop_profiling": STEPS}


# Every other piece of the fix's own logic that runs inside fit(), made to raise -> the places the
# error is logged at (once each) and how many times it happened in 3 steps. With fsdp-style workers
# the run completes on every release even where the fix cannot act at all (the legacy method exists).
FAULTS = {
    # detect/translate/warn: in the wrapped __init__, and again by each step's hooks (before and
    # after the step end), which find no state from __init__ and try to prepare it themselves.
    "prepare": {"after __init__": 1, "before _stop_profiling": STEPS, "after _stop_profiling": STEPS},
    # as each step end starts, and again once it returned (a worker group aliased meanwhile)
    "runtime.neutralise_legacy_dump": {"before _stop_profiling": STEPS, "after _stop_profiling": STEPS},
}


@pytest.mark.once  # the guard is the same code on every release
@pytest.mark.shim_errors("torch_memory")
@pytest.mark.parametrize("where", FAULTS)
def test_fault_in_each_wrapper_is_logged_once_and_the_run_completes(where, shim, tmp_path, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError(f"injected fault in {where}")

    owner, _, name = where.rpartition(".")
    monkeypatch.setattr(getattr(torch_memory, owner) if owner else torch_memory, name, broken)
    with caplog.at_level(logging.ERROR, logger="verl_compat"):
        result = run_fit(compose_config(LEGACY, tmp_path), actor="fsdp")

    result.raise_error()
    assert [[c["method"] for c in rank].count("update_actor") for rank in result.actor_calls] == [STEPS, STEPS]
    failures = [r for r in caplog.records if "injected fault" in str(r.exc_info and r.exc_info[1])]
    assert sorted(r.getMessage().split(" failed in ")[1].split(";")[0] for r in failures) == sorted(FAULTS[where])
    assert all(r.getMessage().startswith("verl-compat: fix 'torch_memory' failed in ") for r in failures)
    assert verl_compat.status()["fixes"]["torch_memory"]["errors"] == FAULTS[where]


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
    except Exception as error:
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
