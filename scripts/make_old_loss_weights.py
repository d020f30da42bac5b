#!/usr/bin/env python3
"""The legacy FSDP workers' loss gradients, as verl 0.7.1's own code computes them, for
``verl_compat/fixes/old_math/loss.py``'s equality test (tests/fixes/old_math/test_loss.py).

    .venvs/verl-0.7.1/bin/python scripts/make_old_loss_weights.py    # rewrites the data file

0.7.1's ``DataParallelPPOActor.update_policy`` and ``DataParallelPPOCritic.update_critic`` run
unchanged on each DP rank's share of a batch; only the model and the optimizer step are stand-ins.
The model is a table: a sequence's response log-probs are rows of the parameter ``theta`` (its
entropies of ``eta``, its values of ``phi``), found by the sequence's id in its last prompt token, so
the gradient on ``theta`` is each token's weight times its loss derivative. The optimizer step keeps
each mini-batch's gradients and steps nothing; the ranks' gradients are averaged, as FSDP does.
The file keeps the inputs with the gradients: the 0.9.1 side reads both.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import torch

DATA = Path(__file__).resolve().parents[1] / "tests" / "fixes" / "old_math" / "data" / "loss_weights_0.7.1.json"

PROMPT, RESPONSE = 4, 6  # padded widths: prompts left-padded, responses right-padded
RANK_SEQUENCES = 16  # per DP rank: two mini-batches of MINI (two, so the old actor is off-policy)
MINI = 8  # ppo_mini_batch_size × rollout.n ÷ dp: the worker's normalised mini-batch
ID_BASE = 1000  # a sequence's id, in its last prompt token

# (role, dp, ppo_micro_batch_size_per_gpu, ppo_max_token_len_per_gpu): a number for the micro-batch,
# or None with a token budget (use_dynamic_bsz). At 28 tokens both DP ranks cut each mini-batch into
# as many micro-batches; at 16 they do not (3 and 4), and 0.9.1 cuts every rank into the largest
# count where the old workers cut each rank alone: UNEQUAL_COUNTS, the case no patch of the loss
# makes equal.
CASES = tuple(
    (role, dp, micro, budget)
    for role in ("actor", "critic")
    for dp in (1, 2)
    for micro, budget in ((1, None), (2, None), (4, None), (None, 16), (None, 28))
)

UNEQUAL_COUNTS = ("actor-dp2-dyn16", "critic-dp2-dyn16")


def case_name(case) -> str:
    role, dp, micro, budget = case
    return f"{role}-dp{dp}-" + (f"micro{micro}" if budget is None else f"dyn{budget}")


def inputs() -> dict[str, torch.Tensor]:
    """Two ranks' worth of sequences of every shape the widths allow (float32, as verl trains)."""
    generator = torch.Generator().manual_seed(6067)
    total = 2 * RANK_SEQUENCES
    prompt_lens = torch.randint(1, PROMPT + 1, (total,), generator=generator)
    response_lens = torch.randint(1, RESPONSE + 1, (total,), generator=generator)
    attention_mask = torch.zeros(total, PROMPT + RESPONSE, dtype=torch.long)
    for i in range(total):
        attention_mask[i, PROMPT - prompt_lens[i] : PROMPT] = 1
        attention_mask[i, PROMPT : PROMPT + response_lens[i]] = 1
    input_ids = torch.randint(1, ID_BASE, (total, PROMPT + RESPONSE), generator=generator) * attention_mask
    input_ids[:, PROMPT - 1] = ID_BASE + torch.arange(total)
    theta = -torch.rand(total, RESPONSE, generator=generator) * 2  # current log-probs
    return {
        "input_ids": input_ids,
        "attention_mask": attention_mask,
        "position_ids": (attention_mask.cumsum(-1) - 1).clamp(min=0),
        "response_mask": attention_mask[:, PROMPT:].clone(),
        "theta": theta,
        "old_log_probs": theta + 0.3 * torch.randn(total, RESPONSE, generator=generator),
        "ref_log_prob": theta + 0.3 * torch.randn(total, RESPONSE, generator=generator),
        "advantages": torch.randn(total, RESPONSE, generator=generator),
        "eta": torch.rand(total, RESPONSE, generator=generator),  # current entropies
        "phi": torch.randn(total, RESPONSE, generator=generator),  # current values
        "values": torch.randn(total, RESPONSE, generator=generator),
        "returns": torch.randn(total, RESPONSE, generator=generator),
    }


# The loss settings both sides use (0.7.1's actor config fields, the same names on 0.9.1).
ACTOR = {
    "clip_ratio": 0.2,
    "entropy_coeff": 0.01,
    "use_kl_loss": True,
    "kl_loss_coef": 0.1,
    "kl_loss_type": "low_var_kl",
}
CRITIC = {"cliprange_value": 0.5}


