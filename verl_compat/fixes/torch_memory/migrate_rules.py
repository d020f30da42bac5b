"""torch_memory's migrate rule for ``verl-compat migrate`` (the contract: :mod:`verl_compat.migrate_contract`).

What a configuration needs is decided by the fix's own :func:`.config.detect` and
:func:`.config.translate`, so the migrated file asks verl for exactly what the shim does at run
time.
"""

from __future__ import annotations

import re

from ...migrate_contract import Delete, Edit, Options, Refusal, Rename, Rule, Set, Setting
from .translate import ACTOR_PROFILER, GLOBAL_TOOL_KEY, LEGACY_KEY, SCHEMA_DEFAULTS, Case, detect, translate

ENABLE, ALL_RANKS, RANKS, ACTOR_SAVE_PATH = (
    f"{ACTOR_PROFILER}.{leaf}" for leaf in ("enable", "all_ranks", "ranks", "save_path")
)
TOOL, STEPS, SAVE_PATH = GLOBAL_TOOL_KEY, "global_profiler.steps", "global_profiler.save_path"
TOTAL_STEPS = "trainer.total_training_steps"
KEYS = (LEGACY_KEY, ENABLE, ALL_RANKS, RANKS, ACTOR_SAVE_PATH, TOOL, STEPS, SAVE_PATH, TOTAL_STEPS)


class TorchMemoryToDistProfiler(Rule):
    """The legacy ``actor_rollout_ref.actor.profiler.tool=torch_memory`` (a snapshot after every step
    on every actor rank), and verl's own ``global_profiler.tool=torch_memory`` without steps or
    without the actor's ``enable``, in verl's DistProfiler keys.

    The new form::

        global_profiler.tool=torch_memory global_profiler.steps=[1,2,...,N]
        actor_rollout_ref.actor.profiler.enable=True actor_rollout_ref.actor.profiler.all_ranks=True

    N is ``trainer.total_training_steps`` of the same configuration, or the steps given with
    ``--steps``; the actor's ``save_path`` moves to ``global_profiler.save_path``, which it follows.
    """

    name = "torch_memory"
    keys = KEYS
    mentions = ("torch_memory",)
    # ``tool: torch_memory``, quoted, tagged or anchored, block or flow style, or ``tool: *alias`` (its
    # anchor may be torch_memory). verl's generated configs name torch_memory only as a key of their
    # tool configs, so they never match.
    # ``\btool`` as ``tool(?<=\btool)``: a pattern that starts with a literal is searched for it first
    # (a 35 KB generated config: 0.05 ms instead of 1.3 ms); the same matches.
    yaml_setting = re.compile(
        r"""tool(?<=\btool)["']?[ \t]*:[ \t]*(?:(?:!!str[ \t]+)?(?:&\S+[ \t]+)?["']?torch_memory\b|\*)"""
    )
    text_setting = re.compile(r"profiler\.tool[\"']?\s*[=:]\s*[\"']?torch_memory\b")
    defaults = SCHEMA_DEFAULTS

    def concerns(self, settings: dict[str, Setting]) -> bool:
        return any(
            (value == "torch_memory" and known) or (not known and _from_shell(settings[key]))
            for key in (LEGACY_KEY, TOOL)
            if key in settings
            for value, known in settings[key].values()
        )

    def edits(self, settings: dict[str, Setting], options: Options) -> list[Edit]:
        for key in (LEGACY_KEY, TOOL):
            if key in settings and not settings[key].known and _from_shell(settings[key]):
                setting = settings[key]
                raise Refusal(
                    [*setting.lines, *(line for value, line in setting.shell_values if value == "torch_memory")],
                    f"{key} is a shell variable that this file sets to torch_memory: migrate edits only "
                    f"literal values, write {key}=torch_memory where the variable is used or migrate by hand",
                )
        actor_tool = settings.get(LEGACY_KEY)
        tool = actor_tool or settings.get(TOOL)  # the actor's tool follows global_profiler.tool unless set
        if tool is None or not tool.known or tool.value != "torch_memory":
            return []
        _refuse_unknown(settings)
        global_tool = settings.get(TOOL)
        if actor_tool and global_tool and global_tool.value not in (None, "torch_memory"):
            raise Refusal(
                actor_tool.lines + global_tool.lines,
                f"{LEGACY_KEY}=torch_memory and {TOOL}={global_tool.value} disagree: "
                f"the new form sets {TOOL}=torch_memory, which would replace {global_tool.value}",
            )

        def value(key):
            return settings[key].value if key in settings else None

        steps = value(STEPS) if STEPS not in settings or settings[STEPS].known else ["$"]  # a list from the shell
        profiler = {"tool": "torch_memory", "enable": value(ENABLE), "all_ranks": value(ALL_RANKS)}
        profiler["ranks"] = value(RANKS)
        view = {"actor_rollout_ref": {"actor": {"profiler": profiler}}, "global_profiler": {"steps": steps}}
        detection = detect(view)
        if detection.case == Case.MIXED and ENABLE in settings:
            raise Refusal(
                settings[STEPS].lines + settings[ENABLE].lines,
                f"{STEPS} asks for snapshots but {ENABLE}={settings[ENABLE].value} turns the actor's profiler off "
                "(the shim forces it on): say which you mean",
            )

        edits: list[Edit] = []
        near = LEGACY_KEY if actor_tool else TOOL
        if actor_tool and value(TOOL) != "torch_memory":
            edits.append(Rename(LEGACY_KEY, TOOL))
        elif actor_tool:
            edits.append(Delete(LEGACY_KEY))
        if detection.case == Case.LEGACY:
            edits.append(Set(STEPS, options.steps or _every_step(settings, tool), near))
        for key, _ in translate(view, detection):
            edits.append(Set(key, profiler[key.rpartition(".")[2]], near))
        actor_save_path = settings.get(ACTOR_SAVE_PATH)
        if edits and actor_save_path:
            # The actor's save_path follows global_profiler.save_path (actor.yaml), so moving the value
            # there keeps the actor's dumps where they were, unless the file already says otherwise.
            global_save_path = settings.get(SAVE_PATH)
            if global_save_path is None:
                edits.append(Rename(ACTOR_SAVE_PATH, SAVE_PATH))
            elif (global_save_path.value, global_save_path.known) == (actor_save_path.value, actor_save_path.known):
                edits.append(Delete(ACTOR_SAVE_PATH))
            else:
                raise Refusal(
                    actor_save_path.lines + global_save_path.lines,
                    f"{ACTOR_SAVE_PATH}={actor_save_path.value} and {SAVE_PATH}={global_save_path.value} differ: "
                    "keep one save_path",
                )
        return edits


