"""torch_memory, the config half: detect the case, check what is read, translate, and say it.

Pure: no wrapt, nothing patched, no verl import (omegaconf only where the config is a DictConfig),
so ``verl-compat doctor`` and ``verl-compat migrate`` use exactly what the run-time fix uses.

From the config: ``T`` = the actor's resolved ``profiler.tool``, ``S`` = ``global_profiler.steps``,
``E`` = the actor's ``profiler.enable`` (docs/torch_memory.md has the table):

1. **detect** the case, and **check** what it reads: a malformed value is reported once, naming
   the key and what was done with it, never turned into a crash;
2. **translate** it into config edits (``enable``, ``all_ranks``) as ``(key, value)`` pairs,
   made before any worker is built;
3. the **warning** with the exact new overrides, and :func:`describe` for doctor.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import enum
import os
import re
from typing import Any

from ... import deprecation, snapshot_files
from ...configs import DEFAULT_SAVE_PATH
from ...configs import select as _select
from ...configs import set_key as _set
from ...registry import first_line as _first_line

LEGACY_KEY = "actor_rollout_ref.actor.profiler.tool"
GLOBAL_TOOL_KEY = "global_profiler.tool"
ACTOR_PROFILER = "actor_rollout_ref.actor.profiler"
# verl's own values of the two actor keys that follow global_profiler (``actor/actor.yaml``,
# 0.6.1-0.9.1): a complete trainer config spells them so, and they are not a user's setting.
SCHEMA_DEFAULTS = {
    LEGACY_KEY: "${oc.select:global_profiler.tool,null}",
    f"{ACTOR_PROFILER}.save_path": "${oc.select:global_profiler.save_path,null}",
}


ConfigEdit = tuple[str, object]  # (key, value) the fix sets in a config


class Case(str, enum.Enum):
    """What a config asks of the torch_memory tool; the value is the word users read (doctor, status)."""

    NONE = "none"  # tool is not torch_memory: nothing to do
    LEGACY = "legacy"  # torch_memory, no global_profiler.steps: "dump after every step, every rank"
    NEW_STYLE = "new_style"  # torch_memory, steps set, enable on: already the DistProfiler form
    MIXED = "mixed"  # torch_memory, steps set, enable off: #6181's shape, silently nothing on 0.7.1+

    def __str__(self) -> str:
        return self.value


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
    steps: tuple[Any, ...] = ()  # what global_profiler.steps lists, as the config has it
    enable: bool = False
    all_ranks: bool = False
    ranks: tuple[Any, ...] = ()  # what the actor's profiler ranks list, as the config has it
    save_path: str | None = None
    total_steps: int | None = None
    problems: tuple[Problem, ...] = ()
    key_set: str = LEGACY_KEY  # where torch_memory was written: the actor's key, or the global one it inherits


# --- detect -----------------------------------------------------------------------------------


def detect(config, total_steps: int | None = None) -> Detection:
    """Which of the four cases ``config`` is (module docstring), and what in it
    is malformed. Never raises: a config that cannot be read is ``Case.NONE``, with the reason."""
    try:
        tool = _select(config, LEGACY_KEY)
    except Exception as exc:  # an interpolation that does not resolve, an odd config object
        return Detection(Case.NONE, problems=(Problem(LEGACY_KEY, f"cannot be read ({_first_line(exc)}); {_LEFT}"),))
    if tool != "torch_memory":
        return Detection(Case.NONE, problems=_tool_problems(config, tool))
    try:
        return _detect_torch_memory(config, total_steps)
    except _config_errors() as exc:  # a key that does not resolve; a bug of ours is not caught here
        problem = Problem(ACTOR_PROFILER, f"cannot be read ({_first_line(exc)}); {_LEFT}")
        return Detection(Case.NONE, problems=(problem,))


def _config_errors() -> tuple[type[Exception], ...]:
    try:
        from omegaconf.errors import OmegaConfBaseException
    except ImportError:
        return ()
    return (OmegaConfBaseException,)


def _detect_torch_memory(config, total_steps: int | None) -> Detection:
    problems: list[Problem] = []
    steps = _steps(_select(config, _STEPS_KEY), problems)
    enable = _flag(config, f"{ACTOR_PROFILER}.enable", problems)
    all_ranks = _flag(config, f"{ACTOR_PROFILER}.all_ranks", problems)
    if total_steps is None:
        total_steps = _select(config, "trainer.total_training_steps")
    if not _is_step_number(total_steps) or total_steps < 1:
        total_steps = None
    case = Case.LEGACY if not steps else Case.NEW_STYLE if enable else Case.MIXED
    ranks = _ranks(config, all_ranks, problems)
    save_path = _select(config, f"{ACTOR_PROFILER}.save_path")
    key_set = GLOBAL_TOOL_KEY if _inherits_global_tool(config) else LEGACY_KEY
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
        key_set=key_set,
    )


def _inherits_global_tool(config) -> bool:
    """``global_profiler.tool`` is torch_memory, which the actor's tool follows by default (verl >= 0.8's
    ``examples/profile/run_qwen2_5_vl_7b_torch_memory.sh`` sets only that key). Read from the value,
    not from the interpolation: verl's ``TaskRunner`` resolves the config before any trainer sees it."""
    return _select(config, GLOBAL_TOOL_KEY) == "torch_memory"


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


