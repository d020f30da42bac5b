"""Every row of the tables holds on the installed verl release: the check CI runs with what it has (each
environment's wheel), one test per row, named by the row's old path.

Which releases a row speaks for: the releases from its ``since`` on. Whether the installed verl is one of them is
probed, never read from a version string: in the order of the tables' releases, the installed release has reached
each release until the first whose old paths (module paths, names, config keys the tables date there) are mostly
(half or more) still here; that one and every later one it has not. (Gone alone would prove nothing: an older
verl lacks the paths that came after it, too.) One row that stops holding does not move that: it fails by name.
On a release that has reached the row's ``since``:

- old_imports: the old path is gone from verl's files; a moved row's new home is there and, imported, is the very
  object verl-compat serves for the old path (where this environment can import the new home's package at all:
  ``verl.models.mcore`` needs Megatron); a replaced row's successor is there. The targets are where the newest
  release the tables know keeps them: an older release that lacks a target passes (verl-compat serves nothing
  there), the newest must have each;
- config_keys: the old key is gone from the release's composed ``ppo_trainer``/``ppo_megatron_trainer`` (every
  ``model_engine`` option); a renamed or moved key's successor is there (followed through chained rows, or its
  free-form parent dict); a group row's options are no longer shipped;
- keyword rows: the callable is there and takes the old keyword no more (a renamed one takes the new).

Every row of every table, on every release: the evidence is in the one format of docs/tables.md.

Where verl's history is at hand (``VERL_COMPAT_VERL_GIT``: a clone of verl-project/verl with its tags),
``scripts/follow_release.py`` run again reproduces the committed rows' mechanical columns (opt-in: CI has no
clone; about four minutes).
"""

from __future__ import annotations

import collections
import functools
import importlib
import importlib.util
import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from paths import REPO
from verl_config import free_form_parent, release_paths

sys.path.insert(0, str(REPO / "scripts"))
import build_import_index

from verl_compat import probes
from verl_compat.fixes.config_keys import readers
from verl_compat.fixes.config_keys import table as config_table
from verl_compat.fixes.old_imports import RemovedFromVerlError
from verl_compat.fixes.old_imports import table as imports_table
from verl_compat.fixes.old_math import table as math_table

EVIDENCE = re.compile(r"^verl#\d+ \([0-9a-f]{9}\)$|^verl#\d+ \(verl \d+\.\d+\.\d+ wheel\)$|^verl \d+\.\d+\.\d+ wheel$")
VERL_DIR = Path(importlib.util.find_spec("verl").submodule_search_locations[0])
CONFIG_DIR = VERL_DIR / "trainer" / "config"
STILL_HERE = 0.5  # the share of a release's old paths still here that says the release is not reached

IMPORT_ROWS = imports_table.ROWS
KEY_ROWS = [row for row in config_table.ROWS if not row.group]
GROUP_ROWS = [row for row in config_table.ROWS if row.group]
KEYWORD_ROWS = imports_table.KEYWORD_ROWS


def version(label: str) -> tuple[int, ...]:
    """A table's ``since`` as a tuple, to order the tables' own labels (never the installed version)."""
    return tuple(int(part) for part in label.split("."))


# --- the installed release, read --------------------------------------------------------------------------------


@functools.cache
def verl_files() -> build_import_index.Snapshot:
    """The installed verl's modules and the names each binds, read from its files as the rows were found
    (``scripts/build_import_index.py``: star imports resolved, so ``verl.workers.config``'s names are its own)."""
    return build_import_index.wheel_snapshot("installed", str(VERL_DIR))


def has(path: str) -> bool:
    module, _, name = path.partition(":")
    return verl_files().has_name(module, name) if name else module in verl_files().modules


def key_present(path: str) -> bool:
    return path in release_paths()


def key_row_of(path: str):
    found = [r for r in KEY_ROWS if path == r.old or path.startswith(r.old + ".")]
    return max(found, key=lambda r: len(r.old), default=None)


def final_successor(row) -> str | None:
    path, seen = row.new, {row.old}
    while path is not None and not key_present(path):
        nxt = key_row_of(path)
        if nxt is None or nxt.old in seen or nxt.fate not in ("moved", "remapped"):
            break
        seen.add(nxt.old)
        path = nxt.new + path[len(nxt.old) :]
    return path


def old_gone(row) -> bool:
    """The row's old path is gone from the installed release (its files, its composed config)."""
    if isinstance(row, imports_table.Row):
        return not has(row.old)
    if row.group:
        return all(not (CONFIG_DIR / row.old / f"{option}.yaml").exists() for option, _ in row.values)
    return not key_present(row.old)


