"""Old import paths on the installed verl, in this process: moved ones give the very same object with
one warning per path, removed and replaced ones raise ``RemovedFromVerlError`` naming the release, the
change and what to do, and everything verl has is left as it is.

Every expectation is decided by probing the installed verl (``installed.has``: its files), never by
its version: a path this release still has must import as it always did.
"""

import contextlib
import importlib
import importlib.util
import logging
import sys
import threading

import pytest

import verl_compat
from verl_compat import importing, probes
from verl_compat.fixes.old_imports import (
    RemovedFromVerlError,
    RemovedModuleError,
    backports,
    installed,
    resolve,
    runtime,
)
from verl_compat.fixes.old_imports.table import ROWS

# Paths of verl's own old examples and recipes (benchmarks/data/old_imports.jsonl), each a kind of row;
# where a release still has the first, the next that left a module that stays (verl.trainer.main_ppo).
MOVED_NAMES = [
    ("verl.trainer.main_ppo", "create_rl_sampler"),  # verl#6710, 0.9.0
    ("verl.trainer.main_ppo", "load_reward_manager"),  # verl#5237, 0.7.1
    ("verl.trainer.main_ppo", "load_extern_type"),  # verl#4387, 0.7.0
]
MOVED_NAME = MOVED_NAMES[0]
MOVED_MODULE = ("verl.utils.reward_score.math", None)  # a renamed module
MOVED_FROM_STUBS = [  # names that moved out of a removed package
    ("verl.workers.sharding_manager.fsdp_ulysses", "FSDPUlyssesShardingManager"),  # verl#6067, 0.8.0
    ("verl.workers.roles.utils.padding", "is_cuda_available"),  # verl#4352 and verl#4480, 0.7.0
]
REPLACED_NAMES = [
    ("verl.workers.fsdp_workers", "ActorRolloutRefWorker"),  # verl#6067, 0.8.0
    ("verl.experimental.reward_loop.reward_manager.registry", "REWARD_LOOP_MANAGER_REGISTRY"),  # verl#5237, 0.7.1
]
REMOVED_NAME = ("verl.trainer.ppo.ray_trainer", "compute_rollout_importance_weights")  # verl#3984, 0.6.1
REMOVED_MODULES = [
    ("verl.workers.megatron_workers", None),  # verl#6067, 0.8.0
    ("verl.workers.reward_model", None),  # verl#5255, 0.7.1
]
REMOVED_MODULE = REMOVED_MODULES[0]


def fate(module: str, name: str | None):
    """What the table says of the path on this verl, read from its files."""
    return resolve.fate(module, name, installed.has)


def met_first(module: str, name: str | None) -> resolve.Fate | None:
    """The fate an import of the path meets first: Python imports each parent package before the
    module, so a removed package speaks for everything under it."""
    parts = module.split(".")
    for end in range(2, len(parts) + (name is not None)):
        package = ".".join(parts[:end])
        found = fate(package, None)
        if found is not None and found.kind in ("removed", "replaced"):
            return found
        if found is None and end < len(parts) and not installed.has(package):
            return None  # a package this verl never shipped (0.6.1 has no verl.experimental.reward_loop)
    if name is not None and not installed.has(module) and fate(module, None) is None:
        return None  # a module this verl never shipped (added later, or not in its wheel)
    return fate(module, name)


def applies(path: tuple, kind: str) -> resolve.Fate:
    found = fate(*path)
    if found is None or found.kind != kind:
        pytest.skip(f"{path} is not {kind} on this verl ({found and found.kind}): it imports as it is")
    return found


def first(kind: str, candidates: list[tuple]) -> tuple[tuple, resolve.Fate]:
    """The first candidate path that is ``kind`` on this verl."""
    for path in candidates:
        found = met_first(*path)
        if found is not None and found.kind == kind:
            return path, found
    pytest.skip(f"none of {candidates} is {kind} on this verl")


def first_moved_name() -> tuple[tuple, resolve.Fate]:
    return first("moved", MOVED_NAMES)


def new_home(found: resolve.Fate):
    module, _, name = found.target.partition(":")
    imported = importlib.import_module(module)
    return getattr(imported, name) if name else imported


@pytest.fixture
def fresh(shim):
    """verl-compat freshly activated, the old paths of earlier tests out of ``sys.modules``."""
    for name in [name for name in sys.modules if importing.status()["stand_ins"].get(name)]:
        del sys.modules[name]
    yield shim


