"""torch_memory: legacy per-step memory snapshots, translated into DistProfiler calls.

Since verl 0.6.0, ``actor_rollout_ref.actor.profiler.tool=torch_memory`` made ``fit()`` call
``actor_rollout_wg.dump_memory_snapshot(...)`` after every step. Engine workers never had that
method (``AttributeError`` after step 1, verl #6180/#6181), and verl 0.8.0 (#6198) deleted the
call, so the same config now silently dumps nothing. Snapshots now come from the unified
DistProfiler (``global_profiler.steps`` + ``actor...profiler.enable``).

This fix reads top to bottom:

1. **detect** the case from the config (``T`` tool, ``S`` steps, ``E`` enable; product.md), and
   **check** what it reads: a malformed value is reported once, naming the key and what was done
   with it, and never turned into a crash (docs/torch_memory.md has the table and precedence);
2. **translate** it into config edits (``enable``, ``all_ranks``) before any worker is built,
   and warn once with the exact new overrides;
3. **drive** the actor worker group after each step's own ``_stop_profiling`` in the legacy case
   (``start_profile(profile_step=N)`` then ``stop_profile()``), and neutralise the legacy call so
   it neither crashes nor dumps a second time.

Every trainer verl ships is covered by wrapping methods in place on the classes verl defines
(:data:`TRAINERS`): the v1 trainers are looked up by name in a registry, ``FullyAsyncTrainer`` is a
Ray actor class, so a subclass or a rebound name would never be built. What to wrap on each is
decided by :mod:`verl_compat.probes`, never by ``verl.__version__``.

Result: one DistProfiler dump per (rank, step), at
``{save_path}/step{N}/torch_memory_rank{R}_pid{P}.pickle``.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import logging
import os
import re
import sys
import threading
import weakref

from .. import deprecation, patching, probes

NAME = "torch_memory"


@dataclasses.dataclass(frozen=True)
class Trainer:
    """A trainer class verl defines, and what of it this fix wraps where verl has it."""

    module: str
    name: str
    init: bool  # its own __init__ builds no workers yet: translate the config right after it
    stop: str | None  # the shape (probes.stop_profiling_shape) of its own _stop_profiling to wrap


# verl-matrix §11.1/§11.5. Subclasses not listed inherit a wrapped method (SeparateRayPPOTrainer,
# the v1 PPOTrainerSync/ColocateAsync/SeparateAsync), or are covered elsewhere: FullyAsyncTrainer is a
# Ray actor class whose __init__ does not call super().__init__, so its config is translated in the
# launcher (propagation wraps run_ppo, which the experimental mains call); FullyAsyncRollouter's
# _stop_profiling is a coroutine that drives rollout servers only.
TRAINERS = (
    Trainer("verl.trainer.ppo.ray_trainer", "RayPPOTrainer", init=True, stop="do_profile"),
    Trainer("verl.trainer.ppo.v1.trainer_base", "PPOTrainer", init=True, stop="no_args"),  # 0.9+ default
    Trainer("verl.trainer.main_ppo_sync", "PPOTrainer", init=True, stop="no_args"),  # 0.8.0
    # Its __init__ does not call super().__init__ (0.7.1+).
    Trainer("verl.experimental.one_step_off_policy.ray_trainer", "OneStepOffRayTrainer", init=True, stop=None),
    # 0.7.x source trees (not in the wheels): overrides that call super()._stop_profiling first.
    Trainer("verl.experimental.vla.rob_ray_trainer", "RobRayPPOTrainer", init=False, stop="do_profile"),
    Trainer("verl.experimental.vla.sac.sac_ray_trainer", "RobRaySACTrainer", init=False, stop="do_profile"),
    # verl-omni 0.2.0 (a package of its own): trainers that are no RayPPOTrainer, each with its own
    # __init__ (no super().__init__) and _stop_profiling(do_profile) on actor_rollout_wg. The base
    # covers PolicyGradientRayTrainer and DirectPreferenceRayTrainer; OmniPPOTrainerSync inherits
    # verl's v1 PPOTrainer. Its diffusion/v1 trainers have no profiling point at all.
    Trainer("verl_omni.trainer.diffusion.ray_diffusion_trainer", "BaseRayDiffusionTrainer", init=True, stop="do_profile"),
    Trainer("verl_omni.trainer.omni.ray_omni_trainer", "OmniDirectPreferenceRayTrainer", init=True, stop="do_profile"),
)
SEPARATION = "verl.experimental.separation.ray_trainer"
TARGETS = tuple(dict.fromkeys([trainer.module for trainer in TRAINERS] + [SEPARATION]))

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
class Problem:
    """A value in the config that is malformed or contradicts another, and what verl-compat did."""

    key: str
    message: str

    def __str__(self) -> str:
        return f"verl-compat: {self.key} {self.message}"


@dataclasses.dataclass(frozen=True)
class Detection:
    case: Case
    steps: tuple = ()
    enable: bool = False
    all_ranks: bool = False
    ranks: tuple = ()
    save_path: str | None = None
    total_steps: int | None = None
    problems: tuple = ()


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
    """Which of the four cases ``config`` is (product.md, "The torch_memory fix"), and what in it
    is malformed. Never raises: a config that cannot be read is case 0, with the reason."""
    try:
        tool = _select(config, LEGACY_KEY)
    except Exception as exc:  # an interpolation that does not resolve, an odd config object
        return Detection(Case.NONE, problems=(Problem(LEGACY_KEY, f"cannot be read ({_first_line(exc)}); {_LEFT}"),))
    if tool != "torch_memory":
        return Detection(Case.NONE, problems=_tool_problems(config, tool))
    try:
        return _detect_torch_memory(config, total_steps)
    except _config_errors() as exc:  # a key that does not resolve; a bug of ours is not caught here
        problem = Problem(_ACTOR_PROFILER, f"cannot be read ({_first_line(exc)}); {_LEFT}")
        return Detection(Case.NONE, problems=(problem,))


def _config_errors() -> tuple:
    try:
        from omegaconf.errors import OmegaConfBaseException
    except ImportError:
        return ()
    return (OmegaConfBaseException,)


def _detect_torch_memory(config, total_steps: int | None) -> Detection:
    problems = []
    steps = _steps(_select(config, _STEPS_KEY), problems)
    enable = _flag(config, f"{_ACTOR_PROFILER}.enable", problems)
    all_ranks = _flag(config, f"{_ACTOR_PROFILER}.all_ranks", problems)
    if total_steps is None:
        total_steps = _select(config, "trainer.total_training_steps")
    if not _is_step_number(total_steps) or total_steps < 1:
        total_steps = None
    if not steps:
        case = Case.LEGACY
    else:
        case = Case.NEW_STYLE if enable else Case.MIXED
    ranks = _ranks(config, all_ranks, problems)
    save_path = _select(config, f"{_ACTOR_PROFILER}.save_path")
    _check_steps(steps, total_steps, problems)
    _check_save_path(config, save_path, problems)
    return Detection(
        case=case,
        steps=steps,
        enable=enable,
        all_ranks=all_ranks,
        ranks=ranks,
        save_path=save_path,
        total_steps=total_steps,
        problems=tuple(problems),
    )


# --- check ------------------------------------------------------------------------------------
# Each check reads one key the fix relies on and says what is wrong with it and what was done.
# Nothing here rewrites the user's value: the fix edits only ``enable`` and ``all_ranks``.

KNOWN_TOOLS = ("nsys", "npu", "torch", "torch_memory", "precision_debugger")
_STEPS_KEY = "global_profiler.steps"
_LEFT = "verl-compat leaves this config as it is"
_FALSE = ("false", "no", "off", "0", "")
_TRUE = ("true", "yes", "on", "1")


def _is_step_number(value) -> bool:
    """An int that is not a bool (``True`` is an int to Python, not a step to anyone)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _tool_problems(config, tool) -> tuple:
    """A near miss of ``torch_memory`` (typo, case, dash) is named; verl silently profiles nothing
    for a tool it does not know, and verl-compat does not guess what was meant."""
    if config is None or _select(config, "actor_rollout_ref") is None:
        message = f"is missing from the config: the torch_memory fix has nothing to read; {_LEFT}"
        return (Problem("actor_rollout_ref", message),)
    if not isinstance(tool, str) or tool in KNOWN_TOOLS:
        return ()
    folded = tool.strip().lower().replace("-", "_").replace(" ", "_")
    if folded != "torch_memory" and not difflib.get_close_matches(folded, ["torch_memory"], n=1, cutoff=0.75):
        return ()
    origin = " (from global_profiler.tool)" if _select(config, "global_profiler.tool") == tool else ""
    message = (
        f"is {tool!r}{origin}, not a profiler tool verl knows ({', '.join(KNOWN_TOOLS)}): verl profiles "
        f"nothing with it. Did you mean torch_memory? {_LEFT} (case 0)."
    )
    return (Problem(LEGACY_KEY, message),)


