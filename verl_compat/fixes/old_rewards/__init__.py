"""old_rewards: old-contract reward managers and old reward callables compute the same rewards.

Old reward code was written for verl <= 0.6 (``verl.workers.reward_manager.AbstractRewardManager``:
built with ``(tokenizer, num_examine, compute_score, reward_fn_key, **kwargs)``, called on the whole
batch in the trainer). verl 0.7.1+ builds every manager with the new contract in Ray reward workers
and calls it one trajectory at a time; an old class dies there (``TypeError: unexpected keyword
argument 'config'``), a name registered with the old ``register`` is ``ValueError: Unknown reward
manager``, and ``RayPPOTrainer(reward_fn=...)`` no longer exists. verl 0.6.x calls both itself:
nothing is patched there.

The fix reads top to bottom: :mod:`.contract` says which code is old and builds it the old way,
:mod:`.resolve` finds the configured manager and answers verl's resolution with :mod:`.adapter`'s
``RewardManagerBase`` subclass, :mod:`.driver` calls the old manager on the trainer's whole batch
where verl reads the step's rewards (``extract_reward``) and in ``RewardLoopManager.compute_rm_score``,
:mod:`.trainer_args` keeps ``reward_fn``/``val_reward_fn``, :mod:`.report` says what happened.
"""

from __future__ import annotations

import inspect
import sys

from ... import configs, deprecation, driver_rewards, registry, wrapping
from . import adapter, contract, driver, old_calls, resolve, trainer_args
from .report import describe, manager_warning, reward_fn_warning

__all__ = [
    "NAME",
    "TARGETS",
    "config_step",
    "describe",
    "patches",
    "reset",
    "state",
    "translate_launcher_names",
]

NAME = registry.fix_name(__name__)
REWARD = "verl.trainer.ppo.reward"
REWARD_LOOP = "verl.experimental.reward_loop.reward_loop"
V1_TRAINER = "verl.trainer.ppo.v1.trainer_base"
OLD_REGISTRY = "verl.workers.reward_manager.registry"
OLD_PACKAGE = "verl.workers.reward_manager"
MAIN_PPO = "verl.trainer.main_ppo"
# The trainer modules that import ``extract_reward`` by name and read each step's rewards with it.
TRAINER_MODULES = (
    "verl.trainer.ppo.ray_trainer",
    "verl.experimental.separation.ray_trainer",
    "verl.experimental.one_step_off_policy.ray_trainer",
)
TARGETS = (OLD_REGISTRY, OLD_PACKAGE, MAIN_PPO, REWARD, REWARD_LOOP, V1_TRAINER, *TRAINER_MODULES)
# Trainers whose own __init__ is wrapped: verl's RayPPOTrainer, and the experimental ones whose
# __init__ takes reward_fn and drops it (SeparateRayPPOTrainer) or does not call super().__init__
# (OneStepOffRayTrainer).
TRAINERS_WITH_REWARD_FN = ("RayPPOTrainer", "SeparateRayPPOTrainer", "OneStepOffRayTrainer")


class OldRewardManagerError(RuntimeError):
    """An old-contract reward manager on a trainer whose steps no whole-batch pass reaches."""


# --- patches ------------------------------------------------------------------------------------


