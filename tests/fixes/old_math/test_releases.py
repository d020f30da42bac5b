"""old_math's table and release data, in every release environment: the rows are well formed, the
installed verl is placed by its composed keys (never its version string), and a launch's release is
inferred from the keys it sets."""

import importlib.metadata

import pytest
from omegaconf import OmegaConf
from verl_config import verl_compose

from verl_compat.fixes.old_math import releases, table


def _paths(node, prefix=""):
    if isinstance(node, dict):
        out = {prefix} if prefix else set()
        for key, value in node.items():
            out |= _paths(value, f"{prefix}.{key}" if prefix else str(key))
        return out
    return {prefix}


@pytest.fixture(scope="module")
def installed_keys():
    return _paths(OmegaConf.to_container(verl_compose([]), resolve=False))


def test_every_row_is_well_formed():
    known = set(releases.releases())
    for row in table.ROWS:
        first, _, last = row.written_for.partition("..")
        assert {first, last, row.since} <= known, row.name
        # a trainer row may also speak for the release that made the change (V1 cannot do REMAX on 0.9.0 either)
        assert releases.version(last) < releases.version(row.since) or row.scope == "trainer", row.name
        assert (row.fate in ("restored", "patched")) == bool(row.keys), row.name  # patched: the switch
        assert row.prs or row.evidence.endswith("wheel"), row.name
        assert all(op in table.Op.__args__ for _, op, _ in row.when), row.name


def test_the_changes_are_in_release_order():
    sinces = [releases.version(row.since) for row in table.ROWS]
    assert sinces == sorted(sinces)


def test_the_probe_places_this_release(installed_keys):
    version = importlib.metadata.version("verl")
    if version not in releases.releases():
        pytest.skip(f"verl {version} is not in release_keys.json")
    assert releases.installed("ppo_trainer", installed_keys) == version


def test_a_launch_is_inferred_from_the_keys_it_sets(installed_keys, monkeypatch):
    monkeypatch.delenv(releases.DECLARE_ENV, raising=False)
    here = releases.installed("ppo_trainer", installed_keys)
    older = [r for r in releases.releases() if releases.version(r) < releases.version(here)]
    # a key every release has: any older release
    assert releases.launch("ppo_trainer", installed_keys, ["data.train_batch_size=8"], None).candidates == tuple(older)
    # critic.model.fsdp_config: the critic's FSDP section until 0.8.0 moved it (verl#5870)
    old = releases.launch("ppo_trainer", installed_keys, ["critic.model.fsdp_config.param_offload=True"], None)
    assert old.candidates == tuple(r for r in older if releases.version(r) < (0, 8, 0))
    # a `+` addition composes where the key is absent: fsdp_config.model_dtype, in the schema since 0.6.0
    added = releases.launch(
        "ppo_trainer", installed_keys, ["+actor_rollout_ref.actor.fsdp_config.model_dtype=bf16"], None
    )
    assert added.candidates == tuple(r for r in older if releases.version(r) < (0, 6, 0))


def test_a_declared_release_wins(installed_keys, monkeypatch):
    monkeypatch.setenv(releases.DECLARE_ENV, "0.6.1")
    assert releases.launch("ppo_trainer", installed_keys, [], None).candidates in ((), ("0.6.1",))
    assert releases.launch("ppo_trainer", installed_keys, [], "0.5.0").source == f"declared by {releases.DECLARE_KEY}"
    here = releases.installed("ppo_trainer", installed_keys)
    assert releases.launch("ppo_trainer", installed_keys, [], here).current
