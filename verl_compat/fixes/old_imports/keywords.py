"""Keyword arguments that old code passes to verl callables and the installed verl no longer takes
(``table.KEYWORD_ROWS``): a moved one (renamed) is passed under its new name, a dropped one is left out, a
removed one stops the call before it runs, each said once per keyword per process.

A row applies where the installed signature lacks the old keyword (``inspect.signature``, probed per
release). A callable that hands ``**kwargs`` on (``load_reward_manager`` gives them to the reward
manager class the config names, which may be the user's own) cannot be judged from its signature: a
removed keyword is explained only if the call then fails on it.

A call in the old shape that the installed verl would answer with another kind of object
(``load_reward_manager`` with ``num_examine``) is answered before it reaches this wrapper, by
old_rewards' (a later fix: its wrapper is the outer one).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect

from ... import deprecation, registry
from ...registry import Patch, Plan, guard
from .errors import RemovedKeywordError
from .table import KEYWORD_ROWS, KeywordRow

NAME = registry.fix_name(__name__)

# verl's agent loop modules need the rollout stack (openai, cachetools: the 0.6.1 and 0.7.1 wheels do
# not declare them) and doctor imports every target, calling a failed import a problem: their rows
# (AgentLoopManager, AgentData) are left to tools that read code.
_NOT_TARGETED = ("verl.experimental.agent_loop.",)
MODULES = tuple(
    dict.fromkeys(row.callable.partition(":")[0] for row in KEYWORD_ROWS if not row.callable.startswith(_NOT_TARGETED))
)


def _dotted(callable_path: str) -> str:
    return callable_path.replace(":", ".")


def _is_verls(value: object) -> bool:
    """Whether ``value`` comes from verl itself (what verl's own entry points passed), not the user."""
    if isinstance(value, functools.partial):
        value = value.func
    owner = value if inspect.isroutine(value) or isinstance(value, type) else type(value)
    return getattr(owner, "__module__", "").partition(".")[0] == "verl"


def message(row: KeywordRow, value: object = None) -> str:
    call, where = f"{_dotted(row.callable)}({row.old}=...)", f"verl {row.since} ({row.evidence})"
    if row.fate == "moved":
        return (
            f"verl-compat: {call} was renamed to {row.new}= in {where} ({row.note}); verl-compat passed it as "
            f"{row.new}=. Write instead: {row.new}=..."
        )
    if row.fate == "dropped" and callable(value) and not _is_verls(value):
        return (
            f"verl-compat: {_dotted(row.callable)}({row.old}={value!r}) is NOT USED: verl {row.since} dropped the "
            f"keyword ({row.evidence}), and the callable you passed is never called: {row.note}"
        )
    if row.fate == "dropped":
        return f"verl-compat: {call} was dropped in {where} and is ignored: {row.note}. Delete it from the call."
    return f"verl-compat: {call} was removed in {where}: {row.note}"


@dataclasses.dataclass(frozen=True)
class KeywordWrapper:
    """The wrapt wrapper of one callable, for the rows that apply to it on this verl (a value, so
    that the same module gets an equal plan)."""

    callable: str
    rows: tuple[KeywordRow, ...]
    forwards_kwargs: bool

    def __call__(self, wrapped, instance, args, kwargs):
        passed, error = kwargs, None
        with guard(NAME, f"{_dotted(self.callable)} keywords"):
            passed, error = self.translate(kwargs)
        if error is not None:
            raise error
        if not self.forwards_kwargs:
            return wrapped(*args, **passed)
        try:
            return wrapped(*args, **passed)
        except TypeError as exc:
            explained = None
            with guard(NAME, f"{_dotted(self.callable)} keywords"):
                explained = self.explain(exc, passed)
            if explained is None:
                raise
            raise explained from exc

    def translate(self, kwargs: dict) -> tuple[dict, RemovedKeywordError | None]:
        """The keywords to pass, or the error to raise instead of calling."""
        passed = dict(kwargs)
        for row in self.rows:
            if row.old not in passed:
                continue
            value = passed[row.old]
            if row.fate == "moved":
                if row.new in passed:
                    return kwargs, RemovedKeywordError(
                        f"{message(row)} Both {row.old}= and {row.new}= were passed: keep {row.new}= only."
                    )
                passed[row.new] = passed.pop(row.old)
            elif row.fate == "dropped":
                del passed[row.old]
            elif not self.forwards_kwargs:
                return kwargs, RemovedKeywordError(message(row))
            else:
                continue
            loud = row.fate == "dropped" and callable(value) and not _is_verls(value)
            key = f"{row.callable}({row.old}=)" + (" custom" if loud else "")
            deprecation.warn_once(key, message(row, value), at_user_code=True)
        return passed, None

    def explain(self, exc: TypeError, passed: dict) -> RemovedKeywordError | None:
        """A call that handed ``**kwargs`` on failed on a removed keyword: that row's error."""
        for row in self.rows:
            if row.fate == "removed" and row.old in passed and f"'{row.old}'" in str(exc):
                return RemovedKeywordError(message(row))
        return None


def _rows(module_name: str) -> dict[str, list[KeywordRow]]:
    rows: dict[str, list[KeywordRow]] = {}
    for row in KEYWORD_ROWS:
        if row.callable.partition(":")[0] == module_name:
            rows.setdefault(row.callable, []).append(row)
    return rows


def plan(module) -> Plan:
    """The keyword wrappers of ``module``'s callables whose installed signature lacks an old keyword
    (a moved one: and has its new name). Rows this verl does not need are not listed: nothing is
    skipped that should have been done."""
    patches = []
    for callable_path, rows in _rows(module.__name__).items():
        name = callable_path.partition(":")[2]
        owner = vars(module).get(name)
        function = vars(owner).get("__init__") if isinstance(owner, type) else owner
        try:
            parameters = inspect.signature(function).parameters
        except (TypeError, ValueError):
            continue
        forwards = any(parameter.kind is inspect.Parameter.VAR_KEYWORD for parameter in parameters.values())
        applying = tuple(
            row
            for row in rows
            if row.old not in parameters and (row.fate != "moved" or forwards or row.new in parameters)
        )
        if applying:
            path = f"{name}.__init__" if isinstance(owner, type) else name
            why = "old keywords: " + ", ".join(f"{row.old} ({row.fate})" for row in applying)
            patches.append(Patch(path, KeywordWrapper(callable_path, applying, forwards), why))
    return Plan(tuple(patches))
