#!/usr/bin/env bash
# Part of the key comes from a variable.
PREFIX=actor_rollout_ref.actor
python3 -m verl.trainer.main_ppo ${PREFIX}.profiler.tool=torch_memory trainer.total_training_steps=2
# expected: 4: in a form migrate cannot read