def _tool_problems(config, tool) -> tuple[Problem, ...]:
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
        f"nothing with it. Did you mean torch_memory? {_LEFT}."
    )
    return (Problem(LEGACY_KEY, message),)


def _steps(value, problems: list[Problem]) -> tuple[Any, ...]:
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


def _check_steps(steps: tuple[Any, ...], total_steps: int | None, problems: list[Problem]) -> None:
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


def _flag(config, key: str, problems: list[Problem]) -> bool:
    """A boolean key read as verl's dataclass conversion reads it (``"false"`` is False)."""
    value = _select(config, key)
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _FALSE + _TRUE:
        return value.strip().lower() in _TRUE
    problems.append(Problem(key, f"is {value!r}, not true or false: verl-compat reads it as {bool(value)}"))
    return bool(value)


def _ranks(config, all_ranks: bool, problems: list[Problem]) -> tuple[Any, ...]:
    key = f"{ACTOR_PROFILER}.ranks"
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
    key = f"{ACTOR_PROFILER}.save_path"
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


def report_problems(problems) -> None:
    """Log each problem once per process (per activation)."""
    for problem in problems:
        deprecation.log_once(str(problem))


# --- translate --------------------------------------------------------------------------------


# Roles whose profiler keys follow the actor's by interpolation in verl's yaml (0.6.1-0.9.1:
# ``rollout.profiler.enable: ${oc.select:actor_rollout_ref.actor.profiler.enable,false}``).
_FOLLOWERS = ("actor_rollout_ref.rollout.profiler", "actor_rollout_ref.ref.profiler")


def _keep_followers(config, key: str) -> None:
    """Pin, at its current value, each other role's key that interpolates the actor's ``key``: in a
    launcher's config (not yet resolved) the edit would otherwise turn the rollout's profiler on."""
    try:
        from omegaconf import DictConfig, OmegaConf
    except ImportError:
        return
    if not isinstance(config, DictConfig):
        return
    leaf = key.rpartition(".")[2]
    for follower in _FOLLOWERS:
        node = _select(config, follower)
        if not isinstance(node, DictConfig):
            continue
        raw = OmegaConf.to_container(node, resolve=False).get(leaf)
        if isinstance(raw, str) and key in raw:
            _set(config, f"{follower}.{leaf}", _select(config, f"{follower}.{leaf}"))


def translate(config, detection: Detection) -> list[ConfigEdit]:
    """Edit ``config`` in place so the actor's DistProfiler dumps; return the edits made, as
    ``(key, value)`` pairs.

    ``global_profiler.tool`` and ``global_profiler.steps`` are never written: the global tool
    would flow by interpolation into ref, critic and rollout, and steps would make the trainer
    start and stop every role every step (``RayPPOTrainer.fit`` compares ``global_steps`` with
    ``global_profiler.steps`` for every role). The legacy "every step" is driven
    by this fix instead, on the actor worker group only.
    """
    if detection.case not in (Case.LEGACY, Case.MIXED):
        return []
    wanted: list[ConfigEdit] = []
    if not detection.enable:
        wanted.append((f"{ACTOR_PROFILER}.enable", True))
    if not detection.all_ranks and not detection.ranks:
        wanted.append((f"{ACTOR_PROFILER}.all_ranks", True))
    edits: list[ConfigEdit] = []
    for key, value in wanted:
        # PERF203: each key on its own; one that cannot be set is reported, the others are still set.
        try:
            _keep_followers(config, key)
            _set(config, key, value)
        except Exception as exc:  # noqa: PERF203 a read-only or frozen config object verl-compat cannot edit
            reason = f"cannot be set by verl-compat ({_first_line(exc)}): set {key}={value} yourself"
            report_problems([Problem(key, reason)])
        else:
            edits.append((key, value))
    return edits


MAX_LISTED_STEPS = 50


