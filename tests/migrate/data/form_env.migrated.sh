#!/usr/bin/env bash
# Environment set for the launch alone: `env VAR=1 …` and `VAR=1 …`.
env CUDA_VISIBLE_DEVICES=0,1 HYDRA_FULL_ERROR=1 python -m verl.trainer.main_ppo \
    global_profiler.tool=torch_memory \
    global_profiler.steps=[1,2] \
    actor_rollout_ref.actor.profiler.enable=True \
    actor_rollout_ref.actor.profiler.all_ranks=True \
    trainer.total_training_steps=2
VLLM_USE_V1=1 python -m verl.trainer.main_ppo global_profiler.tool=torch_memory global_profiler.steps=[1,2,3] actor_rollout_ref.actor.profiler.enable=True actor_rollout_ref.actor.profiler.all_ranks=True trainer.total_training_steps=3
