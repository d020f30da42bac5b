"""The old reward code gets the batch old verl gave it (issue 42, the review of round 1 against old
verl): the reward model's ``rm_scores`` kept and only verl-compat's placeholder taken off, the
dataset's columns back on the step batch, ``data.reward_fn_key`` read, the trainer attributes old
``fit()`` loops read, and every old call site scoring (never the placeholder).

The expected values are old verl's own code on the same batch: verl's old managers (still shipped
in ``verl.workers.reward_manager``, the classes verl 0.6.1 built) called directly, and the batch
shaped as verl 0.6.1 gave it (its ``rm_scores`` from the reward model, its dataset columns).
"""

import copy
import logging

import numpy as np
import pytest
import torch
from harness import Built, build_only, compose_config, run_fit, tiny_model_dir
from old_reward_batches import config_for, importlib_overrides, step_batch
from old_reward_managers import user_reward_fn
from verl.utils import hf_tokenizer

from verl_compat import driver_rewards
from verl_compat.fixes.old_rewards import OldRewardManagerError, driver, resolve, trainer_args

pytestmark = pytest.mark.once

NAIVE = ("verl.workers.reward_manager.naive", "NaiveRewardManager")


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory.mktemp("model") / "model")


@pytest.fixture
def tokenizer(model):
    return hf_tokenizer(str(model))


def old_naive(tokenizer, num_examine=0, reward_fn_key="data_source"):
    """verl's old NaiveRewardManager, built as verl 0.6.1's load_reward_manager built it."""
    from verl.utils.reward_score import default_compute_score
    from verl.workers.reward_manager.naive import NaiveRewardManager

    return NaiveRewardManager(
        tokenizer=tokenizer, num_examine=num_examine, compute_score=default_compute_score, reward_fn_key=reward_fn_key
    )


def with_rm_scores(batch, value):
    """The batch with a reward model's token-level scores, as verl 0.6.1's RM worker put them: the
    score at the last valid response token."""
    prompt_length = batch.batch["prompts"].shape[-1]
    valid = batch.batch["attention_mask"][:, prompt_length:].sum(-1)
    scores = torch.zeros_like(batch.batch["responses"], dtype=torch.float32)
    scores[torch.arange(len(batch)), valid - 1] = value
    batch.batch["rm_scores"] = scores
    return batch


@pytest.fixture
def placeholder():
    """Say whether this process's reward workers return the placeholder; reset after the test."""
    yield driver_rewards.set_placeholder
    driver_rewards.set_placeholder(False)
    driver.set_current(None)


# --- the reward model's scores ------------------------------------------------------------------------


def test_a_reward_models_scores_reach_the_old_manager(shim, model, tokenizer, placeholder):
    """Review finding 1: the step batch's rm_scores come from a reward model; old verl gave them to
    the manager, which returns them (verl 0.6.1 naive.py), so the reward is the RM's, not the rule's."""
    config = config_for(model, *importlib_overrides(*NAIVE), "reward.reward_model.enable=true")
    placeholder(False)  # a reward model scores: the workers' rm_scores are its scores
    batch = with_rm_scores(step_batch(tokenizer), 0.5)
    expected = old_naive(tokenizer)(copy.deepcopy(batch), return_dict=True)["reward_tensor"]
    assert expected.sum(-1).tolist() == [0.5] * len(batch)  # old verl: the RM's scores
    driver.score_batch(driver.scorer_for_config(config, tokenizer), batch)
    assert torch.equal(batch.batch["rm_scores"], expected)


def test_the_placeholder_is_taken_off_and_only_it(shim, model, tokenizer, placeholder):
    """Without a reward model the workers' rm_scores are verl-compat's placeholder: the manager scores
    the batch old verl gave it, which had no rm_scores."""
    config = config_for(model, *importlib_overrides(*NAIVE))
    placeholder(True)
    batch = with_rm_scores(step_batch(tokenizer), 0.0)
    expected = old_naive(tokenizer)(step_batch(tokenizer), return_dict=True)["reward_tensor"]
    assert expected.sum(-1).tolist() == [1.0, 0.0] * 3
    driver.score_batch(driver.scorer_for_config(config, tokenizer), batch)
    assert torch.equal(batch.batch["rm_scores"], expected)


def test_validation_scores_without_the_reward_model(shim, model, tokenizer, placeholder):
    """verl 0.6.1's _validate never ran the reward model: its managers scored the rule."""
    config = config_for(model, *importlib_overrides(*NAIVE), "reward.reward_model.enable=true")
    placeholder(False)
    batch = with_rm_scores(step_batch(tokenizer), 0.5)
    batch.meta_info["validate"] = True
    expected = old_naive(tokenizer, num_examine=1)(step_batch(tokenizer), return_dict=True)["reward_tensor"]
    driver.score_batch(driver.scorer_for_config(config, tokenizer), batch)
    assert torch.equal(batch.batch["rm_scores"], expected)


