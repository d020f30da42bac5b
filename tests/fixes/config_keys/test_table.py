"""Each row of the config-keys table against the installed release's real config.

verl's ``ppo_trainer`` and ``ppo_megatron_trainer`` (and ``ppo_trainer`` with each ``model_engine``
option the release ships) are composed once with Hydra's compose API from the installed verl's own
config folder, and every node path listed. A row then holds in one of two ways, decided by probing
that config, never the version string:

- the old path is still there: the change came in a later release (the successor may already
  exist beside it, during a deprecation window), and nothing is translated;
- the old path is gone: a renamed or moved key's successor is there (following chained rows, or its
  free-form parent dict for a key that stayed at the same path), or the release predates both.

In a release that has the table's latest changes (0.9.1 today) every old path must be gone and
each successor there. The table's own sanity (unique old paths, valid fates, evidence) is checked here too.
"""

from __future__ import annotations

import collections
import functools
import importlib.util
from pathlib import Path

import pytest
from paths import DOCS
from verl_config import free_form_parent, release_paths

from verl_compat.fixes.config_keys.table import FATES, ROWS, Row

CONFIG_DIR = Path(importlib.util.find_spec("verl").submodule_search_locations[0]) / "trainer" / "config"
KEY_ROWS = [row for row in ROWS if not row.group]
GROUP_ROWS = [row for row in ROWS if row.group]
OLD_PATHS = {row.old for row in KEY_ROWS}


def present(path: str) -> bool:
    return path in release_paths()


def row_of(path: str) -> Row | None:
    found = [r for r in KEY_ROWS if path == r.old or path.startswith(r.old + ".")]
    return max(found, key=lambda r: len(r.old), default=None)


def final_successor(row: Row) -> str | None:
    """Where a moved/remapped row's value lands in this release: its successor, followed through
    chained rows while the successor is itself an old path this release lacks."""
    path, seen = row.new, {row.old}
    while path is not None and not present(path):
        nxt = row_of(path)
        if nxt is None or nxt.old in seen or nxt.fate not in ("moved", "remapped"):
            break
        seen.add(nxt.old)
        path = nxt.new + path[len(nxt.old) :]
    return path


@functools.cache
def newest_release() -> bool:
    """The installed release has the table's latest changes, probed on its config: the renamed keys of
    the table's latest ``since`` have left their old path for their successor here. (Absence alone
    proves nothing: an older release lacks keys that came after it, too.)"""
    latest = max((row.since for row in KEY_ROWS), key=lambda v: tuple(int(p) for p in v.split(".")))
    rows = [row for row in KEY_ROWS if row.since == latest and row.fate in ("moved", "remapped")]
    return bool(rows) and all(not present(row.old) and present(final_successor(row)) for row in rows)


@pytest.mark.parametrize("row", KEY_ROWS, ids=[row.old for row in KEY_ROWS])
def test_row_against_installed_config(row: Row):
    if row.reader is not None:
        # Declared but unread (verl 0.9's legacy reward block): the old key may stay declared; where
        # the release has the reader's home, each successor lies in it (declared, or under a
        # section verl reads with .get: reward.reward_kwargs).
        if row.new and present(row.reader.home):
            target = final_successor(row)
            assert target.startswith(row.reader.home + "."), row
            assert present(target) or present(target.rpartition(".")[0]), f"{row.old}: no {target}"
        return
    if present(row.old):
        # The change came later than this release, which still reads the old path (its successor may
        # already exist beside it: 0.7.1-0.9.0 had actor.router_replay and actor.megatron.router_replay).
        assert not newest_release(), f"{row.old} is still in the newest release"
        return
    if row.fate in ("dropped", "removed"):
        assert row.new is None
        return
    if row.new == row.old:
        # Left the schema, still read under a free-form parent dict.
        assert free_form_parent(row.old) or not newest_release(), f"{row.old}: no free-form parent"
        return
    target = final_successor(row)
    if newest_release():
        assert present(target) or free_form_parent(target), f"{row.old} is gone but not its successor {target}"


@pytest.mark.parametrize("row", GROUP_ROWS, ids=[row.old for row in GROUP_ROWS])
def test_group_row_against_installed_config(row: Row):
    assert (CONFIG_DIR / row.old).is_dir() or not newest_release(), f"no config group {row.old}"
    for option, _ in row.values:
        shipped = (CONFIG_DIR / row.old / f"{option}.yaml").exists()
        assert not (shipped and newest_release()), f"{row.old}={option} is still shipped"


def test_table_sanity():
    olds = [row.old for row in ROWS]
    assert len(olds) == len(set(olds)), "duplicate old paths"
    for row in ROWS:
        assert row.fate in FATES, row
        assert row.evidence.startswith("verl"), row
        assert row.since, row
        if row.fate in ("moved", "remapped"):
            assert row.new, row
        else:
            assert row.new is None, row
        if row.fate == "remapped":
            assert row.values, row
        if row.fate in ("dropped", "removed"):
            assert row.note, row
        assert not row.inert or row.fate in ("removed", "remapped"), row
        assert not set(row.inert) & {old for old, _ in row.values}, row
        if row.group:
            assert "." not in row.old and row.values, row
    # A row under another row's subtree comes first: translate_config moves a YAML's keys row by row,
    # and the subtree's row would take the deeper key with it (actor_rollout_ref.ref.model.path, a
    # removed key, silently dropped with actor_rollout_ref.ref.model).
    for i, row in enumerate(ROWS):
        assert not [r.old for r in ROWS[i + 1 :] if r.old.startswith(row.old + ".")], f"{row.old} before its subtree"
    # No row shadows another's subtree unless it is deliberately finer (a subtree row and a key
    # under it with another fate).
    for row in KEY_ROWS:
        if row.new and row.new != row.old and row.new in OLD_PATHS:
            assert row_of(row.new).fate in ("moved", "remapped"), f"{row.old} chains into a dead end"


def test_docs_state_the_table_size():
    fates = collections.Counter(row.fate for row in ROWS)
    size = (
        f"{len(ROWS)} rows: {fates['moved']} moved, {fates['remapped']} remapped, {fates['dropped']} dropped, "
        f"{fates['removed']} removed"
    )
    inert = f"{sum(bool(row.inert) for row in ROWS)} removed or remapped rows name inert values"
    page = " ".join((DOCS / "config_keys.md").read_text().split())
    assert size in page and inert in page


def test_migrate_rewrites_a_key_only_where_this_release_lacks_it():
    """The same script on every release: ``critic.model.fsdp_config`` (renamed in 0.8.0) is kept
    where the installed config still has it and rewritten where it does not, judged by the
    release's own config (``present``), as at run time."""
    from verl_compat import migrate

    script = "python3 -m verl.trainer.main_ppo critic.model.fsdp_config.param_offload=True trainer.total_epochs=2\n"
    new = migrate.migrate(script, "shell")
    if present("critic.model.fsdp_config.param_offload"):
        assert new == script
    else:
        assert present("critic.fsdp.param_offload")
        assert new == script.replace("critic.model.fsdp_config.", "critic.fsdp.")