def patches(module) -> registry.Plan:
    name = module.__name__
    if not contract.is_new_contract_available():
        # verl <= 0.6 builds and calls old reward managers and reward_fn itself: nothing to patch (an
        # empty plan, not a skip: a skip is what this verl needed and did not get, a doctor problem).
        return registry.Plan(())
    found: list[registry.Patch] = []
    if name in (OLD_REGISTRY, OLD_PACKAGE):
        own = getattr(module, "register", None)
        if own is not None and wrapping.wrapped_by(own, NAME) is None:
            found.append(registry.Patch("register", contract.tolerant_register, "a re-imported file registers again"))
    elif name == MAIN_PPO:
        if hasattr(module, "run_ppo"):
            found.append(registry.Patch("run_ppo", _before_run_ppo, "launcher-registered names"))
    elif name == REWARD:
        if hasattr(module, "extract_reward"):  # where verl's trainers and a copied fit() import it from
            found.append(registry.Patch("extract_reward", driver.extract_reward, "whole-batch pass"))
        if hasattr(module, "resolve_reward_manager_cls"):
            found.append(
                registry.Patch("resolve_reward_manager_cls", resolve.resolve_reward_manager_cls, "adapt old classes")
            )
        if hasattr(module, "load_reward_manager"):  # verl 0.7.x also resolves the class inside it
            found.append(registry.Patch("load_reward_manager", old_calls.load_reward_manager, "the old call"))
    elif name == REWARD_LOOP:
        own = getattr(module, "resolve_reward_manager_cls", None)
        if own is not None and wrapping.wrapped_by(own, NAME) is None:
            found.append(
                registry.Patch("resolve_reward_manager_cls", resolve.resolve_reward_manager_cls, "adapt old classes")
            )
        # Its own name for verl.trainer.ppo.reward's load_reward_manager, where it was bound before
        # verl-compat wrapped that one (0.7.x resolves the class inside it: adapt old classes there).
        load = getattr(module, "load_reward_manager", None)
        if load is not None and wrapping.wrapped_by(load, NAME) is None:
            found.append(registry.Patch("load_reward_manager", old_calls.load_reward_manager, "the old call"))
        found.append(
            registry.Patch("RewardLoopManager.compute_rm_score", driver.compute_rm_score, "old __call__ result")
        )
    elif name == V1_TRAINER:
        found.append(registry.Patch("PPOTrainer.__init__", stop_unreachable, "no whole-batch pass in the v1 trainer"))
    elif name in TRAINER_MODULES:
        own = getattr(module, "extract_reward", None)
        if own is not None and wrapping.wrapped_by(own, NAME) is None:  # imported before verl-compat wrapped it
            found.append(registry.Patch("extract_reward", driver.extract_reward, "whole-batch pass"))
        for cls_name in TRAINERS_WITH_REWARD_FN:
            cls = vars(module).get(cls_name)
            if isinstance(cls, type) and cls.__module__ == name:  # defined here, not imported
                found.append(registry.Patch(f"{cls_name}.__init__", _TRAINER_INIT, "reward_fn, the config step"))
                if "_get_gen_batch" in vars(cls):
                    found.append(registry.Patch(f"{cls_name}._get_gen_batch", driver.keep_columns, "dataset columns"))
                if "_validate" in vars(cls):
                    found.append(registry.Patch(f"{cls_name}._validate", driver.validating, "validation"))
    return registry.Plan(tuple(found))


def reachable(cls: type) -> bool:
    """Whether the whole-batch pass reaches a trainer class: a module of its bases reads rewards
    through the wrapped ``extract_reward``."""
    for base in inspect.getmro(cls):
        function = getattr(sys.modules.get(base.__module__), "extract_reward", None)
        if function is not None and wrapping.wrapped_by(function, NAME) is not None:
            return True
    return False


def stop_unreachable(wrapped, instance, args, kwargs):
    """The v1 trainer (verl 0.9+'s default) scores each trajectory as it finishes and never holds the
    step batch in the driver: an old-contract manager would silently score one sample at a time.
    Stop before any worker starts, naming the key and what to do."""
    result = wrapped(*args, **kwargs)
    error = None
    with registry.guard(NAME, "v1 trainer check"):
        path = resolve.reward_path(instance.config)
        if path.kind == "old" and not reachable(type(instance)):
            error = (
                f"verl-compat: reward.reward_manager.name={path.name} is an old-contract reward manager "
                f"({path.cls.__module__}.{path.cls.__qualname__}), which old verl called on the whole step batch; "
                f"{type(instance).__qualname__} (trainer.use_v1=true) scores one trajectory at a time and has no "
                "whole-batch step, so its rewards would change without a word. Set trainer.use_v1=false (the "
                "RayPPOTrainer scores it on the whole batch, as before), or port the manager to "
                "RewardManagerBase.run_single."
            )
    if error is not None:
        raise OldRewardManagerError(error)
    return result


# --- the config step ----------------------------------------------------------------------------


def _before_run_ppo(wrapped, instance, args, kwargs):
    """The launcher's ``run_ppo(config)``: its names translated before Ray ships the config. Not the
    contract's ``prepare_config``, which runs only where propagation ships verl-compat to the
    workers; a name registered by the launcher's own imports needs this wherever the workers get
    verl-compat from (auto-load included)."""
    with registry.guard(NAME, "before run_ppo"):
        config = args[0] if args else kwargs.get("config")
        if config is not None:
            translate_launcher_names(config)
    return wrapped(*args, **kwargs)


