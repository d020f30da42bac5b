#!/usr/bin/env bash
# The profiler array differs between two arms that never run together.
if [ "$ENGINE" = megatron ]; then
    PROFILE=(global_profiler.tool=nsys global_profiler.steps=[1])
else
    PROFILE=(
        global_profiler.tool=torch_memory
        global_profiler.steps=[1,2,3]
        actor_rollout_ref.actor.profiler.enable=True
        actor_rollout_ref.actor.profiler.all_ranks=True
    )
fi

python3 -m verl.trainer.main_ppo "${PROFILE[@]}" \
    trainer.total_training_steps=3
