#!/usr/bin/env bash
# Overrides in bash arrays: defined, appended to, and expanded into the launch.
ARGS=(
    data.train_batch_size=256  # a comment inside the array
    "trainer.project_name=arrays (quoted)"
)
ARGS+=(actor_rollout_ref.actor.profiler.tool=torch_memory)
declare -a TRAINER=(trainer.total_training_steps=4 "${ARGS[@]}")

python3 -m verl.trainer.main_ppo "${TRAINER[@]}" trainer.seed=1
