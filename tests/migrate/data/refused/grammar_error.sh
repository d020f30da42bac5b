#!/usr/bin/env bash
# tree-sitter-bash cannot read a default value holding [ (bash can): no guessing what the launch gets.
python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.profiler.tool=torch_memory data.train_files=${TRAIN_FILES:-["/data/train.parquet"]} trainer.total_training_steps=2
# expected: 3: in a part bash's grammar cannot read
