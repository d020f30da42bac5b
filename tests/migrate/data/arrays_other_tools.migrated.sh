#!/usr/bin/env bash
# Shaped like verl's tests/special_e2e/run_ppo_trainer_megatron.sh: nsys in an array, npu on the
# NPU command (Hydra takes the last; neither is torch_memory), and a memory run on its own.
set -xeuo pipefail

PROFILE_ARGS=(
    global_profiler.tool=nsys
    global_profiler.steps=[1,2]
    actor_rollout_ref.actor.profiler.enable=True
)

if [ "$DEVICE" = npu ]; then
    python3 -m verl.trainer.main_ppo "${PROFILE_ARGS[@]}" \
        global_profiler.tool=npu \
        trainer.device=npu
else
    python3 -m verl.trainer.main_ppo "${PROFILE_ARGS[@]}" trainer.device=cuda
fi

# The memory run: verl-compat serves the legacy key.
python3 -m verl.trainer.main_ppo \
    global_profiler.tool=torch_memory \
    global_profiler.steps=[1,2] \
    actor_rollout_ref.actor.profiler.enable=True \
    actor_rollout_ref.actor.profiler.all_ranks=True \
    trainer.total_training_steps=2
