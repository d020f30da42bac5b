"""Shared fixtures, and which test runs in which release environment.

The suite runs once per test environment (``scripts/test.sh``: one per verl release, and ``omni``,
verl 0.9.1 plus verl-omni), against the verl-compat installed there. Expectations that differ
between releases are decided by probing the installed verl (as the shim does), never by version
strings. Where a test runs is declared by a marker in its file, read here:

- ``once``: runs in the newest release of the run only: a test that does not depend on the
  installed verl (migrate, view, the package), or one about old setups on today's verl (one marker
  for both: they were two, ``once`` and ``newest``, with the same rule);
- ``sides``: the two sides of verl #6198 (the legacy call still made, and deleted); runs in 0.7.1,
  the last release that makes it, and in the newest release;
- ``omni``: needs verl-omni; runs in the ``omni`` environment, where nothing else runs;
- no marker: runs in every verl release.

A test outside its environments is deselected, not skipped (a whole file whose module-level
``pytestmark`` keeps it out is not even collected): the count of passed tests per environment is
what that environment proves. ``scripts/test.sh`` says which environment this is
(``VERL_COMPAT_TEST_ENV``) and which release is the newest of the run (``VERL_COMPAT_TEST_NEWEST``);
run by hand, pytest takes this environment for the newest.
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import importlib.util
import os
import warnings
from pathlib import Path

import pyrun
import pytest

import verl_compat
from verl_compat import VerlCompatDeprecationWarning, registry

os.environ.update(pyrun.RAY_SETTINGS)  # every Ray cluster this process starts (the harness's)
# The suite's launches are written for the release under test: old_math, which takes an undeclared
# launch for one of an older release, leaves them as this verl composes them (every process the
# suite starts inherits it). tests/fixes/old_math, which is about undeclared launches too, clears it.
os.environ.setdefault("VERL_COMPAT_LAUNCH_RELEASE", importlib.metadata.version("verl"))

PLACEMENT_MARKERS = ("once", "sides", "omni")
LAST_RELEASE_WITH_THE_LEGACY_CALL = "0.7.1"


def this_environment() -> str:
    """``omni`` where verl-omni is installed, else the installed verl release."""
    named = os.environ.get("VERL_COMPAT_TEST_ENV")
    if named:
        return named
    return "omni" if importlib.util.find_spec("verl_omni") else importlib.metadata.version("verl")


def newest() -> str:
    return os.environ.get("VERL_COMPAT_TEST_NEWEST") or this_environment()


def runs_in(marks: set[str], environment: str, newest: str) -> bool:
    """Whether a test with these placement markers runs in ``environment``."""
    if environment == "omni" or "omni" in marks:
        return environment == "omni" and "omni" in marks
    if "once" in marks:
        return environment == newest
    if "sides" in marks:
        return environment in (LAST_RELEASE_WITH_THE_LEGACY_CALL, newest)
    return True


@functools.cache
def _file_marks(path: Path) -> frozenset[str]:
    """The placement markers of a test file's module-level ``pytestmark``, read from its source: a
    file that does not run here is not even imported (it may import what this verl lacks)."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "pytestmark" for t in node.targets):
            values = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
            return frozenset(v.attr for v in values if isinstance(v, ast.Attribute)) & set(PLACEMENT_MARKERS)
    return frozenset()


def pytest_ignore_collect(collection_path: Path, config):
    is_test_file = collection_path.suffix == ".py" and collection_path.name.startswith("test_")
    if is_test_file and not runs_in(set(_file_marks(collection_path)), this_environment(), newest()):
        return True
    return None


def pytest_collection_modifyitems(config, items):
    environment, kept, deselected = this_environment(), [], []
    for item in items:
        marks = {name for name in PLACEMENT_MARKERS if item.get_closest_marker(name)}
        (kept if runs_in(marks, environment, newest()) else deselected).append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept


# --- parallel workers: a fixture shared by a file is made once -------------------------------------


@functools.cache
def _shares_fixtures(path: Path) -> bool:
    """Whether a test file defines a fixture of class, module or package scope (read from its source)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "fixture":
            for keyword in node.keywords:
                value = getattr(keyword.value, "value", None)
                if keyword.arg == "scope" and value in ("class", "module", "package"):
                    return True
    return False


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadscope`` (``scripts/test.sh``): one scope per test, except that the tests of a file
    that defines a shared fixture (a wheel or virtualenvs built, a ``ray start`` cluster, fresh
    interpreters' reports) are one scope, run in one worker, so the fixture is made once, not once
    per worker. (pytest-xdist's own ``loadgroup`` reads ``xdist_group`` marks into node ids in a way
    pytest 9 no longer honours.)"""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SharedFixtureScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if _shares_fixtures(config.rootpath / path) else nodeid

    return SharedFixtureScheduling(config, log)


# --- fail open never hides a bug from the suite ----------------------------------------------------


_swallowed_checked = 0  # the guard's count when the last test ended


@pytest.fixture(autouse=True)
def no_swallowed_errors(request):
    """Fail a test in which the fail-open guard swallowed an error it did not declare.

    Fail-open keeps users' runs going and must never keep a bug from failing the suite. A test
    declares the errors it provokes with ``@pytest.mark.shim_errors(...)``: by fix, by
    ``"fix:where"``, or, naming none, any. Counted from the end of the previous test, so an error
    swallowed while a module- or session-scoped fixture was set up for this test counts here. This
    process's guard only: errors in Ray actors reach the suite through what the tests assert of the run.
    """
    global _swallowed_checked
    before = _swallowed_checked
    yield
    _swallowed_checked = registry.swallowed_total()
    new = registry.swallowed(after=before)
    marker = request.node.get_closest_marker("shim_errors")
    if marker is not None:
        expected = set(marker.args)
        new = [error for error in new if expected and not {error.fix, f"{error.fix}:{error.where}"} & expected]
    if new:
        listed = "\n".join(f"  {error.fix} in {error.where}: {error.error}" for error in new)
        pytest.fail(f"verl-compat's fail-open guard swallowed errors this test did not expect:\n{listed}")


# --- the shim on and off ------------------------------------------------------------------------------


@pytest.fixture
def no_shim():
    """verl exactly as released: nothing of verl-compat is patched in this process."""
    verl_compat.deactivate()
    assert verl_compat.status()["fixes"]["torch_memory"]["patched"] == []
    yield
    verl_compat.deactivate()


@pytest.fixture
def shim():
    """verl-compat freshly activated (its once-per-process warning not yet given)."""
    verl_compat.deactivate()
    assert verl_compat.activate()
    yield verl_compat
    verl_compat.deactivate()


@pytest.fixture
def shim_warnings():
    """Call it for the texts of every VerlCompatDeprecationWarning raised so far in the test."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield lambda: [str(w.message) for w in caught if issubclass(w.category, VerlCompatDeprecationWarning)]