def _ids(model_inputs) -> torch.Tensor:
    return model_inputs["input_ids"][:, PROMPT - 1] - ID_BASE


class _Recorder:
    """The stand-in optimizer step: keeps the gradients of each mini-batch, steps nothing."""

    def __init__(self, parameters: dict[str, torch.nn.Parameter]):
        self.parameters, self.steps = parameters, []

    def __call__(self):
        self.steps.append(
            {name: torch.zeros_like(p) if p.grad is None else p.grad.clone() for name, p in self.parameters.items()}
        )
        return torch.tensor(0.0)


def _rank_gradients(case, data: dict[str, torch.Tensor], rank: int) -> list[dict[str, torch.Tensor]]:
    from verl import DataProto

    role, _, micro, budget = case
    rows = slice(rank * RANK_SEQUENCES, (rank + 1) * RANK_SEQUENCES)
    names = ("theta", "eta") if role == "actor" else ("phi",)
    parameters = {name: torch.nn.Parameter(data[name].clone()) for name in names}
    module = torch.nn.Module()
    for name, parameter in parameters.items():
        module.register_parameter(name, parameter)
    optimizer = torch.optim.SGD(list(parameters.values()), lr=0.0)
    recorder = _Recorder(parameters)
    keys = ["input_ids", "attention_mask", "position_ids", "response_mask"]
    batching = {
        "ppo_mini_batch_size": MINI,
        "ppo_micro_batch_size_per_gpu": micro,
        "use_dynamic_bsz": budget is not None,
        "ppo_max_token_len_per_gpu": budget or 16384,
        "ppo_epochs": 1,
    }
    if role == "actor":
        from verl.workers.actor.dp_actor import DataParallelPPOActor
        from verl.workers.config.actor import FSDPActorConfig

        worker = object.__new__(DataParallelPPOActor)
        worker.config = FSDPActorConfig(rollout_n=1, loss_agg_mode="token-mean", **batching, **ACTOR)
        worker.actor_module, worker.actor_optimizer = module, optimizer
        worker.ulysses_sequence_parallel_size, worker.use_prefix_grouper, worker.scaler = 1, False, None
        worker._forward_micro_batch = lambda inputs, temperature, calculate_entropy=False: {
            "log_probs": parameters["theta"][_ids(inputs)],
            "entropys": parameters["eta"][_ids(inputs)],
        }
        worker._optimizer_step = recorder
        keys += ["old_log_probs", "advantages", "ref_log_prob"]
        update = worker.update_policy
    else:
        from omegaconf import OmegaConf
        from verl.workers.critic.dp_critic import DataParallelPPOCritic

        worker = object.__new__(DataParallelPPOCritic)
        worker.config = OmegaConf.create(dict(loss_agg_mode="token-mean", **batching, **CRITIC))
        worker.critic_module, worker.critic_optimizer = module, optimizer
        worker.ulysses_sequence_parallel_size = 1
        worker._forward_micro_batch = lambda inputs: parameters["phi"][_ids(inputs)]
        worker._optimizer_step = recorder
        keys += ["values", "returns"]
        update = worker.update_critic
    batch = {key: data[key][rows] for key in keys}
    batch["responses"] = data["input_ids"][rows, PROMPT:]
    update(DataProto.from_dict(tensors=batch, meta_info={"temperature": 1.0}))
    return recorder.steps


def old_gradients(case, data: dict[str, torch.Tensor]) -> list[dict[str, torch.Tensor]]:
    """Per mini-batch, the gradient of each parameter, averaged over the DP ranks as FSDP does."""
    per_rank = [_rank_gradients(case, data, rank) for rank in range(case[1])]
    return [
        {name: sum(rank[step][name] for rank in per_rank) / len(per_rank) for name in per_rank[0][step]}
        for step in range(len(per_rank[0]))
    ]


def generate() -> dict:
    import verl

    data = inputs()
    return {
        "verl": verl.__version__,
        "widths": {"prompt": PROMPT, "response": RESPONSE, "rank_sequences": RANK_SEQUENCES, "mini": MINI},
        "actor": ACTOR,
        "critic": CRITIC,
        "inputs": {name: tensor.tolist() for name, tensor in data.items()},
        "cases": {
            case_name(case): {
                "case": list(case),
                "gradients": [
                    {name: grad.tolist() for name, grad in step.items()} for step in old_gradients(case, data)
                ],
            }
            for case in CASES
        },
    }


def main() -> int:
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps(generate(), indent=None, separators=(",", ":")) + "\n")
    print(f"wrote {DATA}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
