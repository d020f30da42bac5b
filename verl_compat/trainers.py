"""The trainer classes verl-compat reaches, and where each fix's trainer hooks run in them.

Every fix that works on a trainer needs the same moments: right after ``__init__`` (the config
is read, nothing is built yet) and once at the end of each step (as the trainer's own
``_stop_profiling`` starts, and after it returned). This module owns them, once: the table of
verl's trainer classes (:data:`TRAINERS`) and one structural rule for every class that inherits
from them, wherever and whenever it is defined (a recipe, a team's own subclass, a module that
only the ``TaskRunner`` actor imports):

- each own ``__init__`` of a family class that does not call ``super().__init__`` is wrapped
  (one that does reaches its base's wrapper);
- each own ``_stop_profiling`` of a known shape (:func:`verl_compat.probes.stop_profiling_shape`)
  is wrapped, overrides that never call ``super()`` included;
- a hook runs once per call, at the outermost wrapped call (``before_step`` as it starts, the
  others when it returns): an override calling its base through ``super()`` does not run it twice.

Subclasses that exist when a base is patched are found through ``__subclasses__()``; later ones
through an ``__init_subclass__`` set on the base (removed again by ``deactivate()``), and at the
latest when the first instance is built. Classes are patched in place, never replaced: Ray
pickles classes by reference, and verl looks trainers up by name. How a class is reached is read
back by :mod:`verl_compat.reach`.
"""

from __future__ import annotations

import dataclasses
import logging
import sys
import types
from typing import Any

from . import probes, registry, wrapping

logger = logging.getLogger("verl_compat")


@dataclasses.dataclass(frozen=True)
class TrainerRow:
    """A trainer class verl defines, and what of it the trainer hooks wrap where verl has it."""

    module: str
    name: str
    init: bool  # its own __init__ builds no workers yet: the config step runs right after it
    stop: str | None  # the shape (probes.stop_profiling_shape) of its own _stop_profiling, if it has one


# Subclasses not listed inherit a wrapped method or are wrapped by the structural rule:
# SeparateRayPPOTrainer, the v1 PPOTrainerSync/ColocateAsync/SeparateAsync, and FullyAsyncTrainer,
# a Ray actor class whose own __init__ does not call super().__init__ and is wrapped itself (the
# config step runs in its actor; the launcher's run_ppo translates the config too).
# FullyAsyncRollouter's _stop_profiling is a coroutine that drives rollout servers only.
TRAINERS = (
    TrainerRow("verl.trainer.ppo.ray_trainer", "RayPPOTrainer", init=True, stop="do_profile"),
    TrainerRow("verl.trainer.ppo.v1.trainer_base", "PPOTrainer", init=True, stop="no_args"),  # 0.9+ default
    TrainerRow("verl.trainer.main_ppo_sync", "PPOTrainer", init=True, stop="no_args"),  # 0.8.0
    # Its __init__ does not call super().__init__ (0.7.1+); it inherits _stop_profiling.
    TrainerRow("verl.experimental.one_step_off_policy.ray_trainer", "OneStepOffRayTrainer", init=True, stop=None),
    # 0.7.x source trees (not in the wheels): overrides that call super()._stop_profiling first.
    TrainerRow("verl.experimental.vla.rob_ray_trainer", "RobRayPPOTrainer", init=False, stop="do_profile"),
    TrainerRow("verl.experimental.vla.sac.sac_ray_trainer", "RobRaySACTrainer", init=False, stop="do_profile"),
    # verl-omni 0.2.0 (a package of its own): trainers that are no RayPPOTrainer, each with its own
    # __init__ (no super().__init__) and _stop_profiling(do_profile) on actor_rollout_wg. The base
    # covers PolicyGradientRayTrainer and DirectPreferenceRayTrainer; OmniPPOTrainerSync inherits
    # verl's v1 PPOTrainer. Its diffusion/v1 trainers have no profiling point at all.
    TrainerRow(
        "verl_omni.trainer.diffusion.ray_diffusion_trainer", "BaseRayDiffusionTrainer", init=True, stop="do_profile"
    ),
    TrainerRow(
        "verl_omni.trainer.omni.ray_omni_trainer", "OmniDirectPreferenceRayTrainer", init=True, stop="do_profile"
    ),
)
MODULES = tuple(dict.fromkeys(trainer.module for trainer in TRAINERS))

INIT, STOP = "__init__", "_stop_profiling"
_DEPTH_ATTR = "_verl_compat_depth"


# --- the hooks' wrappers ------------------------------------------------------------------------


