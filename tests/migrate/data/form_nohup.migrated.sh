#!/usr/bin/env bash
# A launch in the background, surviving the terminal.
nohup python3 -m verl.trainer.main_ppo \
    global_profiler.tool=torch_memory \
    global_profiler.steps=[1,2] \
    actor_rollout_ref.actor.profiler.enable=True \
    actor_rollout_ref.actor.profiler.all_ranks=True \
    trainer.total_training_steps=2 > train.log 2>&1 &
echo "started $!"
wait
