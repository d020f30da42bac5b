"""Every registered fix against the contract of ``verl_compat.patching.Fix`` (ddtrace's
PatchTestCase pattern): the same checks for each fix, and for a fix that exists only in the test
suite (``throwaway_fix``), registered with one line and touching no file of ``verl_compat``."""

import importlib
import json
import logging
import os
import sys

import pytest
import wrapt
from pyrun import run_python

import verl_compat
from verl_compat import patching

SUPPORT = os.path.join(os.path.dirname(__file__), os.pardir, "support")
THROWAWAY = "throwaway_fix"
FIXES = [*patching.FIX_MODULES, THROWAWAY]


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


@pytest.fixture(params=FIXES, ids=lambda name: name.rpartition(".")[2])
def fix(request, monkeypatch):
    """The fix under test, registered (the throwaway one with one line, as a contributor would)."""
    verl_compat.deactivate()
    if request.param not in patching.FIX_MODULES:
        monkeypatch.setattr(patching, "FIX_MODULES", (*patching.FIX_MODULES, request.param))
    module = importlib.import_module(request.param)
    for name in patching.targets(module):
        _importable(name)
    yield module
    verl_compat.deactivate()


def _patched(fix) -> list:
    return verl_compat.status()["fixes"][fix.NAME]["patched"]


def _resolve(target: str):
    """``"module:Class.method"`` -> (owner, attribute); None for a class defined in a function."""
    module, path = target.split(":", 1)
    owner_path, _, attribute = path.rpartition(".")
    owner = importlib.import_module(module)
    for part in owner_path.split(".") if owner_path else ():
        owner = getattr(owner, part, None)
    return (owner, attribute) if owner is not None else None


def test_fits_the_contract(fix):
    assert isinstance(fix, patching.Fix)
    assert isinstance(fix.NAME, str) and isinstance(fix.TARGETS, tuple)
    for optional in ("on_trainer_init", "after_step", "prepare_config", "describe", "state", "reset"):
        assert getattr(fix, optional, None) is None or callable(getattr(fix, optional))


def test_patches_returns_a_plan_and_has_no_side_effects(fix, caplog):
    modules = [importlib.import_module(name) for name in fix.TARGETS if _importable(name)]
    before = verl_compat.status()
    with caplog.at_level(logging.DEBUG, logger="verl_compat"):
        plans = [fix.patches(module) for module in modules] + [fix.patches(module) for module in modules]
    assert all(isinstance(plan, patching.Plan) for plan in plans)
    assert plans[: len(modules)] == plans[len(modules) :], "the same module gets the same plan"
    assert verl_compat.status() == before
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO] == []


def _current(target: str):
    owner, attribute = _resolve(target)
    return vars(owner)[attribute] if isinstance(owner, type) else getattr(owner, attribute)


def test_activate_twice_wraps_once_and_deactivate_restores_identity(fix):
    verl_compat.activate()
    targets = [target for target in _patched(fix) if _resolve(target)]
    assert targets, f"{fix.NAME} patches nothing in this verl"
    verl_compat.deactivate()
    originals = {target: _current(target) for target in targets}

    verl_compat.activate()
    verl_compat.activate()
    for name in patching.targets(fix):  # the post-import hooks fire again (a reload, a second hook)
        if name in sys.modules:
            wrapt.notify_module_loaded(sys.modules[name])
    assert _patched(fix) == sorted(targets)
    for target in targets:
        chain = list(wrapt.wrapper_chain(_current(target)))
        ours = [entry for entry in chain if getattr(patching.wrapped_by(entry, fix.NAME), "handle", None) is entry]
        assert len(ours) == 1, f"{target} is wrapped {len(ours)} times by {fix.NAME}: {chain}"
        assert originals[target] in chain

    verl_compat.deactivate()
    for target, original in originals.items():
        assert _current(target) is original, f"{target} did not come back by identity"
    assert verl_compat.status()["fixes"][fix.NAME]["patched"] == []


ORDER = """
import importlib, json, os, sys
import verl_compat
from verl_compat import patching
fix_name, order = sys.argv[1:3]
if fix_name not in patching.FIX_MODULES:
    patching.FIX_MODULES = (*patching.FIX_MODULES, fix_name)
fix = importlib.import_module(fix_name)
del os.environ["VERL_COMPAT_DISABLE"]  # set for the interpreter start: no auto-load before this

def import_targets():
    for name in patching.targets(fix):
        try:
            importlib.import_module(name)
        except ImportError:
            pass

if order == "before":
    verl_compat.activate()
    import_targets()
else:
    import_targets()
    verl_compat.activate()
print(json.dumps(verl_compat.status()["fixes"][fix.NAME]["patched"]))
"""


