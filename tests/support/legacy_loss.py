"""verl 0.9.1's side of the loss-normalisation comparison (tests/fixes/old_math/test_loss.py): the
gradients its engine path gives the inputs of ``scripts/make_old_loss_weights.py``'s data file,
with and without ``verl_compat/fixes/old_math/loss.py``'s patch.

0.9.1's own ``FSDPEngine.forward_backward_batch`` (the global token count all-reduced over DP, the
micro-batches cut by ``prepare_micro_batches``), its ``ppo_loss``/``value_loss`` and its
``left_right_2_no_padding`` run on two gloo ranks; the engine object around them is a stand-in whose
``forward_step`` is the same table model as the old side's (a sequence's log-probs, entropies or
values are rows of one parameter), so the gradients compare token by token. The ranks' gradients
are averaged, as FSDP does.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import tempfile
from functools import partial
from pathlib import Path

import torch

GROUP_TIMEOUT_S = 120


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Engine:
    """What ``FSDPEngine.forward_backward_batch`` asks of its engine, around the table model."""

    ulysses_sequence_parallel_size = 1

    def __init__(self, group, parameters, field: str):
        self.group, self.parameters, self.field = group, parameters, field

    def get_data_parallel_group(self):
        return self.group

    def get_data_parallel_size(self):
        return torch.distributed.get_world_size(self.group)

    def _gradient_sync_context(self, *, is_last_micro_batch: bool):
        return contextlib.nullcontext()

    def _nested(self, rows: torch.Tensor, micro_batch) -> torch.Tensor:
        """``rows`` (one per sequence, padded to the response width) laid out as 0.9.1's model
        output: one value per token of each sequence, a response token's one token to its left
        (``no_padding_2_padding`` reads them back)."""
        input_ids = micro_batch["input_ids"]
        prompt_width = micro_batch["prompts"].shape[1]
        prompt_lens = micro_batch["attention_mask"][:, :prompt_width].sum(-1)
        response_lens = micro_batch["attention_mask"][:, prompt_width:].sum(-1)
        parts = []
        for row, prompt_len, response_len in zip(rows, prompt_lens, response_lens, strict=True):
            parts += [row.new_zeros(int(prompt_len) - 1), row[: int(response_len)], row.new_zeros(1)]
        return torch.nested.nested_tensor_from_jagged(torch.cat(parts), offsets=input_ids.offsets())

    def forward_step(self, micro_batch, loss_function, forward_only):
        ids = micro_batch["sequence_id"]
        if self.field == "values":
            model_output = {"values": self._nested(self.parameters["phi"][ids], micro_batch)}
        else:
            model_output = {
                "log_probs": self._nested(self.parameters["theta"][ids], micro_batch),
                "entropy": self._nested(self.parameters["eta"][ids], micro_batch),
            }
        loss, metrics = loss_function(model_output=model_output, data=micro_batch, dp_group=self.group)
        return loss, {"loss": loss.detach().item(), "metrics": metrics}


def _mini_batch(data: dict[str, torch.Tensor], rows: range, case, widths: dict):
    from tensordict import TensorDict
    from verl.utils import tensordict_utils as tu
    from verl.workers.utils.padding import left_right_2_no_padding

    role, dp, micro, budget = case
    prompt = widths["prompt"]
    index = torch.tensor(list(rows))
    keys = ["input_ids", "attention_mask", "position_ids", "response_mask"]
    keys += ["values", "returns"] if role == "critic" else ["old_log_probs", "advantages", "ref_log_prob"]
    batch = {key: data[key][index] for key in keys}
    batch["prompts"] = data["input_ids"][index, :prompt]
    batch["responses"] = data["input_ids"][index, prompt:]
    batch["sequence_id"] = index
    mini_batch = left_right_2_no_padding(TensorDict(batch, batch_size=[len(index)]))
    # What 0.9.1's trainer and train_mini_batch/train_batch put beside the tensors.
    tu.assign_non_tensor(
        mini_batch,
        global_batch_size=widths["mini"] * dp,
        mini_batch_size=widths["mini"] * dp,
        use_dynamic_bsz=budget is not None,
        max_token_len_per_gpu=budget or 16384,
        micro_batch_size_per_gpu=micro or 1,
        use_remove_padding=True,
        calculate_entropy=True,
    )
    return mini_batch


def _loss_function(role: str, file: dict, case):
    from verl.workers.config.actor import FSDPActorConfig
    from verl.workers.utils import losses

    role, dp, micro, budget = case
    batching = {
        "ppo_mini_batch_size": file["widths"]["mini"] * dp,
        "ppo_micro_batch_size_per_gpu": micro,
        "use_dynamic_bsz": budget is not None,
        "ppo_max_token_len_per_gpu": budget or 16384,
    }
    if role == "actor":
        config = FSDPActorConfig(strategy="fsdp", rollout_n=1, loss_agg_mode="token-mean", **batching, **file["actor"])
        return partial(losses.ppo_loss, config=config)
    from verl.workers.config.critic import FSDPCriticConfig

    config = object.__new__(FSDPCriticConfig)  # its __post_init__ wants a model; value_loss reads these
    for key, value in dict(
        strategy="fsdp", loss_agg_mode="token-mean", loss_scale_factor=None, **file["critic"]
    ).items():
        object.__setattr__(config, key, value)
    return partial(losses.value_loss, config=config)


def _rank_main(rank: int, world: int, port: int, data_file: str, out_dir: str, patch: bool) -> None:
    import datetime

    from verl.utils import seqlen_balancing
    from verl.workers.engine.fsdp import transformer_impl
    from verl.workers.engine.fsdp.transformer_impl import FSDPEngine

    # verl takes CUDA for granted where it finds no accelerator; these ranks compute on the CPU.
    transformer_impl.get_device_id = seqlen_balancing.get_device_name = lambda: "cpu"
    torch.distributed.init_process_group(
        "gloo",
        init_method=f"tcp://127.0.0.1:{port}",
        rank=rank,
        world_size=world,
        timeout=datetime.timedelta(seconds=GROUP_TIMEOUT_S),
    )
    singles = [torch.distributed.new_group([r]) for r in range(world)]
    if patch:
        import wrapt
        from verl.workers.utils import losses

        from verl_compat import wrapping
        from verl_compat.fixes.old_math import loss as legacy

        for one in legacy.patches_for(losses):
            # Where verl-compat is active in this process, old_math has wrapped the losses already.
            if wrapping.wrapped_by(getattr(losses, one.path), legacy.NAME) is None:
                wrapt.wrap_function_wrapper(losses, one.path, one.wrapper)
    file = json.loads(Path(data_file).read_text())
    data = {name: torch.tensor(value) for name, value in file["inputs"].items()}
    widths = file["widths"]
    results = {}
    for switch in ("0", "1"):
        os.environ["VERL_COMPAT_OLD_LOSS_NORMALISATION"] = switch
        for name, entry in file["cases"].items():
            case = tuple(entry["case"])
            role, dp = case[0], case[1]
            if rank >= dp:
                continue
            group = torch.distributed.group.WORLD if dp == world else singles[rank]
            names = ("theta", "eta") if role == "actor" else ("phi",)
            parameters = {key: data[key].clone().requires_grad_(True) for key in names}
            engine = _Engine(group, parameters, "values" if role == "critic" else "log_probs")
            loss_function = _loss_function(role, file, case)
            steps = []
            first = rank * widths["rank_sequences"]
            for start in range(first, first + widths["rank_sequences"], widths["mini"]):
                mini_batch = _mini_batch(data, range(start, start + widths["mini"]), case, widths)
                FSDPEngine.forward_backward_batch(engine, mini_batch, loss_function)
                steps.append({key: p.grad.clone() for key, p in parameters.items()})
                for p in parameters.values():
                    p.grad = None
            results[(switch, name)] = steps
    torch.save(results, Path(out_dir) / f"rank{rank}.pt")
    torch.distributed.destroy_process_group()


def new_gradients(data_file: Path, patch: bool) -> dict[tuple[str, str], list[dict[str, torch.Tensor]]]:
    """``(switch, case name) -> per mini-batch {parameter: gradient}``, averaged over the case's DP
    ranks; ``switch`` is the value of the patch's environment variable ("0": 0.9.1 as it is). With
    ``patch`` false the patch is never applied."""
    world = 2
    with tempfile.TemporaryDirectory() as out_dir:
        torch.multiprocessing.start_processes(
            _rank_main, args=(world, free_port(), str(data_file), out_dir, patch), nprocs=world, start_method="spawn"
        )
        ranks = [torch.load(Path(out_dir) / f"rank{rank}.pt") for rank in range(world)]
    merged = {}
    for key, steps in ranks[0].items():
        present = [rank[key] for rank in ranks if key in rank]
        merged[key] = [
            {name: sum(rank[step][name] for rank in present) / len(present) for name in steps[step]}
            for step in range(len(steps))
        ]
    return merged
