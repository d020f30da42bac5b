"""The torch_memory fix in the separation-based trainers (``verl.experimental``): the shared step code
of ``SeparateRayPPOTrainer`` (its 0.7.x ``_fit_torch_memory`` is the second legacy call site),
``OneStepOffRayTrainer`` (its ``__init__`` does not call ``super().__init__``) and
``FullyAsyncTrainer`` (a Ray actor class of its own: its config translated in the launcher, and its own
``__init__``, which does not call ``super().__init__``, wrapped by the structural rule in its actor).

What runs for real, per test, is said in its docstring. Which trainers a release has is asked of it:
the 0.7.1 wheel ships only ``separation``; the one-step-off and fully-async packages have no
``__init__.py`` there, so they exist only in a source checkout (from 0.8.0 they are in the wheel).
"""

import importlib.util
import json
import logging
import os
import re
import traceback
from pathlib import Path

import pytest
from expectations import LEGACY, assert_one_dump_per_rank_per_step
from harness import compose_config
from paths import SUPPORT
from pyrun import SHIM_SETTINGS, run_argv

import verl_compat
from verl_compat.fixes.torch_memory import probes


def _has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


def _legacy_call_site() -> bool:
    if not _has("verl.experimental.separation.ray_trainer"):
        return False
    from verl.experimental.separation import ray_trainer

    return probes.has_legacy_fit_torch_memory(ray_trainer)


def _stop_kwargs(step):
    # run_command (0.9.1+) fires the user's finish hook: on the last step only.
    return {"run_command": step == 3} if probes.stop_profile_takes_run_command() else {}


# What the shim makes each trainer call on its actor worker group, steps 1..3 of 3.
ONE_PAIR_PER_STEP = [
    call
    for step in (1, 2, 3)
    for call in (("start_profile", {"profile_step": step}), ("stop_profile", _stop_kwargs(step)))
]


# ----------------------------------------------------------------------------------- SeparateRayPPOTrainer


needs_fit_torch_memory = pytest.mark.skipif(
    not _legacy_call_site(), reason="SeparateRayPPOTrainer._fit_torch_memory exists in 0.7.x only"
)


@needs_fit_torch_memory
def test_baseline_legacy_key_crashes_in_fit_torch_memory(no_shim, tmp_path):
    """Real: ``SeparateRayPPOTrainer.fit()``/``fit_step()`` and every ``_fit_*`` step, with the
    harness's stand-in workers (engine-style: no ``dump_memory_snapshot``, as every worker these
    trainers run on in 0.7.1)."""
    from harness_trainers import run_separate_fit

    result = run_separate_fit(compose_config(LEGACY, tmp_path), actor="engine")

    assert isinstance(result.error, AttributeError) and "dump_memory_snapshot" in str(result.error)
    frames = [frame.name for frame in traceback.extract_tb(result.error.__traceback__)]
    assert frames[frames.index("fit_step") + 1] == "_fit_torch_memory"
    assert result.profile_tree() == {}


@needs_fit_torch_memory
def test_legacy_key_one_dump_per_step_and_no_legacy_call(shim, shim_warnings, tmp_path):
    """Same real loop, with workers that still have the legacy method (fsdp-style), so a legacy call
    would show in their log: there is none, and one DistProfiler pair per step and rank."""
    from harness_trainers import run_separate_fit

    result = run_separate_fit(compose_config(LEGACY, tmp_path), actor="fsdp")

    assert_one_dump_per_rank_per_step(result, [1, 2, 3])  # exactly the pairs: no dump_memory_snapshot
    assert len(shim_warnings()) == 1
    trainers = shim.status()["fixes"]["torch_memory"]["trainers"]
    separate = trainers["verl.experimental.separation.ray_trainer.SeparateRayPPOTrainer"]
    assert separate["_fit_torch_memory"] == "wrapped (own)" and separate["patched"] is True


@needs_fit_torch_memory
@pytest.mark.shim_errors("torch_memory")
def test_fault_in_fit_torch_memory_wrapper_is_logged_once_and_the_run_completes(shim, tmp_path, monkeypatch, caplog):
    """Same real loop; the fix's reading of the trainer's state made to raise: the legacy
    ``_fit_torch_memory`` runs as in verl (fsdp-style workers, which have the method), the run
    completes, and the error is logged once per place with the fix's name."""
    from harness_trainers import run_separate_fit

    from verl_compat.fixes import torch_memory

    def broken(trainer):
        raise RuntimeError("injected fault in _state")

    monkeypatch.setattr(torch_memory, "_state", broken)
    with caplog.at_level(logging.ERROR, logger="verl_compat"):
        result = run_separate_fit(compose_config(LEGACY, tmp_path), actor="fsdp")

    result.raise_error()
    legacy = [
        [call["kwargs"].get("sub_dir") for call in rank if call["method"] == "dump_memory_snapshot"]
        for rank in result.actor_calls
    ]
    assert legacy == [["step1", "step2", "step3"]] * 2, "without the fix there, verl's own legacy dump ran"
    failures = [r.getMessage() for r in caplog.records if "injected fault" in str(r.exc_info and r.exc_info[1])]
    places = {"_fit_torch_memory": 3, "before _stop_profiling": 3, "after _stop_profiling": 3}
    assert sorted(message.split(" failed in ")[1].split(";")[0] for message in failures) == sorted(places)
    assert verl_compat.status()["fixes"]["torch_memory"]["errors"] == places


# ----------------------------------------------------------------------------------- OneStepOffRayTrainer


