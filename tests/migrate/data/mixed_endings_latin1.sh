#!/usr/bin/env bash
# Windows-edited header été (Latin-1), the rest LF
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.actor.profiler.tool=torch_memory \
    trainer.total_training_steps=2
echo "done à la fin"
