"""``RayPPOTrainer(reward_fn=..., val_reward_fn=...)``: the old trainer's reward callables, kept.

verl 0.7.1 (#5237) removed both parameters from ``RayPPOTrainer.__init__``; 0.7.1-0.9.1's
``SeparateRayPPOTrainer`` (the one-step-off and fully-async base) still accepts them and drops them.
Old code passed its own callable there: the wrapper takes them off the call where the trainer has
no such parameter, keeps them on the instance (:data:`ATTR`), and the driver pass (:mod:`.driver`)
scores with them, training with ``reward_fn`` and validation with ``val_reward_fn`` (else
``reward_fn``), as verl 0.6.1's ``fit`` and ``_validate`` did. The same wrapper runs the fix's config
step right after ``__init__`` (one wrapper per ``__init__``: the fix has no ``on_trainer_init``).
"""

from __future__ import annotations

import inspect

from ... import registry

NAME = registry.fix_name(__name__)
ATTR = "_verl_compat_reward_fns"
KEYWORDS = ("reward_fn", "val_reward_fn")


def takes_reward_fns(init) -> bool:
    try:
        return "reward_fn" in inspect.signature(init).parameters
    except (TypeError, ValueError):
        return False


_DEPTH = "_verl_compat_old_rewards_depth"


class RewardFnNotKeptError(RuntimeError):
    """verl-compat could not set up the callables a trainer was given: the run would score with
    another reward."""


def trainer_init(config_step):
    """The wrapper of a trainer's ``__init__``: the callables kept on the instance (off the call where
    it lacks them), then, once the outermost ``__init__`` returned (a subclass's calling its base's
    runs it once), ``config_step(trainer)``, before the trainer builds its workers. An exception
    ``config_step`` returns is raised there, outside the guard: a setup it cannot keep stops the
    launch; so is a failure of ``config_step`` itself where the trainer was given callables (they are
    off the call by then: going on would score with another reward)."""

    def wrapper(wrapped, instance, args, kwargs):
        outermost = True
        with registry.guard(NAME, "__init__ reward_fn"):
            accepts = takes_reward_fns(wrapped)
            kept = {key: kwargs[key] for key in KEYWORDS if kwargs.get(key) is not None}
            if kept and instance is not None and ATTR not in vars(instance):
                vars(instance)[ATTR] = kept
            if not accepts:
                for key in KEYWORDS:
                    kwargs.pop(key, None)
            depth = vars(instance).get(_DEPTH, 0) if instance is not None else 0
            outermost = depth == 0
            if instance is not None:
                vars(instance)[_DEPTH] = depth + 1
        try:
            result = wrapped(*args, **kwargs)
        finally:
            if instance is not None:
                vars(instance)[_DEPTH] = vars(instance).get(_DEPTH, 1) - 1
        stop = None
        if outermost and instance is not None:
            done = False
            with registry.guard(NAME, "the config step"):
                stop = config_step(instance)
                done = True
            if not done and kept:
                # Fail closed: the callables are off the call, and verl would score with its own reward.
                stop = RewardFnNotKeptError(
                    f"verl-compat: {' and '.join(f'{key}=' for key in sorted(kept))} given to "
                    f"{type(instance).__qualname__} could not be set up (the error is logged above), and the run "
                    "would score with verl's own reward instead. Nothing was started."
                )
        if stop is not None:
            raise stop  # before the trainer builds any worker: what it asked cannot be kept
        return result

    return wrapper


def kept(trainer) -> dict:
    return dict(vars(trainer).get(ATTR, {}))
