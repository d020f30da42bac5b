"""torch_memory: legacy per-step memory snapshots, translated into DistProfiler calls.

Since verl 0.6.0, ``actor_rollout_ref.actor.profiler.tool=torch_memory`` made ``fit()`` call
``actor_rollout_wg.dump_memory_snapshot(...)`` after every step. Engine workers never had that
method (``AttributeError`` after step 1, verl #6180/#6181), and verl 0.8.0 (#6198) deleted the
call, so the same config now silently dumps nothing. Snapshots now come from the unified
DistProfiler (``global_profiler.steps`` + ``actor...profiler.enable``).

The fix reads top to bottom: :mod:`.translate` detects the case and translates the config (pure, also
used by doctor and migrate); :func:`on_trainer_init` applies it before a trainer builds its workers;
:func:`before_step` neutralises the legacy call as each step's own ``_stop_profiling`` starts, and
:func:`after_step` drives the actor worker group once it returned, in the legacy case
(:mod:`.runtime`). Which trainers get these two hooks,
and how, is the core's (:mod:`verl_compat.trainers`); this fix wraps one method itself: 0.7.x's
``SeparateRayPPOTrainer._fit_torch_memory``, a second legacy call site.

Result: one DistProfiler dump per (rank, step), at
``{save_path}/step{N}/torch_memory_rank{R}_pid{P}.pickle``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import deprecation, reach, registry, trainers
from . import probes, runtime
from .report import describe, describe_trainer
from .translate import (
    LEGACY_KEY,
    Case,
    Detection,
    Problem,
    detect,
    replacement_overrides,
    report_problems,
    translate,
    warning_text,
)

if TYPE_CHECKING:
    from .translate import ConfigEdit

__all__ = [
    "LEGACY_KEY",
    "NAME",
    "PROBES",
    "TARGETS",
    "Case",
    "Detection",
    "Problem",
    "after_step",
    "before_step",
    "describe",
    "describe_trainer",
    "detect",
    "on_trainer_init",
    "patches",
    "prepare",
    "prepare_config",
    "replacement_overrides",
    "reset",
    "state",
    "translate",
    "warning_text",
]

NAME = registry.fix_name(__name__)
SEPARATION = "verl.experimental.separation.ray_trainer"
TARGETS = (SEPARATION,)
PROBES = probes.PROBES  # what doctor shows of verl's profiler (verl probes)


def prepare(config, total_steps: int | None = None) -> tuple[Detection, list[ConfigEdit]]:
    """Detect, translate and warn: the whole config step, shared by every entry point. Returns
    the detection and the edits made, as ``(key, value)`` pairs."""
    detection = detect(config, total_steps)
    report_problems(detection.problems)
    edits = translate(config, detection)
    _record(detection)
    if detection.case in (Case.LEGACY, Case.MIXED):
        deprecation.warn_once(NAME, warning_text(detection, edits))
    return detection, edits


def prepare_config(config) -> None:
    """The config step on a launcher's config (``run_ppo``), before Ray ships it to the actors."""
    prepare(config)


def on_trainer_init(trainer) -> None:
    """Right after a trainer's ``__init__``, before it builds workers (``init_workers()``, or
    ``init()`` for the v1 trainers)."""
    detection, edits = prepare(trainer.config, getattr(trainer, "total_training_steps", None))
    setattr(trainer, runtime.STATE_ATTR, runtime.TrainerState(detection, edits))


def _state(trainer) -> runtime.TrainerState:
    state = getattr(trainer, runtime.STATE_ATTR, None)
    if state is None:
        # No config step ran on this trainer: built before activation, or an __init__ out of reach
        # (one inherited from a class outside the trainer family; the launcher's run_ppo translates
        # the config). Translating now changes nothing its workers got, but records the case; the
        # per-step driving still runs.
        on_trainer_init(trainer)
        state = getattr(trainer, runtime.STATE_ATTR)
    return state


def before_step(trainer) -> None:
    """As the trainer's step end starts, before its ``_stop_profiling`` body runs: neutralise the
    legacy call, so that none made from here on reaches a worker group — in ``fit()`` after the step,
    inside an override of ``_stop_profiling`` (with or without ``super()``), in a helper it calls."""
    if _state(trainer).detection.case != Case.NONE:
        runtime.neutralise_legacy_dump(trainer)


def after_step(trainer) -> None:
    """After the trainer's own step-end ``_stop_profiling``: neutralise the legacy call on any worker
    group the step end added (an alias made there), and, in the legacy case, drive the actor's
    DistProfiler for this step."""
    state = _state(trainer)
    if state.detection.case != Case.NONE:
        runtime.neutralise_legacy_dump(trainer)
    if not runtime.driven(state, trainer.global_steps):
        runtime.drive_actor_profiler(trainer)


def _skip_legacy_fit_torch_memory(wrapped, instance, args, kwargs):
    """0.7.x's separation trainers dump through ``_fit_torch_memory``: with the fix active the
    DistProfiler already dumps this step, so the legacy call is skipped (else it is made)."""
    skip = False
    with registry.guard(NAME, "_fit_torch_memory"):
        skip = _state(instance).detection.case != Case.NONE
    if skip:
        return None
    return wrapped(*args, **kwargs)


def patches(module) -> registry.Plan:
    """The separation trainers' legacy call site, where this verl has it (0.7.x; verl #6075
    removed it)."""
    if probes.has_legacy_fit_torch_memory(module):
        legacy = "SeparateRayPPOTrainer._fit_torch_memory"
        return registry.Plan((registry.Patch(legacy, _skip_legacy_fit_torch_memory, "skip the legacy dump"),))
    return registry.Plan()


# --- state ------------------------------------------------------------------------------------

_last = {"case": None, "problems": []}


def _record(detection: Detection) -> None:
    _last["case"] = detection.case.value
    _last["problems"] = [str(problem) for problem in detection.problems]


def _trainer_entry(cls: type) -> dict[str, bool | str]:
    found = reach.hooks_reach(cls, NAME)
    drives = found["_stop_profiling"]["wrapped"]
    init = found["__init__"]["how"]
    if drives and not found["__init__"]["wrapped"]:
        init += "; the config is translated by the launcher's run_ppo, before the trainer's Ray actor exists"
    entry = {"patched": drives, "__init__": init, "_stop_profiling": found["_stop_profiling"]["how"]}
    if hasattr(cls, "_fit_torch_memory"):
        entry["_fit_torch_memory"] = reach.method_reach(cls, "_fit_torch_memory", NAME)["how"]
    return entry


def trainer_entries() -> dict[str, dict[str, bool | str]]:
    """Per trainer class found (qualified name): whether the fix drives it, and how each method is
    reached."""
    found = {f"{cls.__module__}.{cls.__qualname__}": _trainer_entry(cls) for cls in trainers.listed_classes()}
    return dict(sorted(found.items()))


def state() -> dict[str, object]:
    """The last detected case in this process (None before any config was seen) and the problems
    found in that config, and the trainer classes of the imported verl modules with how each is
    patched."""
    return {"case": _last["case"], "problems": _last["problems"], "trainers": trainer_entries()}


def reset() -> None:
    """Forget the detected case and restore every neutralised worker group method."""
    _last["case"] = None
    _last["problems"] = []
    runtime.restore_legacy_dumps()