@functools.cache
def reached() -> tuple[str, ...]:
    """The releases whose dated changes the installed release has, probed (see the module's docstring): in the
    tables' order, each release until the first whose old paths are mostly still here."""
    by_since = collections.defaultdict(list)
    for row in (*IMPORT_ROWS, *config_table.ROWS):
        if getattr(row, "reader", None) is None:  # a declared-but-unread key stays declared: no vote
            by_since[row.since].append(row)
    out = []
    for since in sorted(by_since, key=version):
        rows = by_since[since]
        if sum(not old_gone(row) for row in rows) / len(rows) >= STILL_HERE:
            break
        out.append(since)
    return tuple(out)


def newest_reached() -> bool:
    """The installed release has the tables' newest changes: every target and successor must be there."""
    sinces = {row.since for row in (*IMPORT_ROWS, *config_table.ROWS)}
    return max(sinces, key=version) in reached()


def applies(row) -> bool:
    return row.since in reached()


def applying(rows) -> list:
    """The rows this release has reached: each is a test of its own, and no row is a skip."""
    return [row for row in rows if applies(row)]


# --- the rows ---------------------------------------------------------------------------------------------------


def _import(path: str):
    module, _, name = path.partition(":")
    got = importlib.import_module(module)
    return getattr(got, name) if name else got


def _home_package_fails(path: str) -> Exception | None:
    """The error of the first package of ``path`` that this environment cannot import (a GPU library it lacks)."""
    parts = path.partition(":")[0].split(".")
    for end in range(2, len(parts) + 1):
        if not has(".".join(parts[:end])):
            return None  # the rest of the path is verl-compat's to serve
        try:
            importlib.import_module(".".join(parts[:end]))
        except Exception as exc:
            return exc
    return None


@pytest.mark.parametrize("row", applying(IMPORT_ROWS), ids=[row.old for row in applying(IMPORT_ROWS)])
def test_old_imports_row_holds(row, shim):
    assert not has(row.old), f"{row.old}: the row says verl {row.since} removed it, and this verl has it"
    if row.fate == "removed":
        return
    if not has(row.new):
        # The table's targets are where the newest release it knows keeps them; an older release may not have
        # the target yet (verl-compat then serves nothing for the row: resolve.fate).
        assert not newest_reached(), f"{row.old}: its {row.fate} target {row.new} is not in this verl"
        return
    if row.fate != "moved":
        return
    if _home_package_fails(row.new) or _home_package_fails(row.old):
        return  # this environment cannot import the new home's (or the old path's) package; the files have it
    home = _import(row.new)
    module = row.old.partition(":")[0]
    if ":" in row.old and not has(module) and not any(r.old == module for r in IMPORT_ROWS):
        # The name's module is not in this release at all (verl.utils.transferqueue_utils left in 0.7.1 and came
        # back in 0.8.0) and no row speaks for it: verl-compat serves names of the modules a release has.
        assert not newest_reached(), f"{row.old}: its module is not in this verl and has no row"
        return
    try:
        served = _import(row.old)
    except RemovedFromVerlError as error:
        # A name under a replaced module: the module's import speaks first, and names where the name went.
        assert row.new.replace(":", ".") in str(error), f"{row.old}: {error}"
        return
    assert served is home, f"{row.old}: verl-compat serves {served!r}, not the very object at {row.new}"


@pytest.mark.parametrize("row", applying(KEY_ROWS), ids=[row.old for row in applying(KEY_ROWS)])
def test_config_keys_row_holds(row):
    if row.reader is not None:
        # Declared but unread: the old key stays declared; the row holds where the entry no longer calls
        # the reader, and each successor lies in the reader's home (declared, or under a section verl
        # reads with .get: reward.reward_kwargs).
        if not newest_reached():
            return
        assert not readers.calls(row.reader.entry, row.reader.function), f"{row.old}: verl calls the reader again"
        assert key_present(row.reader.home), f"{row.old}: no {row.reader.home} section"
        if row.new:
            target = final_successor(row)
            assert target.startswith(row.reader.home + "."), row
            assert key_present(target) or read_outside_the_schema(target.rpartition(".")[2]), f"{row.old}: no {target}"
        return
    assert not key_present(row.old), f"{row.old}: the row says verl {row.since} dropped it; the schema has it"
    if row.fate in ("dropped", "removed"):
        return
    if row.new == row.old:
        assert free_form_parent(row.old) or not newest_reached(), f"{row.old}: no free-form parent dict to hold it"
        return
    target = final_successor(row)
    if not newest_reached():  # an older release may not have the successor the newest one has
        return
    assert key_present(target) or free_form_parent(target), f"{row.old}: its successor {target} is not in the schema"