def test_a_moved_name_is_the_same_object_in_every_import_form(fresh, shim_warnings):
    (module_name, name), found = first_moved_name()
    target = new_home(found)
    module = importlib.import_module(module_name)
    scope = {}
    exec(f"from {module_name} import {name}", scope)

    assert scope[name] is target
    assert getattr(module, name) is target
    assert importlib.import_module(module_name).__dict__.get(name) is None  # never bound there
    assert shim_warnings() == [found.message()], "one warning per path per process"
    assert found.message().endswith(f"Write instead: {found.instead()}")
    if (module_name, name) == MOVED_NAME:
        assert found.instead() == "from verl.trainer.ppo.utils import create_rl_sampler"


def test_a_moved_module_is_the_same_module_in_every_import_form(fresh, shim_warnings):
    found = applies(MOVED_MODULE, "moved")
    target = new_home(found)
    import verl.utils.reward_score.math

    assert verl.utils.reward_score.math is target
    assert importlib.import_module("verl.utils.reward_score.math") is target
    from verl.utils.reward_score import math

    assert math is target
    assert sys.modules["verl.utils.reward_score.math"] is target
    assert shim_warnings() == [found.message()]
    assert found.message().endswith("Write instead: import verl.utils.reward_score.math_reward")


def test_a_removed_package_with_moved_names_is_a_stub_that_gives_them(fresh, shim_warnings):
    (module, name), found = first("moved", MOVED_FROM_STUBS)
    scope = {}
    exec(f"from {module} import {name}", scope)
    assert scope[name] is new_home(found)
    stubs = [name for name, kind in importing.status()["stand_ins"].items() if kind == "stub"]
    assert stubs and module.startswith(stubs[0])
    stub = sys.modules[stubs[0]]
    assert importing.is_stub(stub)
    assert found.message() in shim_warnings()
    with pytest.raises(AttributeError):
        _ = stub.__wrapped__  # dunder names are never asked of the table


def test_a_replaced_name_raises_what_to_do(fresh):
    (module, name), found = first("replaced", REPLACED_NAMES)
    with pytest.raises(RemovedFromVerlError) as caught:
        exec(f"from {module} import {name}", {})
    assert str(caught.value) == found.message()
    assert str(caught.value).startswith(
        f"verl-compat: {found.dotted} was replaced in verl {found.row.since} ({found.row.evidence}) by "
        f"{resolve.dotted(found.row.new)}, which has another contract: "
    )
    assert caught.value.name == module


def test_a_removed_name_raises_and_old_guards_still_catch_it(fresh):
    found = applies(REMOVED_NAME, "removed")
    with pytest.raises(RemovedFromVerlError, match="verl#3984") as caught:
        from verl.trainer.ppo.ray_trainer import compute_rollout_importance_weights
    assert str(caught.value) == found.message()
    try:
        from verl.trainer.ppo.ray_trainer import compute_rollout_importance_weights  # noqa: F401
    except ImportError:
        guarded = True
    assert guarded


def test_attribute_access_answers_hasattr_and_getattr_with_a_default(fresh):
    """``hasattr`` and ``getattr(module, name, None)`` are how old code probes a release: they answer
    False and the default, and plain attribute access says what happened."""
    found = applies(REMOVED_NAME, "removed")
    reward = importlib.import_module(REMOVED_NAME[0])
    assert not hasattr(reward, "compute_rollout_importance_weights")
    assert getattr(reward, "compute_rollout_importance_weights", "default") == "default"
    with pytest.raises(AttributeError) as caught:
        _ = reward.compute_rollout_importance_weights
    assert str(caught.value) == found.message()


def test_a_removed_module_raises_and_old_guards_still_catch_it(fresh):
    (module, _), found = first("removed", REMOVED_MODULES)
    package, _, child = module.rpartition(".")
    with pytest.raises(RemovedModuleError) as caught:
        exec(f"import {module}", {})
    assert str(caught.value) == found.message() and caught.value.name == module
    with pytest.raises(RemovedModuleError):
        importlib.import_module(module)
    with pytest.raises(RemovedModuleError):
        exec(f"from {package} import {child}", {})
    try:
        exec(f"import {module}", {})
    except ModuleNotFoundError:
        guarded = True
    assert guarded


def test_find_spec_probes_see_what_verl_ships(fresh):
    """A feature probe of the installed verl (verl-compat's own among them) is not answered by the
    hook: an old module stays absent for ``importlib.util.find_spec``."""
    for module, _ in (MOVED_MODULE, REMOVED_MODULE, ("verl.trainer.main_ppo_sync", None)):
        if fate(module, None) is not None:
            assert importlib.util.find_spec(module) is None
    assert probes.has_sync_trainer() == installed.has("verl.trainer.main_ppo_sync")


