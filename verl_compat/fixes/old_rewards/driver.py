"""The whole-batch pass: an old-contract manager (or a user's ``reward_fn``) scores the trainer's
batch, in the trainer's process, where old verl called it, on the batch old verl gave it.

Old verl called the manager on the whole step batch in the driver (verl 0.6.1
``verl/trainer/ppo/ray_trainer.py``: ``fit`` through ``compute_reward(batch, reward_fn)`` after the
reward model's ``rm_scores`` were put on the batch, ``_validate`` with ``val_reward_fn(test_batch,
return_dict=True)``, no reward model). Whether a manager needs the batch (a uid group, a vote, a
batched judge) cannot be read off its code, so it always gets it. verl 0.7.1+ reads the step's
rewards with ``extract_reward(batch)`` (``verl.trainer.ppo.reward``, imported by name into each
trainer module), in ``fit`` and in ``_validate`` (``batch.meta_info["validate"]`` is True there).
The wrapper of that name calls the old manager on that very batch first, as old verl gave it:

- the reward workers' placeholder ``rm_scores`` taken off (:mod:`verl_compat.driver_rewards`); a
  reward model's ``rm_scores`` kept in training (old managers return or combine them), taken off in
  validation (old ``_validate`` never ran the reward model);
- the dataset's columns back on it: verl 0.7.1+'s ``_get_gen_batch`` moves every column but
  ``data_source``/``reward_model``/``extra_info``/``uid`` into the generation batch, and the agent loop
  hands them back only with a colocated reward model, where old verl's sync rollout always did
  (verl 0.6.1 ``vllm_rollout_spmd.py``: the input's ``non_tensor_batch`` returned). They are found by
  ``uid`` (the step batch is repeated and reordered since) and taken off again after the call,
  unless the manager replaced them;

then ``rm_scores`` and the ``reward_extra_info`` (``non_tensor_batch`` + ``meta_info["reward_extra_keys"]``)
are set from its result, and verl's ``extract_reward`` reads them as always.

``RewardLoopManager.compute_rm_score(data)`` with an old-contract manager returns what the
manager's ``__call__`` gives on ``data`` after verl's own call has put the reward model's scores on
it (the colocated reward-model path); during ``_validate`` it returns zeros without querying the
reward model, and ``extract_reward`` scores the unpadded validation batch as old ``_validate`` did.
"""

from __future__ import annotations

import dataclasses
import threading
import weakref
from typing import Any

from ... import configs, deprecation, driver_rewards, registry
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
        """Training with ``reward_fn``, validation with ``val_reward_fn``, as verl 0.6.1 (a trainer
        given one of them only is stopped or validates not at all: :func:`.config_step`)."""
        if self.old_class is None:
            return self.val_reward_fn if validate else self.reward_fn
        num_examine = 1 if validate else 0
        if num_examine not in self._built:
            self._built[num_examine] = contract.build_old_manager(
                self.old_class, self.config, self.tokenizer, num_examine
            )
        return self._built[num_examine]


_lock = threading.Lock()
_current: Scorer | None = None  # the scorer of the trainer built last in this process
_by_loop_manager: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_local = threading.local()  # .validating: inside a trainer's _validate; .extracting: inside extract_reward
_columns: dict[str, dict[str, Any]] = {}  # uid -> the dataset columns _get_gen_batch took off its row
_steps_started = 0  # training steps of the current scorer whose batch _get_gen_batch split


def set_current(scorer: Scorer | None) -> None:
    global _current, _steps_started
    with _lock:
        _current = scorer
        _columns.clear()
        _steps_started = 0


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


def _clear_rewards(batch, validate: bool) -> None:
    """Take what the reward loop put on the batch off it: the placeholder always, a reward model's
    scores in validation (old ``_validate`` scored without the reward model)."""
    if not driver_rewards.strip_placeholder(batch) and validate and "rm_scores" in batch.batch.keys():  # noqa: SIM118
        batch.pop(batch_keys=["rm_scores"])
    for key in batch.meta_info.pop("reward_extra_keys", None) or []:
        batch.non_tensor_batch.pop(key, None)


def _put_rewards(batch, reward_tensor, extra: dict, validate: bool) -> None:
    batch.batch["rm_scores"] = reward_tensor
    for key, values in extra.items():
        batch.non_tensor_batch[key] = _as_column(values, validate)
    batch.meta_info["reward_extra_keys"] = list(extra)
    batch.meta_info[SCORED] = True


