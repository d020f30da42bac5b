#!/usr/bin/env bash
# The tool comes from a variable the script itself sets to torch_memory.
TOOL=torch_memory
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.actor.profiler.tool=$TOOL \
    trainer.total_training_steps=2
# expected: 3, 5: is a shell variable that this file sets to torch_memory
