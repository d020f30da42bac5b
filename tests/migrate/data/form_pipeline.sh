#!/usr/bin/env bash
# The launch's output piped into tee; its settings are the launch's all the same.
set -o pipefail
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.actor.profiler.tool=torch_memory \
    trainer.total_training_steps=2 2>&1 | tee train.log | grep -v DEBUG