def _steps(value, problems: list) -> tuple:
    """``global_profiler.steps`` as a tuple of what it lists. verl tests ``global_steps in steps``:
    a string or a number there makes verl raise TypeError at the first step."""
    if value is None:
        return ()
    if isinstance(value, str) or (isinstance(value, (int, float)) and not isinstance(value, bool)):
        numbers = tuple(int(n) for n in re.findall(r"-?\d+", str(value)))
        spelled = "[" + ",".join(map(str, numbers)) + "]" if numbers else "[1,2,3]"
        problems.append(
            Problem(
                _STEPS_KEY,
                f"is {value!r}, not a list: verl fails at its first step (`global_steps in steps`). "
                f"Write {_STEPS_KEY}={spelled}. verl-compat reads it as the steps {spelled} to pick the case "
                "and changes nothing.",
            )
        )
        return numbers or (value,)
    try:
        return tuple(value)
    except TypeError:
        problems.append(Problem(_STEPS_KEY, f"is {value!r}, not a list of step numbers; {_LEFT}"))
        return (value,)


def _check_steps(steps: tuple, total_steps: int | None, problems: list) -> None:
    odd = [step for step in steps if not _is_step_number(step)]
    if odd and not any(problem.key == _STEPS_KEY for problem in problems):  # not said already
        problems.append(Problem(_STEPS_KEY, f"holds {odd}, which are not step numbers: verl never profiles them"))
    numbers = [step for step in steps if _is_step_number(step)]
    below = [step for step in numbers if step < 1]
    if below:
        problems.append(
            Problem(_STEPS_KEY, f"holds {below}: verl counts global steps from 1, so these are never profiled")
        )
    if total_steps:
        beyond = [step for step in numbers if step > total_steps]
        if beyond:
            problems.append(
                Problem(
                    _STEPS_KEY,
                    f"holds {beyond}, past the run's {total_steps} steps (trainer.total_training_steps): "
                    "never profiled",
                )
            )
    twice = sorted({step for step in numbers if numbers.count(step) > 1})
    if twice:
        problems.append(Problem(_STEPS_KEY, f"lists {twice} more than once: each step is profiled once"))


