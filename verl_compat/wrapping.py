"""What is wrapped: a fix's :class:`~verl_compat.registry.Plan` applied in place with wrapt, the
record of every wrapper and skip, exact revert by identity, and lookups by that identity.

Classes and functions are wrapped where they are defined, never replaced: Ray pickles classes by
reference, and verl looks trainers up by name. The record is the one source of what is applied:
``status()`` words it, doctor and the fixes read it through :func:`applied`.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import logging
import threading

from . import registry

logger = logging.getLogger("verl_compat")

lock = threading.RLock()  # held by every change of the record, and by activation


def wrapt():
    """The wrapt module, imported on first use: it costs ~100 ms (asyncio, importlib.metadata), paid
    only by a process that wraps something, not by every tool that imports verl_compat."""
    return importlib.import_module("wrapt")


@dataclasses.dataclass(frozen=True)
class Applied:
    """One wrapper in place: ``fix`` wrapped ``path`` on ``target`` (a module or a class, unwrapped
    there even if the attribute moved on) with ``handle``; ``module`` and ``label`` name it
    (``"<module>:<label>"`` in ``status()``)."""

    fix: str
    target: object
    path: str
    handle: object
    why: str
    module: str
    label: str

    @property
    def owner(self):
        """The class whose attribute is wrapped, or None for a module-level function."""
        owner = self.target
        for part in self.path.split(".")[:-1]:
            owner = getattr(owner, part, None)
        return owner if isinstance(owner, type) else None

    @property
    def name(self) -> str:
        return f"{self.module}:{self.label}"


_Key = tuple[str, str, str]  # (fix, module, label)
_applied: dict[_Key | tuple[str, str, str, type], Applied] = {}  # (fix, module, label[, owner class]) -> Applied
_skipped: dict[_Key, str] = {}  # (fix, module, label) -> reason


def apply(fix: str, module_name: str, plan: registry.Plan, default_owner) -> None:
    """Wrap what ``plan`` lists (once each) and record what it skips."""
    with lock:
        for path, reason in plan.skipped.items():
            _skip((fix, module_name, path), reason)
        for patch in plan.patches:
            owner = default_owner if patch.owner is None else patch.owner
            label = patch.path if patch.owner is None else f"{patch.owner.__qualname__}.{patch.path}"
            # A class given as owner is part of the key: two classes of one name (a class statement
            # run twice, in a function) are each patched.
            key: _Key | tuple[str, str, str, type] = (
                (fix, module_name, label) if patch.owner is None else (fix, module_name, label, patch.owner)
            )
            if key in _applied:
                continue
            try:
                wrapt().resolve_path(owner, patch.path)
            except (AttributeError, wrapt().PathResolutionError) as exc:
                _skip((fix, module_name, label), f"not found in this verl ({exc})")
                continue
            handle = wrapt().wrap_object(owner, patch.path, function_wrapper_class(), (patch.wrapper,))
            _applied[key] = Applied(fix, owner, patch.path, handle, patch.why, module_name, label)
            _skipped.pop(key[:3], None)


@functools.cache
def function_wrapper_class() -> type:
    """wrapt's ``FunctionWrapper``, pickled by reference: a wrapped module function travels to Ray
    workers (verl 0.9's trainer sends ``partial(value_loss, ...)`` to its critic workers), where
    wrapt's own proxy refuses to be pickled. It unpickles as the attribute of that name in the
    receiving process: wrapped there where verl-compat is active there too, verl's own elsewhere."""

    class FunctionWrapper(wrapt().FunctionWrapper):  # type: ignore[misc]  # wrapt is imported lazily, untyped
        def __reduce_ex__(self, protocol):
            return _by_reference, (self.__wrapped__.__module__, self.__wrapped__.__qualname__)

        def __reduce__(self):
            return self.__reduce_ex__(2)

    return FunctionWrapper


def _by_reference(module: str, qualname: str) -> object:
    """What ``module``'s attribute path ``qualname`` is in this process."""
    found: object = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


def _skip(key: _Key, reason: str) -> None:
    if _skipped.get(key) != reason:
        _skipped[key] = reason
        logger.info("verl-compat: %s skips %s.%s: %s", *key, reason)


def revert_all() -> None:
    """Unwrap everything (the originals come back by identity) and forget the skips."""
    with lock:
        for key, entry in list(_applied.items()):
            with registry.guard(entry.fix, f"unpatching {entry.name}"):
                wrapt().unwrap_object(entry.target, entry.path, entry.handle)
            del _applied[key]
        _skipped.clear()


def applied(fix: str | None = None) -> list[Applied]:
    """The :class:`Applied` wrappers of ``fix`` (of every fix when None), in a stable order."""
    with lock:
        found = [entry for entry in _applied.values() if fix is None or entry.fix == fix]
    return sorted(found, key=lambda entry: entry.name)


def skipped(fix: str) -> dict[str, str]:
    """``"<module>:<path>" -> reason`` for what ``fix`` left alone."""
    with lock:
        return {f"{module}:{path}": reason for (name, module, path), reason in _skipped.items() if name == fix}


def wrapped_by(function, fix: str) -> Applied | None:
    """The wrapper of ``fix`` found in ``function``'s wrapper chain (by handle identity: wrapt's
    public API), or None."""
    with lock:
        handles = {id(entry.handle): entry for entry in _applied.values() if entry.fix == fix}
    if not handles or function is None:
        return None
    try:
        chain = list(wrapt().wrapper_chain(function))
    except wrapt().WrapperChainTooDeepError:
        return None
    return next((handles[id(entry)] for entry in chain if id(entry) in handles), None)
