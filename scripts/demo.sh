#!/usr/bin/env bash
# The main job: old verl setups on new verl, first without verl-compat, then with it.
#
# 1. A verl training run with the legacy config `actor_rollout_ref.actor.profiler.tool=torch_memory`
#    on 0.7.1 and 0.9.1: the crash on verl 0.7.x, the silence on 0.9.x; then the warning and one
#    snapshot folder per step (examples/legacy_config_demo.py).
# 2. On the newest release: a launch from verl's own v0.7.1 examples through verl's real CLI, old
#    Python imports, and the memory page of a synthetic run (examples/old_setup_demo.py).
#
#   scripts/demo.sh                               # verl 0.7.1 and 0.9.1
#   VERL_COMPAT_TEST_RELEASES=0.9.1 scripts/demo.sh
#
# Real verl RayPPOTrainer.fit() on a real local Ray cluster; only the GPU-bound workers are CPU
# stand-ins (tests/support). Uses the same cached environments as scripts/test.sh. The console
# shows the demo's own lines; verl's and Ray's output goes to the log file each release names.
# README.md shows this output (scripts/update_docs.py writes it; tests/docs/test_docs.py checks it).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_envs.sh

releases=${VERL_COMPAT_TEST_RELEASES:-0.7.1 0.9.1}
for release in $releases; do
    ensure_env "$release"
    PYTHONPATH=tests/support ".venvs/verl-$release/bin/python" examples/legacy_config_demo.py
done
newest=$(printf '%s\n' $releases | tail -n1)
".venvs/verl-$newest/bin/python" examples/old_setup_demo.py
