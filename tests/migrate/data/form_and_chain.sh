#!/usr/bin/env bash
# Launches in && and || chains.
mkdir -p outputs && python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.actor.profiler.tool=torch_memory \
    trainer.total_training_steps=2 && echo "done" || echo "failed: actor_rollout_ref.actor.profiler.tool=torch_memory"
