#!/usr/bin/env bash
# Quotes inside the key: bash removes them, so the key is the legacy one, but it cannot be renamed in place.
python3 -m verl.trainer.main_ppo actor_rollout_ref.actor."profiler".tool=torch_memory trainer.total_training_steps=2
# expected: 3: is spelled with quotes or escapes inside it
