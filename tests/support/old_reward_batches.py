"""Inputs of the old_rewards tests: verl's config for a reward setup, and a step batch as the
trainer holds it (uid groups of ``n`` responses per prompt)."""

from pathlib import Path

import numpy as np
import torch
from verl import DataProto
from verl_config import verl_compose

CUSTOM_FILE = Path(__file__).resolve().parent / "old_reward_file.py"


def config_for(model, *overrides):
    return verl_compose([f"actor_rollout_ref.model.path={model}", "reward.num_workers=1", *overrides])


def importlib_overrides(module, name):
    return [
        "reward.reward_manager.source=importlib",
        f"reward.reward_manager.module.path=pkg://{module}",
        f"reward.reward_manager.name={name}",
    ]


def step_batch(tokenizer, n=2, prompts=3):
    """A step batch as the trainer holds it: ``prompts`` prompts, ``n`` responses each (uid groups),
    right answers for even rows, wrong ones for odd rows, the chat of each prompt in ``raw_prompt``
    (which verl's reward loop reads; ``benchmarks/old_rewards_cost.py`` scores this batch too)."""
    rows, p_len, r_len = [], 8, 8
    for p in range(prompts):
        for k in range(n):
            truth = 10 + p
            rows.append((f"what is {p} plus 10 ?", f"the answer is #### {truth + (k % 2)}", str(truth), f"u{p}"))
    prompt_ids = torch.full((len(rows), p_len), tokenizer.pad_token_id)
    response_ids = torch.full((len(rows), r_len), tokenizer.pad_token_id)
    mask = torch.zeros((len(rows), p_len + r_len), dtype=torch.long)
    for i, (prompt, response, _, _) in enumerate(rows):
        p = tokenizer.encode(prompt, add_special_tokens=False)
        r = [*tokenizer.encode(response, add_special_tokens=False), tokenizer.eos_token_id]
        prompt_ids[i, p_len - len(p) :], mask[i, p_len - len(p) : p_len] = torch.tensor(p), 1
        response_ids[i, : len(r)], mask[i, p_len : p_len + len(r)] = torch.tensor(r), 1
    return DataProto.from_dict(
        tensors={
            "prompts": prompt_ids,
            "responses": response_ids,
            "input_ids": torch.cat([prompt_ids, response_ids], dim=1),
            "attention_mask": mask,
        },
        non_tensors={
            "data_source": np.array(["openai/gsm8k"] * len(rows), dtype=object),
            "reward_model": np.array([{"ground_truth": t, "style": "rule"} for *_, t, _ in rows], dtype=object),
            "extra_info": np.array([{"index": i} for i in range(len(rows))], dtype=object),
            "uid": np.array([u for *_, u in rows], dtype=object),
            "raw_prompt": np.array([[{"role": "user", "content": r[0]}] for r in rows], dtype=object),
        },
    )
