"""Old reward setups in verl's real ``RayPPOTrainer.fit()`` (3 steps, CPU stand-ins, real Ray): the
``token_level_scores`` of every step equal what the old setup computes on the same batch.

What the trainer scored is read from verl's own per-step dump (``trainer.rollout_data_dir``:
``{step}.jsonl``, one ``score`` = ``token_level_scores.sum(-1)`` per sample, and the reward extra
info). The batch it scored is the one the old code received: the test managers and callable pickle
every batch they are called with (``old_reward_managers.record``), and the expectation is a fresh
instance, built here as verl 0.6.1 built it, called on that batch. On 0.9.1 (``newest``) the old
code runs through verl-compat; on 0.6.1, the last release that calls it itself, the same setup runs
natively and gives the same scores the same way.
"""

import copy
import json
from pathlib import Path

import pytest
from harness import compose_config, run_fit
from old_reward_managers import GroupRewardManager, PerSampleRewardManager, compute_score, recorded, user_reward_fn
from verl.utils import hf_tokenizer
from verl.utils.reward_score import default_compute_score

SUPPORT = Path(__file__).resolve().parents[1] / "support"
CUSTOM_FILE = SUPPORT / "old_reward_file.py"
STEPS = 3
N = 2  # responses per prompt: uid groups of 2
NATIVE = (
    "reward_fn"
    in __import__("inspect")
    .signature(__import__("verl.trainer.ppo.ray_trainer", fromlist=["RayPPOTrainer"]).RayPPOTrainer.__init__)
    .parameters
)  # verl <= 0.6: the trainer calls old managers and reward_fn itself

newest = pytest.mark.once
native = pytest.mark.skipif(not NATIVE, reason="verl 0.7.1+ no longer calls old reward code itself")


def group_setup_overrides(tmp_path):
    """An old custom reward file that registers the whole-batch manager, named the way old launch
    scripts named it, with the legacy keys on every release: 0.6.1 reads them, 0.7.1 and 0.8.0
    migrate them in main_ppo, and on 0.9.1 verl-compat's config_keys translates them at
    composition; the old_rewards fix then finds the name in the old registry."""
    keys = [
        f"custom_reward_function.path={CUSTOM_FILE}",
        # verl 0.7.1/0.8.0's own migration copies a legacy name left unset as null over today's
        # default and then asserts it is set: scripts for those releases named the function.
        "custom_reward_function.name=compute_score",
        "reward_model.reward_manager=old_group_manager",
    ]
    return [*keys, f"actor_rollout_ref.rollout.n={N}", f"trainer.rollout_data_dir={tmp_path / 'rollout'}"]


def step_scores(result) -> dict[int, list[dict]]:
    """``step -> rows`` verl itself dumped for each training step."""
    executor = getattr(result.trainer, "_dump_executor", None)
    if executor is not None:
        executor.shutdown(wait=True)  # verl writes the dumps in a background thread
    folder = Path(result.config.trainer.rollout_data_dir)
    return {
        int(path.stem): [json.loads(line) for line in path.read_text().splitlines()] for path in folder.glob("*.jsonl")
    }


def assert_each_step_is_the_old_setups(result, kind, expected_for, batch_size, extra_keys):
    result.raise_error()
    steps = step_scores(result)
    assert sorted(steps) == list(range(1, STEPS + 1))
    batches = recorded(Path(result.config.trainer.default_local_dir).parent / "calls", kind)
    training = batches[0]
    assert len(training) == STEPS, "one call per training step, on the driver's batch, none in the reward workers"
    assert len(batches[1]) >= 1, "validation scored with the num_examine=1 instance"
    for step, batch in zip(range(1, STEPS + 1), training, strict=True):
        assert len(batch) == batch_size  # the whole step batch, uid groups intact
        expected = expected_for(copy.deepcopy(batch))
        assert [row["score"] for row in steps[step]] == pytest.approx(expected["reward_tensor"].sum(-1).tolist())
        for key in extra_keys:
            assert [row[key] for row in steps[step]] == pytest.approx(list(expected["reward_extra_info"][key]))


def old_manager(cls, tokenizer, compute_score, **kwargs):
    return cls(tokenizer=tokenizer, num_examine=0, compute_score=compute_score, reward_fn_key="data_source", **kwargs)


