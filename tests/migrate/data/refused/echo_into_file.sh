#!/usr/bin/env bash
# echo writes the overrides into a file the launch reads.
echo "actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=2" > overrides.txt
python3 -m verl.trainer.main_ppo $(cat overrides.txt)
# expected: 3: in text given to a program
