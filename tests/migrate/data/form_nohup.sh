#!/usr/bin/env bash
# A launch in the background, surviving the terminal.
nohup python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.actor.profiler.tool=torch_memory \
    trainer.total_training_steps=2 > train.log 2>&1 &
echo "started $!"
wait
