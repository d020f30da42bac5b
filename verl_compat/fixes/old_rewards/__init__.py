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

from ... import configs, deprecation, registry, wrapping
from . import adapter, contract, driver, resolve, trainer_args
from .report import describe, manager_warning, reward_fn_warning

__all__ = ["NAME", "TARGETS", "config_step", "describe", "patches", "reset", "state", "translate_launcher_names"]

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
        if hasattr(module, "resolve_reward_manager_cls"):
            found.append(
                registry.Patch("resolve_reward_manager_cls", resolve.resolve_reward_manager_cls, "adapt old classes")
            )
        else:  # verl 0.7.x resolves inside load_reward_manager
            found.append(registry.Patch("load_reward_manager", resolve.load_reward_manager, "adapt old classes"))
    elif name == REWARD_LOOP:
        own = getattr(module, "resolve_reward_manager_cls", None)
        if own is not None and wrapping.wrapped_by(own, NAME) is None:
            found.append(
                registry.Patch("resolve_reward_manager_cls", resolve.resolve_reward_manager_cls, "adapt old classes")
            )
        load = getattr(module, "load_reward_manager", None)
        if own is None and load is not None and wrapping.wrapped_by(load, NAME) is None:
            found.append(registry.Patch("load_reward_manager", resolve.load_reward_manager, "adapt old classes"))
        found.append(
            registry.Patch("RewardLoopManager.compute_rm_score", driver.compute_rm_score, "old __call__ result")
        )
    elif name == V1_TRAINER:
        found.append(registry.Patch("PPOTrainer.__init__", stop_unreachable, "no whole-batch pass in the v1 trainer"))
    elif name in TRAINER_MODULES:
        if hasattr(module, "extract_reward"):
            found.append(registry.Patch("extract_reward", driver.extract_reward, "whole-batch pass"))
        for cls_name in TRAINERS_WITH_REWARD_FN:
            cls = vars(module).get(cls_name)
            if isinstance(cls, type) and cls.__module__ == name:  # defined here, not imported
                found.append(registry.Patch(f"{cls_name}.__init__", _TRAINER_INIT, "reward_fn, the config step"))
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


def config_step(trainer) -> OldRewardManagerError | None:
    """Right after a trainer's ``__init__``, before its workers exist: decide who scores, mark the
    config its reward workers get, and say what was adapted; or the error that stops the launch
    where the old setup cannot be kept. Not the contract's ``on_trainer_init``: the same
    ``__init__`` wrapper first takes ``reward_fn`` off the call."""
    if not contract.is_new_contract_available():
        return None
    fns = trainer_args.kept(trainer)
    scorer = driver.scorer_for_config(
        trainer.config, getattr(trainer, "tokenizer", None), fns.get("reward_fn"), fns.get("val_reward_fn")
    )
    if scorer is None or not reachable(type(trainer)):
        driver.set_current(None)
        return None
    if str(configs.select(trainer.config, "algorithm.adv_estimator")).lower() == "remax":
        driver.set_current(None)
        return OldRewardManagerError(remax_message(scorer, sorted(fns)))
    driver.set_current(scorer)
    configs.set_key(trainer.config, adapter.SCORED_IN_DRIVER, True)
    if scorer.old_class is None:
        # The callable scores; verl's reward workers return a placeholder instead of running (or
        # failing on) verl's own scorer for each sample.
        configs.set_key(trainer.config, "reward.reward_manager.source", "importlib")
        configs.set_key(trainer.config, "reward.reward_manager.name", adapter.PLACEHOLDER_CLASS)
        configs.set_key(trainer.config, "reward.reward_manager.module.path", adapter.PLACEHOLDER_MODULE)
        deprecation.warn_once(f"{NAME}:reward_fn", reward_fn_warning(sorted(fns)))
    else:
        path = resolve.reward_path(trainer.config)
        deprecation.warn_once(f"{NAME}:{path.name}", manager_warning(path))
    return None


def remax_message(scorer, fns: list[str]) -> str:
    """REMAX scores a greedy baseline per prompt through verl's reward loop alone (verl 0.7.1+
    ``RayPPOTrainer.fit``: ``gen_baseline_output.batch["rm_scores"]``), where an old manager or a
    ``reward_fn`` is never called: its baseline would come from another reward."""
    what = (
        ", ".join(f"{key}=" for key in fns)
        if scorer.old_class is None
        else f"the old-contract reward manager {scorer.old_class.__module__}.{scorer.old_class.__qualname__}"
    )
    return (
        f"verl-compat: algorithm.adv_estimator=remax with {what}: verl 0.7.1+ scores REMAX's greedy baseline "
        "rollouts in its reward loop only, which cannot call old reward code on the step batch, so the baseline "
        "would be scored by another reward than the samples. Port the reward to today's contract "
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
