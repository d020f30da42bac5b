"""Old import paths: the core's import plumbing for fixes that declare ``IMPORT_PACKAGES``
(docs/fix_contract.md, "Old import paths").

Python asks three questions, and verl-compat answers each only where the installed verl has nothing:

- ``import verl.old.path`` (``importlib.import_module``, ``python -m``): one meta path finder at the
  *end* of ``sys.meta_path``. Every other finder is asked first, so a module that exists is found as
  before, never shadowed, at no cost; for a name outside the declared packages the finder returns
  at a prefix check.
- ``module.name``, ``from module import name``, where the module exists but lost the name: a PEP 562
  module ``__getattr__`` on each module a fix lists in ``NAME_TARGETS``, put there when the module is
  imported (chained to one the module defines). Python calls it only for names the module lacks.
- What the finder loads: a moved module is the new module itself, in ``sys.modules`` under its old
  name too (``import old.path`` gives the very same object); a removed module that still has moved
  names is a stub, an empty module whose missing names are asked of the fix.

The fixes decide (``resolve_module``, ``resolve_name`` -> :class:`~verl_compat.registry.Resolution`)
under the fail-open guard: a bug there is logged once and the import fails as it would without
verl-compat. An ``error`` they return is raised outside the guard, deliberately.

The finder answers the import system only (and ``runpy`` for the module of ``python -m``):
``importlib.util.find_spec`` of an old path stays None, so a feature probe of the installed verl
(verl-compat's own ``probes`` among them) sees what verl ships. A missing name raises the fix's
``ImportError`` inside ``from module import name`` and an ``AttributeError`` with the same message on
attribute access, so that ``hasattr`` and ``getattr(module, name, None)`` still answer.

Standard library only: installed when activation starts, before wrapt is imported.
"""

from __future__ import annotations

import dataclasses
import dis
import importlib
import importlib.machinery
import sys
import threading
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from . import registry

if TYPE_CHECKING:
    from importlib.abc import Loader as _LoaderInterface
else:
    # The import system asks a loader for its methods only; importlib.abc is not imported at run
    # time for it (this module is imported at start-up, where every import counts).
    _LoaderInterface = object

_IMPORT_FROM = dis.opmap["IMPORT_FROM"]
_ABSENT = object()

_lock = threading.RLock()  # held by every change of the state below, never while a fix is asked
_local = threading.local()  # .busy: the paths this thread is resolving (a fix's own imports recurse)
_fixes: tuple[types.ModuleType, ...] = ()  # the active fixes with an import hook, in the registry's order
_packages: frozenset[str] = frozenset()  # their IMPORT_PACKAGES


@dataclasses.dataclass
class _Served:
    """A module whose missing names are asked of the fixes, as ``asked_as`` (its own name, and the
    old names it stands in for), through ``function`` (its ``__getattr__`` now; ``previous`` before)."""

    module: types.ModuleType
    previous: object
    function: Callable[[str], object]
    asked_as: list[str]


@dataclasses.dataclass(frozen=True)
class _StandIn:
    """What ``sys.modules`` holds under an old module name, and what the parent package held there."""

    module: types.ModuleType
    kind: str  # "moved to <module>" | "stub"
    parent_had: object


_served: dict[str, _Served] = {}
_stand_ins: dict[str, _StandIn] = {}
_mains: dict[str, Callable[[], object]] = {}


# --- asking the fixes ---------------------------------------------------------------------------


def _ask(hook: str, *args: str) -> registry.Resolution | None:
    """The first fix's answer to ``hook(*args)``, each asked under its guard; None where none knows
    (or one failed: logged, and the import fails as it would without verl-compat)."""
    busy = getattr(_local, "busy", None)
    if busy is None:
        busy = _local.busy = set()
    key = (hook, *args)
    if key in busy:
        return None
    busy.add(key)
    try:
        for fix in _fixes:
            function = getattr(fix, hook, None)
            if not callable(function):
                continue
            answer = None
            try:  # registry.guard, spelled out: this runs for every import no other finder found
                given = function(*args)
                if given is not None and not isinstance(given, registry.Resolution):
                    raise TypeError(f"{fix.NAME}.{hook} returned {type(given).__name__}, not a Resolution")
                answer = given
            except Exception as exc:
                registry.swallow(fix.NAME, hook, exc)
            if answer is not None:
                return answer
        return None
    finally:
        busy.discard(key)


