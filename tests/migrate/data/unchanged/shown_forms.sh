#!/usr/bin/env bash
# Text for the user, and a comparison, that name the legacy key: never a launch, never refused.
if [[ "${PROFILER:-}" == "actor_rollout_ref.actor.profiler.tool=torch_memory" ]]; then
    echo "actor_rollout_ref.actor.profiler.tool=torch_memory is gone: use global_profiler" >&2
    cat <<EOF >&2
Migrate actor_rollout_ref.actor.profiler.tool=torch_memory with verl-compat migrate.
EOF
    exit 1
fi
python3 -m verl.trainer.main_ppo global_profiler.tool=nsys global_profiler.steps=[1] "$@" 2>/dev/null