def _in_fresh_process(code: str, fix_name: str, *args: str, **env) -> list:
    env = {"VERL_COMPAT_DISABLE": "1", "PYTHONPATH": os.pathsep.join(filter(None, [os.path.abspath(SUPPORT), os.environ.get("PYTHONPATH")])), **env}
    return json.loads(run_python(code, fix_name, *args, env=env).stdout.strip().splitlines()[-1])


def test_import_order_does_not_matter(fix):
    before = _in_fresh_process(ORDER, fix.__name__, "before")
    after = _in_fresh_process(ORDER, fix.__name__, "after")
    assert before == after and before


FAULT = """
import importlib, json, logging, os, sys
records = []
handler = logging.Handler()
handler.emit = records.append
logging.getLogger("verl_compat").addHandler(handler)
import verl_compat
from verl_compat import patching, trainers
fix_name = sys.argv[1]
if fix_name not in patching.FIX_MODULES:
    patching.FIX_MODULES = (*patching.FIX_MODULES, fix_name)
fix = importlib.import_module(fix_name)

def broken(*args):
    raise RuntimeError("injected fault in the patch plan")
fix.patches = broken
trainers.plans = broken
del os.environ["VERL_COMPAT_DISABLE"]
verl_compat.activate()
imported = []
for name in patching.targets(fix):
    try:
        importlib.import_module(name)
        imported.append(name)
    except ImportError:
        pass
status = verl_compat.status()["fixes"][fix.NAME]
errors = [r.getMessage() for r in records if r.levelno >= logging.ERROR]
print(json.dumps({"imported": imported, "patched": status["patched"], "errors": status["errors"], "log": errors}))
"""


def test_a_fault_in_planning_is_logged_once_per_module_and_never_breaks_the_import(fix):
    out = _in_fresh_process(FAULT, fix.__name__)
    assert out["imported"], "the targets import as released"
    assert out["patched"] == []
    assert out["errors"] == {f"patching {name}": 1 for name in out["imported"]}
    ours = [line for line in out["log"] if f"fix '{fix.NAME}' failed in patching" in line]
    assert len(ours) == len(out["imported"])


def test_disabled_by_name_patches_nothing(fix):
    code = ORDER.replace('print(json.dumps(verl_compat.status()["fixes"][fix.NAME]["patched"]))',
                         'print(json.dumps(sorted(verl_compat.status()["fixes"])))')
    names = _in_fresh_process(code, fix.__name__, "before", VERL_COMPAT_DISABLED_FIXES=fix.NAME)
    assert fix.NAME not in names


def test_doctor_reports_the_fix(fix):
    from verl_compat import doctor

    verl_compat.activate()
    report = doctor.collect(None)
    state = report["status"]["fixes"][fix.NAME]
    assert state["patched"] == _patched(fix)
    text = doctor.render(report)
    assert any(line.strip().startswith(fix.NAME) for line in text.splitlines())


def test_the_throwaway_fix_gets_the_trainer_hooks_in_a_real_fit(tmp_path, monkeypatch, caplog):
    """Registered with one line, it is reached in verl's real fit(): its own patch on a verl method,
    the core's per-trainer hooks, and the core's fail-open guard for its wrapper."""
    from expectations import LEGACY, STEPS
    from harness import compose_config, run_fit

    import throwaway_fix

    verl_compat.deactivate()
    monkeypatch.setattr(patching, "FIX_MODULES", (*patching.FIX_MODULES, THROWAWAY))
    monkeypatch.setitem(throwaway_fix.FAIL, "wrapper", True)
    try:
        assert verl_compat.activate()
        with caplog.at_level(logging.ERROR, logger="verl_compat"):
            result = run_fit(compose_config(LEGACY, tmp_path), actor="engine")
        result.raise_error()
        assert throwaway_fix.calls == {"start_profiling": STEPS, "init": 1, "step": STEPS}
        failures = [r.getMessage() for r in caplog.records if "'throwaway' failed in _start_profiling" in r.getMessage()]
        assert len(failures) == 1
        assert verl_compat.status()["fixes"]["throwaway"]["errors"] == {"_start_profiling": STEPS}
    finally:
        verl_compat.deactivate()
