"""The torch_memory fix in trainers written outside verl: ``RayPPOTrainer`` subclasses shaped like
recipe and user trainers (``tests/support/recipe_trainers.py``), each through its real ``fit()`` loop
on the engine-style actor stand-in (no ``dump_memory_snapshot``, like verl's engine workers), 3 steps,
the legacy key only.

Their copied old ``fit()`` keeps the legacy ``dump_memory_snapshot`` call after
``global_steps += 1``, which verl 0.8.0 deleted from its own ``fit()`` only: without the shim such a
copy fails on engine workers on every release. With it, every shape that has a step-end
``_stop_profiling`` gets one ``start_profile(profile_step=N)``/``stop_profile`` pair per actor rank
per step, folders ``step1..step3``, no legacy call reaching a worker, one warning: wherever the
legacy call is made (in ``fit()``, inside ``_stop_profiling`` with or without ``super()``, in a helper
it calls, through an aliased worker group), the class defined before or after activation, or in a
module that only the TaskRunner actor imports.
"""

import sys

import harness
import pytest
import ray
import recipe_trainers
from expectations import LEGACY, STEPS, assert_one_dump_per_rank_per_step, profile_calls
from harness import compose_config, run_fit

import verl_compat

pytestmark = pytest.mark.sides

ALL_STEPS = list(range(1, STEPS + 1))


def assert_served(result, warnings):
    """One pair per rank per step (so no legacy dump reached a worker), ``step1..3``, one warning."""
    assert_one_dump_per_rank_per_step(result, ALL_STEPS)
    assert len(warnings) == 1


PLACEMENTS = sorted(recipe_trainers.LEGACY_CALL_PLACEMENTS)


def _shape(placement):
    return getattr(recipe_trainers, recipe_trainers.LEGACY_CALL_PLACEMENTS[placement])


@pytest.mark.once  # the user's own call to a method engine workers never had: no verl code decides it
@pytest.mark.parametrize("placement", PLACEMENTS)
def test_baseline_legacy_call_crashes_on_engine_workers(no_shim, tmp_path, placement):
    """verl #6180/#6181 on every release: wherever a trainer makes the legacy call, it reaches
    worker groups without the method, at step 1. The failure is the user's copied call alone, the
    same on every release: shown once, in the newest."""
    result = run_fit(compose_config(LEGACY, tmp_path), trainer_cls=_shape(placement))

    assert isinstance(result.error, AttributeError) and "dump_memory_snapshot" in str(result.error)
    assert [[c["method"] for c in rank].count("update_actor") for rank in result.actor_calls] == [1, 1]
    assert all(profile_calls(rank) == [] for rank in result.actor_calls)


def _defined_for(placement):
    """The shape's class, its statement run when the test needs it: the copied ``fit()`` while
    verl-compat is inactive (found through ``__subclasses__()`` at activation), the override without
    ``super()`` once it is active (patched by its base's ``__init_subclass__``)."""
    if placement == "in_fit":
        verl_compat.deactivate()
        trainer_cls = recipe_trainers.define_copied_fit_trainer()
        verl_compat.activate()
        return trainer_cls
    if placement == "override_without_super":
        return recipe_trainers.define_legacy_without_super_trainer()
    return _shape(placement)


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_legacy_call_is_harmless_wherever_it_is_made(shim, shim_warnings, tmp_path, placement):
    """In ``fit()`` after the step, through an aliased worker group, inside an override of
    ``_stop_profiling`` after ``super()`` or without it, or in a helper the override calls: the call
    is neutralised before the step end starts (not after it returned, which would be too late for the
    three inside the override), 3 steps complete, one pair per rank per step (also from an override
    that never calls ``super()``), one warning; classes defined before or after activation alike."""
    result = run_fit(compose_config(LEGACY, tmp_path), trainer_cls=_defined_for(placement))

    assert result.error is None, result.error
    assert_served(result, shim_warnings())


def test_trainer_defined_only_inside_the_task_runner(shim, tmp_path):
    """verl's ``run_ppo`` with a TaskRunner that builds ``recipe_taskrunner_trainer``'s class, a
    module the driver never imports (copied ``fit()``, ``_stop_profiling`` calling ``super()``). The
    fix reaches the actor by auto-load, as in production."""
    from recipe_task_runner import TRAINER_MODULE, RecipeTaskRunner

    config = compose_config(LEGACY, tmp_path)
    if "use_legacy_worker_impl" in config.trainer:
        config.trainer.use_legacy_worker_impl = "disable"  # 0.7.x: the engine workers, not FSDP ones
    config = harness._as_main_passes_it(config)
    with harness._fit_run(config) as result:
        harness.main_ppo.run_ppo(config, task_runner_class=ray.remote(num_cpus=1)(RecipeTaskRunner))

    ran = f"{TRAINER_MODULE}.TaskRunnerOnlyRecipeTrainer"
    assert result.calls["trainer"] == [[{"method": "fit", "kwargs": {"class": ran}}]]
    assert TRAINER_MODULE not in sys.modules
    assert_one_dump_per_rank_per_step(result, ALL_STEPS)


def test_shapes_are_named_by_module_and_class():
    """``recipe_trainers:<Name>`` is each shape's own name (what ``verl-compat doctor --trainer`` imports)."""
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    for name in (*recipe_trainers.COVERABLE, recipe_trainers.UNCOVERABLE):
        cls = getattr(recipe_trainers, name)
        assert issubclass(cls, RayPPOTrainer) and (cls.__module__, cls.__qualname__) == ("recipe_trainers", name)