def replacement_overrides(detection: Detection) -> list[str]:
    """The copy-pasteable new-style overrides that say what the legacy config meant."""
    if detection.steps:
        steps_text = "[" + ",".join(map(str, detection.steps)) + "]"
    elif detection.total_steps and int(detection.total_steps) <= MAX_LISTED_STEPS:
        steps_text = "[" + ",".join(map(str, range(1, int(detection.total_steps) + 1))) + "]"
    else:
        # verl has no "every step" spelling; past a few dozen steps, a full list helps nobody.
        steps_text = "[<the steps you want a snapshot of, e.g. 1,2,3>]"
    ranks = (
        f"{ACTOR_PROFILER}.ranks=[{','.join(map(str, detection.ranks))}]"
        if detection.ranks
        else f"{ACTOR_PROFILER}.all_ranks=True"
    )
    return [
        "global_profiler.tool=torch_memory",
        f"global_profiler.save_path={detection.save_path or DEFAULT_SAVE_PATH}",
        f"global_profiler.steps={steps_text}",
        f"{ACTOR_PROFILER}.enable=True",
        ranks,
    ]


def warning_text(detection: Detection, edits: list[ConfigEdit]) -> str:
    save_path = detection.save_path or DEFAULT_SAVE_PATH
    overrides = replacement_overrides(detection)
    if detection.case == Case.LEGACY and detection.key_set == GLOBAL_TOOL_KEY:
        what = (
            f"{GLOBAL_TOOL_KEY}=torch_memory without global_profiler.steps is incomplete: verl >=0.8 "
            "dumps nothing for it and verl <0.8 crashes on engine workers (AttributeError: "
            "dump_memory_snapshot). verl-compat drives the DistProfiler after every step instead"
        )
        advice = "Add to your overrides"
        overrides = [o for o in overrides if not o.startswith(("global_profiler.tool=", "global_profiler.save_path="))]
    elif detection.case == Case.LEGACY:
        what = (
            f"{LEGACY_KEY}=torch_memory without global_profiler.steps (legacy per-step snapshots) "
            "is deprecated: verl <0.8 crashes on engine workers "
            "(AttributeError: dump_memory_snapshot) and verl >=0.8 dumps nothing. verl-compat "
            "drives the DistProfiler after every step instead"
        )
        advice = "Replace the legacy key with"
    else:
        what = (
            f"{detection.key_set}=torch_memory with global_profiler.steps but "
            f"{ACTOR_PROFILER}.enable=False (the mixed form of verl #6181) dumps nothing on verl >=0.7.1"
        )
        advice = "Replace the legacy key with" if detection.key_set == LEGACY_KEY else "Use"
    forced = f"; verl-compat forced {', '.join(f'{key}={value}' for key, value in edits)}" if edits else ""
    return (
        f"verl-compat: {what}{forced}.\n"
        f"  {advice}:\n"
        f"    {' '.join(overrides)}\n"
        f"  Snapshots are now written to {save_path}/{snapshot_files.STEP_PATTERN} "
        f"(legacy: {save_path}/{snapshot_files.LEGACY_PATTERN}, "
        "labelled one step late).\n"
        "  Run `verl-compat migrate <launch script or YAML>` to rewrite your config."
    )


def describe(config) -> dict[str, Any]:
    """What the fix will change in ``config`` (translated on a copy; ``config`` is left as it is):
    plain data for ``verl-compat doctor``. The calls it makes depend on the installed verl and come
    from :func:`verl_compat.fixes.torch_memory.runtime.step_calls`."""
    detection = detect(config)
    translated = copy.deepcopy(config)
    edits = translate(translated, detection)
    report = {
        "case": detection.case.value,
        "edits": [f"{key}={value}" for key, value in edits],
        "steps": list(detection.steps) or None,
        "dumps": None,
        "ranks": None,
        "warns": detection.case in (Case.LEGACY, Case.MIXED),
        "replacement_overrides": [],
        "problems": [f"{problem.key} {problem.message}" for problem in detection.problems],
    }
    if detection.case == Case.NONE:
        return report
    if detection.case == Case.LEGACY and detection.total_steps:
        report["steps"] = list(range(1, int(detection.total_steps) + 1))
    save_path = _select(translated, f"{ACTOR_PROFILER}.save_path")
    all_ranks, ranks = (
        _select(translated, f"{ACTOR_PROFILER}.all_ranks"),
        _select(translated, f"{ACTOR_PROFILER}.ranks"),
    )
    report["dumps"] = f"{save_path or DEFAULT_SAVE_PATH}/{snapshot_files.STEP_PATTERN}"
    report["ranks"] = "all" if all_ranks else list(ranks or [0])
    if report["warns"]:
        report["replacement_overrides"] = replacement_overrides(detection)
    return report
