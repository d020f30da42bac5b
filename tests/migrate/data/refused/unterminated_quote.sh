#!/usr/bin/env bash
# A quote opened and never closed: bash stops with a syntax error; migrate does not guess either.
python3 -m verl.trainer.main_ppo \
    "actor_rollout_ref.actor.profiler.tool=torch_memory \
    trainer.total_training_steps=2
# expected: 4: in a part bash's grammar cannot read