def _flag(config, key: str, problems: list) -> bool:
    """A boolean key read as verl's dataclass conversion reads it (``"false"`` is False)."""
    value = _select(config, key)
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _FALSE + _TRUE:
        return value.strip().lower() in _TRUE
    problems.append(Problem(key, f"is {value!r}, not true or false: verl-compat reads it as {bool(value)}"))
    return bool(value)


def _ranks(config, all_ranks: bool, problems: list) -> tuple:
    key = f"{_ACTOR_PROFILER}.ranks"
    value = _select(config, key)
    if value is None:
        return ()
    if isinstance(value, (str, int)):
        problems.append(
            Problem(key, f"is {value!r}, not a list: verl rejects it when the actor workers start. Write {key}=[0,1]")
        )
        return (value,)
    ranks = tuple(value)
    if ranks and all_ranks:
        problems.append(
            Problem(
                key, f"is {list(ranks)} but all_ranks is True: all_ranks wins (verl's DistProfiler), every rank dumps"
            )
        )
        return ranks
    nnodes, per_node = _select(config, "trainer.nnodes"), _select(config, "trainer.n_gpus_per_node")
    world = nnodes * per_node if all(isinstance(n, int) and n > 0 for n in (nnodes, per_node)) else None
    missing = [r for r in ranks if not isinstance(r, int) or r < 0 or (world is not None and r >= world)]
    if missing:
        size = f" of the actor's {world} (trainer.nnodes x trainer.n_gpus_per_node)" if world else ""
        none_left = ", so no rank dumps a snapshot" if len(missing) == len(ranks) else ""
        problems.append(Problem(key, f"holds {missing}, not ranks{size}: they never dump{none_left}. {_LEFT}"))
    return ranks