def _from_shell(setting) -> bool:
    """The value is a shell variable that the file sets (or defaults) to torch_memory."""
    return any(value == "torch_memory" for value, _ in setting.shell_values)


def _refuse_unknown(settings: dict[str, Setting]) -> None:
    """A value that decides the edits and that only the shell or a resolver knows. Steps from the
    shell are fine where the actor's profiler is already enabled: nothing depends on their value."""
    enabled = ENABLE in settings and settings[ENABLE].known and settings[ENABLE].value is True
    for key in (STEPS, ENABLE, ALL_RANKS, RANKS):
        if key in settings and not settings[key].known and not (key == STEPS and enabled):
            message = f"{key} comes from the shell or an interpolation: set it literally or migrate by hand"
            raise Refusal(settings[key].lines, message)


def _every_step(settings: dict[str, Setting], tool: Setting) -> list[int]:
    """The legacy "after every step" as a step list: 1..trainer.total_training_steps."""
    total = settings.get(TOTAL_STEPS)
    if total and total.known and type(total.value) is int and total.value > 0:
        return list(range(1, total.value + 1))
    key = LEGACY_KEY if LEGACY_KEY in settings else TOOL
    raise Refusal(
        tool.lines + (total.lines if total else ()),
        f"{key}=torch_memory without {STEPS} means a snapshot after every step with verl-compat "
        f"(verl alone dumps nothing), and the number of steps is not in this file: choose the steps with "
        f"--steps, e.g. `verl-compat migrate --steps 1,2,3 FILE`, or set {TOTAL_STEPS} to a number",
    )


RULES = (TorchMemoryToDistProfiler(),)
