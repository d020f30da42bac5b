"""The core's import plumbing (``verl_compat.importing``) on the Python running this script, through
the import stand-in fix (import_standin_fix.py): the parts that read CPython's frames and opcodes
(whether the finder is asked by an import or by a probe; whether a missing name is asked by
``from module import name``; ``python -m`` of an old path) and the rest, then a full revert.

Standard library only, like the plumbing: ``scripts/test.sh`` runs it on every Python the package
supports besides the suite's (a virtualenv each with verl-compat alone, ``core-py<version>`` in
scripts/_envs.sh), and tests/core/test_importing.py on the suite's. Prints one line per check and
exits 1 if any fails.

    python tests/support/import_hook_check.py
"""

import importlib
import importlib.util
import os
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

SUPPORT = Path(__file__).resolve().parent
PACKAGES = SUPPORT / "import_standin"
sys.path[:0] = [str(SUPPORT), str(PACKAGES)]

import import_standin_fix as fix  # noqa: E402

from verl_compat import importing  # noqa: E402

CHECKS = []


def check(function):
    CHECKS.append(function)
    return function


def _raises(kind, statement: str) -> BaseException:
    try:
        exec(statement, {})
    except kind as exc:
        return exc
    raise AssertionError(f"{statement!r} raised nothing")


@check
def an_import_of_a_moved_module_gives_the_new_module():
    import standin_new.sub
    import standin_old.moved  # noqa: F401

    assert sys.modules["standin_old.moved"] is standin_new.sub
    assert importlib.import_module("standin_old.moved") is standin_new.sub


@check
def a_probe_is_not_answered_only_an_import_is():
    """find_spec outside an import: the finder reads the caller's frame to tell (_in_import)."""
    assert importlib.util.find_spec("standin_old.pkg") is None
    assert "standin_old.pkg" not in sys.modules


@check
def a_moved_package_brings_its_submodules():
    import standin_new
    import standin_new.sub
    import standin_old.pkg.sub  # noqa: F401

    assert sys.modules["standin_old.pkg"] is standin_new
    assert sys.modules["standin_old.pkg.sub"] is standin_new.sub


@check
def a_removed_module_raises_the_fixs_error():
    error = _raises(ModuleNotFoundError, "import standin_old.gone")
    assert str(error) == fix.GONE_MODULE, error


@check
def a_moved_name_and_the_modules_own_getattr_first():
    from standin_new import OLD_VALUE, OWN_LAZY, VALUE
    from standin_old import moved_name  # a stub's missing name

    assert OLD_VALUE == VALUE == moved_name
    assert OWN_LAZY == "served by the package's own __getattr__"


@check
def from_import_of_a_removed_name_raises_the_fixs_import_error():
    """The module __getattr__ reads the caller's instruction (IMPORT_FROM) to raise ImportError."""
    error = _raises(ImportError, "from standin_new import gone")
    assert type(error) is ImportError and str(error) == fix.GONE_NAME, repr(error)


@check
def attribute_access_of_a_removed_name_is_an_attribute_error():
    import standin_new

    assert getattr(standin_new, "gone", None) is None and not hasattr(standin_new, "gone")
    error = _raises(AttributeError, "import standin_new; standin_new.gone")
    assert str(error) == fix.GONE_NAME, repr(error)


@check
def python_m_of_an_old_path_runs_its_main():
    """runpy locates the module while sys.argv[0] is "-m" and sys.orig_argv names it (_launched)."""
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "sitecustomize.py").write_text(
            "import import_standin_fix\nfrom verl_compat import importing\nimporting.install([import_standin_fix])\n"
        )
        paths = [folder, str(SUPPORT), str(PACKAGES), os.environ.get("PYTHONPATH", "")]
        result = subprocess.run(
            [sys.executable, "-m", "standin_old.entry"],
            capture_output=True,
            text=True,
            timeout=300,  # a fresh interpreter, seconds; minutes on a loaded machine
            env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, paths)), "VERL_COMPAT_DISABLE": "1"},
        )
    assert result.returncode == 0 and result.stdout == "main of standin_new.sub\n", result


@check
def uninstall_puts_everything_back():
    import standin_new

    importing.uninstall()
    assert not [name for name in sys.modules if name.startswith("standin_old")]
    assert importing.status() == {"finder": False, "module_getattr": [], "stand_ins": {}}
    assert standin_new.__getattr__("OWN_LAZY") and "OLD_VALUE" not in dir(standin_new)
    _raises(AttributeError, "import standin_new; standin_new.OLD_VALUE")
    _raises(ModuleNotFoundError, "import standin_old.moved")


def main() -> int:
    importing.install([fix])
    import standin_new

    importing.serve(standin_new)  # what the core's post-import hook does for a NAME_TARGETS module
    failed = 0
    for function in CHECKS:
        try:
            function()
        except Exception:  # noqa: PERF203 (one line per failed check, and the others still run)
            failed += 1
            print(f"FAILED {function.__name__}\n{traceback.format_exc()}")
        else:
            print(f"ok     {function.__name__}")
    version = ".".join(map(str, sys.version_info[:3]))
    print(f"import hook on Python {version}: {len(CHECKS) - failed} of {len(CHECKS)} checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
