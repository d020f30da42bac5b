#!/usr/bin/env bash
# The value is torch_memory followed by a variable: only the shell knows what it becomes.
python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.profiler.tool=torch_memory${SUFFIX} trainer.total_training_steps=2
# expected: 3: the shell builds this value
