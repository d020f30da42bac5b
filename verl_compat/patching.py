"""The patching core: a registry of fixes applied in place with wrapt, and undone exactly.

Each fix module (``verl_compat.fixes.<name>``) follows one contract::

    NAME: str                                  # the name users put in VERL_COMPAT_DISABLED_FIXES
    TARGETS: tuple[str, ...]                   # verl modules the fix patches when they are imported
    def patches(module) -> list[Patch]         # what to wrap in that module (decided by probes)
    def prepare(config) -> object              # config-side work (detect, translate, warn)
    def state() -> dict                        # what status() reports for the fix
    def reset() -> None                        # forget per-activation state

Fixes are applied from wrapt post-import hooks, so import order does not matter: a target module
imported before activation is patched at once, one imported later is patched as it loads. A hook
runs *inside* the target's import, and an exception there would break the user's import, so every
hook and every wrapper body runs under :func:`guard`: a shim error is logged once and swallowed,
while the trainer's own exceptions are never caught (the wrapped call is made outside the guard).
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import logging
import sys
import threading
from typing import Callable

import wrapt

from . import _toggles, deprecation

logger = logging.getLogger("verl_compat")

# ``propagation`` is not a fix of verl but rides on the same core (targets, guard, status, toggle):
# it wraps the launcher's run_ppo, carries the shim into the Ray workers and, when it does, runs
# prepare_config on the launcher's config there.
FIX_MODULES = ("verl_compat.fixes.torch_memory", "verl_compat.fixes.oom_snapshot", "verl_compat.propagation")


@dataclasses.dataclass(frozen=True)
class Patch:
    """Wrap ``path`` (``"Class.method"``) in a target module with a wrapt-style ``wrapper``."""

    path: str
    wrapper: Callable
    why: str = ""


@dataclasses.dataclass
class _Applied:
    fix: str
    target: object  # the module object patched: unpatched there even if sys.modules moved on
    path: str
    handle: object
    why: str

    @property
    def module(self) -> str:
        return self.target.__name__


_lock = threading.RLock()
_active = False
_hooked: set = set()  # module names whose post-import hook is registered (never unregistered)
_applied: dict = {}  # (fix, module, path) -> _Applied
_skipped: dict = {}  # (fix, module, path) -> reason
_errors: dict = {}  # (fix, where) -> count


def _fixes():
    disabled = _toggles.disabled_fixes()
    for name in FIX_MODULES:
        fix = importlib.import_module(name)
        if fix.NAME not in disabled:
            yield fix


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


def _patch_module(fix, module) -> None:
    with guard(fix.NAME, f"patching {module.__name__}"):
        for patch in fix.patches(module):
            key = (fix.NAME, module.__name__, patch.path)
            if key in _applied:
                continue
            try:
                owner, attribute, original = wrapt.resolve_path(module, patch.path)
            except (AttributeError, wrapt.PathResolutionError) as exc:
                _skip(key, f"not found in this verl ({exc})")
                continue
            handle = wrapt.wrap_function_wrapper(module, patch.path, patch.wrapper)
            _applied[key] = _Applied(fix.NAME, module, patch.path, handle, patch.why)
            _skipped.pop(key, None)


def _skip(key, reason: str) -> None:
    if _skipped.get(key) != reason:
        _skipped[key] = reason
        logger.info("verl-compat: %s skips %s.%s: %s", *key, reason)


def skip(fix: str, module: str, path: str, reason: str) -> None:
    """Record (and log once) that ``fix`` leaves ``module.path`` alone, and why."""
    with _lock:
        _skip((fix, module, path), reason)


def _on_import(module) -> None:
    # Called by wrapt inside the target module's import: must never raise.
    try:
        with _lock:
            if not _active:
                return
            for fix in _fixes():
                if module.__name__ in fix.TARGETS:
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
        for fix in _fixes():
            for name in fix.TARGETS:
                if name not in _hooked:
                    _hooked.add(name)
                    # Calls _on_import at once when the module is already imported.
                    wrapt.register_post_import_hook(_on_import, name)
                elif name in sys.modules:
                    _on_import(sys.modules[name])
    return True


def deactivate() -> None:
    """Remove every wrapper (the originals come back by identity) and forget fix state."""
    global _active
    with _lock:
        _active = False
        for key, applied in list(_applied.items()):
            with guard(applied.fix, f"unpatching {applied.module}.{applied.path}"):
                wrapt.unwrap_object(applied.target, applied.path, applied.handle)
            del _applied[key]
        _skipped.clear()
        _errors.clear()
        for name in FIX_MODULES:
            fix = sys.modules.get(name)
            if fix is not None:
                fix.reset()
        deprecation.reset()


def prepare_config(config) -> None:
    """Run every active fix's config-side work on a launcher's config, before it is shipped
    by value to the Ray actors that build trainers and workers."""
    if not _active:
        return
    for fix in _fixes():
        with guard(fix.NAME, "prepare_config"):
            fix.prepare(config)


def status() -> dict:
    """What is patched, what was skipped and why, shim errors so far, and each fix's own state."""
    with _lock:
        fixes = {}
        for fix in _fixes():
            fixes[fix.NAME] = {
                "patched": sorted(f"{a.module}:{a.path}" for a in _applied.values() if a.fix == fix.NAME),
                "skipped": {f"{m}:{p}": r for (f, m, p), r in _skipped.items() if f == fix.NAME},
                "errors": {w: n for (f, w), n in _errors.items() if f == fix.NAME},
                **fix.state(),
            }
        return {
            "active": _active,
            "disabled": _toggles.disabled(),
            "disabled_fixes": sorted(_toggles.disabled_fixes()),
            "fixes": fixes,
        }
