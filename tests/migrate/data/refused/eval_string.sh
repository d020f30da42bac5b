#!/usr/bin/env bash
# A launch inside a string that eval runs.
eval "python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=2"
# expected: 3: in a form migrate cannot read
