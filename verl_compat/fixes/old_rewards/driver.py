"""The whole-batch pass: an old-contract manager (or a user's ``reward_fn``) scores the trainer's
batch, in the trainer's process, where old verl called it.

Old verl called the manager on the whole step batch in the driver (verl 0.6.1
``verl/trainer/ppo/ray_trainer.py``: ``fit`` through ``compute_reward(batch, reward_fn)``,
``_validate`` with ``val_reward_fn(test_batch, return_dict=True)``). Whether a manager needs the
batch (a uid group, a vote, a batched judge) cannot be read off its code, so it always gets it.
verl 0.7.1+ reads the step's rewards with ``extract_reward(batch)`` (imported by name into each
trainer module: ``verl.trainer.ppo.ray_trainer``, ``verl.experimental.separation.ray_trainer``,
``verl.experimental.one_step_off_policy.ray_trainer``), in ``fit`` and in ``_validate``
(``batch.meta_info["validate"]`` is True there). The wrapper of that name calls the old manager on
that very batch first: ``rm_scores`` popped (an old manager returns ``rm_scores`` when present),
what the manager writes into ``data.batch`` stays there, and ``rm_scores`` and the
``reward_extra_info`` (``non_tensor_batch`` + ``meta_info["reward_extra_keys"]``) are set from its
result; then verl's ``extract_reward`` reads them as always.

``RewardLoopManager.compute_rm_score(data)`` with an old-contract manager returns what the
manager's ``__call__`` gives on ``data`` (the colocated reward-model path, and any caller of it).
"""

from __future__ import annotations

import dataclasses
import threading
import weakref
from typing import Any

from ... import registry
from . import adapter, contract, resolve

NAME = registry.fix_name(__name__)
SCORED = "verl_compat_old_rewards_scored"  # meta_info flag: this batch's rm_scores are the old manager's


@dataclasses.dataclass
class Scorer:
    """What scores a trainer's batches the old way: a user's ``reward_fn``/``val_reward_fn``, else
    the old-contract manager class the config names, built on first use with the old arguments
    (``num_examine`` 0 for training, 1 for validation)."""

    config: Any
    tokenizer: Any = None
    old_class: type | None = None
    reward_fn: Any = None
    val_reward_fn: Any = None
    _built: dict = dataclasses.field(default_factory=dict)

    def callable_for(self, validate: bool):
        if self.reward_fn is not None or self.val_reward_fn is not None:
            return (self.val_reward_fn or self.reward_fn) if validate else (self.reward_fn or self.val_reward_fn)
        num_examine = 1 if validate else 0
        if num_examine not in self._built:
            self._built[num_examine] = contract.build_old_manager(
                self.old_class, self.config, self.tokenizer, num_examine
            )
        return self._built[num_examine]


_lock = threading.Lock()
_current: Scorer | None = None  # the scorer of the trainer built last in this process
_by_loop_manager: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def set_current(scorer: Scorer | None) -> None:
    global _current
    with _lock:
        _current = scorer


def current() -> Scorer | None:
    return _current


def scorer_for_config(config, tokenizer=None, reward_fn=None, val_reward_fn=None) -> Scorer | None:
    """The scorer a config (and a trainer's callables) asks for; None where verl's own reward loop
    scores (a native manager or function)."""
    if contract.is_old_callable(reward_fn) or contract.is_old_callable(val_reward_fn):
        return Scorer(config, tokenizer, reward_fn=reward_fn, val_reward_fn=val_reward_fn)
    path = resolve.reward_path(config)
    if path.kind == "old":
        return Scorer(config, tokenizer, old_class=path.cls)
    return None


def score(scorer: Scorer, batch, validate: bool) -> tuple[Any, dict]:
    """The old call: training as verl 0.6.1's ``compute_reward`` (``return_dict=True``, falling back to
    the plain call), validation as its ``_validate`` (``return_dict=True``)."""
    manager = scorer.callable_for(validate)
    if validate:
        result = manager(batch, return_dict=True)
        return result["reward_tensor"], dict(result.get("reward_extra_info", {}) or {})
    try:
        result = manager(batch, return_dict=True)
        return result["reward_tensor"], dict(result.get("reward_extra_info", {}) or {})
    except Exception as exc:
        print(f"Error in reward_fn: {exc}")  # verl 0.6.1's compute_reward, word for word
        result = manager(batch)
        return (result[0] if isinstance(result, tuple) else result), {}


