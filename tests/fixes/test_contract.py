"""Every registered fix against the contract of ``verl_compat.registry.Fix`` (ddtrace's
PatchTestCase pattern): the same checks for each fix, and for a fix that exists only in the test
suite (``throwaway_fix``), registered with one line and touching no file of ``verl_compat``."""

import importlib
import json
import logging
import os
import sys
import types

import paths
import pytest
import wrapt
from pyrun import run_python

import verl_compat
from verl_compat import patching, probes, registry, trainers, wrapping

SUPPORT = str(paths.SUPPORT)
THROWAWAY = "throwaway_fix"
FIXES = [*registry.FIX_MODULES, THROWAWAY]


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
    if request.param not in registry.FIX_MODULES:
        monkeypatch.setattr(registry, "FIX_MODULES", (*registry.FIX_MODULES, request.param))
    module = importlib.import_module(request.param)
    for name in patching.targets(module):
        _importable(name)
    yield module
    verl_compat.deactivate()


def _patched(fix) -> list:
    return verl_compat.status()["fixes"][fix.NAME]["patched"]


def _resolve(target: str):
    """``"module:Class.method"`` -> (owner, attribute) in an imported module; None for a class
    defined in a function (or redefined under its name since)."""
    module, path = target.split(":", 1)
    owner_path, _, attribute = path.rpartition(".")
    # A trainer class by the core's own list: a module attribute may be Ray's actor class for it.
    owner = {(c.__module__, c.__qualname__): c for c in trainers.listed_classes()}.get((module, owner_path))
    if owner is None:
        owner = sys.modules.get(module)
        for part in owner_path.split(".") if owner_path else ():
            owner = getattr(owner, part, None)
    if owner is None or (isinstance(owner, type) and attribute not in vars(owner)):
        return None
    return owner, attribute


def test_fits_the_contract(fix):
    assert isinstance(fix, registry.Fix)
    assert isinstance(fix.NAME, str) and isinstance(fix.TARGETS, tuple)
    for optional in registry.OPTIONAL_PARTS:
        if optional.isupper():
            assert isinstance(getattr(fix, optional, ()), tuple)
        else:
            assert getattr(fix, optional, None) is None or callable(getattr(fix, optional))
    assert registry.misspelled_parts(fix) == [], "a public name one letter away from a contract part"
    if fix.__name__.startswith("verl_compat.fixes."):
        assert registry.fix_name(fix.__name__) == fix.NAME, "a fix's NAME is its folder's"
        assert (paths.PACKAGE_SOURCE / "fixes" / fix.NAME / "__init__.py").is_file(), "every fix is a package"


def test_a_misspelled_contract_part_is_named_when_the_fix_loads(monkeypatch, caplog):
    """``def before_stp(trainer)`` would never run: the contract tests and the core's load both say so."""
    misspelled = types.ModuleType("misspelled_fix")
    misspelled.NAME, misspelled.TARGETS = "misspelled", ()
    exec("def before_stp(trainer):\n    pass\ndef helper():\n    pass", misspelled.__dict__)
    monkeypatch.setitem(sys.modules, "misspelled_fix", misspelled)
    monkeypatch.setattr(registry, "FIX_MODULES", (*registry.FIX_MODULES, "misspelled_fix"))

    assert registry.misspelled_parts(misspelled) == [("before_stp", "before_step")]
    with caplog.at_level(logging.ERROR, logger="verl_compat"):
        assert misspelled in patching.loaded()
    assert any(
        "misspelled_fix defines before_stp" in r.getMessage() and "before_step" in r.getMessage()
        for r in caplog.records
    )


def test_patches_returns_a_plan_and_has_no_side_effects(fix, caplog):
    modules = [importlib.import_module(name) for name in fix.TARGETS if _importable(name)]
    if not modules or not callable(getattr(fix, "patches", None)):
        pytest.skip(f"{fix.NAME} plans nothing here: no target module in this verl, or no patches()")
    before = verl_compat.status()
    with caplog.at_level(logging.DEBUG, logger="verl_compat"):
        plans = [fix.patches(module) for module in modules] + [fix.patches(module) for module in modules]
    assert all(isinstance(plan, registry.Plan) for plan in plans)
    assert plans[: len(modules)] == plans[len(modules) :], "the same module gets the same plan"
    assert verl_compat.status() == before
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO] == []