def _as_column(values, validate: bool):
    """A reward extra info list as a batch column: ``np.array`` as old training did (verl 0.6.1
    ``fit``); in validation, where old ``_validate`` extended its lists with the values as they were,
    one object per row, so that a ragged per-sample list stays as it was."""
    import numpy as np

    if not validate:
        return np.array(values)
    column = np.empty(len(values), dtype=object)
    for i, value in enumerate(values):
        column[i] = value
    return column


# --- the dataset's columns ---------------------------------------------------------------------


def keep_columns(wrapped, instance, args, kwargs):
    """A trainer's ``_get_gen_batch(batch)``, once per step and per validation batch: the columns it
    moves off ``batch`` remembered by ``uid``, where an old manager scores (they go back on the batch
    for it: :func:`score_batch`); and a training step before it that never called the old code named."""
    gen_batch = wrapped(*args, **kwargs)
    with registry.guard(NAME, "_get_gen_batch"):
        batch = args[0] if args else kwargs.get("batch")
        if current() is not None and batch is not None:
            _remember_columns(batch, gen_batch)
            if not getattr(_local, "validating", 0):
                _check_last_step(instance)
    return gen_batch


def _check_last_step(trainer) -> None:
    """Where the training step before this one read its rewards without calling the old code (a
    ``fit()`` that reads ``rm_scores`` itself, not through ``extract_reward`` or ``compute_reward``),
    it trained on the reward workers' placeholder: say so, once."""
    global _steps_started
    scored = driver_rewards.take_scored()
    with _lock:
        started, _steps_started = _steps_started, _steps_started + 1
    if not started or scored or not driver_rewards.placeholder_active():
        return
    deprecation.log_once(
        f"verl-compat: {type(trainer).__qualname__}'s training step {started} read its rewards without calling "
        "the old reward code (neither verl's extract_reward nor compute_reward ran on the step batch): its "
        "rm_scores are the reward workers' placeholder 0.0, not your reward. Read rewards with `from "
        "verl.trainer.ppo.reward import extract_reward` or `compute_reward(batch, self.reward_fn)`."
    )


def _remember_columns(batch, gen_batch) -> None:
    uids = batch.non_tensor_batch.get("uid")
    moved = [key for key in gen_batch.non_tensor_batch if key not in batch.non_tensor_batch]
    if uids is None or not moved:
        return
    with _lock:
        _columns.clear()
        for i, uid in enumerate(uids.tolist()):
            _columns[uid] = {key: gen_batch.non_tensor_batch[key][i] for key in moved}


def _restore_columns(batch) -> dict[str, Any]:
    """Put the remembered columns missing from ``batch`` back on it; ``{key: column}`` put."""
    import numpy as np

    uids = batch.non_tensor_batch.get("uid")
    if uids is None or not _columns:
        return {}
    rows = [_columns.get(uid) for uid in uids.tolist()]
    if any(row is None for row in rows):
        return {}  # not the batch _get_gen_batch split (or rows of another step): leave it as it is
    put = {}
    for key in rows[0]:
        if key in batch.non_tensor_batch:
            continue
        column = np.empty(len(rows), dtype=object)
        for i, row in enumerate(rows):
            column[i] = row[key]
        batch.non_tensor_batch[key] = put[key] = column
    return put


def _take_back(batch, put: dict[str, Any]) -> None:
    for key, column in put.items():
        if batch.non_tensor_batch.get(key) is column:  # the manager did not replace it
            del batch.non_tensor_batch[key]


# --- scoring --------------------------------------------------------------------------------------


def score_batch(scorer: Scorer, batch) -> None:
    """Score ``batch`` in place (the old manager's own exceptions pass through)."""
    validate = bool(batch.meta_info.get("validate", False))
    _clear_rewards(batch, validate)
    put = _restore_columns(batch)
    try:
        reward_tensor, extra = score(scorer, batch, validate)
    finally:
        _take_back(batch, put)
    _put_rewards(batch, reward_tensor, extra, validate)
    if not validate:
        driver_rewards.note_scored()


