#!/usr/bin/env bash
# The notes below hold an apostrophe; the launch after them still needs migrating.
cat > notes.txt <<'NOTES'
Don't run this on a login node.
NOTES

python3 -m verl.trainer.main_ppo \
    global_profiler.tool=torch_memory \
    global_profiler.steps=[1,2] \
    actor_rollout_ref.actor.profiler.enable=True \
    actor_rollout_ref.actor.profiler.all_ranks=True \
    trainer.total_training_steps=2