def _in_import() -> bool:
    """Whether the finder is asked by an import (``_find_and_load_unlocked`` -> ``_find_spec`` ->
    finder) rather than by ``importlib.util.find_spec``, a probe."""
    try:
        return sys._getframe(3).f_code.co_name == "_find_and_load_unlocked"
    except ValueError:
        return False


def _launched(fullname: str) -> bool:
    """Whether ``runpy`` is locating ``fullname`` for ``python -m fullname`` right now: while it does,
    ``sys.argv[0]`` is ``"-m"`` (the documented placeholder), and ``sys.orig_argv`` names the module."""
    argv = sys.argv
    if not argv or argv[0] != "-m":  # the common case, first: this runs for every import no finder found
        return False
    argv = list(getattr(sys, "orig_argv", ()))[1:]
    for i, arg in enumerate(argv):
        if arg == "-m":
            return argv[i + 1 : i + 2] == [fullname]
        if arg.startswith("-m"):
            return arg[2:] == fullname
    return False


# --- the finders --------------------------------------------------------------------------------


class _Finder:
    """At the end of ``sys.meta_path``: asked only for what every other finder failed on."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname.partition(".")[0] not in _packages:
            return None
        launched = _launched(fullname)
        if not (launched or _in_import()):
            return None
        spec, error = _spec(fullname, launched)
        if error is not None:
            raise error
        return spec

    def __repr__(self) -> str:
        return "<verl-compat old import paths>"


class _AliasGuard:
    """At the front of ``sys.meta_path`` once a moved *package* stands in under its old name: its
    submodules would otherwise be found in the new package's folder by the path finder and loaded a
    second time under the old name (two module objects of one file). Asked first, it returns at a
    prefix check for every other name."""

    prefixes: tuple[str, ...] = ()

    def find_spec(self, fullname, path=None, target=None):
        if not self.prefixes or not fullname.startswith(self.prefixes):
            return None
        spec, error = _spec(fullname, _launched(fullname))
        if error is not None:
            raise error
        return spec or _forward(fullname)

    def __repr__(self) -> str:
        return "<verl-compat moved packages>"


_FINDER = _Finder()
_GUARD = _AliasGuard()


def _spec(fullname: str, launched: bool) -> tuple[importlib.machinery.ModuleSpec | None, BaseException | None]:
    """The spec for ``fullname``, or the error to raise (by ``find_spec`` itself: one frame of
    verl-compat in the traceback)."""
    resolution = _ask("resolve_module", fullname)
    if resolution is None:
        return None, None
    if launched and resolution.main is not None:
        _mains[fullname] = resolution.main
        return importlib.machinery.ModuleSpec(fullname, _Loader(resolution), origin=f"verl-compat:{fullname}"), None
    if resolution.found:
        spec = importlib.machinery.ModuleSpec(
            fullname, _Loader(resolution), origin=getattr(resolution.value, "__file__", None)
        )
        locations = getattr(resolution.value, "__path__", None)
        spec.submodule_search_locations = list(locations) if locations is not None else None
        return spec, None
    if resolution.stub:
        spec = importlib.machinery.ModuleSpec(fullname, _Loader(resolution), origin="verl-compat", is_package=True)
        return spec, None
    return None, resolution.error


def _forward(fullname: str) -> importlib.machinery.ModuleSpec | None:
    """A submodule of a moved package that no fix knows: the new package's own submodule, if any."""
    for prefix in _GUARD.prefixes:
        if fullname.startswith(prefix):
            stand_in = _stand_ins.get(prefix[:-1])
            if stand_in is None:
                return None
            new = stand_in.module.__name__ + fullname[len(prefix) - 1 :]
            try:
                module = importlib.import_module(new)
            except ModuleNotFoundError as exc:
                if exc.name is not None and new.startswith(exc.name):
                    return None
                raise
            return _spec_of_value(fullname, module)
    return None


def _spec_of_value(fullname: str, module: types.ModuleType) -> importlib.machinery.ModuleSpec:
    spec = importlib.machinery.ModuleSpec(fullname, _Loader(registry.Resolution(value=module)))
    locations = getattr(module, "__path__", None)
    spec.submodule_search_locations = list(locations) if locations is not None else None
    return spec


