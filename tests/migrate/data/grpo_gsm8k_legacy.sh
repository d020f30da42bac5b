#!/usr/bin/env bash
# GRPO on GSM8K with Qwen2.5-0.5B, one memory snapshot after every step (verl 0.6 style).
set -x

gsm8k_train_path=$HOME/data/gsm8k/train.parquet
gsm8k_test_path=$HOME/data/gsm8k/test.parquet
PROFILE_DIR=${PROFILE_DIR:-/mnt/scratch/$USER/profiles}

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_files="$gsm8k_train_path" \
    data.val_files="$gsm8k_test_path" \
    data.train_batch_size=1024 \
    data.max_prompt_length=512 \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \
    actor_rollout_ref.actor.optim.lr=1e-6 \
    actor_rollout_ref.actor.ppo_mini_batch_size=256 \
    actor_rollout_ref.actor.profiler.tool=torch_memory \
    actor_rollout_ref.actor.profiler.save_path="${PROFILE_DIR}/grpo" \
    actor_rollout_ref.rollout.name=vllm \
    ++actor_rollout_ref.rollout.gpu_memory_utilization=0.6 \
    trainer.logger='["console","wandb"]' \
    trainer.project_name='verl_grpo_example_gsm8k' \
    trainer.experiment_name='qwen2_5_0_5b_mem' \
    trainer.n_gpus_per_node=8 \
    trainer.nnodes=1 \
    trainer.total_training_steps=6 $@
