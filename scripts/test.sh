#!/usr/bin/env bash
# The one test command: builds (or reuses) one virtualenv per supported verl release, installs
# verl-compat into it the way a user does, and runs the pytest suite in each.
#
#   scripts/test.sh                      # every release, whole suite
#   scripts/test.sh -k torch_memory      # extra arguments go to pytest
#   VERL_COMPAT_TEST_RELEASES=0.9.1 scripts/test.sh
#
# Environments live in .venvs/verl-<release> (git-ignored) and are rebuilt only when their
# requirement files change. uv compiles bytecode at install time: this machine sets
# PYTHONDONTWRITEBYTECODE=1, and without .pyc every verl import (in every Ray actor) costs ~25 s.
set -euo pipefail
cd "$(dirname "$0")/.."

RELEASES=${VERL_COMPAT_TEST_RELEASES:-"0.7.1 0.9.1"}
PYTHON=${VERL_COMPAT_TEST_PYTHON:-python3.11}
REQ=tests/requirements
UV=.venvs/_uv/bin/uv
FIND_LINKS=()
# The CPU torch wheel lies on local disk; without it uv resolves a multi-GB CUDA build.
[ -n "${PIP_FIND_LINKS:-}" ] && FIND_LINKS=(--find-links "$PIP_FIND_LINKS")

log() { printf '[test.sh %(%H:%M:%S)T] %s\n' -1 "$*"; }

if [ ! -x "$UV" ]; then
    log "bootstrapping uv into .venvs/_uv"
    "$PYTHON" -m venv .venvs/_uv
    .venvs/_uv/bin/python -m pip install -q uv
fi

ensure_env() {  # $1 = release; prints nothing, leaves .venvs/verl-$1 ready
    local release=$1 venv=.venvs/verl-$1
    local files=("$REQ/verl-$release.txt" "$REQ/common.txt" "$REQ/constraints-$release.txt")
    local want
    want=$(cat "${files[@]}" | sha256sum | cut -d' ' -f1)
    if [ "$(cat "$venv/.requirements.sha256" 2>/dev/null)" != "$want" ]; then
        log "building $venv"
        "$UV" venv -q --allow-existing -p "$PYTHON" "$venv"
        "$UV" pip install -q --compile-bytecode -p "$venv" "${FIND_LINKS[@]}" \
            -r "$REQ/verl-$release.txt" -r "$REQ/common.txt" -c "$REQ/constraints-$release.txt"
        echo "$want" > "$venv/.requirements.sha256"
    fi
    # The project itself, as a user installs it (a built wheel, not an editable path).
    "$UV" pip install -q --compile-bytecode -p "$venv" --reinstall-package verl-compat --no-deps .
}

status=0
for release in $RELEASES; do
    ensure_env "$release"
    log "verl $release: pytest"
    # bin/pytest, not `python -m pytest`: the checkout must not shadow the installed package.
    VERL_COMPAT_TEST_RELEASE=$release ".venvs/verl-$release/bin/pytest" "$@" || status=$?
done
exit $status
