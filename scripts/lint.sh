#!/usr/bin/env bash
# The lint and type gate, run first by scripts/test.sh: `ruff check .`, `ruff format --check .` and
# `mypy` (the core modules of pyproject.toml's [tool.mypy] files), as configured in pyproject.toml.
# One line per tool; the output of a tool that fails is shown above its line; exits non-zero if any
# fails.
#
# The tools are pinned in tests/requirements/lint.txt and installed with uv into .venvs/lint
# (git-ignored), rebuilt only when that file changes: with the environment there, the gate takes
# seconds.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/_envs.sh

LINT_VENV=.venvs/lint

ensure_lint_env() {
    local want
    ensure_uv || return 1
    want=$(sha256sum < "$REQ/lint.txt" | cut -d' ' -f1)
    if [ "$(cat "$LINT_VENV/.requirements.sha256" 2>/dev/null)" != "$want" ]; then
        log "building $LINT_VENV"
        "$UV" venv -q --allow-existing -p "$PYTHON" "$LINT_VENV" || return 1
        "$UV" pip install -q --compile-bytecode -p "$LINT_VENV" -r "$REQ/lint.txt" || return 1
        echo "$want" > "$LINT_VENV/.requirements.sha256"
    fi
}

status=0

# run_tool NAME COMMAND...: one line, "NAME  ok|FAILED  seconds  the tool's own last line".
run_tool() {
    local name=$1 out rc start=$EPOCHREALTIME
    shift
    out=$("$@" 2>&1)
    rc=$?
    local seconds
    seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
    if [ $rc -ne 0 ]; then
        printf '%s\n' "$out"
        status=1
    fi
    printf '%-22s %-6s %5ss  %s\n' "$name" "$([ $rc -eq 0 ] && echo ok || echo FAILED)" "$seconds" \
        "$(printf '%s\n' "$out" | grep -v '^[[:space:]]*$' | tail -n1)"
}

if ! ensure_lint_env; then
    log "cannot build $LINT_VENV from $REQ/lint.txt"
    exit 1
fi
run_tool "ruff check ." "$LINT_VENV/bin/ruff" check .
run_tool "ruff format --check ." "$LINT_VENV/bin/ruff" format --check .
run_tool "mypy" "$LINT_VENV/bin/mypy"
exit $status