def extract_reward(wrapped, instance, args, kwargs):
    """``extract_reward(batch)`` (``verl.trainer.ppo.reward`` and each trainer module's name for it):
    the old manager scores the batch first. Once per call: a module's name for it can hold a
    wrapper that wraps another (a module that imported the wrapped function, its wrapper left in
    place by ``deactivate`` and wrapped again by the next ``activate``); the inner one passes through."""
    if getattr(_local, "extracting", False):
        return wrapped(*args, **kwargs)
    scorer = None
    batch = args[0] if args else kwargs.get("batch")
    with registry.guard(NAME, "extract_reward"):
        scorer = current()
        if scorer is not None and batch.meta_info.pop(SCORED, False):
            scorer = None  # compute_rm_score already scored this batch with the old manager
    if scorer is not None:
        score_batch(scorer, batch)
    _local.extracting = True
    try:
        return wrapped(*args, **kwargs)
    finally:
        _local.extracting = False


def validating(wrapped, instance, args, kwargs):
    """A trainer's ``_validate``: marked on this thread while it runs (its colocated reward-model
    call is not scored: see :func:`compute_rm_score`)."""
    depth = getattr(_local, "validating", 0)
    _local.validating = depth + 1
    try:
        return wrapped(*args, **kwargs)
    finally:
        _local.validating = depth


def compute_rm_score(wrapped, instance, args, kwargs):
    """``RewardLoopManager.compute_rm_score(data)``: with an old-contract manager, what its
    ``__call__`` gives on ``data`` (same ``rm_scores``, same ``reward_extra_info`` keys), after verl's
    own call put the reward model's scores on it where the run has one."""
    scorer = None
    with registry.guard(NAME, "compute_rm_score"):
        scorer = _scorer_of_loop_manager(instance)
    if scorer is None:
        return wrapped(*args, **kwargs)
    data = args[0] if args else kwargs["data"]
    if getattr(_local, "validating", 0):
        # verl's _validate calls this on the padded generation output; old _validate scored the
        # unpadded batch without the reward model: extract_reward does that next.
        return _as_reward_output(_zeros(data), {}, len(data), scored=False)
    from verl import DataProto

    # A shallow copy of the caller's batch: its rm_scores (if any) off, the reward model's on where
    # the run has one; the caller unions the result into its batch, which must not hold rm_scores.
    tensors = data.batch.clone(recurse=False)
    scored = DataProto(batch=tensors, non_tensor_batch=dict(data.non_tensor_batch), meta_info=dict(data.meta_info))
    if "rm_scores" in tensors.keys():  # noqa: SIM118 (a TensorDict)
        scored.pop(batch_keys=["rm_scores"])
    if adapter.reward_model_enabled(scorer.config):
        scored.batch["rm_scores"] = wrapped(*args, **kwargs).batch["rm_scores"]
    put = _restore_columns(scored)
    try:
        reward_tensor, extra = score(scorer, scored, validate=False)
    finally:
        _take_back(scored, put)
    _keep_writes(data, scored)
    driver_rewards.note_scored()
    return _as_reward_output(reward_tensor, extra, len(data))


def _keep_writes(data, scored) -> None:
    """What the manager wrote into the copy's tensors goes to the caller's batch (old verl called it
    on the trainer's batch itself), ``rm_scores`` aside."""
    for key in scored.batch.keys():  # noqa: SIM118 (a TensorDict)
        if key != "rm_scores" and (key not in data.batch.keys() or data.batch[key] is not scored.batch[key]):  # noqa: SIM118
            data.batch[key] = scored.batch[key]


def _zeros(data):
    import torch

    return torch.zeros_like(data.batch["responses"], dtype=torch.float32)


def _as_reward_output(reward_tensor, extra: dict, size: int, scored: bool = True):
    """The ``DataProto`` ``compute_rm_score`` returns, from an old manager's result."""
    import numpy as np
    from tensordict import TensorDict
    from verl import DataProto

    meta = {"reward_extra_keys": list(extra), **({SCORED: True} if scored else {})}
    return DataProto(
        batch=TensorDict({"rm_scores": reward_tensor}, batch_size=size),
        non_tensor_batch={key: np.array(values) for key, values in extra.items()},
        meta_info=meta,
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

    path = configs.select(config, "actor_rollout_ref.model.tokenizer_path") or configs.select(
        config, "actor_rollout_ref.model.path"
    )
    return hf_tokenizer(path, trust_remote_code=True)