def _check_save_path(config, save_path, problems: list) -> None:
    """Where the actor's snapshots go: its own ``save_path`` (what its DistProfiler reads), which by
    default interpolates ``global_profiler.save_path``. Checked from this process only: a worker
    on another node writes to its own disk."""
    key = f"{_ACTOR_PROFILER}.save_path"
    overall = _select(config, "global_profiler.save_path")
    if save_path is not None and overall is not None and str(save_path) != str(overall):
        problems.append(
            Problem(
                key,
                f"is {save_path!r} while global_profiler.save_path is {overall!r}: the actor's own key wins "
                f"(its DistProfiler reads it), so the snapshots go to {save_path!r}",
            )
        )
    if not save_path or not isinstance(save_path, (str, os.PathLike)):
        return
    path = os.path.abspath(os.fspath(save_path))
    existing = path
    while not os.path.exists(existing):
        existing = os.path.dirname(existing)
    if existing == path and not os.path.isdir(path):
        reason = "is a file, not a folder"
    elif existing != path and not os.path.isdir(existing):
        reason = f"cannot be created: {existing} is a file"
    elif not os.access(existing, os.W_OK | os.X_OK):
        reason = f"cannot be written: {existing} is not writable by this process"
    else:
        return
    problems.append(
        Problem(key, f"is {save_path!r}, which {reason}: the snapshots' step folders cannot be made there. {_LEFT}")
    )


def _report(problems) -> None:
    """Log each problem once per process (per activation)."""
    for problem in problems:
        deprecation.log_once(str(problem))


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
    wanted = []
    if not detection.enable:
        wanted.append((f"{_ACTOR_PROFILER}.enable", True))
    if not detection.all_ranks and not detection.ranks:
        wanted.append((f"{_ACTOR_PROFILER}.all_ranks", True))
    edits = []
    for key, value in wanted:
        try:
            _set(config, key, value)
        except Exception as exc:  # a read-only or frozen config object verl-compat cannot edit
            reason = f"cannot be set by verl-compat ({_first_line(exc)}): set {key}={value} yourself"
            _report([Problem(key, reason)])
        else:
            edits.append(f"{key}={value}")
    return edits


MAX_LISTED_STEPS = 50


def replacement_overrides(detection: Detection) -> list:
    """The copy-pasteable new-style overrides that say what the legacy config meant."""
    if detection.steps:
        steps_text = "[" + ",".join(map(str, detection.steps)) + "]"
    elif detection.total_steps and int(detection.total_steps) <= MAX_LISTED_STEPS:
        steps_text = "[" + ",".join(map(str, range(1, int(detection.total_steps) + 1))) + "]"
    else:
        # verl has no "every step" spelling; past a few dozen steps, a full list helps nobody.
        steps_text = "[<the steps you want a snapshot of, e.g. 1,2,3>]"
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
    _report(detection.problems)
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
    driven_step: int | None = None


def _state(trainer) -> _TrainerState:
    state = getattr(trainer, _STATE_ATTR, None)
    if state is None:
        # No wrapped __init__ ran: the trainer was built before activation, or its __init__ is not
        # wrapped (FullyAsyncTrainer; the launcher translated its config). Translating now changes
        # nothing its workers got, but records the case; the per-step driving below still runs.
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
    step would, and the dump lands in ``step{N}``. The same for every trainer: each has
    ``actor_rollout_wg``, ``global_steps`` (step N while its ``_stop_profiling`` runs) and, by
    then, ``total_training_steps``.
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
    """Translate the config right after the trainer's ``__init__``, before it builds workers
    (``init_workers()``, or ``init()`` for the v1 trainers)."""
    result = wrapped(*args, **kwargs)
    with patching.guard(NAME, "after __init__"):
        detection, edits = prepare(instance.config, getattr(instance, "total_training_steps", None))
        setattr(instance, _STATE_ATTR, _TrainerState(detection, edits))
    return result


def _after_stop_profiling(wrapped, instance, args, kwargs):
    result = wrapped(*args, **kwargs)
    with patching.guard(NAME, "after _stop_profiling"):
        state = _state(instance)
        if state.detection.case != Case.NONE:
            _neutralise_legacy_dump(instance.actor_rollout_wg)
        # Once per step: an override and the base it calls through super() are both wrapped.
        if state.detection.case == Case.LEGACY and state.driven_step != instance.global_steps:
            state.driven_step = instance.global_steps
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
    """What to wrap in ``module``, as the probes find this verl. A listed class or method that is
    missing is skipped with one log line (verl changed); the rest is patched."""
    found = []
    for trainer in TRAINERS:
        if trainer.module != module.__name__:
            continue
        cls = getattr(module, trainer.name, None)
        if not isinstance(cls, type):
            patching.skip(NAME, module.__name__, trainer.name, "class not found in this verl")
            continue
        if trainer.init and probes.defines(cls, "__init__"):
            found.append(patching.Patch(f"{trainer.name}.__init__", _after_init, "translate the config"))
        stop = f"{trainer.name}._stop_profiling"
        inherited = hasattr(cls, "_stop_profiling") and not probes.defines(cls, "_stop_profiling")
        if trainer.stop is None or inherited:
            continue  # nothing of its own to wrap: the base class's wrapper runs
        if probes.stop_profiling_shape(getattr(cls, "_stop_profiling", None)) == trainer.stop:
            found.append(patching.Patch(stop, _after_stop_profiling, "drive the actor"))
        elif hasattr(cls, "_stop_profiling"):
            reason = f"a signature other than the expected {trainer.stop} form in this verl"
            patching.skip(NAME, module.__name__, stop, reason)
        else:
            patching.skip(NAME, module.__name__, stop, "not found in this verl")
    if module.__name__ == SEPARATION and probes.has_legacy_fit_torch_memory(module):
        legacy = "SeparateRayPPOTrainer._fit_torch_memory"
        found.append(patching.Patch(legacy, _skip_legacy_fit_torch_memory, "skip the legacy dump"))
    return found


