#!/usr/bin/env bash
# A launch inside a command substitution over several lines, its output kept in a variable.
RUN_ID=$(date +%s)
OUTPUT=$(python3 -m verl.trainer.main_ppo \
    trainer.experiment_name="run_$(hostname)_${RUN_ID}" \
    global_profiler.tool=torch_memory \
    global_profiler.steps=[1,2,3] \
    actor_rollout_ref.actor.profiler.enable=True \
    actor_rollout_ref.actor.profiler.all_ranks=True \
    trainer.total_training_steps=3 2>&1)
echo "$OUTPUT" | tail -n 5
