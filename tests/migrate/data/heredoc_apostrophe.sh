#!/usr/bin/env bash
# The notes below hold an apostrophe; the launch after them still needs migrating.
cat > notes.txt <<'NOTES'
Don't run this on a login node.
NOTES

python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.actor.profiler.tool=torch_memory \
    trainer.total_training_steps=2
