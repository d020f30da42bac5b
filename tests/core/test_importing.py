"""The core's import plumbing (``verl_compat.importing``) on a fix of its own, the import stand-in
fix (tests/support/import_standin_fix.py: old paths of a made-up ``standin_old`` package), registered
with one line and activated as every fix is: old_imports is one user of the plumbing, not its test.

The checks that read CPython's frames and opcodes run as a script
(tests/support/import_hook_check.py), here on the suite's Python and in ``scripts/test.sh`` on
Python 3.10 and 3.13 (``core-py`` environments: the package alone, no wrapt, no verl)."""

import importlib
import importlib.util
import logging
import sys

import paths
import pytest
from pyrun import run_argv

import verl_compat
from verl_compat import importing, patching, registry

pytestmark = pytest.mark.once

STANDIN = "import_standin_fix"
PACKAGES = str(paths.SUPPORT / "import_standin")


@pytest.fixture
def standin(monkeypatch):
    """The stand-in fix registered next to the real ones (one line), verl-compat active."""
    import import_standin_fix

    verl_compat.deactivate()
    monkeypatch.syspath_prepend(PACKAGES)
    monkeypatch.setattr(registry, "FIX_MODULES", (*registry.FIX_MODULES, STANDIN))
    verl_compat.activate()
    yield import_standin_fix
    verl_compat.deactivate()


def test_the_frame_and_opcode_checks_pass_on_this_python():
    result = run_argv([paths.SUPPORT / "import_hook_check.py"], env={"VERL_COMPAT_DISABLE": "1"})
    assert result.stdout.splitlines()[-1].endswith(": 9 of 9 checks passed")


def test_a_moved_path_is_the_same_object_and_status_lists_it(standin):
    import standin_new.sub
    import standin_old.moved

    assert standin_old.moved is standin_new.sub
    from standin_new import OLD_VALUE, VALUE

    assert OLD_VALUE == VALUE
    imports = verl_compat.status()["imports"]
    assert imports["finder"] is True
    assert "standin_new" in imports["module_getattr"]
    assert imports["stand_ins"]["standin_old.moved"] == "moved to standin_new.sub"
    assert imports["stand_ins"]["standin_old"] == "stub"


def test_a_path_that_exists_is_never_asked_of_the_fix(standin, monkeypatch):
    asked = []
    monkeypatch.setattr(standin, "resolve_module", lambda fullname: asked.append(fullname))
    import standin_new.sub  # noqa: F401

    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("elsewhere_entirely")  # outside IMPORT_PACKAGES: a prefix check
    assert asked == []


def test_a_probe_sees_what_is_installed(standin):
    assert importlib.util.find_spec("standin_old.pkg") is None
    import standin_old.pkg  # noqa: F401

    assert sys.modules["standin_old.pkg"] is importlib.import_module("standin_new")


@pytest.mark.shim_errors("import_standin:resolve_module")
def test_a_fault_in_the_fix_fails_the_import_as_without_verl_compat_logged_once(standin, monkeypatch, caplog):
    monkeypatch.setitem(standin.FAIL, "resolve_module", True)
    with caplog.at_level(logging.ERROR, logger="verl_compat"):
        for _ in range(2):
            with pytest.raises(ModuleNotFoundError, match="No module named 'standin_old'"):
                importlib.import_module("standin_old.moved")
    assert [r.getMessage() for r in caplog.records].count(
        "verl-compat: fix 'import_standin' failed in resolve_module; the run continues without it there "
        "(set VERL_COMPAT_DISABLED_FIXES=import_standin to turn it off)"
    ) == 1


def test_disabled_by_name_the_old_paths_fail(standin, monkeypatch):
    verl_compat.deactivate()
    monkeypatch.setenv("VERL_COMPAT_DISABLED_FIXES", "import_standin")
    verl_compat.activate()
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("standin_old.moved")


def test_deactivate_puts_back_the_modules_own_getattr_and_removes_the_stand_ins(standin):
    import standin_new
    from standin_old import moved_name  # noqa: F401

    assert vars(standin_new)["__getattr__"].__module__ == "verl_compat.importing"  # chained before it
    verl_compat.deactivate()

    assert vars(standin_new)["__getattr__"].__module__ == "standin_new"
    assert not [name for name in sys.modules if name.startswith("standin_old")]
    assert importing.status() == {"finder": False, "module_getattr": [], "stand_ins": {}}
    assert patching.is_active() is False
    with pytest.raises(AttributeError):
        standin_new.OLD_VALUE  # noqa: B018
