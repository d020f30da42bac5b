"""The declared-but-unread rows checked against verl's installed code, not guessed:
``scripts/unread_config_sections.py`` reads every ``.py`` file of the installed verl with ``ast``
and lists, per top-level section of the composed ``ppo_trainer``, what reads it.

On the newest release the legacy reward block (``custom_reward_function``, ``reward_model``,
``sandbox_fusion``) is read by nothing but ``migrate_legacy_reward_impl``, which ``main_ppo`` no
longer calls, and every top-level key the table's reader rows name is such a section. The scan
itself is checked to see reads (a section verl does read is found read, with main_ppo among its
readers), so "unread" is not an artefact of a scan that sees nothing.
"""

import runpy

import pytest
from paths import REPO

from verl_compat.fixes.config_keys.table import LEGACY_REWARD, ROWS

pytestmark = pytest.mark.once

LEGACY_SECTIONS = {"custom_reward_function", "reward_model", "sandbox_fusion"}


@pytest.fixture(scope="module")
def scanned():
    module = runpy.run_path(str(REPO / "scripts" / "unread_config_sections.py"))
    return module["scan"](module["verl_dir"]())


def test_the_legacy_reward_block_is_read_only_by_the_migration_main_ppo_no_longer_calls(scanned):
    sections = scanned["sections"]
    for section in LEGACY_SECTIONS:
        assert sections[section]["unread"], (section, sections[section]["read_by"])
        assert sections[section]["migrated_by"] == [
            "experimental/reward_loop/reward_loop.py:migrate_legacy_reward_impl"
        ], section
    assert scanned["main_ppo_calls"] == []
    assert "experimental/fully_async_policy/fully_async_main.py" in scanned["callers"]


def test_every_reader_row_names_a_section_the_scan_finds_unread(scanned):
    # The section scan sees whole sections moved by a function (the legacy reward block); the rows of
    # single keys the deleted legacy workers read sit in sections verl reads (actor, critic).
    rows = [row for row in ROWS if row.reader is LEGACY_REWARD]
    assert rows
    for row in rows:
        section = row.old.split(".")[0]
        assert scanned["sections"][section]["unread"], row.old
        assert row.reader.function in {m.rpartition(":")[2] for m in scanned["sections"][section]["migrated_by"]}


def test_the_scan_sees_reads(scanned):
    sections = scanned["sections"]
    assert not sections["trainer"]["unread"] and "trainer/main_ppo.py" in sections["ray_kwargs"]["read_by"]
    # 0.9's own nested reward.reward_model is read under `reward`, not counted for the legacy section.
    assert not sections["reward"]["unread"]


def test_the_other_unread_section_is_a_hydra_group_selector(scanned):
    """ "Look for others": the only other top-level key nothing reads is ``model_engine``, the
    defaults-list option Hydra itself consumes to pick the engine configs."""
    unread = {s for s, info in scanned["sections"].items() if info["unread"]}
    assert unread - LEGACY_SECTIONS == {"model_engine"}
