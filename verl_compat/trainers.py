"""The trainer classes verl-compat reaches, and where each fix's trainer hooks run in them.

Every fix that works on a trainer needs the same two moments: right after ``__init__`` (the config
is read, nothing is built yet) and once at the end of each step (after the trainer's own
``_stop_profiling``). This module owns both, once: the table of verl's trainer classes
(:data:`TRAINERS`) and one structural rule for every class that inherits from them, wherever and
whenever it is defined (a recipe, a team's own subclass, a module that only the ``TaskRunner``
actor imports):

- each own ``__init__`` of a family class that does not call ``super().__init__`` is wrapped
  (one that does reaches its base's wrapper);
- each own ``_stop_profiling`` of a known shape (:func:`verl_compat.probes.stop_profiling_shape`)
  is wrapped, overrides that never call ``super()`` included;
- a hook runs once per call, when the outermost wrapped call returns: an override calling its
  base through ``super()`` does not run it twice.

Subclasses that exist when a base is patched are found through ``__subclasses__()``; later ones
through an ``__init_subclass__`` set on the base (removed again by ``deactivate()``), and at the
latest when the first instance is built. Classes are patched in place, never replaced: Ray
pickles classes by reference, and verl looks trainers up by name.
"""

from __future__ import annotations

import dataclasses
import logging
import sys

from . import patching, probes

logger = logging.getLogger("verl_compat")


@dataclasses.dataclass(frozen=True)
class Trainer:
    """A trainer class verl defines, and what of it the trainer hooks wrap where verl has it."""

    module: str
    name: str
    init: bool  # its own __init__ builds no workers yet: the config step runs right after it
    stop: str | None  # the shape (probes.stop_profiling_shape) of its own _stop_profiling, if it has one


