#!/usr/bin/env bash
# Overrides in bash arrays: defined, appended to, and expanded into the launch.
ARGS=(
    data.train_batch_size=256  # a comment inside the array
    "trainer.project_name=arrays (quoted)"
)
ARGS+=(global_profiler.tool=torch_memory global_profiler.steps=[1,2,3,4] actor_rollout_ref.actor.profiler.enable=True actor_rollout_ref.actor.profiler.all_ranks=True)
declare -a TRAINER=(trainer.total_training_steps=4 "${ARGS[@]}")

python3 -m verl.trainer.main_ppo "${TRAINER[@]}" trainer.seed=1