# --- the dataset's columns --------------------------------------------------------------------------


def dataset_batch(tokenizer):
    """A step batch before generation, with the columns of verl's preprocessed parquet files."""
    batch = step_batch(tokenizer, n=1)
    rows = len(batch)
    # The scorer is chosen by the reward_fn_key column: data_source names no scorer verl has.
    batch.non_tensor_batch["data_source"] = np.array(["no/such-scorer"] * rows, dtype=object)
    batch.non_tensor_batch["ability"] = np.array(["openai/gsm8k"] * rows, dtype=object)
    batch.non_tensor_batch["index"] = np.array(list(range(100, 100 + rows)), dtype=object)
    batch.non_tensor_batch["raw_prompt"] = np.array(
        [[{"role": "user", "content": f"q{i}"}] for i in range(rows)], dtype=object
    )
    batch.non_tensor_batch["uid"] = np.array([f"uid{i}" for i in range(rows)], dtype=object)
    return batch


def split_and_rejoin(trainer, batch, n=2):
    """What verl 0.9.1's fit does around the rollout: ``_get_gen_batch`` (verl's own, wrapped), the
    batch repeated per response, the agent loop's output without the moved columns (as with no
    colocated reward model), the union, and the rows reordered (balance_batch)."""
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    gen_batch = RayPPOTrainer._get_gen_batch(trainer, batch)
    assert "ability" not in batch.non_tensor_batch  # verl moved it into the generation batch
    output = gen_batch.repeat(n, interleave=True)
    for key in list(output.non_tensor_batch):
        if key not in ("data_source", "reward_model", "extra_info", "uid"):
            del output.non_tensor_batch[key]
    batch = batch.repeat(n, interleave=True)
    batch.non_tensor_batch.update(output.non_tensor_batch)
    order = torch.tensor(list(reversed(range(len(batch)))))
    batch.reorder(order)
    return batch


def test_the_dataset_columns_reach_the_old_manager(shim, model, tokenizer, placeholder):
    """Review finding 3: data.reward_fn_key=ability, a column of the dataset: verl 0.9.1's step batch
    no longer has it (KeyError in the old manager); old verl's had every column."""
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    config = config_for(model, *importlib_overrides(*NAIVE), "data.reward_fn_key=ability")
    scorer = driver.scorer_for_config(config, tokenizer)
    driver.set_current(scorer)
    trainer = object.__new__(RayPPOTrainer)  # _get_gen_batch reads only its argument
    batch = split_and_rejoin(trainer, dataset_batch(tokenizer))
    old = copy.deepcopy(batch)
    original = dataset_batch(tokenizer)
    by_uid = {uid: i for i, uid in enumerate(original.non_tensor_batch["uid"].tolist())}
    rows = [by_uid[uid] for uid in old.non_tensor_batch["uid"].tolist()]
    for key in ("ability", "index", "raw_prompt"):
        old.non_tensor_batch[key] = original.non_tensor_batch[key][rows]
    expected = old_naive(tokenizer, reward_fn_key="ability")(old, return_dict=True)["reward_tensor"]
    assert expected.sum(-1).tolist() == [1.0] * 6  # gsm8k scores the right answers (data_source would raise)
    driver.score_batch(scorer, batch)
    assert torch.equal(batch.batch["rm_scores"], expected)
    assert "ability" not in batch.non_tensor_batch  # taken back off: the rest of verl's fit sees its own batch


def test_what_the_manager_sees_is_each_rows_own_column(shim, model, tokenizer, placeholder):
    """The columns go back by uid, through the repeat and the reordering."""
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    seen = []

    def reward_fn(data, return_dict=False):
        seen.append((list(data.non_tensor_batch["uid"]), list(data.non_tensor_batch["index"])))
        return user_reward_fn(data, return_dict)

    config = config_for(model)
    driver.set_current(driver.scorer_for_config(config, tokenizer, reward_fn=reward_fn))
    batch = split_and_rejoin(object.__new__(RayPPOTrainer), dataset_batch(tokenizer))
    driver.score_batch(driver.current(), batch)
    uids, indexes = seen[0]
    assert [100 + int(uid[3:]) for uid in uids] == indexes


# --- data.reward_fn_key -----------------------------------------------------------------------------


