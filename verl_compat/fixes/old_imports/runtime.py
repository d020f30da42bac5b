"""old_imports at run time: what the core's import hook gets for an old path the installed verl lacks.

Asked only where Python's own import found nothing (``verl_compat.importing``), so the old path is
missing by construction; the new home of a moved path is probed by importing it. An error importing
that new home (a GPU library this machine lacks) is the truth about the new path and is returned as
the error to raise, as it is.
"""

from __future__ import annotations

import collections
import importlib
import importlib.util
import sys
import threading

from ... import deprecation, registry
from . import backports, entry_points, resolve
from .errors import RemovedFromVerlError, RemovedModuleError

NAME = registry.fix_name(__name__)

_lock = threading.Lock()
_UNSET = object()
_fates: dict[tuple[str, str | None], resolve.Fate | None] = {}
_met: dict[str, str] = {}  # dotted old path -> its fate, in the order this process met them


class _NewHomeFailed(Exception):
    """Importing a moved path's new home raised ``error``."""

    def __init__(self, error: BaseException):
        super().__init__(str(error))
        self.error = error


def _probe(asked: str) -> resolve.Has:
    """``has(path)`` for one question: the asked path is missing (that is why the hook is asked);
    any other module is looked up without importing old paths (``find_spec`` is answered by the
    normal finders only), and a name by importing its module."""

    def has(path: str) -> bool:
        if path == asked:
            return False
        module, _, name = path.partition(":")
        try:
            if importlib.util.find_spec(module) is None:
                return False
            if not name:
                return True
            return name in vars(importlib.import_module(module))
        except ModuleNotFoundError as exc:
            if exc.name is not None and (module == exc.name or module.startswith(f"{exc.name}.")):
                return False
            raise _NewHomeFailed(exc) from None
        except Exception as exc:
            raise _NewHomeFailed(exc) from None

    return has


def _fate(module: str, name: str | None) -> resolve.Fate | None:
    """The fate of ``module`` (or ``module.name``) on this verl, worked out once per process."""
    key = (module, name)
    found = _fates.get(key, _UNSET)  # a dict read is atomic: the lock only where it is worked out
    if found is not _UNSET:
        return found
    with _lock:
        if key in _fates:
            return _fates[key]
    found = resolve.fate(module, name, _probe(module if name is None else f"{module}:{name}"))
    with _lock:
        _fates[key] = found
    return found


def _new_home(fate: resolve.Fate) -> object:
    module, _, name = fate.target.partition(":")
    imported = importlib.import_module(module)
    return getattr(imported, name) if name else imported


def _met_once(fate: resolve.Fate, kind: str) -> None:
    with _lock:
        _met.setdefault(fate.dotted, kind)


def _resolution(fate: resolve.Fate | None, module: str, name: str | None) -> registry.Resolution | None:
    if fate is None:
        return None
    main = entry_points.MAINS.get(fate.path) if name is None else None
    backported = fate.kind == "removed" and fate.path in backports.BACKPORTS
    _met_once(fate, "backported" if backported else fate.kind)
    if backported:
        text = backports.message(fate.dotted, fate.row.since, fate.row.evidence)
        deprecation.warn_once(fate.dotted, text, at_user_code=True)
        return registry.Resolution(value=backports.backport(fate.path), main=main)
    if fate.kind == "stub":
        return registry.Resolution(stub=True, main=main)
    if fate.kind == "moved":
        try:
            value = _new_home(fate)
        except Exception as exc:  # the new home's own import error: the truth, raised as it is
            return registry.Resolution(error=exc, main=main)
        deprecation.warn_once(fate.dotted, fate.message(), at_user_code=True)
        return registry.Resolution(value=value, main=main)
    if ":" in fate.path:
        owner = sys.modules.get(module)
        error = RemovedFromVerlError(fate.message(), name=module, path=getattr(owner, "__file__", None))
    else:
        error = RemovedModuleError(fate.message(), name=fate.path)
    return registry.Resolution(error=error, main=main)


def resolve_module(fullname: str) -> registry.Resolution | None:
    try:
        fate = _fate(fullname, None)
    except _NewHomeFailed as failed:
        return registry.Resolution(error=failed.error)
    return _resolution(fate, fullname, None)


def resolve_name(module: str, name: str) -> registry.Resolution | None:
    try:
        fate = _fate(module, name)
    except _NewHomeFailed as failed:
        return registry.Resolution(error=failed.error)
    return _resolution(fate, module, name)


def state() -> dict[str, dict[str, str] | dict[str, int]]:
    """The old paths met in this process and what each came to, with counts by fate."""
    with _lock:
        met = dict(_met)
    return {"imports": met, "import_counts": dict(collections.Counter(met.values()))}


def reset() -> None:
    with _lock:
        _fates.clear()
        _met.clear()
