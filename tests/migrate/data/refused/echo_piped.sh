#!/usr/bin/env bash
# echo pipes the overrides into xargs, which launches with them.
echo "actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=2" | xargs python3 -m verl.trainer.main_ppo
# expected: 3: in text given to a program
