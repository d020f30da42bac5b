#!/usr/bin/env bash
# The one test command: the lint and type gate, then one virtualenv per test environment (built or
# reused), verl-compat installed into each the way a user does, and the pytest suite in each.
#
#   scripts/test.sh                      # the gate, then every environment, whole suite
#   scripts/test.sh -k torch_memory      # extra arguments go to pytest
#   VERL_COMPAT_TEST_RELEASES=0.9.1 scripts/test.sh
#   VERL_COMPAT_TEST_WORKERS=1 scripts/test.sh     # no parallel workers (default: one per core)
#
# After the gate, the stdlib-only import plumbing runs on Python 3.10 and 3.13 too
# (VERL_COMPAT_CORE_PYTHONS; .venvs/core-py<version>, verl-compat alone: scripts/_envs.sh).
#
# Environments live in .venvs/verl-<name> (git-ignored): see scripts/_envs.sh. One per supported
# verl release, and `omni`: verl 0.9.1 plus verl-omni 0.2.0 (tests/requirements/verl-omni.txt).
# Which test runs in which environment is declared by markers in the test files (tests/conftest.py
# reads them): this script only says which environment is running and which release is the newest.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_envs.sh

RELEASES=${VERL_COMPAT_TEST_RELEASES:-"0.6.1 0.7.1 0.8.0 0.9.1 omni"}
newest=$(printf '%s\n' $RELEASES | grep -v '^omni$' | tail -n1 || true)
# pytest-xdist workers: one per core. Each has its own Ray cluster; the tests of a file that shares
# a fixture run in one worker (--dist loadscope, scheduled by tests/conftest.py).
WORKERS=${VERL_COMPAT_TEST_WORKERS:-$(nproc)}
parallel=()
[ "$WORKERS" -gt 1 ] && parallel=(-n "$WORKERS" --dist loadscope)

# Chromium for the browser test (tests/browser), which runs in the newest release.
ensure_chromium() {
    command -v chromium >/dev/null && return 0
    if [ "$(id -u)" != 0 ]; then
        log "chromium is missing and this is not root: install it (apt-get install chromium) for tests/browser"
        return 0
    fi
    log "installing chromium (apt-get) for tests/browser"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } \
        >/tmp/verl-compat-chromium-install.log 2>&1; then
        log "installing chromium failed: see /tmp/verl-compat-chromium-install.log"
    fi
}

started=$SECONDS
times=()
status=0
gate_start=$SECONDS
scripts/lint.sh || status=$?
times+=("$(printf '%-8s %5ss' gate $((SECONDS - gate_start)))")
# The import plumbing on the other supported Pythons (scripts/_envs.sh, core-py): one line each.
core_start=$SECONDS
for version in $CORE_PYTHONS; do
    if ! ensure_core_py "$version"; then
        log "core-py$version: cannot build .venvs/core-py$version"
        status=1
        continue
    fi
    if out=$(VERL_COMPAT_DISABLE=1 ".venvs/core-py$version/bin/python" tests/support/import_hook_check.py 2>&1); then
        log "core-py$version: $(printf '%s\n' "$out" | tail -n1)"
    else
        printf '%s\n' "$out"
        status=1
    fi
done
times+=("$(printf '%-8s %5ss' core-py $((SECONDS - core_start)))")
[ -n "$newest" ] && ensure_chromium
for release in $RELEASES; do
    build_start=$SECONDS
    ensure_env "$release"
    test_start=$SECONDS
    log "verl $release: pytest"
    # bin/pytest, not `python -m pytest`: the checkout must not shadow the installed package.
    VERL_COMPAT_TEST_ENV=$release VERL_COMPAT_TEST_NEWEST=$newest \
        ".venvs/verl-$release/bin/pytest" "${parallel[@]}" "$@" || status=$?
    times+=("$(printf '%-8s build %4ss  tests %5ss' "$release" $((test_start - build_start)) $((SECONDS - test_start)))")
done
log "times:"
printf '    %s\n' "${times[@]}" "$(printf 'total    %5ss' $((SECONDS - started)))"
exit $status
