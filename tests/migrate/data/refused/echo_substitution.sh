#!/usr/bin/env bash
# echo's output kept in a variable the launch expands.
EXTRA=$(echo actor_rollout_ref.actor.profiler.tool=torch_memory)
python3 -m verl.trainer.main_ppo $EXTRA trainer.total_training_steps=2
# expected: 3: in text given to a program
