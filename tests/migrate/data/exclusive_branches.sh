#!/usr/bin/env bash
# The profiler array differs between two arms that never run together.
if [ "$ENGINE" = megatron ]; then
    PROFILE=(global_profiler.tool=nsys global_profiler.steps=[1])
else
    PROFILE=(
        actor_rollout_ref.actor.profiler.tool=torch_memory
    )
fi

python3 -m verl.trainer.main_ppo "${PROFILE[@]}" \
    trainer.total_training_steps=3
