# Sourced by scripts/test.sh and scripts/demo.sh: `ensure_env RELEASE` leaves .venvs/verl-RELEASE
# ready (real verl from PyPI, CPU torch, the test tools, and verl-compat installed as a user does).
#
# Environments are rebuilt only when their requirement files change. uv compiles bytecode at
# install time: this machine sets PYTHONDONTWRITEBYTECODE=1, and without .pyc every verl import
# (in every Ray actor too) costs ~25 s instead of ~8 s.

PYTHON=${VERL_COMPAT_TEST_PYTHON:-python3.11}
REQ=tests/requirements
UV=.venvs/_uv/bin/uv
FIND_LINKS=()
# The CPU torch wheel lies on local disk; without it uv resolves a multi-GB CUDA build.
[ -n "${PIP_FIND_LINKS:-}" ] && FIND_LINKS=(--find-links "$PIP_FIND_LINKS")

log() { printf '[%s %(%H:%M:%S)T] %s\n' "$(basename "$0")" -1 "$*"; }

ensure_uv() {
    if [ ! -x "$UV" ]; then
        log "bootstrapping uv into .venvs/_uv"
        "$PYTHON" -m venv .venvs/_uv
        .venvs/_uv/bin/python -m pip install -q uv
    fi
}

ensure_env() {
    local release=$1 venv=.venvs/verl-$1
    local files=("$REQ/verl-$release.txt" "$REQ/common.txt" "$REQ/constraints-$release.txt")
    local want
    ensure_uv
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
