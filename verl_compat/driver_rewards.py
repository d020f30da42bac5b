"""Which rewards on this process's step batches are verl-compat's own placeholder, and which old
reward calls ran this step.

Where old reward code (an old-contract reward manager, a ``reward_fn``) scores each step batch in the
trainer's process, verl's reward workers are told to return a neutral 0.0 per trajectory instead
of running (or failing on) their own scorer; the ``rm_scores`` a step batch then carries are that
placeholder, never a reward. Old managers return ``rm_scores`` as the reward when a batch holds
them (verl 0.6.1 ``verl/workers/reward_manager/naive.py``: ``if "rm_scores" in data.batch.keys():
return data.batch["rm_scores"]``), so every old call site must take the placeholder off first, and
only the placeholder: ``rm_scores`` a reward model computed are what old verl gave the manager
(verl 0.6.1 ``ray_trainer.py``: the reward model's scores are put on the batch before
``compute_reward``). Two fixes call old reward code (old_rewards' whole-batch pass, and old_imports'
``compute_reward`` backport), so the fact lives here, in the core, where both read it.
"""

from __future__ import annotations

import threading
from typing import Any

_lock = threading.Lock()
_placeholder = False  # the reward workers of this process's trainer return the placeholder
_scored = 0  # old reward calls on a training batch since the last take_scored()


def set_placeholder(active: bool) -> None:
    """Say whether this process's trainer told its reward workers to return the placeholder."""
    global _placeholder
    with _lock:
        _placeholder = active


def placeholder_active() -> bool:
    return _placeholder


def strip_placeholder(batch: Any) -> bool:
    """Take the placeholder ``rm_scores`` (and the reward extra keys that came with them) off
    ``batch``, where this process's rewards are the placeholder; True where it did."""
    if not _placeholder or "rm_scores" not in batch.batch.keys():  # noqa: SIM118 (a TensorDict)
        return False
    batch.pop(batch_keys=["rm_scores"])
    for key in batch.meta_info.pop("reward_extra_keys", None) or []:
        batch.non_tensor_batch.pop(key, None)
    return True


def note_scored() -> None:
    """An old reward call scored a training batch."""
    global _scored
    with _lock:
        _scored += 1


def take_scored() -> int:
    """The old reward calls on training batches since the last call (and start counting anew)."""
    global _scored
    with _lock:
        count, _scored = _scored, 0
    return count