def _enter(instance, key) -> bool:
    """Count a wrapped call in; True for the outermost one."""
    depths = instance.__dict__.setdefault(_DEPTH_ATTR, {})
    depths[key] = depths.get(key, 0) + 1
    return depths[key] == 1


def _leave(instance, key) -> None:
    instance.__dict__[_DEPTH_ATTR][key] -= 1


# The hooks each wrapped method runs, as (hook, where): before the outermost call, after it returns.
_BEFORE = {STOP: ("before_step", "before _stop_profiling")}
_AFTER = {INIT: ("on_trainer_init", "after __init__"), STOP: ("after_step", "after _stop_profiling")}
# Method -> the hooks run at it (a fix with any of them gets that method wrapped).
TRAINER_HOOKS_AT = {
    method: tuple(pair[0] for pair in (_BEFORE.get(method), _AFTER[method]) if pair) for method in _AFTER
}


def _wrapper(fix: types.ModuleType, method: str) -> registry.Wrapper:
    before, after = _BEFORE.get(method), _AFTER[method]

    def wrapper(wrapped, instance, args, kwargs):
        key = (fix.NAME, method)
        outermost = True
        with registry.guard(fix.NAME, after[1]):
            outermost = _enter(instance, key)
        if outermost and before:
            registry.run_hook(fix, before[0], instance, where=before[1])
        try:
            result = wrapped(*args, **kwargs)
        finally:
            with registry.guard(fix.NAME, after[1]):
                _leave(instance, key)
        if outermost:
            if method == INIT:
                patch_class(type(instance))
            registry.run_hook(fix, after[0], instance, where=after[1])
        return result

    wrapper.__name__ = wrapper.__qualname__ = f"_{fix.NAME}_{after[0]}"
    return wrapper


_wrappers: dict[tuple[str, str], registry.Wrapper] = {}  # (fix, method) -> its wrapper


def wrapper_for(fix: types.ModuleType, method: str) -> registry.Wrapper:
    """The one wrapper of ``fix`` for ``method`` (identity is stable across activations)."""
    key = (fix.NAME, method)
    if key not in _wrappers:
        _wrappers[key] = _wrapper(fix, method)
    return _wrappers[key]


def _hooked(fix, method: str) -> bool:
    return any(callable(getattr(fix, hook, None)) for hook in TRAINER_HOOKS_AT[method])


# --- what to wrap -------------------------------------------------------------------------------


def _is_ray_copy(cls) -> bool:
    # Ray's ActorClass keeps the user's class and adds a subclass of its own: never patch that copy.
    return "__ray_actor_class__" in vars(cls) or cls.__name__.startswith("ActorClass(")


def family(cls: type) -> list[type]:
    """``cls`` and every subclass of it defined so far (Ray's actor copies left out)."""
    found: dict[type, None] = {}  # ordered, no duplicates
    stack = [cls]
    while stack:
        current = stack.pop()
        if isinstance(current, type) and current not in found and not _is_ray_copy(current):
            found[current] = None
            stack.extend(current.__subclasses__())
    return list(found)


def _row_patches(cls: type, row: TrainerRow, fix: types.ModuleType) -> tuple[list[registry.Patch], dict[str, str]]:
    """For a listed verl class: its own ``__init__`` and ``_stop_profiling`` as the table says."""
    patches: list[registry.Patch] = []
    skipped: dict[str, str] = {}
    if row.init and probes.defines(cls, INIT) and _hooked(fix, INIT):
        patches.append(registry.Patch(f"{row.name}.{INIT}", wrapper_for(fix, INIT), "the config step"))
    stop = f"{row.name}.{STOP}"
    if row.stop is None or not _hooked(fix, STOP) or (hasattr(cls, STOP) and not probes.defines(cls, STOP)):
        return patches, skipped
    if probes.stop_profiling_shape(getattr(cls, STOP, None)) == row.stop:
        patches.append(registry.Patch(stop, wrapper_for(fix, STOP), "the step-end hook"))
    elif hasattr(cls, STOP):
        skipped[stop] = f"a signature other than the expected {row.stop} form in this verl"
    else:
        skipped[stop] = "not found in this verl"
    return patches, skipped


_said_unknown: set[type] = set()