class _Loader(_LoaderInterface):
    """Loads what a :class:`~verl_compat.registry.Resolution` says. ``create_module`` leaves the
    module to importlib; ``exec_module`` puts the stand-in in ``sys.modules`` (importlib reads it back
    from there after ``exec_module``, so ``import old.path`` yields the stand-in, and the parent
    package's attribute is set to it); ``get_code`` serves ``python -m``."""

    def __init__(self, resolution: registry.Resolution):
        self.resolution = resolution

    def create_module(self, spec):
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        resolution, name = self.resolution, module.__name__
        if resolution.found:
            # A loader driven by hand (module_from_spec + exec_module, as verl's own
            # tool_registry.get_tool_class does) keeps this module, not sys.modules': it forwards.
            # A PEP 562 module __getattr__, set on purpose (typeshed declares it a method of ModuleType).
            module.__getattr__ = lambda attribute: getattr(resolution.value, attribute)  # type: ignore[method-assign]
            new = cast(types.ModuleType, resolution.value)  # resolve_module's value: the new module
            _stand_in(name, new, f"moved to {new.__name__}")
        elif resolution.stub:
            module.__doc__ = f"verl-compat's stand-in for {name}, which the installed verl lacks"
            _stand_in(name, module, "stub")
            _serve(module, name)
        elif resolution.error is not None:
            raise resolution.error

    def get_code(self, fullname: str) -> types.CodeType:
        if fullname in _mains:
            source = f"__import__('verl_compat.importing', fromlist=['run_main']).run_main({fullname!r})\n"
            return compile(source, f"<verl-compat: {fullname}>", "exec")
        if self.resolution.found:
            spec = getattr(self.resolution.value, "__spec__", None)
            loader = getattr(spec, "loader", None)
            if spec is not None and loader is not None and hasattr(loader, "get_code"):
                return loader.get_code(spec.name)
        raise ImportError(f"verl-compat: no code to run for {fullname}", name=fullname)

    def is_package(self, fullname: str) -> bool:
        return self.resolution.stub or hasattr(self.resolution.value, "__path__")


def run_main(fullname: str) -> object:
    """What ``python -m <old entry point>`` runs: the main a fix gave for it."""
    return _mains[fullname]()


# --- stand-ins and module __getattr__ -------------------------------------------------------------


def _stand_in(name: str, module: types.ModuleType, kind: str) -> None:
    parent_name, _, child = name.rpartition(".")
    parent = sys.modules.get(parent_name)
    with _lock:
        sys.modules[name] = module
        _stand_ins[name] = _StandIn(module, kind, vars(parent).get(child, _ABSENT) if parent else _ABSENT)
        if kind != "stub":
            _serve(module, name)
            if hasattr(module, "__path__"):
                _GUARD.prefixes = (*_GUARD.prefixes, f"{name}.")
                if _GUARD not in sys.meta_path:
                    sys.meta_path.insert(0, _GUARD)


def _serve(module: types.ModuleType, asked_as: str) -> None:
    """Ask the fixes for ``module``'s missing names (as ``asked_as``) from now on."""
    with _lock:
        name = module.__name__
        entry = _served.get(name)
        if entry is not None and entry.module is module:
            if asked_as not in entry.asked_as:
                entry.asked_as.append(asked_as)
            return
        previous = vars(module).get("__getattr__", _ABSENT)
        function = _module_getattr(name, previous)
        module.__getattr__ = function  # type: ignore[method-assign]  # PEP 562, on purpose
        _served[name] = _Served(module, previous, function, [asked_as])


def _module_getattr(module_name: str, previous: object) -> Callable[[str], object]:
    """``previous``: the module's own ``__getattr__``, or ``_ABSENT``."""

    def __getattr__(name: str) -> object:
        if previous is not _ABSENT:
            try:
                return cast("Callable[[str], object]", previous)(name)
            except AttributeError:
                pass
        caller: types.FrameType | None
        try:
            caller = sys._getframe(1)
        except ValueError:  # called from C with no Python frame above
            caller = None
        value, error = _missing(module_name, name, caller)
        if error is not None:
            raise error
        return value

    return __getattr__