def read_outside_the_schema(leaf: str) -> bool:
    """Whether verl's code (its migrate function aside) reads ``leaf`` from a config section with
    ``.get("leaf")`` or ``["leaf"]``, as verl 0.9's DAPO manager reads ``reward.reward_kwargs``."""
    package = probes.verl_package_dir()
    pattern = re.compile(rf"""(\.get\(|\[)["']{re.escape(leaf)}["']""")
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "def migrate_legacy_reward_impl" in text:
            text = text.partition("def migrate_legacy_reward_impl")[0]
        if pattern.search(text):
            return True
    return False


@pytest.mark.parametrize("row", applying(GROUP_ROWS), ids=[row.old for row in applying(GROUP_ROWS)])
def test_config_group_row_holds(row):
    shipped = [option for option, _ in row.values if (CONFIG_DIR / row.old / f"{option}.yaml").exists()]
    assert shipped == [], f"{row.old}: options {shipped} are still shipped"


@pytest.mark.parametrize(
    "row", applying(KEYWORD_ROWS), ids=[f"{row.callable}({row.old}=)" for row in applying(KEYWORD_ROWS)]
)
def test_keyword_row_holds(row, no_shim):
    if not has(row.callable):
        assert not newest_reached(), f"{row.callable} is not in this verl"
        return
    try:
        target = _import(row.callable)
    except ImportError:
        # its package needs a library this environment lacks (the files have it, above)
        assert _home_package_fails(row.callable) is not None or not newest_reached(), row.callable
        return
    parameters = inspect.signature(target.__init__ if inspect.isclass(target) else target).parameters
    assert row.old not in parameters, f"{row.callable} still takes {row.old}="
    if row.fate == "moved":
        assert row.new in parameters or not newest_reached(), f"{row.callable} does not take {row.new}="


def test_every_evidence_is_in_the_one_format():
    rows = (*IMPORT_ROWS, *KEYWORD_ROWS, *config_table.ROWS)
    wrong = [(getattr(row, "callable", ""), row.old, row.evidence) for row in rows if not EVIDENCE.match(row.evidence)]
    wrong += [("old_math", row.name, row.evidence) for row in math_table.ROWS if not EVIDENCE.match(row.evidence)]
    assert wrong == []


def test_the_probe_places_this_release():
    """The release probe answers at all here (every environment has reached the oldest changes), and its
    answer is a prefix of the tables' releases."""
    sinces = sorted({row.since for row in (*IMPORT_ROWS, *config_table.ROWS)}, key=version)
    assert reached(), "no dated change of the tables is on this verl"
    assert list(reached()) == sinces[: len(reached())]


# --- regenerating from verl's history (opt-in) -----------------------------------------------------------------


@pytest.mark.once
def test_regenerating_reproduces_the_committed_rows(tmp_path):
    """``scripts/follow_release.py`` from the release before the newest line (0.8.0 for 0.9.x) to the installed
    wheel, knowing only the rows up to it: each row it writes mechanically is the committed row (fate, new,
    since, evidence), and each committed config key is found (as a row or for judgment)."""
    git = os.environ.get("VERL_COMPAT_VERL_GIT")
    if not git:
        pytest.skip("VERL_COMPAT_VERL_GIT (a clone of verl-project/verl) not given")
    sinces = {row.since for row in (*IMPORT_ROWS, *config_table.ROWS)}
    newest = max(sinces, key=version)
    old = max((s for s in sinces if version(s)[:2] != version(newest)[:2]), key=version)
    verl_dir = Path(importlib.util.find_spec("verl").submodule_search_locations[0])
    subprocess.run(
        [sys.executable, str(REPO / "scripts" / "follow_release.py"), "--verl-git", git, "--old", f"v{old}",
         "--new", f"{newest}={verl_dir}", "--known-until", old, "--out", str(tmp_path)],
        check=True,
    )  # fmt: skip
    compared = json.loads((tmp_path / "figures.json").read_text())["compare"]
    assert compared["old_imports"]["differing"] == []
    assert compared["config_keys"]["differing"] == []
    assert compared["old_imports"]["reproduced"]
