"""The fix registry: which fixes exist, the contract they fit, and the fail-open guard.

A leaf: standard library only, and nothing of verl-compat's own, so that every other module (the
core, each fix, the tools) may import it, and importing a fix costs no wrapt or verl import.

A fix is a module (or package) named once in :data:`FIX_MODULES` that fits :class:`Fix`
(``docs/fix_contract.md``). The core loads each one under its own guard: one that fails to import
or does not fit the contract is skipped and reported, and the others still work.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, Protocol, TypedDict, runtime_checkable

logger = logging.getLogger("verl_compat")

# Each name is a package under verl_compat/fixes that fits :class:`Fix`. ``propagation`` fixes how
# verl-compat reaches the Ray workers rather than a verl setting, and fits the contract exactly (it
# wraps the launcher's run_ppo; no trainer hooks). The order is the order hooks run in and doctor's
# sections appear; no fix's hooks depend on it. migrate's rules do, on purpose: ``verl-compat
# migrate`` runs them in this order, each on the text the previous ones wrote, and config_keys
# comes first so that the others read a config in the installed verl's keys (torch_memory's rule
# reads global_profiler.steps, which config_keys writes from trainer.profile_steps).
FIX_MODULES = (
    "verl_compat.fixes.config_keys",
    "verl_compat.fixes.old_math",
    "verl_compat.fixes.old_imports",
    "verl_compat.fixes.torch_memory",
    "verl_compat.fixes.oom_snapshot",
    "verl_compat.fixes.propagation",
    "verl_compat.fixes.old_rewards",
    "verl_compat.fixes.old_checkpoints",
)

# A wrapt-style wrapper: ``wrapper(wrapped, instance, args, kwargs)`` -> what the call returns.
Wrapper = Callable[[Callable[..., Any], Any, tuple[Any, ...], dict[str, Any]], Any]

# The optional trainer hooks: the core runs them on every trainer class (verl_compat.trainers).
TRAINER_HOOKS = ("on_trainer_init", "before_step", "after_step")


@dataclasses.dataclass(frozen=True)
class Patch:
    """Wrap ``path`` (``"Class.method"``) with a wrapt-style ``wrapper``, in the target module or,
    where ``owner`` is given, on that object (a trainer subclass defined outside verl)."""

    path: str
    wrapper: Wrapper
    why: str = ""
    owner: type | None = None


@dataclasses.dataclass(frozen=True)
class Plan:
    """What a fix wraps in one module, and what it leaves alone there and why (``path -> reason``)."""

    patches: tuple[Patch, ...] = ()
    skipped: Mapping[str, str] = dataclasses.field(default_factory=dict)


_UNSET = object()


@dataclasses.dataclass(frozen=True)
class Resolution:
    """What an old import gives, as a fix's ``resolve_module``/``resolve_name`` decides it (the core
    acts on it, :mod:`verl_compat.importing`). One of:

    ``value``   the very object to return: the new module for a moved module, the object for a moved name;
    ``error``   an exception the core raises outside the guard, deliberately (a removed or replaced path,
                or the true error of importing a moved path's new home);
    ``stub``    a removed module that still has moved names: the core makes an empty module whose missing
                names are asked of ``resolve_name``.

    ``main``, with any of them, is what ``python -m <old module>`` runs instead (an old entry point).
    """

    value: object = _UNSET
    error: BaseException | None = None
    stub: bool = False
    main: Callable[[], object] | None = None

    @property
    def found(self) -> bool:
        """Whether ``value`` is set (a moved path's object may itself be None)."""
        return self.value is not _UNSET


class CodeImport(NamedTuple):
    """One import of a user's source file, as ``verl-compat doctor --code`` reads it (with ``ast``,
    never importing the file): what a fix's ``describe_code`` gets, a list of them."""

    file: str
    line: int
    module: str  # "verl.a.b": the module of ``import verl.a.b`` or ``from verl.a.b import …``
    name: str | None  # the name of ``from module import name`` ("*" for a star import); None for ``import module``
    scope: str  # "module" (runs at import: top level, class bodies) or "function" (runs when the function is called)
    guarded: bool  # inside a ``try`` whose handlers catch ImportError (or Exception, BaseException, a bare except)


# --- what doctor reads (docs/fix_contract.md, "What doctor reads") -------------------------------

# One row of a doctor section: (label, a value or a list of values, one line each).
DoctorRow = tuple[str, Any]


class Report(TypedDict):
    """What ``describe(config)`` and ``describe_code(imports)`` answer, at least: a fix adds its own
    data beside these keys (printed by ``doctor --json``)."""

    acts: bool  # the config (or code) needs this fix: doctor exits 5 where it is turned off
    rows: list[DoctorRow]  # the fix's rows of doctor's config: (or code:) section
    cannot: list[str]  # what the fix cannot do on this verl: each a doctor problem, exit 4


class TrainerReport(TypedDict):
    """What ``describe_trainer(cls)`` answers, at least (a fix adds its own data beside)."""

    served: bool  # the fix's trainer hooks reach the class
    why: str | None  # why not, when not served (doctor exits 7); None when served
    rows: list[DoctorRow]  # the fix's rows of doctor's trainer: section


# Which answer each of doctor's questions gets (``doctor_rows`` answers a list of rows).
REPORTS: dict[str, Any] = {"describe": Report, "describe_code": Report, "describe_trainer": TrainerReport}
_KEY_TYPES: dict[str, tuple[type, ...]] = {
    "acts": (bool,),
    "served": (bool,),
    "why": (str, type(None)),
    "rows": (list, tuple),
    "cannot": (list, tuple),
}


def report_errors(hook: str, answer: object) -> list[str]:
    """What is wrong with a fix's answer to doctor's ``hook`` (``describe``, ``describe_trainer``,
    ``describe_code``, ``doctor_rows``): a required key missing (a misspelled one among them, named
    with the key it is close to), a value of the wrong type, a row that is not ``(label, value)``.
    Empty where the answer fits the contract. doctor counts a non-empty answer as the fix failing
    (exit 4), and the contract tests check every fix with it: a misspelled ``cannot`` would
    otherwise read as "nothing to say" and exit 0."""
    import difflib

    if hook == "doctor_rows":
        return _row_errors(answer) if isinstance(answer, (list, tuple)) else [f"not a list: {type(answer).__name__}"]
    if not isinstance(answer, dict):
        return [f"not a dict: {type(answer).__name__}"]
    required = REPORTS[hook].__required_keys__
    errors = []
    for key in sorted(required - answer.keys()):
        close = difflib.get_close_matches(key, [k for k in answer if isinstance(k, str)], n=1, cutoff=0.75)
        errors.append(f"no {key!r}" + (f" (misspelled {close[0]!r}?)" if close else ""))
    for key in sorted(required & answer.keys()):
        if not isinstance(answer[key], _KEY_TYPES[key]):
            errors.append(f"{key!r} is a {type(answer[key]).__name__}")
        elif key == "rows":
            errors += _row_errors(answer[key])
        elif key == "cannot":
            errors += [
                f"'cannot' holds a {type(reason).__name__}" for reason in answer[key] if not isinstance(reason, str)
            ]
    return errors


def _row_errors(rows: list[Any] | tuple[Any, ...]) -> list[str]:
    return [
        f"row {row!r} is not (label, value)"
        for row in rows
        if not (isinstance(row, (list, tuple)) and len(row) == 2 and isinstance(row[0], str))
    ]


@runtime_checkable
class Fix(Protocol):
    """The contract every fix fits. Required::

        NAME       the name users put in VERL_COMPAT_DISABLED_FIXES
        TARGETS    modules the fix wraps something in, when they are imported (may be empty)

    Optional parts, found with ``getattr`` (ddtrace's way), each run by the core under :func:`guard`:

        patches(module) -> Plan    what to wrap in one of TARGETS, decided by probes, no side effects
        on_trainer_init(trainer)   right after a trainer's __init__, before it builds workers
        before_step(trainer)       once per step, as the trainer's step-end profiling starts
        after_step(trainer)        once per step, after the trainer's own step-end profiling
        prepare_config(config)     the config step on a launcher's config, before Ray ships it
        describe(config) -> Report what the fix would do to a config (doctor; :class:`Report`)
        describe_trainer(cls) -> TrainerReport   whether and how its trainer hooks serve a class
                                   (doctor --trainer; :class:`TrainerReport`)
        describe_code(imports) -> Report  what the imports of a user's code come to (doctor --code; a
                                   list of :class:`CodeImport`)
        doctor_rows() -> list[DoctorRow]  extra (label, value) rows for doctor's "patches" section
        PROBES                     the fix's feature probes doctor shows ("verl probes"): functions
                                   of no argument, each shown under its __name__
        state() -> dict            merged into the fix's entry of status()
        reset()                    forget per-activation state (deactivate)

    Old import paths (:mod:`verl_compat.importing`), asked only where Python's own import found nothing:

        IMPORT_PACKAGES            top-level packages whose missing modules the fix resolves ("verl",)
        NAME_TARGETS               modules that exist but may lack old names: each gets a module __getattr__
        resolve_module(fullname) -> Resolution | None     what ``import fullname`` gives
        resolve_name(module, name) -> Resolution | None   what ``module.name`` gives
    """

    NAME: str
    TARGETS: tuple[str, ...]


# Every optional part of the contract, by name: the core finds them with getattr, so a misspelled
# one would never run; :func:`misspelled_parts` names those.
OPTIONAL_PARTS = (
    "patches",
    *TRAINER_HOOKS,
    "prepare_config",
    "describe",
    "describe_trainer",
    "describe_code",
    "doctor_rows",
    "PROBES",
    "state",
    "reset",
    "IMPORT_PACKAGES",
    "NAME_TARGETS",
    "resolve_module",
    "resolve_name",
)


def misspelled_parts(fix) -> list[tuple[str, str]]:
    """``(name, part)`` for each public attribute a fix module defines itself that is not a part of
    the contract but is one or two letters away from one (``before_stp``): the core would never call
    it. Checked when a fix is loaded (logged) and by the contract tests (a failure)."""
    import difflib

    known = {"NAME", "TARGETS", *OPTIONAL_PARTS}
    found = []
    for name, value in vars(fix).items():
        if name.startswith("_") or name in known or getattr(value, "__module__", fix.__name__) != fix.__name__:
            continue
        close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.8)
        if close:
            found.append((name, close[0]))
    return found


def fix_name(module_name: str) -> str:
    """The ``NAME`` of the fix a module belongs to: the folder of ``verl_compat/fixes/<name>/`` it
    lives in. Each module of a fix writes ``NAME = registry.fix_name(__name__)``, so a fix's name is
    written once, as its folder, and its modules cannot disagree about it."""
    parts = module_name.split(".")
    if parts[:2] != ["verl_compat", "fixes"] or len(parts) < 3:
        raise ValueError(f"{module_name} is not a module of a fix under verl_compat/fixes")
    return parts[2]


def first_line(exc: BaseException) -> str:
    """``"Type: first line of the message"``: how every error is named in one line."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


# --- fail open --------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Swallowed:
    """One error of verl-compat's own logic that :func:`guard` logged (the first time) and swallowed."""

    serial: int  # 1, 2, ... in the order they happened in this process
    fix: str
    where: str
    error: str  # its first line (:func:`first_line`)


_lock = threading.Lock()
_errors: dict[tuple[str, str], int] = {}  # (fix, where) -> count, since the last clear_errors()
_SWALLOWED_KEPT = 1000
_swallowed: collections.deque[Swallowed] = collections.deque(maxlen=_SWALLOWED_KEPT)
_swallowed_total = 0


@contextlib.contextmanager
def guard(fix: str, where: str):
    """Run the shim's own logic fail-open: log the first error per (fix, where), never raise."""
    try:
        yield
    except Exception as exc:
        swallow(fix, where, exc)


def swallow(fix: str, where: str, exc: Exception) -> None:
    """What :func:`guard` does with an error, for a hot path that catches it itself (the import
    hook, asked for every import no other finder found: a ``with`` block costs a microsecond there).
    Call it inside the ``except`` block: the log carries the traceback being handled."""
    global _swallowed_total
    with _lock:
        count = _errors.get((fix, where), 0)
        _errors[(fix, where)] = count + 1
        _swallowed_total += 1
        _swallowed.append(Swallowed(_swallowed_total, fix, where, first_line(exc)))
    if count == 0:
        logger.exception(
            "verl-compat: fix %r failed in %s; the run continues without it there "
            "(set VERL_COMPAT_DISABLED_FIXES=%s to turn it off)",
            fix,
            where,
            fix,
        )


def run_hook(fix, hook: str, *args, where: str | None = None):
    """``fix.<hook>(*args)`` under the guard (as ``where``, default the hook's name) if the fix has
    it; its result, or None."""
    function = getattr(fix, hook, None)
    if callable(function):
        with guard(fix.NAME, where or hook):
            return function(*args)
    return None


# --- looking, not running -----------------------------------------------------------------------

_looking = threading.local()


@contextlib.contextmanager
def looking():
    """Only look, in this thread: doctor composes a user's config inside it. A fix that would stop a
    launch before workers start, or warn about it, records what it found for its ``describe``
    instead, so that doctor can list everything rather than the first stop."""
    before = getattr(_looking, "on", False)
    _looking.on = True
    try:
        yield
    finally:
        _looking.on = before


def is_looking() -> bool:
    return getattr(_looking, "on", False)


def errors(fix: str) -> dict[str, int]:
    """``where -> count`` of the shim errors of ``fix`` so far."""
    with _lock:
        return {where: count for (name, where), count in _errors.items() if name == fix}


def clear_errors() -> None:
    """Forget the counts :func:`errors` gives (``deactivate``); :func:`swallowed` keeps its record."""
    with _lock:
        _errors.clear()


def swallowed_total() -> int:
    """How many errors the guard has swallowed in this process, ever."""
    with _lock:
        return _swallowed_total


def swallowed(after: int = 0) -> list[Swallowed]:
    """The errors swallowed in this process after the ``after``-th (the last 1,000 are kept): what
    the suite reads to fail a test in which the guard hid an error it did not expect."""
    with _lock:
        return [entry for entry in _swallowed if entry.serial > after]
