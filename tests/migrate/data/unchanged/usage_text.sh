#!/usr/bin/env bash
# Usage text that names the legacy key: printed for the user, never a launch.
usage() {
    echo "The legacy actor_rollout_ref.actor.profiler.tool=torch_memory is gone; use global_profiler."
    echo actor_rollout_ref.actor.profiler.tool=torch_memory
    printf '%s\n' "e.g. actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=3"
    cat <<USAGE
Old form: actor_rollout_ref.actor.profiler.tool=torch_memory (don't use it)
USAGE
}
[ "$#" -gt 0 ] || { usage; exit 1; }

python3 -m verl.trainer.main_ppo global_profiler.tool=nsys global_profiler.steps=[1] "$@"
