#!/bin/bash
# Memory snapshots for the DAPO smoke test; steps come from --steps.
export VLLM_USE_V1=1
TOTAL_EPOCHS=${TOTAL_EPOCHS:-2}

ray job submit --address="http://127.0.0.1:8265" -- \
  python3 -m verl.trainer.main_ppo \
  data.train_files=['/data/dapo/train.parquet'] \
  +data.custom_setting=1 \
  actor_rollout_ref.actor.profiler.all_ranks=False \
  trainer.total_epochs=$TOTAL_EPOCHS \
  'actor_rollout_ref.actor.profiler.tool=torch_memory'
# Old experiment, kept for reference:
#   actor_rollout_ref.actor.profiler.tool=torch_memory \
