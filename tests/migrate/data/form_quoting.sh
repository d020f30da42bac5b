#!/usr/bin/env bash
# Every quoting style bash has, on the keys migrate reads: '…', "…", $'…', $"…" and backslashes.
python3 -m verl.trainer.main_ppo \
    'actor_rollout_ref.actor.profiler.tool=torch_memory' \
    actor_rollout_ref.actor.profiler.save_path="/scratch/it's mine" \
    $'trainer.total_training_steps=\x33' \
    $"trainer.project_name=quoted" \
    actor_rollout_ref.actor.profiler.ranks=\[0,1\] \
    data.train_files="$HOME/data/train.parquet"
