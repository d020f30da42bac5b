#!/usr/bin/env bash
# A here-string is a launch fed to bash.
bash <<< "python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=2"
# expected: 3: in text given to a program
