#!/usr/bin/env bash
# A function wraps the launch; the caller adds its own overrides through "$@".
train() {
    python3 -m verl.trainer.main_ppo "$@" \
        actor_rollout_ref.actor.profiler.tool=torch_memory \
        trainer.total_training_steps=2
}

train trainer.seed=1
train trainer.seed=2