# Subclasses not listed inherit a wrapped method or are wrapped by the structural rule:
# SeparateRayPPOTrainer, the v1 PPOTrainerSync/ColocateAsync/SeparateAsync. FullyAsyncTrainer is a
# Ray actor class whose __init__ does not call super().__init__: its config is translated in the
# launcher (propagation wraps run_ppo, which the experimental mains call). FullyAsyncRollouter's
# _stop_profiling is a coroutine that drives rollout servers only.
TRAINERS = (
    Trainer("verl.trainer.ppo.ray_trainer", "RayPPOTrainer", init=True, stop="do_profile"),
    Trainer("verl.trainer.ppo.v1.trainer_base", "PPOTrainer", init=True, stop="no_args"),  # 0.9+ default
    Trainer("verl.trainer.main_ppo_sync", "PPOTrainer", init=True, stop="no_args"),  # 0.8.0
    # Its __init__ does not call super().__init__ (0.7.1+); it inherits _stop_profiling.
    Trainer("verl.experimental.one_step_off_policy.ray_trainer", "OneStepOffRayTrainer", init=True, stop=None),
    # 0.7.x source trees (not in the wheels): overrides that call super()._stop_profiling first.
    Trainer("verl.experimental.vla.rob_ray_trainer", "RobRayPPOTrainer", init=False, stop="do_profile"),
    Trainer("verl.experimental.vla.sac.sac_ray_trainer", "RobRaySACTrainer", init=False, stop="do_profile"),
    # verl-omni 0.2.0 (a package of its own): trainers that are no RayPPOTrainer, each with its own
    # __init__ (no super().__init__) and _stop_profiling(do_profile) on actor_rollout_wg. The base
    # covers PolicyGradientRayTrainer and DirectPreferenceRayTrainer; OmniPPOTrainerSync inherits
    # verl's v1 PPOTrainer. Its diffusion/v1 trainers have no profiling point at all.
    Trainer("verl_omni.trainer.diffusion.ray_diffusion_trainer", "BaseRayDiffusionTrainer", init=True, stop="do_profile"),
    Trainer("verl_omni.trainer.omni.ray_omni_trainer", "OmniDirectPreferenceRayTrainer", init=True, stop="do_profile"),
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


def _wrapper(fix, method: str, hook: str, where: str):
    def wrapper(wrapped, instance, args, kwargs):
        key = (fix.NAME, method)
        outermost = True
        with patching.guard(fix.NAME, where):
            outermost = _enter(instance, key)
        try:
            result = wrapped(*args, **kwargs)
        finally:
            with patching.guard(fix.NAME, where):
                _leave(instance, key)
        if outermost:
            if method == INIT:
                patching.patch_trainer_class(type(instance))
            with patching.guard(fix.NAME, where):
                getattr(fix, hook)(instance)
        return result

    wrapper.__name__ = wrapper.__qualname__ = f"_{fix.NAME}_{hook}"
    return wrapper


_wrappers: dict = {}


def wrapper_for(fix, method: str):
    """The one wrapper of ``fix`` for ``method`` (identity is stable across activations)."""
    key = (fix.NAME, method)
    if key not in _wrappers:
        hook, where = ("on_trainer_init", "after __init__") if method == INIT else ("after_step", "after _stop_profiling")
        _wrappers[key] = _wrapper(fix, method, hook, where)
    return _wrappers[key]


def _hooked(fix, method: str) -> bool:
    hook = "on_trainer_init" if method == INIT else "after_step"
    return callable(getattr(fix, hook, None))


# --- what to wrap -------------------------------------------------------------------------------


def _is_ray_copy(cls) -> bool:
    # Ray's ActorClass keeps the user's class and adds a subclass of its own: never patch that copy.
    return "__ray_actor_class__" in vars(cls) or cls.__name__.startswith("ActorClass(")


def family(cls) -> list:
    """``cls`` and every subclass of it defined so far (Ray's actor copies left out)."""
    found, stack = {}, [cls]
    while stack:
        current = stack.pop()
        if isinstance(current, type) and current not in found and not _is_ray_copy(current):
            found[current] = None
            stack.extend(current.__subclasses__())
    return list(found)


def _row_patches(cls, row: Trainer, fix) -> tuple:
    """For a listed verl class: its own ``__init__`` and ``_stop_profiling`` as the table says."""
    patches, skipped = [], {}
    if row.init and probes.defines(cls, INIT) and _hooked(fix, INIT):
        patches.append(patching.Patch(f"{row.name}.{INIT}", wrapper_for(fix, INIT), "the config step"))
    stop = f"{row.name}.{STOP}"
    if row.stop is None or not _hooked(fix, STOP) or (hasattr(cls, STOP) and not probes.defines(cls, STOP)):
        return patches, skipped
    if probes.stop_profiling_shape(getattr(cls, STOP, None)) == row.stop:
        patches.append(patching.Patch(stop, wrapper_for(fix, STOP), "the step-end hook"))
    elif hasattr(cls, STOP):
        skipped[stop] = f"a signature other than the expected {row.stop} form in this verl"
    else:
        skipped[stop] = "not found in this verl"
    return patches, skipped


_said_unknown: set = set()


def class_plan(cls, fix) -> patching.Plan:
    """The structural rule for one subclass (not a listed class), as a Plan with ``owner=cls``."""
    patches = []
    if _is_ray_copy(cls) or _is_listed(cls):  # a listed class is patched by its row, when its module is
        return patching.Plan()
    if _hooked(fix, INIT) and probes.defines(cls, INIT) and not probes.init_calls_super(cls):
        patches.append(patching.Patch(INIT, wrapper_for(fix, INIT), "the config step", owner=cls))
    if _hooked(fix, STOP) and probes.defines(cls, STOP):
        if probes.stop_profiling_shape(vars(cls)[STOP]) is not None:
            patches.append(patching.Patch(STOP, wrapper_for(fix, STOP), "the step-end hook", owner=cls))
        elif cls not in _said_unknown:
            # Not a skip of verl's own: a coroutine (FullyAsyncRollouter drives rollout servers only)
            # or a user's signature; said once, never a crash (doctor --trainer names it).
            _said_unknown.add(cls)
            logger.info(
                "verl-compat: %s.%s._stop_profiling has a signature verl-compat does not know: no step-end hook there",
                cls.__module__,
                cls.__qualname__,
            )
    return patching.Plan(tuple(patches))


def _rows_in(module) -> list:
    return [row for row in TRAINERS if row.module == module.__name__]


def plans(module, fix):
    """``(module name, Plan)`` for the listed classes of ``module`` and their subclasses so far."""
    for row in _rows_in(module):
        cls = getattr(module, row.name, None)
        if not isinstance(cls, type):
            yield module.__name__, patching.Plan(skipped={row.name: "class not found in this verl"})
            continue
        patches, skipped = _row_patches(cls, row, fix)
        yield module.__name__, patching.Plan(tuple(patches), skipped)
        for sub in family(cls)[1:]:
            if not _is_listed(sub):
                yield sub.__module__, class_plan(sub, fix)


def _is_listed(cls) -> bool:
    return any(row.module == cls.__module__ and row.name == cls.__qualname__ for row in TRAINERS)


# --- subclasses defined later -------------------------------------------------------------------

_watched: dict = {}  # listed class -> the __init_subclass__ set on it


def watch_subclasses(module) -> None:
    """Have each listed class of ``module`` patch its subclasses as they are defined."""
    for row in _rows_in(module):
        cls = getattr(module, row.name, None)
        if not isinstance(cls, type) or cls in _watched or "__init_subclass__" in vars(cls):
            continue

        def __init_subclass__(subclass, _base=cls, **kwargs):
            super(_base, subclass).__init_subclass__(**kwargs)
            patching.patch_trainer_class(subclass)

        hook = classmethod(__init_subclass__)
        cls.__init_subclass__ = hook
        _watched[cls] = hook


def unwatch_subclasses() -> None:
    for cls, hook in list(_watched.items()):
        if vars(cls).get("__init_subclass__") is hook:
            delattr(cls, "__init_subclass__")
        del _watched[cls]


# --- how a class is reached (status, doctor --trainer) ------------------------------------------


def listed_classes() -> list:
    """The listed classes of every imported verl module, and all their subclasses."""
    found = {}
    for row in TRAINERS:
        cls = getattr(sys.modules.get(row.module), row.name, None)
        if isinstance(cls, type):
            found.update(dict.fromkeys(family(cls)))
    return list(found)


def _owner(cls, name: str):
    return next((base for base in cls.__mro__ if name in vars(base)), None)


def method_reach(cls, name: str, fix: str) -> dict:
    """Whether ``cls.<name>`` (its own or inherited) is wrapped by ``fix``: ``wrapped``, ``owner``
    (the class that defines it) and ``how`` in words (``"wrapped (inherited from RayPPOTrainer)"``)."""
    owner = _owner(cls, name)
    if owner is None:
        return {"wrapped": False, "how": "absent", "owner": None}
    where = "own" if owner is cls else f"inherited from {owner.__name__}"
    wrapped = patching.wrapped_by(vars(owner)[name], fix) is not None
    return {"wrapped": wrapped, "how": f"{'wrapped' if wrapped else 'not wrapped'} ({where})", "owner": owner}


def _calls(cls, function, name: str, depth: int = 3) -> bool:
    """Whether ``function``'s code names ``name``, directly, in nested functions, or in the methods
    of ``cls`` it calls by name (``fit`` -> ``fit_step`` -> ``_stop_profiling``), ``depth`` deep."""
    stack, seen = [(getattr(function, "__code__", None), depth)], set()
    while stack:
        code, left = stack.pop()
        if code is None or code in seen:
            continue
        seen.add(code)
        if name in code.co_names:
            return True
        stack.extend((const, left) for const in code.co_consts if hasattr(const, "co_names"))
        if left:
            for called in code.co_names:
                method = getattr(cls, called, None)
                stack.append((getattr(method, "__code__", None), left - 1))
    return False


def hooks_reach(cls, fix: str) -> dict:
    """How ``fix``'s trainer hooks reach ``cls``, per method: ``__init__`` and ``_stop_profiling`` as
    :func:`method_reach` gives them (``__init__`` counted as wrapped where it calls a wrapped
    ``super().__init__``), and ``fit`` (its ``owner``, whether it reaches ``_stop_profiling``
    (``calls_stop``) and makes the legacy call (``legacy_call``), and ``how``)."""
    init = method_reach(cls, INIT, fix)
    if not init["wrapped"] and init["owner"] is not None and probes.init_calls_super(init["owner"]):
        base = next((b for b in cls.__mro__[1:] if patching.wrapped_by(vars(b).get(INIT), fix)), None)
        if base is not None:
            init["wrapped"] = True
            init["how"] += f"; calls super().__init__, so the wrapped {base.__name__}.__init__ runs"
    stop = method_reach(cls, STOP, fix)
    if not stop["wrapped"] and stop["owner"] is not None:
        if probes.stop_profiling_shape(vars(stop["owner"])[STOP]) is None:
            stop["how"] += ": a coroutine or a signature verl-compat does not know, skipped"
    fit_owner = _owner(cls, "fit")
    fit = {"owner": fit_owner, "calls_stop": True, "legacy_call": False, "how": "absent"}
    if fit_owner is not None:
        function = vars(fit_owner)["fit"]
        fit["calls_stop"] = _calls(cls, function, STOP)
        fit["legacy_call"] = _calls(cls, function, "dump_memory_snapshot", depth=0)
        where = "own" if fit_owner is cls else f"inherited from {fit_owner.__name__}"
        fit["how"] = (
            f"{where}; {'calls' if fit['calls_stop'] else 'never calls'} _stop_profiling"
            f"{'; makes the legacy dump_memory_snapshot call' if fit['legacy_call'] else ''}"
        )
    return {INIT: init, STOP: stop, "fit": fit}


def coverage(cls, fix: str) -> dict:
    """How ``fix``'s trainer hooks reach ``cls``, in words per method, and whether it is served at
    all, with the reason when it is not."""
    reach = hooks_reach(cls, fix)
    init, stop, fit = reach[INIT], reach[STOP], reach["fit"]
    why = None
    if not stop["wrapped"]:
        why = f"its _stop_profiling is {stop['how']}: nothing runs at the end of a step"
    elif not fit["calls_stop"]:
        why = f"its fit() ({fit['how']}) never reaches the wrapped _stop_profiling"
    elif not init["wrapped"]:
        why = f"its __init__ is {init['how']}: the config is not translated before its workers are built"
    return {
        "served": why is None,
        "why": why,
        INIT: init["how"],
        STOP: stop["how"],
        "fit": fit["how"],
    }