def test_a_module_verl_has_is_untouched(fresh):
    """A module outside the table: its namespace is the very same before and after old imports."""
    import verl.protocol

    before = dict(vars(verl.protocol))
    for path in (MOVED_NAME, MOVED_MODULE, REMOVED_NAME):
        with contextlib.suppress(ImportError):
            module = importlib.import_module(path[0])
            if path[1]:
                getattr(module, path[1], None)
    after = dict(vars(verl.protocol))
    assert after.keys() == before.keys() and all(after[key] is before[key] for key in before)
    assert "verl.protocol" not in importing.status()["module_getattr"]


def test_deactivate_restores_exactly_what_was_there(fresh):
    main_ppo = importlib.import_module(MOVED_NAME[0])
    before = dict(vars(main_ppo))
    before.pop("__getattr__", None)
    if fate(*MOVED_MODULE) is not None:
        import verl.utils.reward_score.math  # noqa: F401
    assert importing.status()["finder"]
    verl_compat.deactivate()
    assert importing.status() == {"finder": False, "module_getattr": [], "stand_ins": {}}
    assert "__getattr__" not in vars(main_ppo)
    assert dict(vars(main_ppo)).keys() == before.keys()
    assert "verl.utils.reward_score.math" not in sys.modules
    assert not hasattr(importlib.import_module("verl.utils.reward_score"), "math")


def test_baseline_without_the_shim_an_old_path_is_a_bare_error(no_shim):
    if fate(*MOVED_MODULE) is None:
        pytest.skip("this verl still has the old module")
    with pytest.raises(ModuleNotFoundError) as caught:
        importlib.import_module("verl.utils.reward_score.math")
    assert not isinstance(caught.value, RemovedFromVerlError) and "verl-compat" not in str(caught.value)


@pytest.mark.shim_errors("old_imports:resolve_module", "old_imports:resolve_name")
def test_a_fault_in_the_fix_never_breaks_an_import(fresh, monkeypatch, caplog):
    """The fix's resolve logic fails: every import fails exactly as it would without verl-compat
    (``except ImportError`` still catches it), other imports are untouched, the fault is logged once."""
    moved_module = ("verl.utils.reward_score.math", None)
    if met_first(*moved_module) is None or met_first(*REMOVED_NAME) is None:
        pytest.skip("this verl still has verl.utils.reward_score.math or the removed name: no hook is asked")

    def broken(*args):
        raise RuntimeError("injected fault in the old_imports resolve logic")

    monkeypatch.setattr(resolve, "fate", broken)
    with caplog.at_level(logging.ERROR, logger="verl_compat"):
        for _ in range(2):
            with pytest.raises(ImportError) as caught:
                importlib.import_module("verl.utils.reward_score.math")
            assert type(caught.value) is ModuleNotFoundError
            with pytest.raises(ImportError) as caught:
                from verl.trainer.ppo.ray_trainer import compute_rollout_importance_weights  # noqa: F401
            assert not isinstance(caught.value, RemovedFromVerlError)
            import json  # noqa: F401

            import verl.protocol  # noqa: F401
    failures = [r.getMessage() for r in caplog.records if "fix 'old_imports' failed" in r.getMessage()]
    assert len(failures) == 2  # one per hook (resolve_module, resolve_name), logged once each
    assert verl_compat.status()["fixes"]["old_imports"]["errors"] == {"resolve_module": 2, "resolve_name": 2}


