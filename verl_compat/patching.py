"""The patching core: a registry of fixes applied in place with wrapt, and undone exactly.

A fix is a module of ``verl_compat.fixes`` (or any module that fits :class:`Fix`), named once in
:data:`FIX_MODULES`. The core owns everything a fix has in common with the next one: when a
target module is imported (wrapt post-import hooks, so import order does not matter), what was
wrapped and how to undo it by identity, the trainer classes and where each fix's trainer hooks
run (:mod:`verl_compat.trainers`), the fail-open guard, and ``status()``.

A hook runs *inside* the target's import, and an exception there would break the user's import,
so every hook and every wrapper body runs under :func:`guard`: a shim error is logged once and
swallowed, while the trainer's own exceptions are never caught (the wrapped call is made outside
the guard).
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import logging
import sys
import threading
from types import ModuleType
from typing import Callable, Mapping, Protocol, runtime_checkable

import wrapt

from . import _toggles, deprecation

logger = logging.getLogger("verl_compat")

# Each name is a module that fits :class:`Fix`. ``propagation`` is not a fix of verl but fits the
# contract exactly: it wraps the launcher's run_ppo, and has no trainer hooks.
FIX_MODULES = (
    "verl_compat.fixes.torch_memory",
    "verl_compat.fixes.oom_snapshot",
    "verl_compat.fixes.config_keys",
    "verl_compat.propagation",
)


@dataclasses.dataclass(frozen=True)
class Patch:
    """Wrap ``path`` (``"Class.method"``) with a wrapt-style ``wrapper``, in the target module or,
    where ``owner`` is given, on that object (a trainer subclass defined outside verl)."""

    path: str
    wrapper: Callable
    why: str = ""
    owner: object = None


@dataclasses.dataclass(frozen=True)
class Plan:
    """What a fix wraps in one module, and what it leaves alone there and why (``path -> reason``)."""

    patches: tuple = ()
    skipped: Mapping[str, str] = dataclasses.field(default_factory=dict)


@runtime_checkable
class Fix(Protocol):
    """The contract every fix fits. Only these three are required::

        NAME       the name users put in VERL_COMPAT_DISABLED_FIXES
        TARGETS    verl modules the fix wraps something in, when they are imported
        patches    what to wrap in one of them: a Plan, decided by probes, without side effects

    Optional parts, found with ``getattr`` (ddtrace's way), each run by the core under the guard:

        on_trainer_init(trainer)   right after a trainer's __init__, before it builds workers:
                                   the config step (read, translate, warn)
        after_step(trainer)        once per step, after the trainer's own step-end profiling
        prepare_config(config)     the config step on a launcher's config, before Ray ships it
        describe(config) -> dict   what the fix would do to a config (doctor)
        state() -> dict            what status() reports for the fix
        reset()                    forget per-activation state (deactivate)

    A fix with a trainer hook gets it on every trainer of :data:`verl_compat.trainers.TRAINERS`
    and of their subclasses, wherever defined: it adds a function, never a wrapper of its own.
    """

    NAME: str
    TARGETS: tuple

    def patches(self, module: ModuleType) -> Plan: ...


TRAINER_HOOKS = ("on_trainer_init", "after_step")


@dataclasses.dataclass
class _Applied:
    fix: str
    target: object  # the object patched on (a module or a class): unpatched there even if moved on
    path: str
    handle: object
    why: str
    module: str  # for status(): "<module>:<qualified path>"
    label: str


_lock = threading.RLock()
_active = False
_hooked: set = set()  # module names whose post-import hook is registered (never unregistered)
_applied: dict = {}  # (fix, module, label[, owner class]) -> _Applied
_skipped: dict = {}  # (fix, module, label) -> reason
_errors: dict = {}  # (fix, where) -> count


def fixes() -> list:
    """The fix modules not turned off by ``VERL_COMPAT_DISABLED_FIXES``."""
    disabled = _toggles.disabled_fixes()
    found = [importlib.import_module(name) for name in FIX_MODULES]
    return [fix for fix in found if fix.NAME not in disabled]


def has_trainer_hooks(fix) -> bool:
    return any(callable(getattr(fix, hook, None)) for hook in TRAINER_HOOKS)


def targets(fix) -> tuple:
    from . import trainers

    return tuple(dict.fromkeys((trainers.MODULES if has_trainer_hooks(fix) else ()) + tuple(fix.TARGETS)))


@contextlib.contextmanager
def guard(fix: str, where: str):
    """Run the shim's own logic fail-open: log the first error per (fix, where), never raise."""
    try:
        yield
    except Exception:
        with _lock:
            count = _errors.get((fix, where), 0)
            _errors[(fix, where)] = count + 1
        if count == 0:
            logger.exception(
                "verl-compat: fix %r failed in %s; the run continues without it there "
                "(set VERL_COMPAT_DISABLED_FIXES=%s to turn it off)",
                fix,
                where,
                fix,
            )


def run_hook(fix, hook: str, *args) -> None:
    """Call ``fix.<hook>(*args)`` if the fix has it, fail-open."""
    function = getattr(fix, hook, None)
    if callable(function):
        with guard(fix.NAME, hook):
            function(*args)


def _apply(fix, module_name: str, plan: Plan, default_owner) -> None:
    for path, reason in plan.skipped.items():
        _skip((fix.NAME, module_name, path), reason)
    for patch in plan.patches:
        owner = default_owner if patch.owner is None else patch.owner
        label = patch.path if patch.owner is None else f"{patch.owner.__qualname__}.{patch.path}"
        # A class given as owner is part of the key: two classes of one name (a class statement run
        # twice, in a function) are each patched.
        key = (fix.NAME, module_name, label) if patch.owner is None else (fix.NAME, module_name, label, owner)
        if key in _applied:
            continue
        try:
            wrapt.resolve_path(owner, patch.path)
        except (AttributeError, wrapt.PathResolutionError) as exc:
            _skip((fix.NAME, module_name, label), f"not found in this verl ({exc})")
            continue
        handle = wrapt.wrap_function_wrapper(owner, patch.path, patch.wrapper)
        _applied[key] = _Applied(fix.NAME, owner, patch.path, handle, patch.why, module_name, label)
        _skipped.pop(key[:3], None)


def _patch_module(fix, module) -> None:
    from . import trainers

    with guard(fix.NAME, f"patching {module.__name__}"):
        if module.__name__ in fix.TARGETS:
            _apply(fix, module.__name__, fix.patches(module), module)
        if module.__name__ in trainers.MODULES and has_trainer_hooks(fix):
            for cls_module, plan in trainers.plans(module, fix):
                _apply(fix, cls_module, plan, module)
            trainers.watch_subclasses(module)


def patch_trainer_class(cls) -> None:
    """Give a trainer class defined after its verl base class was patched (a recipe's, a user's)
    every fix's trainer hooks: called from the base's ``__init_subclass__`` and at construction."""
    from . import trainers

    with _lock:
        if not _active:
            return
        for fix in fixes():
            if has_trainer_hooks(fix):
                with guard(fix.NAME, f"patching {cls.__module__}.{cls.__qualname__}"):
                    _apply(fix, cls.__module__, trainers.class_plan(cls, fix), None)


def _skip(key, reason: str) -> None:
    if _skipped.get(key) != reason:
        _skipped[key] = reason
        logger.info("verl-compat: %s skips %s.%s: %s", *key, reason)


def _on_import(module) -> None:
    # Called by wrapt inside the target module's import: must never raise.
    try:
        with _lock:
            if not _active:
                return
            for fix in fixes():
                if module.__name__ in targets(fix):
                    _patch_module(fix, module)
    except Exception:
        logger.exception("verl-compat: post-import hook for %s failed", getattr(module, "__name__", module))


def activate() -> bool:
    """Patch verl now and on every later import of a target module. Idempotent.

    Returns False (and patches nothing) when ``VERL_COMPAT_DISABLE`` is set.
    """
    global _active
    if _toggles.disabled():
        return False
    with _lock:
        if _active:
            return True
        _active = True
        for fix in fixes():
            for name in targets(fix):
                if name not in _hooked:
                    _hooked.add(name)
                    # Calls _on_import at once when the module is already imported.
                    wrapt.register_post_import_hook(_on_import, name)
                elif name in sys.modules:
                    _on_import(sys.modules[name])
    return True


def is_active() -> bool:
    """Whether verl-compat is active in this process (cheap: no verl module is looked at)."""
    return _active


def deactivate() -> None:
    """Remove every wrapper (the originals come back by identity) and forget fix state."""
    global _active
    from . import trainers

    with _lock:
        _active = False
        for key, applied in list(_applied.items()):
            with guard(applied.fix, f"unpatching {applied.module}.{applied.label}"):
                wrapt.unwrap_object(applied.target, applied.path, applied.handle)
            del _applied[key]
        trainers.unwatch_subclasses()
        _skipped.clear()
        _errors.clear()
        for name in FIX_MODULES:
            fix = sys.modules.get(name)
            if fix is not None and callable(getattr(fix, "reset", None)):
                fix.reset()
        deprecation.reset()


def wrapped_by(function, fix: str) -> _Applied | None:
    """The patch of ``fix`` found in ``function``'s wrapper chain (by handle identity: wrapt's public
    API), or None."""
    with _lock:
        handles = {id(a.handle): a for a in _applied.values() if a.fix == fix}
    if not handles or function is None:
        return None
    try:
        chain = list(wrapt.wrapper_chain(function))
    except wrapt.WrapperChainTooDeepError:
        return None
    return next((handles[id(entry)] for entry in chain if id(entry) in handles), None)


def prepare_config(config) -> None:
    """Run every active fix's config step on a launcher's config, before it is shipped by value to
    the Ray actors that build trainers and workers."""
    if not _active:
        return
    for fix in fixes():
        run_hook(fix, "prepare_config", config)


def status() -> dict:
    """What is patched, what was skipped and why, shim errors so far, and each fix's own state."""
    with _lock:
        report = {}
        for fix in fixes():
            state = getattr(fix, "state", None)
            report[fix.NAME] = {
                "patched": sorted(f"{a.module}:{a.label}" for a in _applied.values() if a.fix == fix.NAME),
                "skipped": {f"{m}:{p}": r for (f, m, p), r in _skipped.items() if f == fix.NAME},
                "errors": {w: n for (f, w), n in _errors.items() if f == fix.NAME},
                **(state() if callable(state) else {}),
            }
        return {
            "active": _active,
            "disabled": _toggles.disabled(),
            "disabled_fixes": sorted(_toggles.disabled_fixes()),
            "fixes": report,
        }