def _clear_rewards(batch) -> None:
    """Take what the reward loop put on the batch off it: the manager sees the batch old verl gave it."""
    if "rm_scores" in batch.batch.keys():  # noqa: SIM118 (a TensorDict)
        batch.pop(batch_keys=["rm_scores"])
    for key in batch.meta_info.pop("reward_extra_keys", None) or []:
        batch.non_tensor_batch.pop(key, None)


def _put_rewards(batch, reward_tensor, extra: dict) -> None:
    import numpy as np

    batch.batch["rm_scores"] = reward_tensor
    for key, values in extra.items():
        batch.non_tensor_batch[key] = np.array(values)
    batch.meta_info["reward_extra_keys"] = list(extra)
    batch.meta_info[SCORED] = True


def score_batch(scorer: Scorer, batch) -> None:
    """Score ``batch`` in place (the old manager's own exceptions pass through)."""
    validate = bool(batch.meta_info.get("validate", False))
    _clear_rewards(batch)
    reward_tensor, extra = score(scorer, batch, validate)
    _put_rewards(batch, reward_tensor, extra)


def extract_reward(wrapped, instance, args, kwargs):
    """Each trainer module's ``extract_reward(batch)``: the old manager scores the batch first."""
    scorer = None
    batch = args[0] if args else kwargs.get("batch")
    with registry.guard(NAME, "extract_reward"):
        scorer = current()
        if scorer is not None and batch.meta_info.pop(SCORED, False):
            scorer = None  # compute_rm_score already scored this batch with the old manager
    if scorer is not None:
        score_batch(scorer, batch)
    return wrapped(*args, **kwargs)


def compute_rm_score(wrapped, instance, args, kwargs):
    """``RewardLoopManager.compute_rm_score(data)``: with an old-contract manager, what its
    ``__call__`` gives on ``data`` (same ``rm_scores``, same ``reward_extra_info`` keys)."""
    scorer = None
    with registry.guard(NAME, "compute_rm_score"):
        scorer = _scorer_of_loop_manager(instance)
    if scorer is None:
        return wrapped(*args, **kwargs)
    data = args[0] if args else kwargs["data"]
    from verl import DataProto

    # The caller's batch itself (what the manager writes into it stays there), unless it holds
    # rm_scores, which the old manager would return as they are: then a shallow copy without them.
    tensors = data.batch.clone(recurse=False) if "rm_scores" in data.batch.keys() else data.batch  # noqa: SIM118 (a TensorDict)
    scored = DataProto(batch=tensors, non_tensor_batch=dict(data.non_tensor_batch), meta_info=dict(data.meta_info))
    validate = bool(data.meta_info.get("validate", False))
    _clear_rewards(scored)
    reward_tensor, extra = score(scorer, scored, validate)
    return _as_reward_output(reward_tensor, extra, len(data))


def _as_reward_output(reward_tensor, extra: dict, size: int):
    """The ``DataProto`` ``compute_rm_score`` returns, from an old manager's result."""
    import numpy as np
    from tensordict import TensorDict
    from verl import DataProto

    return DataProto(
        batch=TensorDict({"rm_scores": reward_tensor}, batch_size=size),
        non_tensor_batch={key: np.array(values) for key, values in extra.items()},
        meta_info={"reward_extra_keys": list(extra), SCORED: True},
    )


def _scorer_of_loop_manager(loop_manager) -> Scorer | None:
    """The scorer for a ``RewardLoopManager`` whose class is an adapter: the trainer's where it is
    the same config, else one built from the loop manager's config (tokenizer as its workers load it)."""
    if adapter.adapted_class(getattr(loop_manager, "reward_manager_cls", None)) is None:
        trainer_scorer = current()
        if (
            trainer_scorer is None
            or trainer_scorer.old_class is not None
            or trainer_scorer.config is not loop_manager.config
        ):
            return None
        return trainer_scorer  # a user's reward_fn: verl's manager is native, the callable scores
    trainer_scorer = current()
    if trainer_scorer is not None and trainer_scorer.config is loop_manager.config:
        return trainer_scorer
    with _lock:
        scorer = _by_loop_manager.get(loop_manager)
        if scorer is None:
            scorer = _by_loop_manager[loop_manager] = Scorer(
                loop_manager.config,
                _tokenizer(loop_manager.config),
                adapter.adapted_class(loop_manager.reward_manager_cls),
            )
        return scorer


def _tokenizer(config):
    from verl.utils import hf_tokenizer

    path = contract.configs.select(config, "actor_rollout_ref.model.tokenizer_path") or contract.configs.select(
        config, "actor_rollout_ref.model.path"
    )
    return hf_tokenizer(path, trust_remote_code=True)
