#!/usr/bin/env bash
# The one test command: builds (or reuses) one virtualenv per test environment, installs
# verl-compat into it the way a user does, and runs the pytest suite in each.
#
#   scripts/test.sh                      # every environment, whole suite
#   scripts/test.sh -k torch_memory      # extra arguments go to pytest
#   VERL_COMPAT_TEST_RELEASES=0.9.1 scripts/test.sh
#
# Environments live in .venvs/verl-<name> (git-ignored): see scripts/_envs.sh. One per supported
# verl release, and `omni`: verl 0.9.1 plus verl-omni 0.2.0 (tests/requirements/verl-omni.txt).
#
# What each environment runs (chosen by path, so that the suite runs each test once where that is
# all it needs; nothing is skipped):
# - `omni` runs the verl-omni tests only (tests/integration/test_omni*.py); no other environment
#   runs them.
# - The tests that do not depend on the installed verl (RELEASE_INDEPENDENT: `migrate` on text
#   files, the auto-load bootstrap, which builds its own small venvs with a fake verl, `view` on
#   synthetic snapshots, the config_keys engine) run in the last verl release of the list only
#   (0.9.1 by default).
# - The tests whose point is an old launch config on the newest release (NEWEST_TESTS: config_keys
#   through verl's real CLI and in a fit) run in the last verl release of the list only too.
# - The `view` page's browser test needs Debian's chromium: installed here (as root, with apt-get)
#   when that test is selected and chromium is missing.
# - Fit-heavy tests whose point is the two sides of verl #6198 (SIDES_TESTS: recipe-shaped
#   subclasses, the OOM snapshot, verl's own torch_memory example) run in 0.7.1 and 0.9.1 only
#   (SIDES_RELEASES): the last release with the legacy call and the newest.
# - Every other test runs in every verl release.
# Paths given on the command line replace this selection (in every environment listed).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_envs.sh

RELEASES=${VERL_COMPAT_TEST_RELEASES:-"0.6.1 0.7.1 0.8.0 0.9.1 omni"}
OMNI_TESTS=(tests/integration/test_omni_trainers.py tests/integration/test_omni_launch.py)
RELEASE_INDEPENDENT=(tests/unit/test_migrate.py tests/unit/test_migrate_properties.py tests/unit/test_bootstrap.py
    tests/unit/test_layers.py tests/unit/test_view.py tests/unit/test_view_browser.py tests/unit/test_config_keys.py)
NEWEST_TESTS=(tests/integration/test_config_keys_cli.py tests/integration/test_config_keys_migrate.py
    tests/integration/test_config_keys_fit.py)
BROWSER_TESTS=tests/unit/test_view_browser.py
SIDES_TESTS=(tests/integration/test_user_trainers.py tests/integration/test_oom_snapshot.py
    tests/integration/test_verl_example_configs.py)
SIDES_RELEASES=" 0.7.1 0.9.1 "

given_paths=false
for arg in "$@"; do
    [[ "$arg" != -* && -e "${arg%%::*}" ]] && given_paths=true
done
last_release=$(printf '%s\n' $RELEASES | grep -v '^omni$' | tail -n1 || true)

# Chromium for the browser test, when it will run and is missing.
ensure_chromium() {
    command -v chromium >/dev/null && return 0
    if [ "$(id -u)" != 0 ]; then
        log "chromium is missing and this is not root: install it (apt-get install chromium) for $BROWSER_TESTS"
        return 0
    fi
    log "installing chromium (apt-get) for $BROWSER_TESTS"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } \
        >/tmp/verl-compat-chromium-install.log 2>&1; then
        log "installing chromium failed: see /tmp/verl-compat-chromium-install.log"
    fi
}
if $given_paths; then
    for arg in "$@"; do
        path=${arg%%::*} path=${path%/}
        if [[ "$arg" != -* && ("$BROWSER_TESTS" == "$path" || "$BROWSER_TESTS" == "$path"/*) ]]; then ensure_chromium; fi
    done
elif [ -n "$last_release" ]; then
    ensure_chromium
fi

status=0
for release in $RELEASES; do
    ensure_env "$release"
    selection=()
    if ! $given_paths; then
        if [ "$release" = omni ]; then
            selection=("${OMNI_TESTS[@]}")
        else
            selection=(tests --ignore-glob='*/test_omni*')
            if [ "$release" != "$last_release" ]; then
                for path in "${RELEASE_INDEPENDENT[@]}" "${NEWEST_TESTS[@]}"; do selection+=(--ignore="$path"); done
            fi
            if [[ "$SIDES_RELEASES" != *" $release "* ]]; then
                for path in "${SIDES_TESTS[@]}"; do selection+=(--ignore="$path"); done
            fi
        fi
    fi
    log "verl $release: pytest"
    # bin/pytest, not `python -m pytest`: the checkout must not shadow the installed package.
    VERL_COMPAT_TEST_RELEASE=$release ".venvs/verl-$release/bin/pytest" "${selection[@]}" "$@" || status=$?
done
exit $status
