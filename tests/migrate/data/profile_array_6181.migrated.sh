#!/bin/bash
# Reproduces verl #6181: the global torch_memory tool with steps, but the actor profiler never enabled.
set -euo pipefail

MODEL=${MODEL:-Qwen/Qwen3-0.6B}

PROFILE=(
    global_profiler.tool=torch_memory
    actor_rollout_ref.actor.profiler.enable=True
    actor_rollout_ref.actor.profiler.all_ranks=True
    "global_profiler.steps=[1,5,10]"
    global_profiler.save_path="$HOME/mem_snapshots"
)

# shellcheck disable=SC2068
python3 -m verl.trainer.main_ppo \
    --config-name=ppo_trainer \
    actor_rollout_ref.model.path="$MODEL" \
    "${PROFILE[@]}" \
    trainer.total_epochs=1 $@
