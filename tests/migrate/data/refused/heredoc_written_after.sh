#!/usr/bin/env bash
# The redirection after the here-document's start: its body becomes job.sh, a launch of its own.
cat <<EOF > job.sh
python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=2
EOF
sbatch job.sh
# expected: 4: in a here-document
