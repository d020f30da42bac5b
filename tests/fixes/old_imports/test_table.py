"""The old_imports table's rows are well-formed: pure data checks, no verl needed."""

import re
import typing

import pytest

from verl_compat.fixes.old_imports.table import KEYWORD_ROWS, ROWS, Fate, KeywordFate, KeywordRow, Row

pytestmark = pytest.mark.once

RELEASES = {"0.4.1", "0.5.0", "0.6.0", "0.6.1", "0.7.0", "0.7.1", "0.8.0", "0.9.0", "0.9.1"}
PATH = re.compile(r"^verl(\.[A-Za-z_][A-Za-z0-9_]*)*(:[A-Za-z_][A-Za-z0-9_]*)?$")
EVIDENCE = re.compile(r"^(verl#\d+ \([0-9a-f]{9}\)|verl 0\.9\.1 wheel)$")


def test_rows_are_well_formed():
    assert all(isinstance(r, Row) for r in ROWS)
    olds = [r.old for r in ROWS]
    assert len(olds) == len(set(olds)), "one row per old path"
    for r in ROWS:
        assert PATH.match(r.old), r
        assert r.fate in typing.get_args(Fate), r
        assert (r.new is None) == (r.fate == "removed"), r
        if r.new is not None:
            assert PATH.match(r.new) and r.new != r.old, r
        if ":" not in r.old and r.new is not None:
            assert ":" not in r.new, f"a module row points at a module: {r}"
        assert r.since in RELEASES, r
        assert EVIDENCE.match(r.evidence), r
        assert r.fate == "moved" or r.note, f"replaced/removed rows say what to do: {r}"


def test_module_rows_are_not_shadowed_by_parent_rows_of_another_fate():
    """A moved module's names that still exist under the new module need no row: no row repeats the module's move."""
    modules = {r.old: r for r in ROWS if ":" not in r.old}
    for r in ROWS:
        if ":" not in r.old or r.fate != "moved":
            continue
        mod, name = r.old.split(":")
        parent = modules.get(mod)
        if parent is not None and parent.fate == "moved":
            assert r.new != f"{parent.new}:{name}", r


def test_keyword_rows_are_well_formed():
    assert all(isinstance(k, KeywordRow) for k in KEYWORD_ROWS)
    keys = [(k.callable, k.old) for k in KEYWORD_ROWS]
    assert len(keys) == len(set(keys))
    for k in KEYWORD_ROWS:
        assert re.match(r"^verl(\.\w+)+:\w+$", k.callable), k
        assert k.fate in typing.get_args(KeywordFate), k
        assert (k.new is not None) == (k.fate == "moved"), k
        assert k.since in RELEASES and EVIDENCE.match(k.evidence), k
        assert k.fate == "moved" or k.note, k


def test_rows_the_old_examples_need():
    """The most common broken imports of verl's own examples and recipes (v0.4.0-v0.8.0) have rows."""
    by_old = {r.old: r for r in ROWS}
    expect = {
        "verl.workers.fsdp_workers:ActorRolloutRefWorker": (
            "replaced",
            "verl.workers.engine_workers:ActorRolloutRefWorker",
        ),
        "verl.workers.megatron_workers:CriticWorker": ("replaced", "verl.workers.engine_workers:TrainingWorker"),
        "verl.workers.fsdp_workers:RewardModelWorker": ("removed", None),
        "verl.trainer.main_ppo:create_rl_sampler": ("moved", "verl.trainer.ppo.utils:create_rl_sampler"),
        "verl.trainer.main_ppo:create_rl_dataset": ("moved", "verl.trainer.ppo.utils:create_rl_dataset"),
        "verl.trainer.ppo.reward:compute_reward": ("removed", None),
        "verl.workers.sharding_manager.fsdp_ulysses:FSDPUlyssesShardingManager": (
            "moved",
            "verl.utils.ulysses:FSDPUlyssesShardingManager",
        ),
        "verl.single_controller.ray.megatron": ("removed", None),
        "verl.utils.reward_score.math": ("moved", "verl.utils.reward_score.math_reward"),
        "verl.utils.rollout_skip:RolloutSkip": ("replaced", "verl.utils.skip.rollout_skip:RolloutSkip"),
    }
    for old, (fate, new) in expect.items():
        assert (by_old[old].fate, by_old[old].new) == (fate, new), by_old[old]