def test_threads_importing_a_moved_name_at_once_get_one_object_and_one_warning(fresh, shim_warnings):
    (module_name, name), found = first_moved_name()
    barrier, results = threading.Barrier(8), []
    statement = compile(f"from {module_name} import {name}", "<old code>", "exec")

    def load():
        scope = {}
        barrier.wait()
        exec(statement, scope)
        results.append(scope[name])

    threads = [threading.Thread(target=load) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 8 and all(result is new_home(found) for result in results)
    assert shim_warnings() == [found.message()]


def test_status_lists_what_this_process_met(fresh):
    (module_name, name), found = first_moved_name()
    getattr(importlib.import_module(module_name), name)
    entry = verl_compat.status()["fixes"]["old_imports"]
    assert entry["imports"] == {found.dotted: "moved"} and entry["import_counts"] == {"moved": 1}
    assert verl_compat.status()["imports"]["finder"]
    assert "verl.trainer.main_ppo" in verl_compat.status()["imports"]["module_getattr"]


def _import(module: str, name: str | None) -> object:
    try:
        got = importlib.import_module(module)
        return getattr(got, name) if name else got
    except Exception as exc:
        return exc


def _existing_parent_fails(module: str) -> Exception | None:
    """The error of the first package above ``module`` that this verl has but cannot import here
    (``verl.models.mcore`` needs Megatron): an import under it meets that error first, as it is."""
    parts = module.split(".")
    for end in range(2, len(parts) + 1):
        package = ".".join(parts[:end])
        if installed.has(package):
            got = _import(package, None)
            if isinstance(got, Exception):
                return got
    return None


def _same_error(got: object, error: Exception, attribute: bool) -> bool:
    """An import meets ``error`` itself; attribute access an AttributeError with its words."""
    kind = AttributeError if attribute and not isinstance(error, AttributeError) else type(error)
    return isinstance(got, kind) and str(got) == str(error)


def test_every_old_path_of_the_table_on_this_verl(fresh, recwarn):
    """Every row, the way user code meets it (``import`` of a module, attribute access of a name): a
    moved path gives its new home's very object, or that home's own import error as it is (a GPU
    library this machine lacks); a backported one gives verl-compat's backport; a removed or replaced
    path raises the fix's error with the table's words; a path this verl has imports as it always
    did. A package this verl has but cannot import here (``verl.models.mcore`` needs Megatron) may
    answer with its own error instead."""
    wrong = []
    for row in ROWS:
        module, _, name = row.old.partition(":")
        name = name or None
        expected = met_first(module, name)
        got = _import(module, name)
        failing_parent = _existing_parent_fails(module)
        if failing_parent is not None and _same_error(got, failing_parent, False):
            continue
        if expected is None or expected.kind == "stub":
            if isinstance(got, RemovedFromVerlError):
                wrong.append((row.old, f"raised {got}"))
        elif expected.kind == "moved":
            home = (
                _import(*expected.target.partition(":")[::2])
                if ":" in expected.target
                else _import(expected.target, None)
            )
            # Where the old module itself moved, its import meets the error first; else the name.
            if isinstance(home, Exception) and not any(_same_error(got, home, attr) for attr in (False, True)):
                wrong.append((row.old, f"{got!r} instead of the new home's error {home!r}"))
            elif not isinstance(home, Exception) and got is not home:
                wrong.append((row.old, f"{got!r} is not {home!r}"))
        elif row.old in backports.BACKPORTS:
            if got is not backports.backport(row.old):
                wrong.append((row.old, f"{got!r} is not verl-compat's backport"))
        elif name is not None and fate(module, None) is not None and fate(module, None).kind == "moved":
            # A moved module is the new module itself: a name it has is its own (the module's
            # warning says where that is another contract); one it lacks is answered by the rows.
            new_module = importlib.import_module(fate(module, None).target)
            if name in vars(new_module):
                if got is not vars(new_module)[name]:
                    wrong.append((row.old, f"{got!r} is not the new module's own {name}"))
            elif not (isinstance(got, AttributeError) and str(got).startswith("verl-compat: ")):
                wrong.append((row.old, f"{got!r}"))
        elif not isinstance(got, (RemovedFromVerlError, AttributeError)) or str(got) != expected.message():
            wrong.append((row.old, f"{got!r}"))
    assert wrong == [], "\n".join(map(str, wrong))
    assert runtime.state()["import_counts"]


def test_a_submodule_of_a_moved_package_is_the_new_submodule_never_a_second_copy(fresh):
    """``verl.experimental.reward.reward_loop`` became ``verl.experimental.reward_loop.reward_manager``
    (verl#4547): the path finder would find the new package's files under the old name and load them a
    second time. A submodule without a row of its own (added since) is forwarded as well."""
    import pkgutil

    old_package = "verl.experimental.reward.reward_loop"
    found = applies((old_package, None), "moved")
    new = new_home(found)
    names = sorted(info.name for info in pkgutil.iter_modules(new.__path__))
    without_row = [name for name in names if resolve.row(f"{old_package}.{name}") is None]
    if not without_row:
        pytest.skip("every submodule of the new package has a row of its own")
    old = importlib.import_module(f"{old_package}.{without_row[0]}")
    assert old is importlib.import_module(f"{new.__name__}.{without_row[0]}")
    copies = {id(module) for module in list(sys.modules.values()) if getattr(module, "__file__", None) == old.__file__}
    assert copies == {id(old)}


def test_disabled_by_name_old_paths_fail_as_without_verl_compat(monkeypatch):
    if fate(*MOVED_MODULE) is None:
        pytest.skip("this verl still has the old module")
    verl_compat.deactivate()
    monkeypatch.setenv("VERL_COMPAT_DISABLED_FIXES", "old_imports")
    try:
        verl_compat.activate()
        assert not importing.status()["finder"]
        with pytest.raises(ModuleNotFoundError) as caught:
            importlib.import_module(MOVED_MODULE[0])
        assert not isinstance(caught.value, RemovedFromVerlError)
    finally:
        verl_compat.deactivate()
