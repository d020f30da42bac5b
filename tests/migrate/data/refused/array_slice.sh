#!/usr/bin/env bash
# The launch expands a slice of the array: which of its settings it gets is not what the array says.
ARGS=(
    actor_rollout_ref.actor.profiler.tool=torch_memory
    trainer.total_training_steps=2
)
python3 -m verl.trainer.main_ppo "${ARGS[@]:1}"
# expected: 7: other than whole
