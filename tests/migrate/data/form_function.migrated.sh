#!/usr/bin/env bash
# A function wraps the launch; the caller adds its own overrides through "$@".
train() {
    python3 -m verl.trainer.main_ppo "$@" \
        global_profiler.tool=torch_memory \
        global_profiler.steps=[1,2] \
        actor_rollout_ref.actor.profiler.enable=True \
        actor_rollout_ref.actor.profiler.all_ranks=True \
        trainer.total_training_steps=2
}

train trainer.seed=1
train trainer.seed=2
