#!/usr/bin/env bash
# Arithmetic in the launch, as verl's DAPO recipes write it: $(( … )) is one word of the command.
max_prompt_length=$((1024 * 2))
max_response_length=$((1024 * 2))
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.actor.profiler.tool=torch_memory \
    actor_rollout_ref.actor.ppo_max_token_len_per_gpu=$((max_prompt_length + max_response_length)) \
    trainer.total_training_steps=2
