"""The patching core: activation, each fix loaded and applied under its own guard, and ``status()``.

The fixes are the modules named in :data:`verl_compat.registry.FIX_MODULES`. The core owns
everything a fix has in common with the next one: when a target module is imported (wrapt
post-import hooks, so import order does not matter), applying and undoing what it wraps
(:mod:`verl_compat.wrapping`), the trainer hooks (:mod:`verl_compat.trainers`), old import paths
(:mod:`verl_compat.importing`), the fail-open guard, and ``status()``.

One broken fix never takes the others down (OpenTelemetry's instrumentor loading, ddtrace's
``patch(raise_errors=False)``): each is imported and checked against the contract in its own
try, and a failure is logged once, shown in ``status()`` and doctor, and skipped. Every call into a
fix (planning, hooks, ``state``, ``reset``) runs under :func:`verl_compat.registry.guard`: a hook
runs *inside* the target's import, and an exception there would break the user's import.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import sys
import types
from typing import Any

from . import _toggles, deprecation, importing, registry, trainers, wrapping

logger = logging.getLogger("verl_compat")

_active = False  # activation finished
_activating = False  # activation under way: the post-import hooks it fires at once must act
_hooked: set[str] = set()  # module names whose post-import hook is registered (never unregistered)
_failed: dict[str, str] = {}  # fix module name -> why it could not be loaded
_checked: set[str] = set()  # fix module names checked for misspelled contract parts
_waiting = None  # the _FirstImport finder of a deferred activation, while it is in sys.meta_path


def _load(name: str) -> types.ModuleType | None:
    """Import the fix module ``name`` and check it fits the contract; None (logged once) if not."""
    try:
        module = importlib.import_module(name)
        if not isinstance(module, registry.Fix):
            raise TypeError(f"{name} does not fit the fix contract: it needs NAME and TARGETS")
    except Exception as exc:
        reason = registry.first_line(exc)
        if _failed.get(name) != reason:
            logger.error("verl-compat: fix module %s cannot be loaded (%s); the other fixes still work", name, reason)
        _failed[name] = reason
        return None
    _failed.pop(name, None)
    if name not in _checked:
        _checked.add(name)
        for attribute, part in registry.misspelled_parts(module):
            logger.error("verl-compat: fix %s defines %s, which the core never calls: is it %s?", name, attribute, part)
    return module


def loaded() -> list[types.ModuleType]:
    """The fix modules that load and fit the contract, turned off or not."""
    return [fix for fix in map(_load, registry.FIX_MODULES) if fix is not None]


def fixes() -> list[types.ModuleType]:
    """The fix modules that load and are not turned off by ``VERL_COMPAT_DISABLED_FIXES``."""
    disabled = _toggles.disabled_fixes()
    return [fix for fix in loaded() if fix.NAME not in disabled]


def failed() -> dict[str, str]:
    """``fix module name -> reason`` for each registered fix module that could not be loaded."""
    return {name: _failed[name] for name in registry.FIX_MODULES if name in _failed}


def targets(fix: types.ModuleType) -> tuple[str, ...]:
    """The modules whose import ``fix`` waits for: its own TARGETS, and the trainer modules when it
    has trainer hooks."""
    return tuple(dict.fromkeys((trainers.MODULES if trainers.has_hooks(fix) else ()) + tuple(fix.TARGETS)))


def _hooked_modules(fix: types.ModuleType) -> tuple[str, ...]:
    """Every module whose import the core acts on for ``fix``: its targets (doctor imports those to
    show what is patched) and its ``NAME_TARGETS`` (left to the user's imports)."""
    return tuple(dict.fromkeys(targets(fix) + importing.name_targets(fix)))


def _patch_module(fix, module) -> None:
    with registry.guard(fix.NAME, f"patching {module.__name__}"):
        planner = getattr(fix, "patches", None)
        if module.__name__ in fix.TARGETS and callable(planner):
            wrapping.apply(fix.NAME, module.__name__, planner(module), module)
        if module.__name__ in trainers.MODULES and trainers.has_hooks(fix):
            trainers.patch_module(module, fix)


def _on_import(module) -> None:
    # Called by wrapt inside the target module's import: must never raise.
    try:
        with wrapping.lock:
            if not (_active or _activating) or importing.is_stub(module):
                return
            importing.serve(module)
            for fix in fixes():
                if module.__name__ in targets(fix):
                    _patch_module(fix, module)
    except Exception:
        logger.exception("verl-compat: post-import hook for %s failed", getattr(module, "__name__", module))


class _FirstImport:
    """A meta path finder that finds nothing: activation before any target's package is imported
    (a tool that imports verl_compat, or the auto-load bootstrap while ``verl`` is being looked up)
    waits here, and the first lookup of a module of one of those packages registers wrapt's
    post-import hooks, before any target module in them is imported. Until then wrapt (~100 ms) is
    not imported. It stays in ``sys.meta_path`` once it fired (the import system may be iterating
    that list) and finds nothing; ``deactivate()`` removes it."""

    def __init__(self, packages):
        self.packages = frozenset(packages)

    def find_spec(self, fullname, path=None, target=None):
        if self.packages and fullname.partition(".")[0] in self.packages:
            self.packages = frozenset()
            _hook_targets()
        return None


def _hook_targets() -> None:
    """Register the post-import hook of every active fix's targets (each fix under its guard)."""
    with wrapping.lock:
        if not (_active or _activating):
            return
        for fix in fixes():
            with registry.guard(fix.NAME, "activation"):
                for name in _hooked_modules(fix):
                    if name not in _hooked:
                        _hooked.add(name)
                        # Calls _on_import at once when the module is already imported.
                        wrapping.wrapt().register_post_import_hook(_on_import, name)
                    elif name in sys.modules:
                        _on_import(sys.modules[name])


def activate() -> bool:
    """Patch verl now and on every later import of a target module. Idempotent.

    Returns False (and patches nothing) when ``VERL_COMPAT_DISABLE`` is set. A fix that fails to
    load is skipped; :func:`is_active` turns true only once activation has finished. Where none of
    the targets' packages is imported yet, the hooks are registered on the first import of one
    (:class:`_FirstImport`). The finder of old import paths goes in place at once
    (:func:`verl_compat.importing.install`): it needs no wrapt.
    """
    global _active, _activating, _waiting
    if _toggles.disabled():
        return False
    with wrapping.lock:
        if _active:
            return True
        if importlib.util.find_spec("wrapt") is None:  # said now, not at verl's first import
            raise ImportError("verl-compat needs wrapt, which is not installed in this environment")
        _activating = True
        try:
            active = fixes()
            importing.install(active)
            trainers.serve(active)
            packages = {name.partition(".")[0] for fix in active for name in targets(fix)}
            packages |= {package for fix in active for package in getattr(fix, "IMPORT_PACKAGES", ())}
            if any(package in sys.modules for package in packages):
                _hook_targets()
            else:
                _waiting = _FirstImport(packages)
                sys.meta_path.insert(0, _waiting)
            _active = True
        except BaseException:
            _activating = False
            deactivate()
            raise
        finally:
            _activating = False
    return True


def is_active() -> bool:
    """Whether verl-compat is active in this process (cheap: no verl module is looked at)."""
    return _active


def deactivate() -> None:
    """Remove every wrapper (the originals come back by identity) and forget fix state. Always
    completes: a fix whose ``reset`` fails is logged, and the others are still reset."""
    global _active, _waiting
    with wrapping.lock:
        _active = False
        if _waiting is not None:
            _waiting.packages = frozenset()
            if _waiting in sys.meta_path:
                sys.meta_path.remove(_waiting)
            _waiting = None
        wrapping.revert_all()
        with registry.guard("verl_compat", "deactivate"):
            importing.uninstall()
        with registry.guard("verl_compat", "deactivate"):
            trainers.stop_serving()
        for name in registry.FIX_MODULES:
            fix = sys.modules.get(name)
            if fix is not None:
                registry.run_hook(fix, "reset")
        with registry.guard("verl_compat", "deactivate"):
            deprecation.reset()
        registry.clear_errors()


def prepare_config(config) -> None:
    """Run every active fix's config step on a launcher's config, before it is shipped by value to
    the Ray actors that build trainers and workers."""
    if not _active:
        return
    for fix in fixes():
        registry.run_hook(fix, "prepare_config", config)


def _entry(fix: types.ModuleType) -> dict[str, Any]:
    entry = {"patched": [applied.name for applied in wrapping.applied(fix.NAME)], "skipped": wrapping.skipped(fix.NAME)}
    if callable(getattr(fix, "state", None)):
        state = registry.run_hook(fix, "state")
        if isinstance(state, dict):
            entry.update(state)
        else:
            entry["state_error"] = "its state() failed or returned no dict (see the log)"
    entry["errors"] = registry.errors(fix.NAME)
    return entry


def status() -> dict[str, Any]:
    """What is patched, what was skipped and why, shim errors so far, each fix's own state, the
    fix modules that could not be loaded (``failed``, with the reason), and the import plumbing
    (``imports``: the finder of old paths, the modules given a ``__getattr__``, the stand-ins)."""
    with wrapping.lock:
        report = {fix.NAME: _entry(fix) for fix in fixes()}
        for name, reason in failed().items():
            report[name.rpartition(".")[2]] = {"failed": reason, "patched": [], "skipped": {}, "errors": {}}
        return {
            "active": _active,
            "disabled": _toggles.disabled(),
            "disabled_fixes": sorted(_toggles.disabled_fixes()),
            "fixes": report,
            "imports": importing.status(),
        }