@pytest.mark.skipif(
    not _has("verl.experimental.one_step_off_policy.ray_trainer"), reason="OneStepOffRayTrainer is not in this verl"
)
@pytest.mark.parametrize("active", [False, True], ids=["baseline", "shim"])
def test_one_step_off_trainer(active, tmp_path, shim_warnings):
    """Real: ``OneStepOffRayTrainer.__init__`` (verl's own, which does not call ``super().__init__``)
    and its step-end ``_fit_stop_profile`` -> inherited ``_stop_profiling``, on a recording actor
    worker group. Not run: its async ``fit`` (needs GPU rollout servers)."""
    from recording import run_step_ends
    from verl.experimental.one_step_off_policy.ray_trainer import OneStepOffRayTrainer
    from verl.trainer.ppo.ray_trainer import Role
    from verl.utils import hf_tokenizer

    config = compose_config([*LEGACY, "actor_rollout_ref.hybrid_engine=False"], tmp_path)
    verl_compat.deactivate()
    if active:
        verl_compat.activate()
    try:
        trainer = OneStepOffRayTrainer(
            config, hf_tokenizer(config.actor_rollout_ref.model.path), {Role.ActorRollout: object}, None
        )
        calls = run_step_ends(trainer)
    finally:
        verl_compat.deactivate()

    profiler = config.actor_rollout_ref.actor.profiler  # what init_workers() would hand the workers
    if active:
        assert (profiler.enable, profiler.all_ranks) == (True, True)
        assert calls == ONE_PAIR_PER_STEP
        assert len(shim_warnings()) == 1
    else:
        assert (profiler.enable, profiler.all_ranks) == (False, False)
        assert calls == []


# ----------------------------------------------------------------------------------- FullyAsyncTrainer

LAUNCHER = Path(__file__).with_name("fully_async_launcher.py")
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # Ray colours the prefixes of the workers' lines


@pytest.mark.skipif(
    not _has("verl.experimental.fully_async_policy.fully_async_trainer"), reason="FullyAsyncTrainer is not in this verl"
)
def test_fully_async_trainer_through_the_launcher(tmp_path):
    """Real: a user's launcher (``import verl_compat`` first, in a fresh process), verl's
    ``fully_async_main.main``, the wrapped ``run_ppo`` and its ``ray.init``, the config shipped by
    value to a Ray actor, verl's ``FullyAsyncTrainer`` class built in that actor from that config
    (undecorated, as the task runner builds it, but in its process), and its step-end
    ``_fit_stop_profile`` -> inherited ``_stop_profiling``, on a recording actor worker group.
    Stand-in: the task runner (``recording.FullyAsyncTrainerProbe``); the real one builds the
    rollouter, message queue and GPU workers. Not run: the async training loop itself.

    Without the shim nothing edits the config and nothing drives the actor (the trainer's own
    profiling needs ``global_profiler.steps``), as the other trainers' baselines show."""
    path = os.pathsep.join([str(SUPPORT), str(LAUNCHER.parent)])
    run = run_argv([LAUNCHER, tmp_path], env={"PYTHONPATH": path}, drop=(*SHIM_SETTINGS, "RAY_"), timeout=600)
    seen = json.loads((tmp_path / "probe.json").read_text())

    # Edited in the launcher, before the trainer's Ray actor exists; FullyAsyncTrainer's own __init__
    # (no super().__init__) is wrapped by the structural rule too, and reads the case in the actor.
    assert (seen["profiler"]["enable"], seen["profiler"]["all_ranks"]) == (True, True)
    assert [tuple(call) for call in seen["calls"]] == ONE_PAIR_PER_STEP
    assert seen["status"]["patched"] is True
    assert seen["status"]["__init__"] == "wrapped (own)"
    # One warning per process: the launcher's (its run_ppo translated the config) and the trainer
    # actor's (its wrapped __init__ read the case); Ray prefixes the actor's lines with its name.
    said = [line for line in ANSI.sub("", run.stderr).splitlines() if "VerlCompatDeprecationWarning: " in line]
    assert all("(legacy per-step snapshots)" in line for line in said)
    assert sorted(line.startswith("(FullyAsyncTrainerProbe pid=") for line in said) == [False, True], said


def test_stop_profiling_coroutine_overrides_are_not_wrapped():
    """``FullyAsyncRollouter._stop_profiling`` (0.8+) is ``async def (self)``: it is reported as not
    driven, and nothing wraps it."""
    if not _has("verl.experimental.fully_async_policy.fully_async_rollouter"):
        pytest.skip("FullyAsyncRollouter is not in this verl")
    from verl.experimental.fully_async_policy import fully_async_rollouter

    rollouter = fully_async_rollouter.FullyAsyncRollouter.__ray_metadata__.modified_class.__ray_actor_class__
    original = vars(rollouter)["_stop_profiling"]
    verl_compat.deactivate()
    verl_compat.activate()
    try:
        assert vars(rollouter)["_stop_profiling"] is original
        entry = verl_compat.status()["fixes"]["torch_memory"]["trainers"][
            "verl.experimental.fully_async_policy.fully_async_rollouter.FullyAsyncRollouter"
        ]
        assert entry["patched"] is False and "coroutine" in entry["_stop_profiling"]
    finally:
        verl_compat.deactivate()


def test_status_lists_each_trainer_class_found(shim):
    """Every trainer class of the imported verl modules, whether it is driven and how."""
    import verl.trainer.ppo.ray_trainer  # noqa: F401

    trainers = shim.status()["fixes"]["torch_memory"]["trainers"]
    assert trainers["verl.trainer.ppo.ray_trainer.RayPPOTrainer"] == {
        "patched": True,
        "__init__": "wrapped (own)",
        "_stop_profiling": "wrapped (own)",
    }
    for name, entry in trainers.items():
        assert set(entry) <= {"patched", "__init__", "_stop_profiling", "_fit_torch_memory"}, name
