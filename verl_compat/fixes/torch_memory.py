"""torch_memory: legacy per-step memory snapshots, translated into DistProfiler calls.

Since verl 0.6.0, ``actor_rollout_ref.actor.profiler.tool=torch_memory`` made ``fit()`` call
``actor_rollout_wg.dump_memory_snapshot(...)`` after every step. Engine workers never had that
method (``AttributeError`` after step 1, verl #6180/#6181), and verl 0.8.0 (#6198) deleted the
call, so the same config now silently dumps nothing. Snapshots now come from the unified
DistProfiler (``global_profiler.steps`` + ``actor...profiler.enable``).

This fix reads top to bottom:

1. **detect** the case from the config (``T`` tool, ``S`` steps, ``E`` enable; product.md);
2. **translate** it into config edits (``enable``, ``all_ranks``) before any worker is built,
   and warn once with the exact new overrides;
3. **drive** the actor worker group after each step's own ``_stop_profiling`` in the legacy case
   (``start_profile(profile_step=N)`` then ``stop_profile()``), and neutralise the legacy call so
   it neither crashes nor dumps a second time.

Result: one DistProfiler dump per (rank, step), at
``{save_path}/step{N}/torch_memory_rank{R}_pid{P}.pickle``.
"""

from __future__ import annotations

import dataclasses
import enum
import logging
import threading
import weakref

from .. import deprecation, patching, probes

NAME = "torch_memory"
TARGETS = (
    "verl.trainer.ppo.ray_trainer",
    "verl.experimental.separation.ray_trainer",
)

logger = logging.getLogger("verl_compat")

LEGACY_KEY = "actor_rollout_ref.actor.profiler.tool"
_ACTOR_PROFILER = "actor_rollout_ref.actor.profiler"
_STATE_ATTR = "_verl_compat_torch_memory"


class Case(enum.IntEnum):
    NONE = 0  # tool is not torch_memory: nothing to do
    LEGACY = 1  # torch_memory, no global_profiler.steps: "dump after every step, every rank"
    NEW_STYLE = 2  # torch_memory, steps set, enable on: already the DistProfiler form
    MIXED = 3  # torch_memory, steps set, enable off: #6181's shape, silently nothing on 0.7.1+


@dataclasses.dataclass(frozen=True)
class Detection:
    case: Case
    steps: tuple = ()
    enable: bool = False
    all_ranks: bool = False
    ranks: tuple = ()
    save_path: str | None = None
    total_steps: int | None = None


# --- detect -----------------------------------------------------------------------------------


def _select(config, key: str):
    """``OmegaConf.select`` for DictConfigs; a plain nested lookup for dicts and objects."""
    try:
        from omegaconf import DictConfig, OmegaConf

        if isinstance(config, DictConfig):
            return OmegaConf.select(config, key, default=None)
    except ImportError:
        pass
    node = config
    for part in key.split("."):
        if isinstance(node, dict):
            node = node.get(part)
        else:
            node = getattr(node, part, None)
        if node is None:
            return None
    return node


def detect(config, total_steps: int | None = None) -> Detection:
    """Which of the four cases ``config`` is (product.md, "The torch_memory fix")."""
    tool = _select(config, LEGACY_KEY)
    if tool != "torch_memory":
        return Detection(Case.NONE)
    steps = tuple(_select(config, "global_profiler.steps") or ())
    enable = bool(_select(config, f"{_ACTOR_PROFILER}.enable"))
    if total_steps is None:
        total_steps = _select(config, "trainer.total_training_steps")
    if not steps:
        case = Case.LEGACY
    else:
        case = Case.NEW_STYLE if enable else Case.MIXED
    return Detection(
        case=case,
        steps=steps,
        enable=enable,
        all_ranks=bool(_select(config, f"{_ACTOR_PROFILER}.all_ranks")),
        ranks=tuple(_select(config, f"{_ACTOR_PROFILER}.ranks") or ()),
        save_path=_select(config, f"{_ACTOR_PROFILER}.save_path"),
        total_steps=total_steps,
    )


# --- translate --------------------------------------------------------------------------------


def _set(config, key: str, value) -> None:
    from omegaconf import DictConfig, OmegaConf, open_dict, read_write

    if isinstance(config, DictConfig):
        with read_write(config), open_dict(config):
            OmegaConf.update(config, key, value, merge=False)
        return
    *parents, leaf = key.split(".")
    node = config
    for part in parents:
        node = node[part] if isinstance(node, dict) else getattr(node, part)
    if isinstance(node, dict):
        node[leaf] = value
    else:
        setattr(node, leaf, value)


