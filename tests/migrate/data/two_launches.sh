#!/bin/bash
# Two runs from one script: each command is its own configuration.
for seed in 1 2; do
  python3 -m verl.trainer.main_ppo \
      ++actor_rollout_ref.actor.profiler.tool=torch_memory \
      actor_rollout_ref.actor.profiler.ranks=[0] \
      trainer.seed=$seed \
      trainer.total_training_steps=2
done

# The follow-up run already sets the global tool, but still carries the legacy key.
python3 -m verl.trainer.main_ppo global_profiler.tool=torch_memory trainer.total_training_steps=3 \
      actor_rollout_ref.actor.profiler.tool=torch_memory
