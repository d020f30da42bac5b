#!/usr/bin/env bash
# cat prints the here-document into bash, which runs it.
cat <<'EOF' | bash
python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=2
EOF
# expected: 4: in a here-document
