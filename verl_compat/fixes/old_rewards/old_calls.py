"""The old call ``load_reward_manager(config, tokenizer, num_examine, **reward_kwargs)``, answered
with what it returned on old verl.

verl <= 0.7.0's ``load_reward_manager`` took ``num_examine`` (third, positional in the recipe
launchers: v0.6.1 ``recipe/dapo/main_dapo.py``, ``load_reward_manager(config, tokenizer, 0,
max_resp_len=..., overlong_buffer_cfg=...)``) and returned an old-contract manager, called on the
whole batch (``manager(data, return_dict=True)``). verl 0.7.1 (verl#5237) takes ``(config, tokenizer,
**reward_kwargs)`` and returns a reward-loop manager (``async run_single`` on one trajectory): the
positional call is a ``TypeError``, and with the keyword dropped the caller gets an object it cannot
call on its batch. A call that passes ``num_examine`` is old code expecting the old answer, so it
gets what verl 0.6.1's ``load_reward_manager`` built: the class the old registry knows by the
configured name (verl 0.9.1 still ships ``naive``, ``dapo``, ``batch``, ``prime`` and the old
``register``), built with the tokenizer, ``num_examine``, ``compute_score`` as 0.6.1 built it
(old_rewards' contract: the custom function with its ``reward_kwargs``, else
``default_compute_score``, bound to the sandbox where one is configured),
``reward_fn_key=data.reward_fn_key`` and the call's own keywords. The installed function is not
called for it: its answer is the object the old code cannot use.

A name the old registry does not know, or a class of today's contract named by ``importlib``, has
no old answer: the call goes on to the installed function with ``num_examine`` as a keyword, which
old_imports' keyword row drops (this wrapper is outside old_imports': old_rewards comes later in
``FIX_MODULES``), as before. On verl 0.7.x the installed function also resolves the class itself:
there the call goes on through :func:`.resolve.load_reward_manager`.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from typing import Any

from ... import deprecation, registry
from . import contract, resolve

NAME = registry.fix_name(__name__)

LOAD_REWARD_MANAGER = "verl.trainer.ppo.reward:load_reward_manager"
_OLD_PARAMETERS = ("config", "tokenizer", "num_examine")  # verl 0.6.1's, in order


@dataclasses.dataclass(frozen=True)
class OldCall:
    """What an old-shaped call comes to: ``build`` gives the old answer, else ``args``/``kwargs`` go
    to the installed function (a positional ``num_examine`` passed as the keyword its row drops)."""

    args: tuple
    kwargs: dict
    build: Callable[[], Any] | None = None


def load_reward_manager(wrapped, instance, args, kwargs):
    """``verl.trainer.ppo.reward.load_reward_manager``: an old call gets the old answer; any other
    goes on (on verl 0.7.x through :func:`.resolve.load_reward_manager`, which adapts an old class)."""
    old = None
    with registry.guard(NAME, "load_reward_manager old call"):
        old = old_call(args, kwargs)
    if old is not None and old.build is not None:
        return old.build()  # the old answer: the installed function's is what the caller cannot use
    if old is not None:
        args, kwargs = old.args, old.kwargs
    if _resolves_itself():
        return resolve.load_reward_manager(wrapped, instance, args, kwargs)
    return wrapped(*args, **kwargs)


def _resolves_itself() -> bool:
    """verl 0.7.x: ``load_reward_manager`` resolves the class itself (no ``resolve_reward_manager_cls``)."""
    return not hasattr(sys.modules.get("verl.trainer.ppo.reward"), "resolve_reward_manager_cls")


def old_call(args: tuple, kwargs: dict) -> OldCall | None:
    """The old call this is, or None for a call of today's shape."""
    if not (len(args) == 3 or "num_examine" in kwargs):
        return None
    bound = dict(zip(_OLD_PARAMETERS, args, strict=False))
    if set(bound) & set(kwargs):
        return None  # a parameter passed twice: the installed function's own TypeError says so
    bound.update(kwargs)
    config, tokenizer = bound.pop("config", None), bound.pop("tokenizer", None)
    num_examine = bound.pop("num_examine")
    cls = old_manager_class(config) if config is not None and contract.old_registry() is not None else None
    if cls is None:
        return OldCall(args[:2], {**kwargs, "num_examine": num_examine})

    def build():
        deprecation.warn_once(f"{LOAD_REWARD_MANAGER}(num_examine=)", message(cls), at_user_code=True)
        return contract.build_old_manager(cls, config, tokenizer, num_examine, kwargs=bound)

    return OldCall(args, kwargs, build)


def old_manager_class(config) -> type | None:
    """The old-contract class verl 0.6.1's ``load_reward_manager`` would build for ``config``: the
    class the old registry knows by the configured name (the custom reward file imported first, as
    0.6.1 did), or an old-contract class named by ``importlib``; None where there is none."""
    source, name, module_path = resolve.manager_settings(config)
    if source == "importlib":
        from verl.utils.import_utils import load_extern_object

        cls = load_extern_object(module_path=module_path, object_name=name)
    else:
        path, _, _ = contract.custom_function_settings(config)
        cls = contract.registered_old_class(name or "naive", path)
    return cls if cls is not None and contract.is_old_contract(cls) else None


def message(cls: type) -> str:
    return (
        "verl-compat: load_reward_manager(config, tokenizer, num_examine, **reward_kwargs) is the call of "
        "verl <= 0.7.0, which returned an old-contract reward manager called on the whole batch; verl 0.7.1 "
        "(verl#5237 (3df21a68e)) takes load_reward_manager(config, tokenizer, **reward_kwargs) and returns a "
        f"reward-loop manager that scores one trajectory at a time. verl-compat built {cls.__module__}."
        f"{cls.__qualname__} as verl 0.6.1 did (num_examine, compute_score from the config, "
        "reward_fn_key=data.reward_fn_key, the call's keywords). To drop verl-compat: name the manager in the "
        "config (reward.reward_manager, reward.reward_kwargs) and read each step's rewards with "
        "verl.trainer.ppo.reward.extract_reward(batch)."
    )
