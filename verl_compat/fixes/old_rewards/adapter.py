"""An old-contract reward manager class, seen by today's reward loop as a ``RewardManagerBase``.

verl 0.7.1+ builds the manager in every ``RewardLoopWorker`` Ray actor as
``cls(config=, tokenizer=, compute_score=, ...)`` and awaits ``run_single(data)`` on one trajectory
at a time (``verl/experimental/reward_loop/reward_loop.py``). An old class dies there (``TypeError:
unexpected keyword argument 'config'``). :func:`adapter_for` gives one subclass of
``RewardManagerBase`` per old class (cached: the driver's ``RewardLoopManager`` and each worker
resolve the same class) that verl can build and call.

What ``run_single`` does depends on who scores the batch. Where the trainer's whole-batch pass
(:mod:`.driver`) scores it, the trainer marks the config its workers get (:data:`SCORED_IN_DRIVER`)
and ``run_single`` does not call the old manager (a second call could cost money, a paid judge, or
append to a log): it returns the reward model's score where the run has one, computed by verl's
own ``RewardLoopWorker.compute_score_disrm`` (old verl put the reward model's ``rm_scores`` on the
batch before the manager ran, and old managers return or combine them; verl 0.7.1+'s worker asks
the reward model only where no custom reward file is set, and the old manager's file is one), else
a neutral placeholder 0.0 (:mod:`verl_compat.driver_rewards`). Without the mark (a path the driver pass does
not reach), it calls the old manager on the trajectory the way verl 0.6.0's ``RewardManagerWorker``
did (``manager(data, return_dict=True)``, the tensor's sum, each extra list's entry), and warns once
that a manager reading the batch sees one sample.
"""

from __future__ import annotations

import threading

from ... import configs, deprecation, registry
from . import contract

NAME = registry.fix_name(__name__)

# The config key the trainer sets on the config its reward workers get when the driver pass scores.
SCORED_IN_DRIVER = "reward.verl_compat_scored_in_driver"
PLACEHOLDER = {"reward_score": 0.0, "reward_extra_info": {}}

_lock = threading.Lock()
_adapters: dict[type, type] = {}


def scored_in_driver(config) -> bool:
    return bool(configs.select(config, SCORED_IN_DRIVER))


def reward_model_enabled(config) -> bool:
    """Whether the run has a reward model (0.7.1+ ``reward.reward_model.enable``; 0.6.x
    ``reward_model.enable``)."""
    enabled = configs.select(config, "reward.reward_model.enable")
    if enabled is None:
        enabled = configs.select(config, "reward_model.enable")
    return bool(enabled)


def adapted_class(cls):
    """The old class behind an adapter, or None for any other class."""
    return getattr(cls, "verl_compat_old_class", None) if isinstance(cls, type) else None


def adapter_for(old_cls: type) -> type:
    """The ``RewardManagerBase`` subclass that stands for ``old_cls`` (one per class)."""
    with _lock:
        adapter = _adapters.get(old_cls)
        if adapter is None:
            adapter = _adapters[old_cls] = _make_adapter(old_cls)
        return adapter


def _make_adapter(old_cls: type) -> type:
    base = contract._new_base()

    class OldContractRewardManager(base):
        """Today's reward-loop face of an old-contract manager (verl-compat ``old_rewards``)."""

        verl_compat_old_class = old_cls

        def __init__(self, config, tokenizer, compute_score=None, **kwargs):
            super().__init__(config, tokenizer, compute_score)
            self._old = None
            self._reward_model = kwargs

        def old_manager(self):
            """The old manager, built once with the old arguments (``num_examine=0``: verl 0.6.0's
            reward workers built the training instance). ``compute_score`` is the one verl's loader
            passed: the custom reward file is already imported in this process."""
            if self._old is None:
                self._old = contract.build_old_manager(
                    old_cls, self.config, self.tokenizer, num_examine=0, score=self.compute_score
                )
            return self._old

        async def run_single(self, data):
            if scored_in_driver(self.config):
                return await driver_placeholder(self, data)
            deprecation.warn_once(
                f"{NAME}:per-sample:{old_cls.__qualname__}",
                f"verl-compat: the old-contract reward manager {old_cls.__module__}.{old_cls.__qualname__} is "
                "called one trajectory at a time here (no trainer batch pass reaches this reward loop), as verl "
                "0.6.0's reward workers did: a manager that reads other samples of the batch (a uid group, a "
                "vote) sees only this one.",
            )
            return per_sample(self.old_manager(), data)

    OldContractRewardManager.__name__ = OldContractRewardManager.__qualname__ = f"OldContract{old_cls.__name__}"
    return OldContractRewardManager


async def driver_placeholder(manager, data) -> dict:
    """What a reward worker returns for one trajectory that the trainer's whole-batch pass scores:
    the reward model's score where the run has one (the pass hands it to the old code as old verl
    did), else the neutral placeholder."""
    if not reward_model_enabled(manager.config):
        return dict(PLACEHOLDER, reward_extra_info={})
    worker = _reward_model_worker(manager.config, manager.tokenizer, manager._reward_model)
    result = await worker.compute_score_disrm(data)
    return {"reward_score": result["reward_score"], "reward_extra_info": {}}


def _reward_model_worker(config, tokenizer, built_with: dict):
    """verl's own ``RewardLoopWorker``, its reward-model half only: ``compute_score_disrm`` reads the
    config, the two tokenizers and the reward router's address, which verl's ``load_reward_manager``
    hands every manager it builds (``reward_router_address=``, ``reward_model_tokenizer=``)."""
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker

    worker = object.__new__(RewardLoopWorker)
    worker.config = config
    worker.input_tokenizer = tokenizer
    worker.reward_model_tokenizer = built_with.get("reward_model_tokenizer")
    worker.reward_router_address = built_with.get("reward_router_address")
    return worker


def per_sample(manager, data) -> dict:
    """One trajectory through an old manager, as verl 0.6.0's ``RewardManagerWorker`` did."""
    result = manager(data, return_dict=True)
    if isinstance(result, dict):
        tensor, extra = result["reward_tensor"], result.get("reward_extra_info", {}) or {}
    else:
        tensor, extra = (result[0] if isinstance(result, tuple) else result), {}
    return {"reward_score": tensor[-1].sum().item(), "reward_extra_info": {k: v[-1] for k, v in extra.items()}}


# Where the trainer holds a user's reward_fn, its workers' config names this class (the callable
# scores in the driver pass; verl's own scorer must not run, nor fail, on each sample meanwhile).
PLACEHOLDER_CLASS = "DriverScoredRewardManager"
PLACEHOLDER_MODULE = f"pkg://{__name__}"
_placeholder: list[type] = []


def __getattr__(name: str):
    """``DriverScoredRewardManager``, built on first access (this module must not import verl at
    import: the core imports every fix when it activates)."""
    if name != PLACEHOLDER_CLASS:
        raise AttributeError(name)
    with _lock:
        if not _placeholder:
            base = contract._new_base()

            class DriverScoredRewardManager(base):
                """Returns a neutral score: the trainer's reward_fn scores the batch in the driver."""

                def __init__(self, config, tokenizer, compute_score=None, **kwargs):
                    super().__init__(config, tokenizer, compute_score)
                    self._reward_model = kwargs

                async def run_single(self, data):
                    return await driver_placeholder(self, data)

            _placeholder.append(DriverScoredRewardManager)
        return _placeholder[0]
