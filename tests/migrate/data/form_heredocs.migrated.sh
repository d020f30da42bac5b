#!/usr/bin/env bash
# Here-documents of every kind before the launch: their bodies are text, not words, whatever
# quotes and parentheses they hold.
cat <<EOF
Snapshots land in $HOME/mem (don't forget to clean it up
EOF
cat <<'EOF'
It's "quoted": $(nothing) runs here ( either
EOF
	cat <<-EOF
	Tabs are stripped; the terminator is indented too: it's fine
	EOF
python3 - <<'PY'
print("a Python helper: it's not a launch (")
PY

python3 -m verl.trainer.main_ppo \
    global_profiler.tool=torch_memory \
    global_profiler.steps=[1,2] \
    actor_rollout_ref.actor.profiler.enable=True \
    actor_rollout_ref.actor.profiler.all_ranks=True \
    trainer.total_training_steps=2