def translate_launcher_names(config) -> None:
    """On a launcher's config, before Ray ships it: a name an old ``register`` in a module of the
    launcher's own process registered is unknown in the TaskRunner and reward worker processes;
    point ``reward.reward_manager`` at the class's module instead (``source=importlib``)."""
    if not contract.is_new_contract_available():
        return
    path = resolve.reward_path(config)
    if path.kind != "old" or path.found != "old registry" or path.cls is None:
        return
    module = path.cls.__module__
    if module.partition(".")[0] == "verl" or contract.from_custom_file(path.cls):
        return  # verl's own old managers and the custom file's are found in every process
    location = f"pkg://{module}" if module != "__main__" else inspect.getfile(path.cls)
    configs.set_key(config, "reward.reward_manager.source", "importlib")
    configs.set_key(config, "reward.reward_manager.name", path.cls.__name__)
    configs.set_key(config, "reward.reward_manager.module.path", location)
    deprecation.warn_once(
        f"{NAME}:{path.name}",
        manager_warning(
            path,
            translated=f"reward.reward_manager.source=importlib reward.reward_manager.module.path={location} "
            f"reward.reward_manager.name={path.cls.__name__}",
        ),
    )


def config_step(trainer) -> Exception | None:
    """Right after a trainer's ``__init__``, before its workers exist: decide who scores, mark the
    config its reward workers get, give the trainer the attributes old ``fit()`` loops read, and say
    what was adapted; or the error that stops the launch where the old setup cannot be kept. Not the
    contract's ``on_trainer_init``: the same ``__init__`` wrapper first takes ``reward_fn`` off the call."""
    if not contract.is_new_contract_available():
        return None
    fns = trainer_args.kept(trainer)
    scorer = driver.scorer_for_config(
        trainer.config, getattr(trainer, "tokenizer", None), fns.get("reward_fn"), fns.get("val_reward_fn")
    )
    if scorer is None or not reachable(type(trainer)):
        driver.set_current(None)
        driver_rewards.set_placeholder(False)
        return None
    stop = _cannot_keep(trainer, scorer, sorted(fns))
    if stop is not None:
        driver.set_current(None)
        driver_rewards.set_placeholder(False)
        return stop
    driver.set_current(scorer)
    configs.set_key(trainer.config, adapter.SCORED_IN_DRIVER, True)
    # The reward workers return a placeholder the old call sites take off, unless a reward model
    # scores: its rm_scores are what old verl gave the old code.
    driver_rewards.set_placeholder(not adapter.reward_model_enabled(trainer.config))
    try:
        _give_old_attributes(trainer, scorer)
    except Exception as exc:  # the old manager's own constructor failed: its error, as old main_ppo raised it
        driver.set_current(None)
        return exc
    if scorer.old_class is None:
        # The callable scores; verl's reward workers return a placeholder instead of running (or
        # failing on) verl's own scorer for each sample.
        configs.set_key(trainer.config, "reward.reward_manager.source", "importlib")
        configs.set_key(trainer.config, "reward.reward_manager.name", adapter.PLACEHOLDER_CLASS)
        configs.set_key(trainer.config, "reward.reward_manager.module.path", adapter.PLACEHOLDER_MODULE)
        deprecation.warn_once(f"{NAME}:reward_fn", reward_fn_warning(sorted(fns)))
        if scorer.val_reward_fn is None:
            _no_validation(trainer)
    else:
        path = resolve.reward_path(trainer.config)
        deprecation.warn_once(f"{NAME}:{path.name}", manager_warning(path))
    return None


def _cannot_keep(trainer, scorer, fns: list[str]) -> OldRewardManagerError | None:
    """What old verl did that this trainer cannot do with old reward code, said before any worker."""
    config = trainer.config
    if str(configs.select(config, "algorithm.adv_estimator")).lower() == "remax":
        return OldRewardManagerError(remax_message(scorer, fns))
    if scorer.old_class is None and scorer.reward_fn is None:
        return OldRewardManagerError(
            "verl-compat: RayPPOTrainer(val_reward_fn=...) without reward_fn=: verl 0.6 scored each training batch "
            "with reward_fn (compute_reward(batch, self.reward_fn)) and failed on None, and verl 0.7.1+ would score "
            "training with its own default scorer instead. Pass reward_fn= too (the same callable, if it is "
            "meant for both). Nothing was started."
        )
    if configs.select(config, "algorithm.filter_groups.enable") and not _overrides_fit(type(trainer)):
        return OldRewardManagerError(
            "verl-compat: algorithm.filter_groups.enable=true with old reward code "
            f"({_what_scores(scorer, fns)}): verl's {type(trainer).__qualname__}.fit never reads filter_groups "
            "(only the v1 trainer, trainer.use_v1=true, filters groups, and it cannot call old reward code on the "
            "whole batch; the old DAPO recipe filtered them in its own fit()), so it would train on every group "
            "without a word. Set algorithm.filter_groups.enable=false to train without dynamic sampling, run the "
            "recipe's own trainer, or port the reward to today's contract and use trainer.use_v1=true. "
            "Nothing was started."
        )
    return None