def _missing(module_name: str, name: str, caller: types.FrameType | None) -> tuple[object, BaseException | None]:
    """``module_name.name`` is missing: ``(value, None)`` where the fixes resolve it, else ``(None,
    error)`` to raise (the fix's, or the usual AttributeError), raised by ``__getattr__`` itself so
    that a traceback shows one frame of verl-compat."""
    module = sys.modules.get(module_name)
    initializing = getattr(getattr(module, "__spec__", None), "_initializing", False)
    entry = _served.get(module_name)
    if entry is not None and not initializing and not (name.startswith("__") and name.endswith("__")):
        for asked_as in list(entry.asked_as):
            resolution = _ask("resolve_name", asked_as, name)
            if resolution is None:
                continue
            if resolution.found:
                return resolution.value, None
            if resolution.stub:
                return importlib.import_module(f"{asked_as}.{name}"), None
            if resolution.error is not None:
                if _is_from_import(caller):
                    return None, resolution.error
                return None, AttributeError(str(resolution.error), name=name, obj=module)
    return None, AttributeError(f"module {module_name!r} has no attribute {name!r}", name=name, obj=module)


def _is_from_import(frame: types.FrameType | None) -> bool:
    """Whether ``frame`` is executing ``from module import name`` (its IMPORT_FROM instruction)."""
    if frame is None:
        return False
    try:
        return frame.f_code.co_code[frame.f_lasti] == _IMPORT_FROM
    except IndexError:
        return False


# --- the core's side: activation, deactivation, status ---------------------------------------------


def has_hooks(fix) -> bool:
    return callable(getattr(fix, "resolve_module", None)) or callable(getattr(fix, "resolve_name", None))


def name_targets(fix) -> tuple[str, ...]:
    """The modules whose missing names ``fix`` resolves, when they are imported."""
    return tuple(getattr(fix, "NAME_TARGETS", ())) if callable(getattr(fix, "resolve_name", None)) else ()


def install(fixes: list[types.ModuleType]) -> None:
    """Activation starts: the finder goes at the end of ``sys.meta_path`` (before any module of the
    fixes' packages is looked up, when activation runs inside ``import verl``)."""
    global _fixes, _packages
    with _lock:
        _fixes = tuple(fix for fix in fixes if has_hooks(fix))
        _packages = frozenset(package for fix in _fixes for package in getattr(fix, "IMPORT_PACKAGES", ()))
        if _packages and _FINDER not in sys.meta_path:
            sys.meta_path.append(_FINDER)


def serve(module: types.ModuleType) -> None:
    """A module was imported: if it is one of the active fixes' ``NAME_TARGETS``, its missing names
    are asked of them from now on. Called by the core's post-import hook."""
    name = getattr(module, "__name__", None)
    if isinstance(name, str) and any(name in name_targets(fix) for fix in _fixes):
        _serve(module, name)


def is_stub(module: object) -> bool:
    """Whether ``module`` is a stub made here (no fix patches it: it has none of verl's code)."""
    name = getattr(module, "__name__", None)
    stand_in = _stand_ins.get(name) if isinstance(name, str) else None
    return stand_in is not None and stand_in.kind == "stub" and stand_in.module is module


def uninstall() -> None:
    """Everything back as it was: the finders out of ``sys.meta_path``, each module's own
    ``__getattr__`` (or none), the stand-ins out of ``sys.modules`` and their parent packages."""
    global _fixes, _packages
    with _lock:
        for finder in (_FINDER, _GUARD):
            while finder in sys.meta_path:
                sys.meta_path.remove(finder)
        _GUARD.prefixes = ()
        for entry in _served.values():
            if vars(entry.module).get("__getattr__") is entry.function:
                if entry.previous is _ABSENT:
                    del entry.module.__getattr__
                else:
                    # The module's own PEP 562 __getattr__ back (any object it held there).
                    entry.module.__getattr__ = entry.previous  # type: ignore[method-assign,assignment]
        for name, stand_in in _stand_ins.items():
            if sys.modules.get(name) is stand_in.module:
                del sys.modules[name]
            parent_name, _, child = name.rpartition(".")
            parent = sys.modules.get(parent_name)
            if parent is not None and vars(parent).get(child) is stand_in.module:
                if stand_in.parent_had is _ABSENT:
                    delattr(parent, child)
                else:
                    setattr(parent, child, stand_in.parent_had)
        _served.clear()
        _stand_ins.clear()
        _mains.clear()
        _fixes, _packages = (), frozenset()


def status() -> dict[str, object]:
    """What the import plumbing holds now: whether the finder is in place, the modules given a
    ``__getattr__``, and each old module name's stand-in."""
    with _lock:
        return {
            "finder": _FINDER in sys.meta_path,
            "module_getattr": sorted(_served),
            "stand_ins": {name: stand_in.kind for name, stand_in in sorted(_stand_ins.items())},
        }
