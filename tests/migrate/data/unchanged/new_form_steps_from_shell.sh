#!/usr/bin/env bash
# A third-party launch script already in verl's new form: the steps come from the environment.
set -euo pipefail

PROFILE_STEPS=${PROFILE_STEPS:-"[1,2,3]"}

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \
    global_profiler.tool=torch_memory \
    global_profiler.steps="${PROFILE_STEPS}" \
    global_profiler.save_path=./mem_snapshots \
    actor_rollout_ref.actor.profiler.enable=True \
    actor_rollout_ref.actor.profiler.all_ranks=True \
    trainer.total_epochs=1 "$@"
