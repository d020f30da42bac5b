"""How a fix's trainer hooks reach a trainer class: read from the classes and the record of what
is wrapped, for ``status()`` and ``verl-compat doctor --trainer``.

Introspection only: nothing here wraps anything. Per method (``__init__``, ``_stop_profiling``,
``fit``) it says whether the fix's wrapper runs there and why, in words a user can act on; a fix
adds its own verdict on top (torch_memory: where a class makes the legacy call).
"""

from __future__ import annotations

import types
from typing import Any

from . import probes, wrapping
from .trainers import INIT, STOP, TRAINER_HOOKS_AT


def _owner(cls: type, name: str) -> type | None:
    return next((base for base in cls.__mro__ if name in vars(base)), None)


def method_reach(cls: type, name: str, fix: str) -> dict[str, Any]:
    """Whether ``cls.<name>`` (its own or inherited) is wrapped by ``fix``: ``wrapped``, ``owner``
    (the class that defines it) and ``how`` in words (``"wrapped (inherited from RayPPOTrainer)"``)."""
    owner = _owner(cls, name)
    if owner is None:
        return {"wrapped": False, "how": "absent", "owner": None}
    where = "own" if owner is cls else f"inherited from {owner.__name__}"
    wrapped = wrapping.wrapped_by(vars(owner)[name], fix) is not None
    return {"wrapped": wrapped, "how": f"{'wrapped' if wrapped else 'not wrapped'} ({where})", "owner": owner}


def calls(cls, function, name: str, depth: int = 3) -> bool:
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


def hooks_reach(cls: type, fix: str) -> dict[str, dict[str, Any]]:
    """How ``fix``'s trainer hooks reach ``cls``, per method: ``__init__`` and ``_stop_profiling`` as
    :func:`method_reach` gives them (``__init__`` counted as wrapped where it calls a wrapped
    ``super().__init__``), and ``fit`` (its ``owner``, whether it reaches ``_stop_profiling``
    (``calls_stop``), and ``how``)."""
    init = method_reach(cls, INIT, fix)
    if not init["wrapped"] and init["owner"] is not None and probes.init_calls_super(init["owner"]):
        base = next((b for b in cls.__mro__[1:] if wrapping.wrapped_by(vars(b).get(INIT), fix)), None)
        if base is not None:
            init["wrapped"] = True
            init["how"] += f"; calls super().__init__, so the wrapped {base.__name__}.__init__ runs"
    stop = method_reach(cls, STOP, fix)
    if (
        not stop["wrapped"]
        and stop["owner"] is not None
        and probes.stop_profiling_shape(vars(stop["owner"])[STOP]) is None
    ):
        stop["how"] += ": a coroutine or a signature verl-compat does not know, skipped"
    fit_owner = _owner(cls, "fit")
    fit: dict[str, Any] = {"owner": fit_owner, "calls_stop": True, "how": "absent"}
    if fit_owner is not None:
        fit["calls_stop"] = calls(cls, vars(fit_owner)["fit"], STOP)
        where = "own" if fit_owner is cls else f"inherited from {fit_owner.__name__}"
        fit["how"] = f"{where}; {'calls' if fit['calls_stop'] else 'never calls'} _stop_profiling"
    return {INIT: init, STOP: stop, "fit": fit}


def needs(fix: types.ModuleType) -> tuple[str, ...]:
    """The methods where ``fix`` (a fix module) has trainer hooks."""
    return tuple(m for m, hooks in TRAINER_HOOKS_AT.items() if any(callable(getattr(fix, h, None)) for h in hooks))


def coverage(cls: type, fix: str, needs: tuple[str, ...]) -> dict[str, Any]:
    """Whether ``fix``'s trainer hooks at the methods it ``needs`` (:func:`needs`) all run on
    ``cls`` (``served``, else ``why`` not), and how each method is reached, in words. An init-only
    fix is served where ``__init__`` is reached, whatever the step end does."""
    reach = hooks_reach(cls, fix)
    init, stop, fit = reach[INIT], reach[STOP], reach["fit"]
    why = None
    if STOP in needs and not stop["wrapped"]:
        why = f"its _stop_profiling is {stop['how']}: nothing runs at the end of a step"
    elif STOP in needs and not fit["calls_stop"]:
        why = f"its fit() ({fit['how']}) never reaches the wrapped _stop_profiling"
    elif INIT in needs and not init["wrapped"]:
        why = f"its __init__ is {init['how']}: the config is not translated before its workers are built"
    return {"served": why is None, "why": why, INIT: init["how"], STOP: stop["how"], "fit": fit["how"]}
