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

# The `omni` environment: verl 0.9.1 plus verl-omni, which is not on PyPI (a source snapshot lies in
# ../shared/third_party, beside the clone), and the stand-ins for the GPU-only modules its package
# imports (tests/support/omni_standin; tests/requirements/verl-omni.txt says why).
OMNI_SOURCE=../shared/third_party/verl-omni-v0.2.0.tar.gz
OMNI_STANDIN=tests/support/omni_standin

ensure_env() {
    local release=$1 venv=.venvs/verl-$1
    local files=("$REQ/verl-$release.txt" "$REQ/common.txt" "$REQ/constraints-$release.txt")
    local want
    ensure_uv
    [ "$release" = omni ] && files+=("$OMNI_SOURCE")
    want=$(cat "${files[@]}" | sha256sum | cut -d' ' -f1)
    if [ "$(cat "$venv/.requirements.sha256" 2>/dev/null)" != "$want" ]; then
        log "building $venv"
        "$UV" venv -q --allow-existing -p "$PYTHON" "$venv"
        "$UV" pip install -q --compile-bytecode -p "$venv" "${FIND_LINKS[@]}" \
            -r "$REQ/verl-$release.txt" -r "$REQ/common.txt" -c "$REQ/constraints-$release.txt"
        if [ "$release" = omni ]; then
            # From the unpacked tree: its version file says 0.2.0rc1, which uv refuses to build
            # under the file name's 0.2.0.
            local unpacked
            unpacked=$(mktemp -d)
            tar -xzf "$OMNI_SOURCE" -C "$unpacked"
            "$UV" pip install -q --compile-bytecode -p "$venv" --no-deps "$unpacked"/*/
            rm -rf "$unpacked"
        fi
        echo "$want" > "$venv/.requirements.sha256"
    fi
    # The project itself, as a user installs it (a built wheel, not an editable path).
    "$UV" pip install -q --compile-bytecode -p "$venv" --reinstall-package verl-compat --no-deps .
    if [ "$release" = omni ]; then
        # On the path of every process of this environment (Ray workers too), from this checkout.
        local site
        site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
        printf '%s\nimport _omni_standin\n' "$(realpath "$OMNI_STANDIN")" > "$site/_verl_compat_omni_standin.pth"
    fi
}

# The stdlib-only core on the other Pythons the package supports (pyproject.toml: >= 3.10): the
# import plumbing (verl_compat/importing.py) reads CPython's frames and opcodes, which change
# between versions, while the release environments all run one Python. `ensure_core_py VERSION`
# leaves .venvs/core-py<VERSION> ready: that Python with verl-compat alone (--no-deps: no wrapt, no
# verl), which tests/support/import_hook_check.py runs on (scripts/test.sh).
CORE_PYTHONS=${VERL_COMPAT_CORE_PYTHONS:-"3.10 3.13"}

# core_python VERSION: that interpreter, from pyenv's versions (its shims refuse a version that is
# not selected) or the PATH.
core_python() {
    local found
    for found in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$1".*/bin/python; do
        [ -x "$found" ] && { echo "$found"; return 0; }
    done
    command -v "python$1"
}

ensure_core_py() {
    local version=$1 venv=.venvs/core-py$1 python
    ensure_uv
    if [ ! -x "$venv/bin/python" ]; then
        python=$(core_python "$version") || { log "no Python $version found (pyenv or python$version)"; return 1; }
        "$UV" venv -q -p "$python" "$venv" || return 1
    fi
    "$UV" pip install -q --compile-bytecode -p "$venv" --reinstall-package verl-compat --no-deps . || return 1
}
