"""The fate of an old import path, from the table alone (``resolve.fate`` with a made-up installed
verl): the pure part that the runtime hook, doctor and migrate share. No verl needed."""

import pytest

from verl_compat.fixes import old_imports
from verl_compat.fixes.old_imports import keywords, resolve
from verl_compat.fixes.old_imports.table import ROWS

pytestmark = pytest.mark.once


def verl_with(*paths: str):
    """``has`` for a verl that has exactly ``paths`` (and their parent packages)."""
    present = set(paths)
    for path in paths:
        module = path.partition(":")[0]
        while module:
            present.add(module)
            module = module.rpartition(".")[0]
    return present.__contains__


def test_a_moved_name_of_a_module_that_stays():
    has = verl_with("verl.trainer.main_ppo", "verl.trainer.ppo.utils:create_rl_sampler")
    fate = resolve.fate("verl.trainer.main_ppo", "create_rl_sampler", has)
    assert (fate.kind, fate.target) == ("moved", "verl.trainer.ppo.utils:create_rl_sampler")
    assert fate.message() == (
        "verl-compat: verl.trainer.main_ppo.create_rl_sampler moved to verl.trainer.ppo.utils.create_rl_sampler in "
        "verl 0.9.0 (verl#6710 (45632b5fa)). Write instead: from verl.trainer.ppo.utils import create_rl_sampler"
    )


def test_a_path_the_installed_verl_has_resolves_as_it_is():
    has = verl_with("verl.trainer.main_ppo:create_rl_sampler", "verl.trainer.ppo.utils:create_rl_sampler")
    assert resolve.fate("verl.trainer.main_ppo", "create_rl_sampler", has) is None


def test_a_moved_path_applies_only_where_its_new_home_exists():
    assert resolve.fate("verl.trainer.main_ppo", "create_rl_sampler", verl_with("verl.trainer.main_ppo")) is None


def test_a_moved_module_and_its_submodules_and_names():
    has = verl_with("verl.utils.reward_score.math_reward:compute_score", "verl.experimental.reward_loop.router")
    fate = resolve.fate("verl.utils.reward_score.math", None, has)
    assert (fate.kind, fate.target) == ("moved", "verl.utils.reward_score.math_reward")
    assert fate.instead() == "import verl.utils.reward_score.math_reward"
    # A name of the moved module that the new module has: forwarded, under the module's row.
    fate = resolve.fate("verl.utils.reward_score.math", "compute_score", has)
    assert (fate.kind, fate.target, fate.row.old) == (
        "moved",
        "verl.utils.reward_score.math_reward:compute_score",
        "verl.utils.reward_score.math",
    )
    # The old name of a submodule: ``from verl.utils.reward_score import math``.
    fate = resolve.fate("verl.utils.reward_score", "math", has)
    assert fate.instead() == "from verl.utils.reward_score import math_reward"


def test_a_name_row_overrides_its_module_row():
    has = verl_with("verl.experimental.reward_loop.reward_manager.dapo:DAPORewardManager")
    fate = resolve.fate("verl.experimental.reward.reward_loop.dapo", "DAPORewardLoopManager", has)
    assert fate.target == "verl.experimental.reward_loop.reward_manager.dapo:DAPORewardManager"
    assert fate.instead() == "from verl.experimental.reward_loop.reward_manager.dapo import DAPORewardManager"


def test_a_removed_module_with_moved_names_is_a_stub_and_one_without_raises():
    has = verl_with("verl.workers.engine_workers", "verl.utils.ulysses:FSDPUlyssesShardingManager")
    assert resolve.fate("verl.workers.fsdp_workers", None, has).kind == "stub"
    assert resolve.fate("verl.workers.sharding_manager", None, has).kind == "stub"
    assert resolve.fate("verl.workers.sharding_manager.fsdp_ulysses", None, has).kind == "stub"
    megatron = resolve.fate("verl.workers.megatron_workers", None, has)
    assert megatron.kind == "removed"
    assert megatron.message().startswith(
        "verl-compat: verl.workers.megatron_workers was removed in verl 0.8.0 (verl#6067 (044bbba27)): "
        "verl deleted its legacy FSDP/Megatron workers"
    )


def test_replaced_and_removed_names_say_the_release_the_change_and_what_to_do():
    has = verl_with("verl.workers.engine_workers:ActorRolloutRefWorker", "verl.trainer.ppo.reward")
    fate = resolve.fate("verl.workers.fsdp_workers", "ActorRolloutRefWorker", has)
    assert fate.message().startswith(
        "verl-compat: verl.workers.fsdp_workers.ActorRolloutRefWorker was replaced in verl 0.8.0 "
        "(verl#6067 (044bbba27)) by verl.workers.engine_workers.ActorRolloutRefWorker, which has another contract: "
    )
    fate = resolve.fate("verl.trainer.ppo.reward", "compute_reward", has)
    assert fate.kind == "removed"
    assert "removed in verl 0.7.1 (verl#5237 (3df21a68e)): " in fate.message()
    # A name without a row of its own in a removed module goes with the module, and says so.
    fate = resolve.fate("verl.workers.megatron_workers", "SomethingElse", has)
    assert fate.message().startswith(
        "verl-compat: verl.workers.megatron_workers.SomethingElse was removed with verl.workers.megatron_workers in "
        "verl 0.8.0"
    )


def test_a_submodule_without_a_row_follows_the_nearest_module_row():
    has = verl_with("verl.experimental.reward_loop.reward_model")
    fate = resolve.fate("verl.experimental.reward.reward_model", None, has)
    assert fate.target == "verl.experimental.reward_loop.reward_model"
    assert resolve.fate("verl.workers.megatron_workers.sub", None, has).kind == "removed"
    assert resolve.fate("verl.not_in_the_table", None, has) is None
    assert resolve.fate("verl.trainer.main_ppo", "not_in_the_table", has) is None


def test_every_row_on_a_verl_that_has_only_its_new_home():
    """What each row says on a verl that lacks the old path and has the new one: moved paths resolve
    to their target, the others name the release, the change and (their note) what to do."""
    wrong = []
    for row in ROWS:
        module, _, name = row.old.partition(":")
        fate = resolve.fate(module, name or None, verl_with(*([row.new] if row.new else [])))
        if fate is None:
            wrong.append((row.old, "no fate"))
        elif fate.kind == "moved":
            if fate.target != row.new or f"Write instead: {fate.instead()}" not in fate.message():
                wrong.append((row.old, fate.message()))
        elif fate.kind != "stub":
            said = f"in verl {row.since} ({row.evidence})" in fate.message() and row.note in fate.message()
            if fate.kind != row.fate or not said:
                wrong.append((row.old, fate.message()))
    assert wrong == []


def test_name_modules_are_the_modules_of_name_rows_and_the_packages_of_module_rows():
    modules = set(resolve.name_modules())
    assert {"verl.trainer.main_ppo", "verl.workers", "verl.utils.reward_score"} <= modules
    assert resolve.name_modules() == old_imports.NAME_TARGETS


def test_targets_are_the_keyword_rows_modules():
    assert old_imports.TARGETS == keywords.MODULES
