"""Declared-but-unread keys in the translation engine, pure: a key the release's config still
declares (verl 0.9's legacy reward block, all null) that its entry point no longer reads, because
it no longer calls the function that moved it (``migrate_legacy_reward_impl``).

The rows and configs are the test's own; whether the entry calls the reader is the probe's
``entry_calls``, so both answers are checked on any installed release. The table's own rows are
checked against each release in test_table.py and test_compose_unread.py.
"""

import pytest
from omegaconf import OmegaConf

from verl_compat.fixes.config_keys import translate
from verl_compat.fixes.config_keys.table import Reader, Row

pytestmark = pytest.mark.once

READER = Reader("migrate_legacy", "trainer/main.py", "reward")
ROWS = (
    Row("custom_fn", "moved", "reward.custom_fn", "0.9.0", "verl#6710", reader=READER),
    Row("legacy.manager", "moved", "reward.manager.name", "0.9.0", "verl#6710", reader=READER),
    Row("legacy.kwargs", "moved", "reward.kwargs", "0.9.0", "verl#6710", reader=READER),
    Row(
        "legacy.model.trust_remote_code",
        "removed",
        None,
        "0.9.0",
        "verl#6710",
        note="no key of this verl sets it",
        inert=(None, False),
        reader=READER,
    ),
    Row("old.knob", "moved", "new.knob", "0.8.0", "verl#1"),
)

# A release that declares the legacy block at null beside its reward section.
RELEASE = OmegaConf.create(
    {
        "custom_fn": {"path": None, "name": None},
        "legacy": {"manager": None, "model": {"trust_remote_code": None}},
        "reward": {"custom_fn": {"path": None, "name": "compute_score"}, "manager": {"name": "naive"}},
        "new": {"knob": 1},
    }
)
# A release that reads the legacy keys natively: no reward section (0.6.x).
NATIVE = OmegaConf.create({"custom_fn": {"path": None, "name": "compute_score"}, "legacy": {"manager": "naive"}})


def probe(config=RELEASE, reads=False):
    """``reads``: the entry still calls the reader (0.7.1/0.8.0's main_ppo)."""
    return translate.ConfigProbe(config, entry_calls=lambda entry, function: reads)


def run(*overrides, config=RELEASE, reads=False):
    return translate.translate_overrides(list(overrides), probe(config, reads), ROWS)


def test_a_declared_key_nothing_reads_lands_at_its_successor_with_one_warning():
    result = run("legacy.manager=dapo", "custom_fn.path=/r.py", "+legacy.kwargs.max_resp_len=512")
    assert result.overrides == (
        "reward.manager.name=dapo",
        "reward.custom_fn.path=/r.py",
        "+reward.kwargs.max_resp_len=512",
    )
    assert [f.key for f in result.findings] == ["legacy.manager", "custom_fn.path", "legacy.kwargs.max_resp_len"]
    for finding in result.findings:
        assert not finding.stops
        warning = finding.warning()
        assert "still declared but nothing reads it since verl 0.9.0" in warning
        assert "verl#6710" in warning and "migrate_legacy" in warning and finding.replacement in warning


def test_nothing_changes_where_the_entry_still_calls_the_reader():
    lines = ("legacy.manager=dapo", "custom_fn.path=/r.py", "+legacy.kwargs.max_resp_len=512")
    assert run(*lines, reads=True) == translate.Translation(lines, ())


def test_nothing_changes_where_the_release_has_no_home_for_the_keys():
    lines = ("legacy.manager=dapo", "custom_fn.name=my_fn")
    assert run(*lines, config=NATIVE) == translate.Translation(lines, ())


def test_a_key_left_unset_keeps_todays_default():
    # Only the path moves: the name stays compute_score (the old default), not the legacy null.
    assert run("custom_fn.path=/r.py").overrides == ("reward.custom_fn.path=/r.py",)


def test_null_and_deletion_ask_for_nothing_and_stay_as_written():
    lines = ("legacy.manager=null", "~custom_fn.name")
    assert run(*lines) == translate.Translation(lines, ())


def test_legacy_key_and_successor_set_differently_stop():
    result = run("legacy.manager=dapo", "reward.manager.name=naive")
    (finding,) = result.findings
    assert finding.stops and finding.conflict == "naive"
    assert "legacy.manager=dapo conflicts with reward.manager.name=naive" in translate.stop_message([finding])
    agreed = run("legacy.manager=dapo", "reward.manager.name=dapo")
    assert agreed.overrides == ("reward.manager.name=dapo",) and not agreed.findings[0].stops


def test_a_key_the_release_cannot_honour_stops_naming_it_and_why():
    result = run("legacy.model.trust_remote_code=True")
    (finding,) = result.findings
    assert finding.stops and result.overrides == ()
    message = translate.stop_message([finding])
    assert "legacy.model.trust_remote_code=True: unread since verl 0.9.0" in message
    assert "migrate_legacy" in message and "no key of this verl sets it" in message
    # A value that asks for nothing beyond what the release does: the declared line stays, quietly.
    inert = run("legacy.model.trust_remote_code=False")
    assert inert.overrides == ("legacy.model.trust_remote_code=False",) and inert.findings == ()


def test_a_users_yaml_moves_set_values_and_leaves_the_block_declared_at_null():
    config = OmegaConf.merge(
        RELEASE,
        {"custom_fn": {"path": "/r.py"}, "legacy": {"manager": "dapo", "kwargs": {"max_resp_len": 512}}},
    )
    findings = translate.translate_config(config, probe(), ROWS)
    assert sorted(f.key for f in findings) == ["custom_fn.path", "legacy.kwargs.max_resp_len", "legacy.manager"]
    assert config.reward.custom_fn == {"path": "/r.py", "name": "compute_score"}
    assert config.reward.manager.name == "dapo" and config.reward.kwargs == {"max_resp_len": 512}
    # Still declared, at verl's null, for entry points that migrate by themselves; the undeclared
    # kwargs are gone from the legacy block.
    assert config.custom_fn == {"path": None, "name": None} and config.legacy.manager is None
    assert "kwargs" not in config.legacy


def test_a_users_yaml_of_verls_own_nulls_is_left_alone():
    config = OmegaConf.merge(RELEASE, {})
    assert translate.translate_config(config, probe(), ROWS) == ()
    assert config == RELEASE
