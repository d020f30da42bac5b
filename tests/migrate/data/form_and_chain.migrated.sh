#!/usr/bin/env bash
# Launches in && and || chains.
mkdir -p outputs && python3 -m verl.trainer.main_ppo \
    global_profiler.tool=torch_memory \
    global_profiler.steps=[1,2] \
    actor_rollout_ref.actor.profiler.enable=True \
    actor_rollout_ref.actor.profiler.all_ranks=True \
    trainer.total_training_steps=2 && echo "done" || echo "failed: actor_rollout_ref.actor.profiler.tool=torch_memory"
