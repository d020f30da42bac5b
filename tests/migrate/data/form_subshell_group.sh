#!/usr/bin/env bash
# A launch in a subshell (its own directory) and one in a group whose output is logged.
(
    cd "$(dirname "$0")" && python3 -m verl.trainer.main_ppo \
        actor_rollout_ref.actor.profiler.tool=torch_memory \
        trainer.total_training_steps=2
)
{ python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=3; } > group.log 2>&1
