#!/usr/bin/env bash
# save_path was added with + (the actor's profiler had no save_path in some old configs).
python3 -m verl.trainer.main_ppo \
    ++global_profiler.tool=torch_memory \
    global_profiler.steps=[1] \
    actor_rollout_ref.actor.profiler.enable=True \
    actor_rollout_ref.actor.profiler.all_ranks=True \
    global_profiler.save_path=/scratch/mem \
    trainer.total_training_steps=1