def translate(config, detection: Detection) -> list:
    """Edit ``config`` in place so the actor's DistProfiler dumps; return the edits made.

    ``global_profiler.tool`` and ``global_profiler.steps`` are never written: the global tool
    would flow by interpolation into ref, critic and rollout, and steps would make the trainer
    start and stop every role every step (verl-matrix §11.3). The legacy "every step" is driven
    by this fix instead, on the actor worker group only.
    """
    if detection.case not in (Case.LEGACY, Case.MIXED):
        return []
    edits = []
    if not detection.enable:
        edits.append((f"{_ACTOR_PROFILER}.enable", True))
    if not detection.all_ranks and not detection.ranks:
        edits.append((f"{_ACTOR_PROFILER}.all_ranks", True))
    for key, value in edits:
        _set(config, key, value)
    return [f"{key}={value}" for key, value in edits]


def replacement_overrides(detection: Detection) -> list:
    """The copy-pasteable new-style overrides that say what the legacy config meant."""
    if detection.steps:
        steps = list(detection.steps)
    elif detection.total_steps:
        steps = list(range(1, int(detection.total_steps) + 1))
    else:
        steps = None
    steps_text = "[" + ",".join(map(str, steps)) + "]" if steps else "[<every step you want a snapshot of>]"
    ranks = (
        f"{_ACTOR_PROFILER}.ranks=[{','.join(map(str, detection.ranks))}]"
        if detection.ranks
        else f"{_ACTOR_PROFILER}.all_ranks=True"
    )
    return [
        "global_profiler.tool=torch_memory",
        f"global_profiler.save_path={detection.save_path or 'outputs/profile'}",
        f"global_profiler.steps={steps_text}",
        f"{_ACTOR_PROFILER}.enable=True",
        ranks,
    ]


def warning_text(detection: Detection, edits: list) -> str:
    save_path = detection.save_path or "outputs/profile"
    if detection.case == Case.LEGACY:
        what = (
            f"{LEGACY_KEY}=torch_memory without global_profiler.steps (legacy per-step snapshots, "
            "case 1) is deprecated: verl <0.8 crashes on engine workers "
            "(AttributeError: dump_memory_snapshot) and verl >=0.8 dumps nothing. verl-compat "
            "drives the DistProfiler after every step instead"
        )
    else:
        what = (
            f"{LEGACY_KEY}=torch_memory with global_profiler.steps but "
            f"{_ACTOR_PROFILER}.enable=False (case 3, verl #6181) dumps nothing on verl >=0.7.1"
        )
    forced = f"; verl-compat forced {', '.join(edits)}" if edits else ""
    return (
        f"verl-compat: {what}{forced}.\n"
        f"  Replace the legacy key with:\n"
        f"    {' '.join(replacement_overrides(detection))}\n"
        f"  Snapshots are now written to {save_path}/step{{N}}/torch_memory_rank{{R}}_pid{{P}}.pickle "
        f"(legacy: {save_path}/step{{N+1}}/post_update_step{{N+1}}_rank{{R}}_pid{{P}}.pickle, "
        "labelled one step late).\n"
        "  Run `verl-compat migrate <launch script or YAML>` to rewrite your config."
    )


def prepare(config, total_steps: int | None = None) -> tuple:
    """Detect, translate and warn: the whole config-side work, shared by every entry point."""
    detection = detect(config, total_steps)
    edits = translate(config, detection)
    _record(detection)
    if detection.case in (Case.LEGACY, Case.MIXED):
        deprecation.warn_once(NAME, warning_text(detection, edits))
    return detection, edits


# --- drive ------------------------------------------------------------------------------------


@dataclasses.dataclass
class _TrainerState:
    detection: Detection
    edits: list


def _state(trainer) -> _TrainerState:
    state = getattr(trainer, _STATE_ATTR, None)
    if state is None:
        # The trainer was built before activation: its workers already have their config, so
        # translate now only for the record; the per-step driving below still runs.
        detection, edits = prepare(trainer.config, getattr(trainer, "total_training_steps", None))
        state = _TrainerState(detection, edits)
        setattr(trainer, _STATE_ATTR, state)
    return state


