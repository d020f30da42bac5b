#!/usr/bin/env bash
# The step count is the output of a command.
python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=$(cat steps.txt)
# expected: 3: the number of steps is not in this file
