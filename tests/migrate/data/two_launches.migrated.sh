#!/bin/bash
# Two runs from one script: each command is its own configuration.
for seed in 1 2; do
  python3 -m verl.trainer.main_ppo \
      ++global_profiler.tool=torch_memory \
      global_profiler.steps=[1,2] \
      actor_rollout_ref.actor.profiler.enable=True \
      actor_rollout_ref.actor.profiler.ranks=[0] \
      trainer.seed=$seed \
      trainer.total_training_steps=2
done

# The follow-up run already sets the global tool, but still carries the legacy key.
python3 -m verl.trainer.main_ppo global_profiler.tool=torch_memory trainer.total_training_steps=3 \
      global_profiler.steps=[1,2,3] \
      actor_rollout_ref.actor.profiler.enable=True \
      actor_rollout_ref.actor.profiler.all_ranks=True