def class_plan(cls, fix) -> registry.Plan:
    """The structural rule for one subclass (not a listed class), as a Plan with ``owner=cls``."""
    patches = []
    if _is_ray_copy(cls) or _is_listed(cls):  # a listed class is patched by its row, when its module is
        return registry.Plan()
    if _hooked(fix, INIT) and probes.defines(cls, INIT) and not probes.init_calls_super(cls):
        patches.append(registry.Patch(INIT, wrapper_for(fix, INIT), "the config step", owner=cls))
    if _hooked(fix, STOP) and probes.defines(cls, STOP):
        if probes.stop_profiling_shape(vars(cls)[STOP]) is not None:
            patches.append(registry.Patch(STOP, wrapper_for(fix, STOP), "the step-end hook", owner=cls))
        elif cls not in _said_unknown:
            # Not a skip of verl's own: a coroutine (FullyAsyncRollouter drives rollout servers only)
            # or a user's signature; said once, never a crash (doctor --trainer names it).
            _said_unknown.add(cls)
            logger.info(
                "verl-compat: %s.%s._stop_profiling has a signature verl-compat does not know: no step-end hook there",
                cls.__module__,
                cls.__qualname__,
            )
    return registry.Plan(tuple(patches))


def _rows_in(module: types.ModuleType) -> list[TrainerRow]:
    return [row for row in TRAINERS if row.module == module.__name__]


def plans(module, fix):
    """``(module name, Plan)`` for the listed classes of ``module`` and their subclasses so far."""
    for row in _rows_in(module):
        cls = getattr(module, row.name, None)
        if not isinstance(cls, type):
            yield module.__name__, registry.Plan(skipped={row.name: "class not found in this verl"})
            continue
        patches, skipped = _row_patches(cls, row, fix)
        yield module.__name__, registry.Plan(tuple(patches), skipped)
        for sub in family(cls)[1:]:
            if not _is_listed(sub):
                yield sub.__module__, class_plan(sub, fix)


def _is_listed(cls) -> bool:
    return any(row.module == cls.__module__ and row.name == cls.__qualname__ for row in TRAINERS)


# --- subclasses defined later -------------------------------------------------------------------

_watched: dict[type, classmethod[Any, ..., None]] = {}  # listed class -> the __init_subclass__ set on it


def watch_subclasses(module) -> None:
    """Have each listed class of ``module`` patch its subclasses as they are defined."""
    for row in _rows_in(module):
        cls = getattr(module, row.name, None)
        if not isinstance(cls, type) or cls in _watched or "__init_subclass__" in vars(cls):
            continue

        def __init_subclass__(subclass, _base=cls, **kwargs):
            super(_base, subclass).__init_subclass__(**kwargs)
            patch_class(subclass)

        hook = classmethod(__init_subclass__)
        # Set on the class on purpose (_unwatch_subclasses removes it); mypy forbids assigning a method.
        cls.__init_subclass__ = hook  # type: ignore[method-assign,assignment]
        _watched[cls] = hook


def _unwatch_subclasses() -> None:
    for cls, hook in list(_watched.items()):
        if vars(cls).get("__init_subclass__") is hook:
            delattr(cls, "__init_subclass__")
        del _watched[cls]


# --- the fixes served ---------------------------------------------------------------------------

_served: tuple[types.ModuleType, ...] = ()  # the active fixes with trainer hooks


def has_hooks(fix) -> bool:
    """Whether ``fix`` has any trainer hook (then every trainer module is one of its targets)."""
    return any(callable(getattr(fix, hook, None)) for hook in registry.TRAINER_HOOKS)


def serve(fixes) -> None:
    """Place the hooks of these fixes (those that have any) on every trainer from now on."""
    global _served
    with wrapping.lock:
        _served = tuple(fix for fix in fixes if has_hooks(fix))


def patch_module(module, fix) -> None:
    """Place ``fix``'s hooks on the listed classes of ``module`` and every subclass so far, and
    have later subclasses patched as they are defined."""
    for cls_module, plan in plans(module, fix):
        wrapping.apply(fix.NAME, cls_module, plan, module)
    watch_subclasses(module)


def patch_class(cls) -> None:
    """Give a trainer class defined after its verl base class was patched (a recipe's, a user's)
    every served fix's hooks: called from the base's ``__init_subclass__`` and at construction."""
    with wrapping.lock:
        for fix in _served:
            with registry.guard(fix.NAME, f"patching {cls.__module__}.{cls.__qualname__}"):
                wrapping.apply(fix.NAME, cls.__module__, class_plan(cls, fix), None)


def stop_serving() -> None:
    """Place no more hooks, and remove every ``__init_subclass__`` set on a listed class."""
    global _served
    with wrapping.lock:
        _served = ()
        _unwatch_subclasses()


def listed_classes() -> list[type]:
    """The listed classes of every imported verl module, and all their subclasses."""
    found: dict[type, None] = {}  # ordered, no duplicates
    for row in TRAINERS:
        cls = getattr(sys.modules.get(row.module), row.name, None)
        if isinstance(cls, type):
            found.update(dict.fromkeys(family(cls)))
    return list(found)
