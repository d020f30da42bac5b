"""Old launch scripts' reward keys in verl's real ``RayPPOTrainer.fit()`` (3 steps, CPU stand-ins,
real Ray, verl's real reward loop workers): each step's ``token_level_scores``, as the actor
receives them for its update (tests/support/standins.py logs them with the samples they score),
equal what the old setup computes on those very samples.

On verl 0.9 the legacy keys compose but nothing reads them (verl#6710): without verl-compat these
runs score with the naive manager and verl's default scorer (the baseline in
tests/fixes/config_keys/test_compose_unread.py). 0.7.1 (``sides``) migrates them itself: the same
setup gives the same scores there, through the translation-free path.
"""

import textwrap

import pytest
import torch
from harness import compose_config, run_fit
from omegaconf import OmegaConf
from verl import DataProto
from verl.utils import hf_tokenizer

from verl_compat.fixes.config_keys import readers
from verl_compat.fixes.config_keys.table import LEGACY_REWARD

MAX_RESP_LEN, BUFFER_LEN, PENALTY = 8, 4, 0.5  # the stand-in's answers are 6 tokens (5 and EOS): each is penalised


def scored_rows(result) -> list[dict]:
    """Every sample the actor updated on, over all steps and ranks (3 steps of 2 samples)."""
    rows = [row for rank in result.calls.get("scores", []) for call in rank for row in call["kwargs"]["rows"]]
    assert len(rows) == 6, rows
    return rows


def decode(tokenizer, ids) -> str:
    """As verl's old managers decode a response: special tokens skipped, a trailing EOS cut."""
    text = tokenizer.decode(ids, skip_special_tokens=True)
    return text[: -len(tokenizer.eos_token)] if text.endswith(tokenizer.eos_token) else text


def at_last_token(row: dict, score: float) -> list:
    expected = [0.0] * len(row["scores"])
    expected[len(row["response_ids"]) - 1] = score
    return expected


REWARD_FILE = """\
def my_fn(data_source, solution_str, ground_truth, extra_info=None):
    # Not verl's gsm8k scorer: 2.0 for the right answer, else minus the number of characters.
    return 2.0 if solution_str.endswith("#### " + ground_truth) else -float(len(solution_str))
"""


@pytest.mark.once
def test_old_custom_reward_function_keys_score_every_step(shim, shim_warnings, tmp_path):
    reward = tmp_path / "my_reward.py"
    reward.write_text(textwrap.dedent(REWARD_FILE))
    config = compose_config([f"custom_reward_function.path={reward}", "custom_reward_function.name=my_fn"], tmp_path)
    moved = not readers.calls(LEGACY_REWARD.entry, LEGACY_REWARD.function)
    if moved:  # where the release migrates the block itself, its main() does it (run_fit, as main_ppo)
        assert config.reward.custom_reward_function.path == str(reward)
    result = run_fit(config)
    result.raise_error()

    namespace: dict = {}
    exec(compile(reward.read_text(), str(reward), "exec"), namespace)
    tokenizer = hf_tokenizer(config.actor_rollout_ref.model.path)
    rows = scored_rows(result)
    for row in rows:
        score = namespace["my_fn"](
            row["data_source"], decode(tokenizer, row["response_ids"]), row["reward_model"]["ground_truth"]
        )
        assert row["scores"] == pytest.approx(at_last_token(row, score)), row
    # Both branches of the user's function ran (a default scorer gives neither 2.0 nor a negative).
    assert {max(r["scores"]) == 2.0 for r in rows} == {True, False}
    # One warning where verl-compat moved the keys; none where the release migrates them itself
    # (a run of this test by hand on 0.7.1 / 0.8.0, VERL_COMPAT_TEST_NEWEST=0.8.0).
    assert sum("custom_reward_function.path is still declared" in w for w in shim_warnings()) == int(moved)


@pytest.mark.sides
def test_old_dapo_manager_with_overlong_penalty_scores_every_step(shim, tmp_path):
    overrides = [
        "reward_model.reward_manager=dapo",
        f"+reward_model.reward_kwargs.max_resp_len={MAX_RESP_LEN}",
        "+reward_model.reward_kwargs.overlong_buffer_cfg.enable=True",
        f"+reward_model.reward_kwargs.overlong_buffer_cfg.len={BUFFER_LEN}",
        f"+reward_model.reward_kwargs.overlong_buffer_cfg.penalty_factor={PENALTY}",
        "+reward_model.reward_kwargs.overlong_buffer_cfg.log=False",
    ]
    config = compose_config(overrides, tmp_path)
    result = run_fit(config)
    result.raise_error()

    # The old setup: verl's old-contract DAPO manager (verl.workers.reward_manager, still shipped),
    # built as old main_ppo built it, called on the samples the actor received.
    from verl.workers.reward_manager.dapo import DAPORewardManager

    tokenizer = hf_tokenizer(config.actor_rollout_ref.model.path)
    old = DAPORewardManager(
        tokenizer,
        num_examine=0,
        reward_fn_key="data_source",
        max_resp_len=MAX_RESP_LEN,
        overlong_buffer_cfg=OmegaConf.create(
            {"enable": True, "len": BUFFER_LEN, "penalty_factor": PENALTY, "log": False}
        ),
    )
    rows = scored_rows(result)
    width = len(rows[0]["scores"])
    responses = torch.full((len(rows), width), tokenizer.pad_token_id, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for i, row in enumerate(rows):
        responses[i, : len(row["response_ids"])] = torch.tensor(row["response_ids"])
        mask[i, : len(row["response_ids"])] = 1
    batch = DataProto.from_dict(
        tensors={
            "prompts": torch.zeros((len(rows), 1), dtype=torch.long),
            "responses": responses,
            "attention_mask": torch.cat([torch.zeros((len(rows), 1), dtype=torch.long), mask], dim=1),
        },
        non_tensors={
            "data_source": [row["data_source"] for row in rows],
            "reward_model": [row["reward_model"] for row in rows],
            "extra_info": [row["extra_info"] for row in rows],
        },
    )
    expected = old(batch)
    assert torch.tensor([row["scores"] for row in rows]) == pytest.approx(expected), (rows, expected)
    # The overlong penalty applied (verl's gsm8k scorer alone gives 0 or 1): right answers score
    # 1 - penalty, wrong ones -penalty.
    totals = sorted({round(float(t), 4) for t in expected.sum(-1)})
    assert len(totals) == 2 and all(t not in (0.0, 1.0) for t in totals), totals
