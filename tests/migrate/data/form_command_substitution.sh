#!/usr/bin/env bash
# A launch inside a command substitution over several lines, its output kept in a variable.
RUN_ID=$(date +%s)
OUTPUT=$(python3 -m verl.trainer.main_ppo \
    trainer.experiment_name="run_$(hostname)_${RUN_ID}" \
    actor_rollout_ref.actor.profiler.tool=torch_memory \
    trainer.total_training_steps=3 2>&1)
echo "$OUTPUT" | tail -n 5
