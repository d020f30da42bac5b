#!/usr/bin/env python3
"""What old_math's loss patch costs per micro-batch, beside verl's own loss on the same tensors.

    .venvs/verl-0.9.1/bin/python benchmarks/old_math_loss_cost.py [--micro 4] [--response 1024]

One micro-batch as 0.9.1's actor and critic receive it (the trainer's ``left_right_2_no_padding``
layout, ``ppo_micro_batch_size_per_gpu`` sequences of ``--response`` tokens), the loss called as the
engine calls it: verl's ``ppo_loss``/``value_loss`` alone, then wrapped by the patch with its switch
on, forward and backward, interleaved, best of ``--repeats`` rounds. The budget is 1 % (issue 43).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from functools import partial

import torch


def micro_batch(sequences: int, prompt: int, response: int):
    from tensordict import TensorDict
    from verl.utils import tensordict_utils as tu
    from verl.workers.utils.padding import left_right_2_no_padding

    attention_mask = torch.ones(sequences, prompt + response, dtype=torch.long)
    input_ids = torch.randint(1, 1000, (sequences, prompt + response))
    batch = TensorDict(
        {
            "input_ids": input_ids,
            "attention_mask": attention_mask,
            "position_ids": attention_mask.cumsum(-1) - 1,
            "response_mask": attention_mask[:, prompt:].clone(),
            "prompts": input_ids[:, :prompt],
            "responses": input_ids[:, prompt:],
            "old_log_probs": -torch.rand(sequences, response),
            "advantages": torch.randn(sequences, response),
            "ref_log_prob": -torch.rand(sequences, response),
            "values": torch.randn(sequences, response),
            "returns": torch.randn(sequences, response),
        },
        batch_size=[sequences],
    )
    data = left_right_2_no_padding(batch)
    tokens = int(data["loss_mask"].sum())
    tu.assign_non_tensor(data, dp_size=1, batch_num_tokens=tokens * 4, global_batch_size=sequences * 4)
    return data


def model_output(data, field: str):
    values = torch.randn(data["input_ids"].values().shape[0], requires_grad=True)
    nested = torch.nested.nested_tensor_from_jagged(values, offsets=data["input_ids"].offsets())
    if field == "values":
        return {"values": nested}, values
    return {"log_probs": nested, "entropy": nested.detach()}, values


def seconds(loss_function, data, field: str, calls: int) -> float:
    outputs = [model_output(data, field) for _ in range(calls)]
    start = time.perf_counter()
    for output, _ in outputs:
        loss, _ = loss_function(model_output=output, data=data, dp_group=None)
        loss.backward()
    return (time.perf_counter() - start) / calls


def patch_work(data, config, calls: int) -> float:
    """What the wrapper adds to one call, alone: the switch, the scope check, the factor, the product
    (the end-to-end difference of two ~ms calls is mostly the machine's noise)."""
    from verl_compat.fixes.old_math import loss as legacy

    loss = torch.tensor(1.0, requires_grad=True) * 2
    in_scope = legacy.actor_in_scope if hasattr(config, "policy_loss") else legacy.critic_in_scope
    start = time.perf_counter()
    for _ in range(calls):
        if legacy.wanted() and in_scope(config):
            loss * legacy.legacy_factor(data, getattr(config, "global_batch_info", None))
    return (time.perf_counter() - start) / calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--micro", type=int, default=4)
    parser.add_argument("--prompt", type=int, default=512)
    parser.add_argument("--response", type=int, default=1024)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()

    import wrapt
    from verl.workers.config.actor import FSDPActorConfig
    from verl.workers.config.critic import FSDPCriticConfig
    from verl.workers.utils import losses

    from verl_compat.fixes.old_math import loss as legacy

    torch.manual_seed(0)
    data = micro_batch(args.micro, args.prompt, args.response)
    actor = FSDPActorConfig(
        strategy="fsdp", rollout_n=1, ppo_mini_batch_size=16, ppo_micro_batch_size_per_gpu=4, use_kl_loss=True
    )
    critic = object.__new__(FSDPCriticConfig)  # its __post_init__ wants a model; value_loss reads these
    fields = {"strategy": "fsdp", "loss_agg_mode": "token-mean", "loss_scale_factor": None, "cliprange_value": 0.5}
    for key, value in fields.items():
        object.__setattr__(critic, key, value)
    wrappers = {patch.path: patch.wrapper for patch in legacy.patches_for(losses)}
    os.environ[legacy.ENV] = "1"
    print(f"one micro-batch: {args.micro} sequences × {args.prompt}+{args.response} tokens, torch {torch.__version__}")
    worst = 0.0
    for name, config, field in (("ppo_loss", actor, "log_probs"), ("value_loss", critic, "values")):
        own = partial(getattr(losses, name), config=config)
        patched = partial(wrapt.FunctionWrapper(getattr(losses, name), wrappers[name]), config=config)
        best = {"verl": float("inf"), "patched": float("inf")}
        for _ in range(args.repeats):
            best["verl"] = min(best["verl"], seconds(own, data, field, args.calls))
            best["patched"] = min(best["patched"], seconds(patched, data, field, args.calls))
        own_work = min(patch_work(data, config, args.calls) for _ in range(args.repeats))
        overhead = own_work / best["verl"] * 100
        worst = max(worst, overhead)
        print(
            f"{name:10s} verl {best['verl'] * 1e6:8.1f} µs   patched {best['patched'] * 1e6:8.1f} µs "
            f"(difference {(best['patched'] - best['verl']) * 1e6:+.1f} µs, noise included)   "
            f"the patch's own work {own_work * 1e6:.1f} µs = {overhead:.3f} %"
        )
    print(f"budget 1 %: {'met' if worst <= 1.0 else 'EXCEEDED'}")
    return 0 if worst <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
