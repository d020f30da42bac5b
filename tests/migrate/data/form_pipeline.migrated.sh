#!/usr/bin/env bash
# The launch's output piped into tee; its settings are the launch's all the same.
set -o pipefail
python3 -m verl.trainer.main_ppo \
    global_profiler.tool=torch_memory \
    global_profiler.steps=[1,2] \
    actor_rollout_ref.actor.profiler.enable=True \
    actor_rollout_ref.actor.profiler.all_ranks=True \
    trainer.total_training_steps=2 2>&1 | tee train.log | grep -v DEBUG
