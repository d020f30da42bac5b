#!/usr/bin/env bash
# A blank after the backslash ends the command: the next line is a command of its own.
python3 -m verl.trainer.main_ppo \
    trainer.total_training_steps=2 \ 
    actor_rollout_ref.actor.profiler.tool=torch_memory
# expected: 4, 5: is followed by a blank