def _overrides_fit(cls: type) -> bool:
    """Whether a class below verl's own trainers defines ``fit`` (a recipe's own loop)."""
    for base in inspect.getmro(cls):
        if "fit" in vars(base):
            return base.__module__.partition(".")[0] != "verl"
    return False


def _what_scores(scorer, fns: list[str]) -> str:
    if scorer.old_class is None:
        return ", ".join(f"{key}=" for key in fns)
    return f"the old-contract reward manager {scorer.old_class.__module__}.{scorer.old_class.__qualname__}"


def _give_old_attributes(trainer, scorer) -> None:
    """``self.reward_fn`` / ``self.val_reward_fn``, as verl 0.6.1's ``RayPPOTrainer.__init__`` stored
    them and old recipe ``fit()`` loops read them (0.6.1 ``recipe/dapo/dapo_ray_trainer.py``): the
    callables the trainer was given, or for an old-contract manager the two instances old
    ``main_ppo`` built (``num_examine`` 0 and 1). Never over an attribute the trainer set itself."""
    values = {"reward_fn": scorer.reward_fn, "val_reward_fn": scorer.val_reward_fn}
    if scorer.old_class is not None:
        values = {"reward_fn": scorer.callable_for(False), "val_reward_fn": scorer.callable_for(True)}
    for key, value in values.items():
        if getattr(trainer, key, None) is None:
            setattr(trainer, key, value)


def _no_validation(trainer) -> None:
    """A trainer given ``reward_fn`` and no ``val_reward_fn`` did not validate on verl 0.6 (``fit``
    validated only ``if self.val_reward_fn is not None``); verl 0.7.1+ would validate with the
    placeholder's zeros."""
    configs.set_key(trainer.config, "trainer.val_before_train", False)
    configs.set_key(trainer.config, "trainer.test_freq", -1)
    deprecation.warn_once(
        f"{NAME}:no val_reward_fn",
        "verl-compat: RayPPOTrainer(reward_fn=...) without val_reward_fn=: verl 0.6 ran no validation then (it "
        "validated only with a val_reward_fn), so neither does this run (trainer.val_before_train=false "
        "trainer.test_freq=-1). Pass val_reward_fn= to validate.",
    )


def remax_message(scorer, fns: list[str]) -> str:
    """REMAX scores a greedy baseline per prompt through verl's reward loop alone (verl 0.7.1+
    ``RayPPOTrainer.fit``: ``gen_baseline_output.batch["rm_scores"]``), where an old manager or a
    ``reward_fn`` is never called: its baseline would come from another reward."""
    return (
        f"verl-compat: algorithm.adv_estimator=remax with {_what_scores(scorer, fns)}: verl 0.7.1+ scores REMAX's "
        "greedy baseline rollouts in its reward loop only, which cannot call old reward code on the step batch, "
        "so the baseline would be scored by another reward than the samples. Port the reward to today's contract "
        "(reward.custom_reward_function, or a RewardManagerBase subclass with run_single), or pin verl < 0.7.1. "
        "Nothing was started."
    )


_TRAINER_INIT = trainer_args.trainer_init(config_step)


# --- state --------------------------------------------------------------------------------------


def state() -> dict[str, object]:
    scorer = driver.current()
    if scorer is None:
        return {"scorer": None}
    what = "reward_fn" if scorer.old_class is None else f"{scorer.old_class.__module__}.{scorer.old_class.__qualname__}"
    return {"scorer": what}


def reset() -> None:
    driver.set_current(None)
    driver_rewards.set_placeholder(False)
    driver_rewards.take_scored()
