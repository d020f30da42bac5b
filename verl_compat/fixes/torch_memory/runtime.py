"""torch_memory, the run-time half: drive the actor's DistProfiler each step, neutralise the legacy
call, and remember per trainer what the config step found.

For torch_memory, ``start_profile`` only records the step (history recording is on since the
worker was built), so a back-to-back pair at the end of step N captures what a pair spanning the
step would, and the dump lands in ``step{N}``.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import weakref
from typing import Any

from . import probes
from .translate import Case, ConfigEdit, Detection

logger = logging.getLogger("verl_compat")

STATE_ATTR = "_verl_compat_torch_memory"
LEGACY_CALL = "dump_memory_snapshot"  # the worker group method 0.6.x/0.7.x's fit() calls each step


@dataclasses.dataclass
class TrainerState:
    detection: Detection
    edits: list[ConfigEdit]
    driven_step: int | None = None


def step_calls(step, is_last, takes_run_command: bool | None) -> list[tuple[str, dict[str, object]]]:
    """The actor worker group calls that end step ``step``, as ``(method, kwargs)``: what
    :func:`drive_actor_profiler` makes, and what doctor shows (with symbolic arguments).
    ``run_command`` fires the user's finish hook (verl: once, after the last profiled step), so it is
    passed only where ``stop_profile`` takes it, and true on the last step only."""
    stop: dict[str, object] = {"run_command": is_last} if takes_run_command else {}
    return [("start_profile", {"profile_step": step}), ("stop_profile", stop)]


def drive_actor_profiler(trainer) -> None:
    """Start and stop the actor worker group's DistProfiler for the step that just ended. Every
    trainer has ``actor_rollout_wg``, ``global_steps`` (step N while its ``_stop_profiling`` runs)
    and, by then, ``total_training_steps``."""
    worker_group = trainer.actor_rollout_wg
    step = trainer.global_steps
    is_last = step >= (trainer.total_training_steps or step)
    for method, kwargs in step_calls(step, is_last, probes.stop_profile_takes_run_command()):
        getattr(worker_group, method)(**kwargs)


def _legacy_dump_noop(tag="manual", sub_dir=None, **kwargs):
    """Stands in for the worker group's legacy ``dump_memory_snapshot``: the DistProfiler
    already dumps this step, so the legacy call would crash (engine workers) or dump twice."""
    logger.debug("verl-compat: skipped legacy dump_memory_snapshot(tag=%r, sub_dir=%r)", tag, sub_dir)


_neutralised = weakref.WeakKeyDictionary()  # worker group -> its own dump_memory_snapshot or None
_neutralised_lock = threading.Lock()


def _worker_groups(trainer) -> list[Any]:
    """The trainer's worker groups: the legacy call is made on one of them, under whatever
    attribute a copied ``fit()`` uses (``actor_rollout_wg``, or an alias of it)."""
    from verl.single_controller.base import WorkerGroup

    found = {id(trainer.actor_rollout_wg): trainer.actor_rollout_wg}
    for value in vars(trainer).values():
        if isinstance(value, WorkerGroup):
            found.setdefault(id(value), value)
    return list(found.values())


def neutralise_legacy_dump(trainer) -> None:
    """Make ``dump_memory_snapshot`` a no-op on each of the trainer's worker groups, once each."""
    for worker_group in _worker_groups(trainer):
        with _neutralised_lock:
            if worker_group in _neutralised:
                continue
            _neutralised[worker_group] = worker_group.__dict__.get(LEGACY_CALL)
            setattr(worker_group, LEGACY_CALL, _legacy_dump_noop)


def restore_legacy_dumps() -> None:
    """Give every neutralised worker group its own ``dump_memory_snapshot`` back."""
    with _neutralised_lock:
        for worker_group, original in list(_neutralised.items()):
            if original is None:
                worker_group.__dict__.pop(LEGACY_CALL, None)
            else:
                setattr(worker_group, LEGACY_CALL, original)
        _neutralised.clear()


def driven(state: TrainerState, step) -> bool:
    """Whether this step was driven already (and mark it): a step ends once."""
    if state.detection.case != Case.LEGACY or state.driven_step == step:
        return True
    state.driven_step = step
    return False
