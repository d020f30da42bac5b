"""What the tests of ``verl-compat migrate`` (tests/migrate) share: the fixtures folder and its
golden inputs, the refusal cases, and running the command on a file."""

import textwrap
from pathlib import Path

from paths import TESTS

from verl_compat import cli

DATA = TESTS / "migrate" / "data"
GOLDEN_INPUTS = sorted(path.name for path in DATA.iterdir() if path.is_file() and ".migrated." not in path.name)
# Extra arguments per golden input; the others derive the steps from trainer.total_training_steps.
GOLDEN_ARGS = {"legacy_last_line.sh": ["--steps", "2,4"]}
LEGACY_LINE = "actor_rollout_ref.actor.profiler.tool=torch_memory"


def golden_output(name: str) -> Path:
    stem, suffix = name.rsplit(".", 1)
    return DATA / f"{stem}.migrated.{suffix}"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def run_migrate(*args) -> int:
    return cli.main(["migrate", *map(str, args)])


REFUSALS = {
    "no step count": (
        "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            trainer.total_epochs=15 \\
            actor_rollout_ref.actor.profiler.tool=torch_memory
        """,
        [3],
        "choose the steps with --steps",
    ),
    "step count only the shell knows": (
        "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            actor_rollout_ref.actor.profiler.tool=torch_memory \\
            trainer.total_training_steps=$STEPS
        """,
        [2, 3],
        "choose the steps with --steps",
    ),
    "different save paths": (
        "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            global_profiler.save_path=/data/profiles \\
            actor_rollout_ref.actor.profiler.tool=torch_memory \\
            actor_rollout_ref.actor.profiler.save_path=/scratch/mem \\
            trainer.total_training_steps=3
        """,
        [2, 4],
        "differ",
    ),
    "enable=False next to steps": (
        "overlay.yaml",
        """\
        global_profiler:
          tool: torch_memory
          steps: [1, 2]
        actor_rollout_ref:
          actor:
            profiler:
              enable: False  # on purpose?
        """,
        [3, 7],
        "turns the actor's profiler off",
    ),
    "another global tool": (
        "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            global_profiler.tool=nsys \\
            global_profiler.steps=[1] \\
            actor_rollout_ref.actor.profiler.tool=torch_memory
        """,
        [2, 4],
        "disagree",
    ),
    "two values for one key in one launch": (
        "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            trainer.total_training_steps=3 \\
            actor_rollout_ref.actor.profiler.tool=torch_memory \\
            trainer.total_training_steps=9
        """,
        [2, 4],
        "is set to 3 and to 9",
    ),
    "one array, two commands that need different steps": (
        "run.sh",
        """\
        PROFILE=(
            actor_rollout_ref.actor.profiler.tool=torch_memory
        )
        python3 -m verl.trainer.main_ppo "${PROFILE[@]}" trainer.total_training_steps=3
        python3 -m verl.trainer.main_ppo "${PROFILE[@]}" trainer.total_training_steps=5 trainer.seed=2
        """,
        [2, 4, 5],
        "expand the same bash array but need different edits",
    ),
    "a case arm without a step count": (
        "run.sh",
        """\
        case "$PROFILER" in
            nsys) PROFILE=(global_profiler.tool=nsys global_profiler.steps=[1]) ;;
            torch) PROFILE=(global_profiler.tool=torch global_profiler.steps=[1]) ;;
            memory) PROFILE=(actor_rollout_ref.actor.profiler.tool=torch_memory) ;;
        esac
        python3 -m verl.trainer.main_ppo "${PROFILE[@]}" trainer.total_epochs=2
        """,
        [4],
        "actor_rollout_ref.actor.profiler.tool=torch_memory without global_profiler.steps",
    ),
    "verl's own example: the global tool without steps": (
        # verl's examples/profile/run_qwen2_5_vl_7b_torch_memory.sh (0.8.0 and later), its profiler part.
        "run_qwen2_5_vl_7b_torch_memory.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            trainer.total_epochs=1 \\
            global_profiler.tool=torch_memory \\
            global_profiler.save_path=./mem_snapshots \\
            global_profiler.global_tool_config.torch_memory.trace_alloc_max_entries=100000 \\
            global_profiler.global_tool_config.torch_memory.stack_depth=32
        """,
        [3],
        "global_profiler.tool=torch_memory without global_profiler.steps means a snapshot after every step "
        "with verl-compat (verl alone dumps nothing), and the number of steps is not in this file: choose the "
        "steps with --steps, e.g. `verl-compat migrate --steps 1,2,3 FILE`",
    ),
    "a launch file that is not a shell script": (
        "launch.ipynb",
        """\
        {"cells": [{"cell_type": "code", "source": [
          "!python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.profiler.tool=torch_memory"]}]}
        """,
        [2],
        "not a shell script, YAML or Markdown",
    ),
    "legacy key inside a shell variable": (
        "run.sh",
        """\
        EXTRA="actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=3"
        python3 -m verl.trainer.main_ppo $EXTRA
        """,
        [1],
        "by hand",
    ),
    "enable from the environment": (
        "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            actor_rollout_ref.actor.profiler.tool=torch_memory \\
            actor_rollout_ref.actor.profiler.enable=${ENABLE:-False} \\
            trainer.total_training_steps=3
        """,
        [3],
        "comes from the shell",
    ),
    "flow-style YAML mapping": (
        "overlay.yaml",
        """\
        trainer: {total_training_steps: 2}
        actor_rollout_ref:
          actor:
            profiler: {tool: torch_memory}
        """,
        [4],
        "block-style",
    ),
    "YAML merge key where migrate reads keys": (
        "overlay.yaml",
        """\
        memory: &memory
          tool: torch_memory
        actor_rollout_ref:
          actor:
            profiler:
              <<: *memory
        trainer:
          total_training_steps: 2
        """,
        [6],
        "a merge key (<<) in actor_rollout_ref.actor.profiler",
    ),
    "YAML alias as a value migrate reads": (
        # Editing the value in place would edit the anchor, another key's value.
        "overlay.yaml",
        """\
        tools:
          memory: &memory torch_memory
        actor_rollout_ref:
          actor:
            profiler:
              tool: *memory
        trainer:
          total_training_steps: 2
        """,
        [6],
        "takes its value from an alias",
    ),
}
