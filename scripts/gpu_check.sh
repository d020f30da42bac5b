#!/usr/bin/env bash
# The GPU check, in one command, on a machine with a CUDA device: builds a CUDA-torch environment
# per verl release, runs the gpu-marked tests in it and prints one verdict line (last line):
#
#   GPU CHECK: PASS (verl 0.7.1: 2 passed; verl 0.9.1: 2 passed)
#   GPU CHECK: FAIL (verl 0.7.1: pytest exit 1 ...)     exit 1
#   GPU CHECK: NO GPU (...)                              exit 2: nothing was run
#
#   scripts/gpu_check.sh                          # verl 0.7.1 and 0.9.1
#   GPU_CHECK_RELEASES=0.9.1 scripts/gpu_check.sh
#   scripts/gpu_check.sh -k oom                   # extra arguments go to pytest
#
# The gpu tests also put the real run's snapshots through `verl-compat view` (its numbers checked
# against each snapshot's own trace, the OOM shown first); the pages are left in
# test-artefacts/view/gpu/ to open in a browser.
#
# The environments (.venvs/gpu-verl-<release>) take torch from the package index uv is given
# (PyPI's torch wheels for Linux are CUDA builds), never the CPU wheel the CPU suite uses
# (PIP_FIND_LINKS is ignored here). A machine without a route to an index can point uv at a local
# wheelhouse: GPU_CHECK_FIND_LINKS=/path/to/wheels (with UV_OFFLINE=1).
set -uo pipefail
cd "$(dirname "$0")/.."

RELEASES=${GPU_CHECK_RELEASES:-"0.7.1 0.9.1"}
PYTHON=${VERL_COMPAT_TEST_PYTHON:-python3.11}
REQ=tests/requirements
UV=.venvs/_uv/bin/uv
LOG_DIR=${GPU_CHECK_LOG_DIR:-.venvs/gpu-check-logs}
FIND_LINKS=()
[ -n "${GPU_CHECK_FIND_LINKS:-}" ] && FIND_LINKS=(--find-links "$GPU_CHECK_FIND_LINKS")

verdict() { echo "GPU CHECK: $1"; exit "$2"; }
log() { printf '[gpu_check %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    verdict "NO GPU (nvidia-smi finds no device on $(hostname))" 2
fi
mkdir -p "$LOG_DIR"
if [ ! -x "$UV" ]; then
    "$PYTHON" -m venv .venvs/_uv && .venvs/_uv/bin/python -m pip install -q uv \
        || verdict "FAIL (cannot bootstrap uv into .venvs/_uv)" 1
fi

# Ray must not hide the device from actors that ask for no GPU (the harness's pools are CPU pools).
export RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES=1
unset PIP_FIND_LINKS

results=() failed=0
for release in $RELEASES; do
    venv=.venvs/gpu-verl-$release log_file=$LOG_DIR/verl-$release.log
    log "verl $release: building $venv (log: $log_file)"
    if ! { "$UV" venv -q --allow-existing -p "$PYTHON" "$venv" \
        && "$UV" pip install -q --compile-bytecode -p "$venv" "${FIND_LINKS[@]}" \
            -r "$REQ/verl-$release.txt" -r "$REQ/common.txt" -c "$REQ/constraints-$release.txt" \
        && "$UV" pip install -q --compile-bytecode -p "$venv" --reinstall-package verl-compat --no-deps . ; } \
        >"$log_file" 2>&1; then
        results+=("verl $release: environment build failed, see $log_file") failed=1
        continue
    fi
    if ! "$venv/bin/python" -c 'import sys, torch; sys.exit(not torch.cuda.is_available())' >>"$log_file" 2>&1; then
        results+=("verl $release: torch in $venv has no CUDA ($("$venv/bin/python" -c 'import torch; print(torch.__version__)' 2>&1))")
        failed=1
        continue
    fi
    log "verl $release: pytest -m gpu"
    VERL_COMPAT_TEST_ENV=$release "$venv/bin/pytest" -m gpu tests/gpu "$@" 2>&1 | tee -a "$log_file" >&2
    status=${PIPESTATUS[0]}
    summary=$(grep -E '^=+ .* in [0-9.]+s' "$log_file" | tail -n 1 | sed -E 's/^=+ (.*) in [0-9.]+s.*/\1/')
    if [ "$status" -ne 0 ] || ! grep -q ' passed' <<<"$summary" || grep -Eq 'skipped|failed|error' <<<"$summary"; then
        results+=("verl $release: pytest exit $status ($summary)") failed=1
    else
        results+=("verl $release: $summary")
    fi
done

ls test-artefacts/view/gpu/*.html >/dev/null 2>&1 && log "verl-compat view pages of the real snapshots: test-artefacts/view/gpu/"
joined=$(printf '%s; ' "${results[@]}")
[ "$failed" -eq 0 ] && verdict "PASS (${joined%; })" 0
verdict "FAIL (${joined%; })" 1
