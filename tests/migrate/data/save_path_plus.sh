#!/usr/bin/env bash
# save_path was added with + (the actor's profiler had no save_path in some old configs).
python3 -m verl.trainer.main_ppo \
    ++actor_rollout_ref.actor.profiler.tool=torch_memory \
    +actor_rollout_ref.actor.profiler.save_path=/scratch/mem \
    trainer.total_training_steps=1