def test_reward_fn_key_is_read_as_old_naive_read_it(shim, model, tokenizer, placeholder):
    """Review finding 6: today's naive reads 'data_source' whatever data.reward_fn_key says; verl's old
    class (which reads the key's column) scores instead, on the whole batch."""
    from verl.trainer.ppo.reward import resolve_reward_manager_cls
    from verl.workers.reward_manager.naive import NaiveRewardManager

    from verl_compat.fixes.old_rewards import adapter, report

    config = config_for(model, "data.reward_fn_key=ability")
    path = resolve.reward_path(config)
    assert path.kind == "old" and path.cls is NaiveRewardManager and path.found == "data.reward_fn_key=ability"
    assert adapter.adapted_class(resolve_reward_manager_cls(config)) is NaiveRewardManager
    assert report.describe(config)["rows"] == [
        ("reward path", "manager naive (verl's old class, for data.reward_fn_key=ability: whole batch in the driver)")
    ]
    batch = step_batch(tokenizer)
    batch.non_tensor_batch["ability"] = np.array(["math"] * len(batch), dtype=object)
    seen = []
    scorer = driver.scorer_for_config(config, tokenizer)
    manager = scorer.callable_for(False)
    manager.compute_score = lambda data_source, **kw: seen.append(data_source) or 1.0
    driver.score_batch(scorer, batch)
    assert seen == ["math"] * len(batch)  # old verl's data source: the reward_fn_key column


def test_the_default_reward_fn_key_stays_native(shim, model):
    assert resolve.reward_path(config_for(model, "data.reward_fn_key=data_source")).kind == "native"


# --- old fit() loops --------------------------------------------------------------------------------


def built(config, **reward_fns):
    result = run_fit(config, trainer_cls=build_only, reward_fns=reward_fns)
    assert isinstance(result.error, Built), result.error
    return result.error.trainer


def test_the_trainer_keeps_reward_fn_and_val_reward_fn(shim, tmp_path):
    """Review finding 4: old recipe fit() loops read self.reward_fn / self.val_reward_fn (verl 0.6.1
    ray_trainer.py:312-313 set them)."""
    trainer = built(compose_config([], tmp_path), reward_fn=user_reward_fn, val_reward_fn=user_reward_fn)
    assert trainer.reward_fn is user_reward_fn and trainer.val_reward_fn is user_reward_fn


def test_an_old_managers_trainer_has_the_two_instances_old_main_ppo_built(shim, tmp_path):
    from old_reward_managers import GroupRewardManager

    config = compose_config(importlib_overrides("old_reward_managers", "GroupRewardManager"), tmp_path)
    trainer = built(config)
    assert type(trainer.reward_fn) is GroupRewardManager and trainer.reward_fn.num_examine == 0
    assert type(trainer.val_reward_fn) is GroupRewardManager and trainer.val_reward_fn.num_examine == 1


def test_only_reward_fn_means_no_validation_as_before(shim, tmp_path):
    """Review finding 8: verl 0.6.1 validated only with a val_reward_fn."""
    trainer = built(compose_config([], tmp_path), reward_fn=user_reward_fn)
    assert trainer.config.trainer.val_before_train is False and trainer.config.trainer.test_freq == -1
    assert trainer.val_reward_fn is None


def test_only_val_reward_fn_stops_before_any_worker(shim, tmp_path):
    """verl 0.6.1 failed on the first training batch (compute_reward(batch, None)); verl 0.7.1+ would
    train on its own default scorer."""
    result = run_fit(compose_config([], tmp_path), reward_fns={"val_reward_fn": user_reward_fn})
    assert isinstance(result.error, OldRewardManagerError)
    assert "val_reward_fn=) without reward_fn=" in str(result.error).replace("(val_reward_fn=...)", "val_reward_fn=)")
    assert result.actor_calls == []


def test_filter_groups_on_verls_own_fit_stops_before_any_worker(shim, tmp_path):
    """Review finding 7: RayPPOTrainer.fit never reads algorithm.filter_groups (only the v1 trainer,
    which cannot call old reward code, does): it would train on every group without a word."""
    config = compose_config(["algorithm.filter_groups.enable=true"], tmp_path)
    result = run_fit(config, reward_fns={"reward_fn": user_reward_fn, "val_reward_fn": user_reward_fn})
    assert isinstance(result.error, OldRewardManagerError)
    assert "algorithm.filter_groups.enable=true" in str(result.error) and "Nothing was started" in str(result.error)
    assert result.actor_calls == []


def test_filter_groups_in_a_recipes_own_fit_is_its_own(shim, tmp_path):
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    class RecipeTrainer(RayPPOTrainer):
        def fit(self):  # the old DAPO recipe's loop filtered groups itself
            raise AssertionError("not run")

    def build(*args, **kwargs):
        raise Built(RecipeTrainer(*args, **kwargs))

    config = compose_config(["algorithm.filter_groups.enable=true"], tmp_path)
    result = run_fit(config, trainer_cls=build, reward_fns={"reward_fn": user_reward_fn})
    assert isinstance(result.error, Built)


