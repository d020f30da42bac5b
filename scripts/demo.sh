#!/usr/bin/env bash
# The main job: a verl training run with the legacy config `actor_rollout_ref.actor.profiler.tool=
# torch_memory`, on every supported release, first without verl-compat (the crash on verl 0.7.x,
# the silence on 0.9.x), then with it (the warning and one snapshot folder per step).
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

for release in ${VERL_COMPAT_TEST_RELEASES:-0.7.1 0.9.1}; do
    ensure_env "$release"
    PYTHONPATH=tests/support ".venvs/verl-$release/bin/python" examples/legacy_config_demo.py
done
