"""What old verl's ``load_reward_manager`` built, on today's verl with verl-compat: ``compute_score``
as 0.6.1 built it (the sandbox, its semaphore and memory limit; the custom function and its
``reward_kwargs``), and the old call ``load_reward_manager(config, tokenizer, num_examine, ...)``
answered with the old-contract manager 0.6.1 returned, giving its scores. The expectations are
verl 0.6.1's own, run natively (``scripts/old_reward_expectations.py`` writes them)."""

import warnings

import old_load_reward_manager as cases
import pytest
from harness import tiny_model_dir
from verl.utils import hf_tokenizer

from verl_compat import VerlCompatDeprecationWarning
from verl_compat.fixes.old_rewards import contract, old_calls

pytestmark = pytest.mark.once

EXPECTED = cases.load()["cases"]


@pytest.fixture(scope="module")
def tokenizer(tmp_path_factory):
    return hf_tokenizer(str(tiny_model_dir(tmp_path_factory.mktemp("model") / "model")))


def test_the_expectations_are_old_verls_own():
    assert cases.load()["verl"] == "0.6.1"
    assert sorted(EXPECTED) == sorted(cases.CASES)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_compute_score_is_built_as_verl_0_6_1_built_it(shim, name):
    config = cases.compose(cases.CASES[name])
    assert cases.describe_score(contract.compute_score(config)) == EXPECTED[name]["compute_score"]


def test_the_sandbox_semaphore_is_made_once_per_process(shim):
    config = cases.compose(cases.CASES["sandbox"])
    first, second = contract.compute_score(config), contract.compute_score(config)
    assert first.keywords["concurrent_semaphore"] is second.keywords["concurrent_semaphore"]


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_the_old_call_gives_the_manager_verl_0_6_1_gave(shim, tokenizer, name):
    from verl.trainer.ppo.reward import load_reward_manager

    case = cases.CASES[name]
    manager = cases.call(load_reward_manager, cases.compose(case), tokenizer, case)
    assert cases.describe_manager(manager, tokenizer) == EXPECTED[name]


def test_the_old_call_warns_once_per_process(shim, tokenizer):
    from verl.trainer.ppo.reward import load_reward_manager

    config = cases.compose(cases.CASES["naive"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = load_reward_manager(config, tokenizer, 0)
        load_reward_manager(config, tokenizer, num_examine=1)
    ours = [w for w in caught if issubclass(w.category, VerlCompatDeprecationWarning)]
    assert [str(w.message) for w in ours] == [old_calls.message(type(first))]
    assert ours[0].filename == __file__  # pointed at the caller's line


def test_a_call_of_todays_shape_is_left_to_verl(shim, tokenizer):
    from verl.experimental.reward_loop.reward_manager.base import RewardManagerBase
    from verl.trainer.ppo.reward import load_reward_manager

    assert isinstance(load_reward_manager(cases.compose(cases.CASES["naive"]), tokenizer), RewardManagerBase)


def test_without_the_shim_the_positional_old_call_is_a_type_error(no_shim, tokenizer):
    from verl.trainer.ppo.reward import load_reward_manager

    case = cases.CASES["dapo_recipe"]
    config = cases.compose({**case, "overrides": ["reward.reward_manager.name=dapo"]})
    with pytest.raises(TypeError, match="takes 2 positional arguments but 3 were given"):
        cases.call(load_reward_manager, config, tokenizer, case)