def _current(target: str):
    owner, attribute = _resolve(target)
    return vars(owner)[attribute] if isinstance(owner, type) else getattr(owner, attribute)


def test_activate_twice_wraps_once_and_deactivate_restores_identity(fix):
    verl_compat.activate()
    targets = [target for target in _patched(fix) if _resolve(target)]
    if not targets:
        pytest.skip(f"{fix.NAME} has nothing to patch in this verl: {verl_compat.status()['fixes'][fix.NAME]}")
    verl_compat.deactivate()
    originals = {target: _current(target) for target in targets}

    verl_compat.activate()
    verl_compat.activate()
    for name in patching.targets(fix):  # the post-import hooks fire again (a reload, a second hook)
        if name in sys.modules:
            wrapt.notify_module_loaded(sys.modules[name])
    assert sorted(target for target in _patched(fix) if _resolve(target)) == sorted(targets)
    for target in targets:
        chain = list(wrapt.wrapper_chain(_current(target)))
        ours = [entry for entry in chain if getattr(wrapping.wrapped_by(entry, fix.NAME), "handle", None) is entry]
        assert len(ours) == 1, f"{target} is wrapped {len(ours)} times by {fix.NAME}: {chain}"
        assert originals[target] in chain

    verl_compat.deactivate()
    for target, original in originals.items():
        assert _current(target) is original, f"{target} did not come back by identity"
    assert verl_compat.status()["fixes"][fix.NAME]["patched"] == []


# Each fresh process registers the throwaway fix too, and reports on every fix at once: one process
# per import order, one for the faults (a fresh interpreter imports verl in ~8 s).
ORDER = """
import importlib, json, os, sys
import verl_compat
from verl_compat import patching, registry, wrapping
registry.FIX_MODULES = (*registry.FIX_MODULES, "throwaway_fix")
fixes = [importlib.import_module(name) for name in registry.FIX_MODULES]
del os.environ["VERL_COMPAT_DISABLE"]  # set for the interpreter start: no auto-load before this

def import_targets():
    for name in dict.fromkeys(n for fix in fixes for n in patching.targets(fix)):
        try:
            importlib.import_module(name)
        except ImportError:
            pass

if sys.argv[1] == "before":
    verl_compat.activate()
    import_targets()
else:
    import_targets()
    verl_compat.activate()


# Every function and method of the fix's target modules that its wrapper is in the chain of: what
# the fix reaches, whichever module's import wrapped it (0.8's main_ppo_sync binds main_ppo's run_ppo,
# wrapped or not, depending on which was imported first).
def reached(fix):
    out = set()
    for name in patching.targets(fix):
        module = sys.modules.get(name)
        for attribute, value in vars(module).items() if module else ():
            if isinstance(value, type) and value.__module__ == name:
                wrapped = [m for m, f in vars(value).items() if wrapping.wrapped_by(f, fix.NAME)]
                out.update(f"{name}:{value.__qualname__}.{m}" for m in wrapped)
            elif callable(value) and wrapping.wrapped_by(value, fix.NAME):
                out.add(f"{name}:{attribute}")
    return sorted(out)


print(json.dumps({fix.__name__: reached(fix) for fix in fixes}))
"""

FAULT = """
import importlib, json, logging, os, sys
records = []
handler = logging.Handler()
handler.emit = records.append
logging.getLogger("verl_compat").addHandler(handler)
import verl_compat
from verl_compat import patching, registry, trainers
registry.FIX_MODULES = (*registry.FIX_MODULES, "throwaway_fix")
fixes = [importlib.import_module(name) for name in registry.FIX_MODULES]

def broken(*args):
    raise RuntimeError("injected fault in the patch plan")
for fix in fixes:
    fix.patches = broken
trainers.plans = broken
del os.environ["VERL_COMPAT_DISABLE"]
verl_compat.activate()
out = {}
for fix in fixes:
    imported = []
    for name in patching.targets(fix):
        try:
            importlib.import_module(name)
            imported.append(name)
        except ImportError:
            pass
    status = verl_compat.status()["fixes"][fix.NAME]
    failed = f"fix '{fix.NAME}' failed"
    log = [r.getMessage() for r in records if r.levelno >= logging.ERROR and failed in r.getMessage()]
    out[fix.__name__] = {"imported": imported, "patched": status["patched"], "errors": status["errors"], "log": log}
print(json.dumps(out))
"""


