"""Old keyword arguments of verl callables (``table.KEYWORD_ROWS``) on the installed verl's real
callables: dropped ones never reach the call (loudly where the value was the user's own callable),
renamed ones arrive under their new name, removed ones stop with what to do. Each row is probed
against the installed signature: where this verl still takes the keyword, nothing is wrapped."""

import importlib
import importlib.util
import inspect

import pytest
from verl_config import verl_compose

from verl_compat.fixes.old_imports import RemovedKeywordError, keywords
from verl_compat.fixes.old_imports.table import KEYWORD_ROWS
from verl_compat.fixes.old_rewards import old_calls


def row(callable_path: str, old: str):
    return next(r for r in KEYWORD_ROWS if (r.callable, r.old) == (callable_path, old))


def needs(shim, callable_path: str, old: str):
    """The row, where this verl lacks the keyword (its callable is then wrapped)."""
    module, _, name = callable_path.partition(":")
    found = row(callable_path, old)
    try:
        spec = importlib.util.find_spec(module)
    except ModuleNotFoundError:  # its package is missing too (0.6.1 has no verl.checkpoint_engine)
        spec = None
    if spec is None:
        pytest.skip(f"this verl has no {module}")
    target = getattr(importlib.import_module(module), name, None)
    if target is None or old in inspect.signature(target).parameters:
        pytest.skip(f"this verl's {name} takes {old}= itself")
    label = f"{module}:{name}.__init__" if isinstance(target, type) else f"{module}:{name}"
    assert label in shim.status()["fixes"]["old_imports"]["patched"]
    return target, found


def my_reward(data):
    return 0.0


def test_a_renamed_keyword_arrives_under_its_new_name(shim, shim_warnings):
    manager, found = needs(shim, "verl.checkpoint_engine.base:CheckpointEngineManager", "trainer")
    with pytest.raises(AttributeError, match="backend"):  # the real __init__ got actor_wg, then config=None
        manager(config=None, trainer=object(), replicas=[])
    assert shim_warnings() == [keywords.message(found)]
    with pytest.raises(RemovedKeywordError, match="keep actor_wg= only"):
        manager(config=None, trainer=object(), actor_wg=object(), replicas=[])


def test_load_reward_manager_with_num_examine_is_the_old_call(shim, shim_warnings):
    """Old code passing num_examine gets the old-contract manager old verl returned
    (tests/fixes/old_rewards/test_old_load_reward_manager.py compares it with verl 0.6.1's own)."""
    from verl.workers.reward_manager import NaiveRewardManager

    load, _ = needs(shim, "verl.trainer.ppo.reward:load_reward_manager", "num_examine")
    manager = load(verl_compose(), None, num_examine=0)
    assert type(manager) is NaiveRewardManager and manager.num_examine == 0
    assert shim_warnings() == [old_calls.message(NaiveRewardManager)]


def test_load_reward_manager_drops_num_examine_and_explains_a_removed_keyword(shim, shim_warnings):
    load, found = needs(shim, "verl.trainer.ppo.reward:load_reward_manager", "num_examine")
    # A manager of today's contract has no old answer: the keyword is dropped.
    config = verl_compose(
        [
            "reward.reward_manager.source=importlib",
            "reward.reward_manager.module.path=pkg://verl.experimental.reward_loop.reward_manager.naive",
            "reward.reward_manager.name=NaiveRewardManager",
        ]
    )
    assert load(config, None, num_examine=0) is not None
    assert shim_warnings() == [keywords.message(found)]
    removed = row("verl.trainer.ppo.reward:load_reward_manager", "max_resp_len")
    with pytest.raises(RemovedKeywordError) as caught:
        load(config, None, max_resp_len=512)
    assert str(caught.value) == keywords.message(removed)
    assert "set reward.reward_kwargs.max_resp_len instead" in str(caught.value)
    assert isinstance(caught.value.__cause__, TypeError)  # verl's own error, kept as the cause


def test_a_removed_keyword_stops_before_the_call(shim):
    bridge, found = needs(shim, "verl.utils.transferqueue_utils:tqbridge", "put_data")
    with pytest.raises(RemovedKeywordError) as caught:
        bridge(dispatch_mode=None, put_data=True)
    assert str(caught.value) == keywords.message(found)
    assert bridge(dispatch_mode=None) is not None  # a call without it is untouched


def test_without_the_shim_the_old_keyword_is_verls_own_type_error(no_shim):
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    if "reward_fn" in inspect.signature(RayPPOTrainer).parameters:
        pytest.skip("this verl's RayPPOTrainer takes reward_fn= itself")
    with pytest.raises(TypeError, match="unexpected keyword argument 'reward_fn'"):
        RayPPOTrainer(None, None, {}, None, reward_fn=my_reward)
