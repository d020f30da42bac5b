#!/usr/bin/env bash
# One profiler per case arm; the legacy key sits in the memory arm only.
case "${PROFILER:-none}" in
    torch)
        PROFILE=(global_profiler.tool=torch global_profiler.steps=[1,2] actor_rollout_ref.actor.profiler.enable=True)
        ;;
    nsys) PROFILE=(global_profiler.tool=nsys global_profiler.steps=[2]) ;;
    memory|mem)
        PROFILE=(actor_rollout_ref.actor.profiler.tool=torch_memory) ;;
    *) PROFILE=() ;;
esac

python3 -m verl.trainer.main_ppo \
    "${PROFILE[@]}" \
    trainer.total_training_steps=4 $@