def _in_fresh_process(code: str, *args: str) -> dict:
    path = os.pathsep.join(filter(None, [os.path.abspath(SUPPORT), os.environ.get("PYTHONPATH")]))
    env = {"VERL_COMPAT_DISABLE": "1", "PYTHONPATH": path}
    return json.loads(run_python(code, *args, env=env).stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def orders() -> dict:
    return {order: _in_fresh_process(ORDER, order) for order in ("before", "after")}


@pytest.fixture(scope="module")
def faults() -> dict:
    return _in_fresh_process(FAULT)


def test_import_order_does_not_matter(fix, orders):
    verl_compat.activate()
    assert orders["before"][fix.__name__] == orders["after"][fix.__name__]
    assert bool(orders["before"][fix.__name__]) == bool([target for target in _patched(fix) if _resolve(target)])


def test_a_fault_in_planning_is_logged_once_per_module_and_never_breaks_the_import(fix, faults):
    out = faults[fix.__name__]
    if not out["imported"]:
        pytest.skip(f"{fix.NAME}: none of its target modules is in this verl")
    assert out["patched"] == []
    assert out["errors"] == {f"patching {name}": 1 for name in out["imported"]}
    assert len(out["log"]) == len(out["imported"])


def test_disabled_by_name_patches_nothing(fix, monkeypatch):
    verl_compat.activate()
    targets = [target for target in _patched(fix) if _resolve(target)]
    verl_compat.deactivate()
    monkeypatch.setenv("VERL_COMPAT_DISABLED_FIXES", fix.NAME)
    verl_compat.activate()
    assert fix.NAME not in verl_compat.status()["fixes"]
    assert [target for target in targets if wrapping.wrapped_by(_current(target), fix.NAME)] == []


def test_doctor_reports_the_fix(fix):
    from verl_compat import doctor

    verl_compat.activate()
    report = doctor.collect(None)
    state = report["status"]["fixes"][fix.NAME]
    assert state["patched"] == _patched(fix)
    text = doctor.render(report)
    assert any(line.strip().startswith(fix.NAME) for line in text.splitlines())


def test_doctors_questions_get_answers_that_fit_the_contract(fix):
    """Each of doctor's questions the fix answers (``describe`` of a plain and a legacy config,
    ``describe_trainer``, ``describe_code``, ``doctor_rows``) gets what registry's TypedDicts say:
    every required key, spelled right, of its type (``registry.report_errors``)."""
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    from verl_compat import doctor, source_imports

    verl_compat.activate()
    code = "import verl\nfrom verl.trainer.ppo.ray_trainer import RayPPOTrainer\nfrom verl.utils.nowhere import gone\n"
    questions = {
        "describe": [
            doctor.compose(probes.verl_config_dir(), []),
            doctor.compose(probes.verl_config_dir(), ["actor_rollout_ref.actor.profiler.tool=torch_memory"]),
        ],
        "describe_trainer": [RayPPOTrainer],
        "describe_code": [source_imports.imports_of(code, "user.py", ("verl",))],
        "doctor_rows": [None],
    }
    asked = 0
    for hook, subjects in questions.items():
        for subject in subjects:
            if callable(getattr(fix, hook, None)):
                answer = getattr(fix, hook)() if subject is None else getattr(fix, hook)(subject)
                assert registry.report_errors(hook, answer) == [], f"{fix.NAME}.{hook}()"
                asked += 1
    assert asked or fix.NAME == "propagation", "every fix but propagation tells doctor something"


@pytest.mark.parametrize(
    ("hook", "answer", "errors"),
    [
        ("describe", {"acts": True, "rows": [], "cannot": []}, []),
        ("describe", {"acts": True, "rows": [], "cannnot": ["x"]}, ["no 'cannot' (misspelled 'cannnot'?)"]),
        (
            "describe_code",
            {"acts": "yes", "rows": [("a", 1)], "cannot": [3]},
            ["'acts' is a str", "'cannot' holds a int"],
        ),
        (
            "describe_trainer",
            {"served": True, "rows": [("label",)]},
            ["no 'why'", "row ('label',) is not (label, value)"],
        ),
        ("doctor_rows", [("OOM snapshot", "on")], []),
        ("doctor_rows", {"OOM snapshot": "on"}, ["not a list: dict"]),
    ],
)
def test_an_answer_outside_the_contract_is_named(hook, answer, errors):
    assert registry.report_errors(hook, answer) == errors


def test_a_misspelled_answer_is_a_doctor_problem_not_a_healthy_exit(with_throwaway, monkeypatch):
    """``cannnot`` would read as "nothing this verl lacks" with ``.get`` defaults: exit 0."""
    from verl_compat import doctor

    monkeypatch.setitem(with_throwaway.FAIL, "misspelled", True)
    verl_compat.activate()
    report = doctor.collect(doctor.compose(probes.verl_config_dir(), []), "test")
    reason = "throwaway.describe() answers outside the fix contract: no 'cannot' (misspelled 'cannnot'?)"
    assert {"exit_code": doctor.VERL_LACKS, "reason": reason} in report["problems"]
    assert report["exit_code"] == doctor.VERL_LACKS
    assert reason in " ".join(doctor.render(report).split())


@pytest.mark.shim_errors("throwaway:_start_profiling")
def test_the_throwaway_fix_gets_the_trainer_hooks_in_a_real_fit(tmp_path, monkeypatch, caplog):
    """Registered with one line, it is reached in verl's real fit(): its own patch on a verl method,
    the core's per-trainer hooks, and the core's fail-open guard for its wrapper."""
    import throwaway_fix
    from expectations import LEGACY, STEPS
    from harness import compose_config, run_fit

    verl_compat.deactivate()
    monkeypatch.setattr(registry, "FIX_MODULES", (*registry.FIX_MODULES, THROWAWAY))
    monkeypatch.setitem(throwaway_fix.FAIL, "wrapper", True)
    try:
        assert verl_compat.activate()
        with caplog.at_level(logging.ERROR, logger="verl_compat"):
            result = run_fit(compose_config(LEGACY, tmp_path), actor="engine")
        result.raise_error()
        assert throwaway_fix.calls == {"start_profiling": STEPS, "init": 1, "step": STEPS}
        failures = [
            r.getMessage() for r in caplog.records if "'throwaway' failed in _start_profiling" in r.getMessage()
        ]
        assert len(failures) == 1
        assert verl_compat.status()["fixes"]["throwaway"]["errors"] == {"_start_profiling": STEPS}
    finally:
        verl_compat.deactivate()


# --- one broken fix never takes the others down -------------------------------------------------


@pytest.fixture
def with_throwaway(monkeypatch):
    """The throwaway fix registered next to the real ones, verl-compat inactive before and after."""
    import throwaway_fix

    verl_compat.deactivate()
    monkeypatch.setattr(registry, "FIX_MODULES", (*registry.FIX_MODULES, THROWAWAY))
    for name in dict.fromkeys(n for fix in patching.loaded() for n in patching.targets(fix)):
        _importable(name)
    yield throwaway_fix
    verl_compat.deactivate()


def _real_patches() -> dict:
    """Each real fix's wrappers in place, by target: what must survive a broken neighbour."""
    verl_compat.activate()
    found = {name: _patched(importlib.import_module(name)) for name in registry.FIX_MODULES if name != THROWAWAY}
    verl_compat.deactivate()
    return found


def test_a_fix_that_fails_to_import_is_skipped_and_reported(with_throwaway, monkeypatch):
    expected = _real_patches()
    originals = {t: _current(t) for targets in expected.values() for t in targets if _resolve(t)}
    monkeypatch.setitem(sys.modules, "broken_fix", None)  # `import broken_fix` raises ImportError
    monkeypatch.setattr(registry, "FIX_MODULES", ("broken_fix", *registry.FIX_MODULES))

    assert verl_compat.activate() and patching.is_active()
    status = verl_compat.status()
    assert status["fixes"]["broken_fix"]["failed"].startswith("ModuleNotFoundError")
    for name, targets in expected.items():
        assert _patched(importlib.import_module(name)) == targets
    from verl_compat import doctor

    report = doctor.collect(None)
    assert any("the broken_fix fix cannot be loaded" in p["reason"] for p in report["problems"])
    assert "broken_fix FAILED to load: ModuleNotFoundError" in " ".join(doctor.render(report).split())

    verl_compat.deactivate()
    assert all(_current(target) is original for target, original in originals.items())


def test_a_module_that_does_not_fit_the_contract_is_skipped(with_throwaway, monkeypatch):
    monkeypatch.setattr(registry, "FIX_MODULES", ("json", *registry.FIX_MODULES))  # no NAME, no TARGETS
    assert verl_compat.activate()
    status = verl_compat.status()["fixes"]
    assert status["json"]["failed"] == "TypeError: json does not fit the fix contract: it needs NAME and TARGETS"
    assert "verl.trainer.ppo.ray_trainer:RayPPOTrainer._start_profiling" in status["throwaway"]["patched"]


@pytest.mark.shim_errors("throwaway:state")
def test_a_failing_state_leaves_status_and_doctor_answering(with_throwaway, monkeypatch):
    from verl_compat import doctor

    monkeypatch.setitem(with_throwaway.FAIL, "state", True)
    verl_compat.activate()
    status = verl_compat.status()
    assert "state_error" in status["fixes"]["throwaway"]
    assert "verl.trainer.ppo.ray_trainer:RayPPOTrainer._start_profiling" in status["fixes"]["throwaway"]["patched"]
    assert status["fixes"]["torch_memory"]["patched"] and "trainers" in status["fixes"]["torch_memory"]
    # Counted per call (this is the second), logged once.
    assert doctor.collect(None)["status"]["fixes"]["throwaway"]["errors"] == {"state": 2}


@pytest.mark.shim_errors("throwaway:describe")
def test_a_failing_describe_is_reported_and_the_other_fixes_describe(with_throwaway, monkeypatch):
    from verl_compat import doctor

    monkeypatch.setitem(with_throwaway.FAIL, "describe", True)
    verl_compat.activate()
    config = doctor.compose(probes.verl_config_dir(), ["actor_rollout_ref.actor.profiler.tool=torch_memory"])
    report = doctor.collect(config, "test")
    described = report["config"]["fixes"]
    assert described["torch_memory"]["case"] == "legacy"
    assert described["throwaway"]["cannot"] == ["throwaway.describe() failed (see the log above)"]
    assert "throwaway.describe() failed" in doctor.render(report)


def test_a_new_fix_gets_its_doctor_sections(with_throwaway):
    """A fix's describe() and describe_trainer() rows appear in doctor with no line of doctor's own."""
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    from verl_compat import doctor

    verl_compat.activate()
    config = doctor.compose(probes.verl_config_dir(), [])
    text = " ".join(doctor.render(doctor.collect(config, "test", [("verl:RayPPOTrainer", RayPPOTrainer)])).split())
    assert "throwaway counts _start_profiling calls" in text
    assert "throwaway counts RayPPOTrainer's steps" in text


@pytest.mark.shim_errors("throwaway:reset")
def test_a_failing_reset_never_stops_deactivate_halfway(with_throwaway, monkeypatch):
    from verl_compat import deprecation

    expected = _real_patches()
    originals = {t: _current(t) for targets in expected.values() for t in targets if _resolve(t)}
    monkeypatch.setitem(with_throwaway.FAIL, "reset", True)
    # Registered first: its reset runs before the real fixes' resets.
    monkeypatch.setattr(registry, "FIX_MODULES", (THROWAWAY, *(n for n in registry.FIX_MODULES if n != THROWAWAY)))
    verl_compat.activate()
    with pytest.warns(verl_compat.VerlCompatDeprecationWarning):
        deprecation.warn_once("contract-test", "said once")
    from verl_compat.fixes import torch_memory

    torch_memory._last["case"] = "legacy"
    verl_compat.deactivate()

    assert not patching.is_active()
    assert all(_current(target) is original for target, original in originals.items())
    assert wrapping.applied() == []
    assert torch_memory._last["case"] is None, "the fixes after the broken one were reset"
    assert deprecation._said == set(), "deprecation was reset"


def test_is_active_only_once_activation_finished(with_throwaway, monkeypatch):
    expected = _real_patches()
    originals = {t: _current(t) for targets in expected.values() for t in targets if _resolve(t)}

    def broken(fixes):
        raise RuntimeError("injected fault in activation")

    monkeypatch.setattr(trainers, "serve", broken)
    with pytest.raises(RuntimeError):
        verl_compat.activate()
    assert not patching.is_active()
    assert wrapping.applied() == []
    assert all(_current(target) is original for target, original in originals.items())