# --- state ------------------------------------------------------------------------------------

_last = {"case": None, "problems": []}


def _record(detection: Detection) -> None:
    _last["case"] = int(detection.case)
    _last["problems"] = [str(problem) for problem in detection.problems]


def _trainer_classes():
    """The listed trainer classes of every imported verl module, and all their subclasses."""
    stack = [getattr(sys.modules.get(trainer.module), trainer.name, None) for trainer in TRAINERS]
    seen = {}
    while stack:
        cls = stack.pop()
        # Ray's ActorClass keeps the user's class and adds a subclass of its own: skip that copy.
        if isinstance(cls, type) and cls not in seen and "__ray_actor_class__" not in vars(cls):
            seen[cls] = None
            stack.extend(cls.__subclasses__())
    return list(seen)


def _wrapped_by(function, wrapper) -> bool:
    return getattr(function, "_self_wrapper", None) is wrapper


def _how(cls, name: str, wrapper) -> tuple:
    """Whether ``cls.<name>`` (its own or inherited) is wrapped by ``wrapper``, and a few words on it."""
    owner = next((base for base in cls.__mro__ if name in vars(base)), None)
    if owner is None:
        return False, "absent"
    where = "own" if owner is cls else f"inherited from {owner.__name__}"
    if _wrapped_by(vars(owner)[name], wrapper):
        return True, f"wrapped ({where})"
    return False, f"not wrapped ({where})"


def _init_how(cls, drives: bool) -> str:
    wrapped, how = _how(cls, "__init__", _after_init)
    if wrapped:
        return how
    base = next((b for b in cls.__mro__[1:] if _wrapped_by(vars(b).get("__init__"), _after_init)), None)
    if base is not None and probes.init_calls_super(cls):
        return f"{how}; calls super().__init__, so the wrapped {base.__name__}.__init__ runs"
    if drives:
        return f"{how}; the config is translated by the launcher's run_ppo, before the trainer's Ray actor exists"
    return how


def trainers() -> dict:
    """Per trainer class found (qualified name): whether the fix drives it, and how each method is
    reached."""
    found = {}
    for cls in _trainer_classes():
        drives, stop = _how(cls, "_stop_profiling", _after_stop_profiling)
        if not drives and probes.stop_profiling_shape(getattr(cls, "_stop_profiling", None)) is None:
            stop += ": a coroutine (or unknown form) that drives no actor worker group, skipped"
        entry = {"patched": drives, "__init__": _init_how(cls, drives), "_stop_profiling": stop}
        if hasattr(cls, "_fit_torch_memory"):
            entry["_fit_torch_memory"] = _how(cls, "_fit_torch_memory", _skip_legacy_fit_torch_memory)[1]
        found[f"{cls.__module__}.{cls.__qualname__}"] = entry
    return dict(sorted(found.items()))


def state() -> dict:
    """The last detected case in this process (None before any config was seen) and the problems
    found in that config, and the trainer classes of the imported verl modules with how each is
    patched."""
    return {"case": _last["case"], "problems": _last["problems"], "trainers": trainers()}


def reset() -> None:
    """Forget the detected case and restore every neutralised worker group method."""
    _last["case"] = None
    _last["problems"] = []
    with _neutralised_lock:
        for worker_group, original in list(_neutralised.items()):
            if original is None:
                worker_group.__dict__.pop("dump_memory_snapshot", None)
            else:
                worker_group.dump_memory_snapshot = original
        _neutralised.clear()