def _legacy_dump_noop(tag="manual", sub_dir=None, **kwargs):
    """Stands in for the worker group's legacy ``dump_memory_snapshot``: the DistProfiler
    already dumps this step, so the legacy call would crash (engine workers) or dump twice."""
    logger.debug("verl-compat: skipped legacy dump_memory_snapshot(tag=%r, sub_dir=%r)", tag, sub_dir)


_neutralised = weakref.WeakKeyDictionary()  # worker group -> its own dump_memory_snapshot or None
_neutralised_lock = threading.Lock()


def _neutralise_legacy_dump(worker_group) -> None:
    with _neutralised_lock:
        if worker_group in _neutralised:
            return
        _neutralised[worker_group] = worker_group.__dict__.get("dump_memory_snapshot")
        worker_group.dump_memory_snapshot = _legacy_dump_noop


def _drive_actor_profiler(trainer) -> None:
    """Start and stop the actor worker group's DistProfiler for the step that just ended.

    For torch_memory, ``start`` only records the step (history recording is on since worker
    construction), so a back-to-back pair at the end of step N captures what a pair spanning the
    step would, and the dump lands in ``step{N}``.
    """
    worker_group = trainer.actor_rollout_wg
    step = trainer.global_steps
    worker_group.start_profile(profile_step=step)
    if probes.stop_profile_takes_run_command():
        # run_command fires the user's finish hook: once, on the last step.
        worker_group.stop_profile(run_command=step >= (trainer.total_training_steps or step))
    else:
        worker_group.stop_profile()


def _after_init(wrapped, instance, args, kwargs):
    result = wrapped(*args, **kwargs)
    with patching.guard(NAME, "after RayPPOTrainer.__init__"):
        detection, edits = prepare(instance.config, getattr(instance, "total_training_steps", None))
        setattr(instance, _STATE_ATTR, _TrainerState(detection, edits))
    return result


def _after_stop_profiling(wrapped, instance, args, kwargs):
    result = wrapped(*args, **kwargs)
    with patching.guard(NAME, "after _stop_profiling"):
        state = _state(instance)
        if state.detection.case != Case.NONE:
            _neutralise_legacy_dump(instance.actor_rollout_wg)
        if state.detection.case == Case.LEGACY:
            _drive_actor_profiler(instance)
    return result


def _skip_legacy_fit_torch_memory(wrapped, instance, args, kwargs):
    """0.7.1's separation trainers dump through ``_fit_torch_memory``: with the fix active the
    DistProfiler already dumps this step, so the legacy call is skipped (else it is made)."""
    skip = False
    with patching.guard(NAME, "_fit_torch_memory"):
        skip = _state(instance).detection.case != Case.NONE
    if skip:
        return None
    return wrapped(*args, **kwargs)


def patches(module) -> list:
    """What to wrap in ``module``; only what this verl has, so an absent target means a change."""
    if module.__name__ == "verl.trainer.ppo.ray_trainer":
        found = [patching.Patch("RayPPOTrainer.__init__", _after_init, "translate the config")]
        stop = getattr(getattr(module, "RayPPOTrainer", None), "_stop_profiling", None)
        if stop is None or probes.stop_profiling_takes_do_profile(stop):
            found.append(patching.Patch("RayPPOTrainer._stop_profiling", _after_stop_profiling, "drive the actor"))
        else:
            patching.skip(NAME, module.__name__, "RayPPOTrainer._stop_profiling", "unexpected signature")
        return found
    separate = getattr(module, "SeparateRayPPOTrainer", None)
    if module.__name__ == "verl.experimental.separation.ray_trainer" and hasattr(separate, "_fit_torch_memory"):
        # The second legacy call site exists in 0.7.x only (removed by verl #6075).
        return [
            patching.Patch("SeparateRayPPOTrainer._fit_torch_memory", _skip_legacy_fit_torch_memory, "skip it"),
        ]
    return []


# --- state ------------------------------------------------------------------------------------

_last = {"case": None}


def _record(detection: Detection) -> None:
    _last["case"] = int(detection.case)


def state() -> dict:
    """The last detected case in this process (None before any config was seen)."""
    return {"case": _last["case"]}


def reset() -> None:
    """Forget the detected case and restore every neutralised worker group method."""
    _last["case"] = None
    with _neutralised_lock:
        for worker_group, original in list(_neutralised.items()):
            if original is None:
                worker_group.__dict__.pop("dump_memory_snapshot", None)
            else:
                worker_group.dump_memory_snapshot = original
        _neutralised.clear()