@pytest.mark.shim_errors("old_rewards")
def test_a_failed_setup_of_reward_fn_stops_instead_of_scoring_another_reward(shim, tmp_path, monkeypatch):
    """Review finding 10: the callables are off verl's call once the wrapper ran; a setup that then
    fails must not leave verl scoring with its own reward."""

    def broken(*args, **kwargs):
        raise RuntimeError("injected")

    monkeypatch.setattr(driver, "scorer_for_config", broken)
    result = run_fit(compose_config([], tmp_path), reward_fns={"reward_fn": user_reward_fn})
    assert isinstance(result.error, trainer_args.RewardFnNotKeptError)
    assert "reward_fn= given to RayPPOTrainer could not be set up" in str(result.error)
    assert result.actor_calls == []


def test_compute_reward_never_sees_the_placeholder(shim, tokenizer, placeholder):
    """Review finding 4 (the zeros hazard): an old loop's compute_reward(batch, self.reward_fn) on the
    step batch whose rm_scores are the placeholder; old managers would return those zeros."""
    from verl.trainer.ppo.reward import compute_reward

    expected = old_naive(tokenizer)(step_batch(tokenizer), return_dict=True)["reward_tensor"]
    placeholder(True)
    reward, _ = compute_reward(with_rm_scores(step_batch(tokenizer), 0.0), old_naive(tokenizer))
    assert torch.equal(reward, expected) and reward.sum() > 0
    placeholder(False)  # a reward model's scores stay: old verl gave them to the manager
    reward, _ = compute_reward(with_rm_scores(step_batch(tokenizer), 0.5), old_naive(tokenizer))
    assert reward.sum(-1).tolist() == [0.5] * 6


def test_extract_reward_where_verls_trainers_import_it_from_is_the_pass(shim, model, tokenizer, placeholder):
    """Review finding 5: a fit() copied from verl 0.9.1 imports extract_reward from
    verl.trainer.ppo.reward (ray_trainer.py:51); that name scores with the old code too."""
    from verl.trainer.ppo import reward

    from verl_compat import wrapping

    assert wrapping.wrapped_by(reward.extract_reward, driver.NAME) is not None
    config = config_for(model, *importlib_overrides(*NAIVE))
    driver.set_current(driver.scorer_for_config(config, tokenizer))
    placeholder(True)
    expected = old_naive(tokenizer)(step_batch(tokenizer), return_dict=True)["reward_tensor"]
    reward_tensor, _ = reward.extract_reward(with_rm_scores(step_batch(tokenizer), 0.0))
    assert torch.equal(reward_tensor, expected)


def test_a_step_that_never_called_the_old_code_is_named(shim, model, tokenizer, placeholder, caplog):
    """A fit() that reads rm_scores itself trains on the placeholder: named at the next step's start."""
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    config = config_for(model, *importlib_overrides(*NAIVE))
    driver.set_current(driver.scorer_for_config(config, tokenizer))
    placeholder(True)
    trainer = object.__new__(RayPPOTrainer)
    with caplog.at_level(logging.WARNING, logger="verl_compat"):
        RayPPOTrainer._get_gen_batch(trainer, dataset_batch(tokenizer))  # step 1 starts
        driver.score_batch(driver.current(), step_batch(tokenizer))  # step 1 scored the old way
        RayPPOTrainer._get_gen_batch(trainer, dataset_batch(tokenizer))  # step 2 starts
    assert caplog.text == ""
    with caplog.at_level(logging.WARNING, logger="verl_compat"):
        RayPPOTrainer._get_gen_batch(trainer, dataset_batch(tokenizer))  # step 3: step 2 never scored
    assert "training step 2 read its rewards without calling the old reward code" in caplog.text


def test_a_ragged_extra_info_in_validation_stays_as_it_was(shim, model, tokenizer, placeholder):
    """verl 0.6.1's _validate extended its lists with the values as they were."""

    def ragged(data, return_dict=False):
        out = user_reward_fn(data, return_dict=True)
        out["reward_extra_info"] = {"turns": [[1] * (i + 1) for i in range(len(data))]}
        return out

    batch = step_batch(tokenizer)
    batch.meta_info["validate"] = True
    scorer = driver.scorer_for_config(config_for(model), tokenizer, reward_fn=ragged, val_reward_fn=ragged)
    driver.score_batch(scorer, batch)
    assert [list(v) for v in batch.non_tensor_batch["turns"]] == [[1] * (i + 1) for i in range(len(batch))]
