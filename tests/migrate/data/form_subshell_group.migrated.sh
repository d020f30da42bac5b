#!/usr/bin/env bash
# A launch in a subshell (its own directory) and one in a group whose output is logged.
(
    cd "$(dirname "$0")" && python3 -m verl.trainer.main_ppo \
        global_profiler.tool=torch_memory \
        global_profiler.steps=[1,2] \
        actor_rollout_ref.actor.profiler.enable=True \
        actor_rollout_ref.actor.profiler.all_ranks=True \
        trainer.total_training_steps=2
)
{ python3 -m verl.trainer.main_ppo global_profiler.tool=torch_memory global_profiler.steps=[1,2,3] actor_rollout_ref.actor.profiler.enable=True actor_rollout_ref.actor.profiler.all_ranks=True trainer.total_training_steps=3; } > group.log 2>&1