@newest
def test_an_old_per_sample_manager_by_importlib(shim, tmp_path):
    config = compose_config(
        [
            "reward.reward_manager.source=importlib",
            "reward.reward_manager.module.path=pkg://old_reward_managers",
            "reward.reward_manager.name=PerSampleRewardManager",
            "+reward.reward_kwargs.bonus=0.5",
            f"trainer.rollout_data_dir={tmp_path / 'rollout'}",
        ],
        tmp_path,
    )
    tokenizer = hf_tokenizer(config.actor_rollout_ref.model.path)
    manager = old_manager(PerSampleRewardManager, tokenizer, default_compute_score, bonus=0.5)
    result = run_fit(config)
    assert_each_step_is_the_old_setups(
        result, "per_sample", lambda b: manager(b, return_dict=True), batch_size=2, extra_keys=["acc"]
    )


# Adapted: on 0.7.1 (whose reward workers build the class inside load_reward_manager) and the newest.
@pytest.mark.parametrize(
    "where", [pytest.param("adapted", marks=pytest.mark.sides), pytest.param("native", marks=native)]
)
def test_a_whole_batch_manager_registered_by_the_custom_reward_file(shim, tmp_path, where):
    config = compose_config(group_setup_overrides(tmp_path), tmp_path)
    tokenizer = hf_tokenizer(config.actor_rollout_ref.model.path)
    manager = old_manager(GroupRewardManager, tokenizer, compute_score)
    result = run_fit(config)
    assert_each_step_is_the_old_setups(
        result,
        "file_group",
        lambda b: manager(b, return_dict=True),
        batch_size=2 * N,
        extra_keys=["acc", "group_bonus"],
    )
    # The scores depend on the group: each sample got its group's size (2) in its score.
    assert all(row["group_bonus"] >= 0.5 for rows in step_scores(result).values() for row in rows)


@pytest.mark.parametrize("where", [pytest.param("adapted", marks=newest), pytest.param("native", marks=native)])
def test_a_users_reward_fn_scores_training_and_validation(shim, tmp_path, where):
    config = compose_config([f"trainer.rollout_data_dir={tmp_path / 'rollout'}"], tmp_path)
    result = run_fit(config, reward_fns={"reward_fn": user_reward_fn, "val_reward_fn": user_reward_fn})
    assert_each_step_is_the_old_setups(
        result, "reward_fn", lambda b: user_reward_fn(b, return_dict=True), batch_size=2, extra_keys=["length"]
    )
    assert all(row["score"] == 1.5 for rows in step_scores(result).values() for row in rows)
    if where == "adapted":  # verl's reward workers ran a placeholder, not verl's default scorer
        assert result.trainer.config.reward.reward_manager.name == "DriverScoredRewardManager"


@newest
def test_a_name_the_launcher_registered_reaches_the_taskrunner_and_workers(shim, tmp_path):
    """Through verl's own ``run_ppo``: the launcher (this process) registered the whole-batch manager
    with the old ``register``; the TaskRunner and reward worker processes never ran that import, so
    ``run_ppo``'s config step points the config at the class's module, and the trainer (in the
    TaskRunner actor) scores each step with it on the whole batch."""
    from harness import run_ppo_fit
    from verl.workers.reward_manager import register
    from verl.workers.reward_manager.registry import REWARD_MANAGER_REGISTRY

    if "launcher_group" not in REWARD_MANAGER_REGISTRY:
        register("launcher_group")(GroupRewardManager)
    config = compose_config(
        [
            "reward.reward_manager.name=launcher_group",
            f"actor_rollout_ref.rollout.n={N}",
            f"trainer.rollout_data_dir={tmp_path / 'rollout'}",
        ],
        tmp_path,
    )
    result = run_ppo_fit(config)
    tokenizer = hf_tokenizer(config.actor_rollout_ref.model.path)
    manager = old_manager(GroupRewardManager, tokenizer, default_compute_score)
    assert_each_step_is_the_old_setups(
        result, "group", lambda b: manager(b, return_dict=True), batch_size=2 * N, extra_keys=["acc", "group_bonus"]
    )
