#!/usr/bin/env bash
# The one test command: builds (or reuses) one virtualenv per supported verl release, installs
# verl-compat into it the way a user does, and runs the pytest suite in each.
#
#   scripts/test.sh                      # every release, whole suite
#   scripts/test.sh -k torch_memory      # extra arguments go to pytest
#   VERL_COMPAT_TEST_RELEASES=0.9.1 scripts/test.sh
#
# Environments live in .venvs/verl-<release> (git-ignored): see scripts/_envs.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_envs.sh

RELEASES=${VERL_COMPAT_TEST_RELEASES:-"0.6.1 0.7.1 0.8.0 0.9.1"}

status=0
for release in $RELEASES; do
    ensure_env "$release"
    log "verl $release: pytest"
    # bin/pytest, not `python -m pytest`: the checkout must not shadow the installed package.
    VERL_COMPAT_TEST_RELEASE=$release ".venvs/verl-$release/bin/pytest" "$@" || status=$?
done
exit $status
