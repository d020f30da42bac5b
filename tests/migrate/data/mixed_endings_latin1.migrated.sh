#!/usr/bin/env bash
# Windows-edited header été (Latin-1), the rest LF
python3 -m verl.trainer.main_ppo \
    global_profiler.tool=torch_memory \
    global_profiler.steps=[1,2] \
    actor_rollout_ref.actor.profiler.enable=True \
    actor_rollout_ref.actor.profiler.all_ranks=True \
    trainer.total_training_steps=2
echo "done à la fin"
