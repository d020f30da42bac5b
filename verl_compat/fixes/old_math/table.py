"""What an unchanged old launch computes differently on a newer verl, as data: one :class:`Row` per
change and case (verl's code read across v0.4.0 … 0.9.1, each change with its release, pull request
and commit).

A row says, for a launch **written for** a release of ``written_for`` (``"0.4.0..0.6.0"``), run on
a verl that has reached ``since`` (the first release that computes it differently), when the change
touches it (``when``: conditions on the composed config and on the keys the launch sets, all of
which must hold) and its ``fate`` (the words are defined once for every table in docs/tables.md):

- ``restored``: the keys of ``keys`` give back the old computation exactly; verl-compat sets them at
  composition (never over a key the launch sets, except the keys ``when`` reads: the row exists
  because of that value, as ``val_kwargs.temperature`` with ``do_sample=false``);
- ``patched``: no key exists; a patch proven equal to the old release's own code restores it
  (:mod:`.loss`); ``keys`` are its switch, set at composition even where verl's config lacks them
  (the workers' environment: ``ray_kwargs.ray_init.runtime_env.env_vars``);
- ``stopped``: the old value cannot be honoured: the launch stops before any worker, named;
- ``named``: no key or patch restores it: named in the warning and by doctor, with what to write.

``scope``: a ``release`` row acts where the launch's release is known (declared, or inferred to one);
a ``trainer`` row (the trainer a launch runs on, and what V1 cannot honour) acts wherever the launch
may be from a release of ``written_for`` and is not declared as written for the installed release.

A condition is ``(key, op, value)``: ``==``, ``!=``, ``in`` (one of a tuple), ``>``, ``contains`` (a
substring, any case) on the composed config's value (None where the key is missing); ``unset`` / ``set``: the launch sets the key (or a
key under it) or not, in an override or its own YAML; ``any``: always holds, and names a key whose
value the old release overrode whatever the launch set (a restoring key the row may set over it);
``missing_module``: ``key`` is a module the
environment cannot import. A restoring value is a literal or a :class:`Ratio` of two keys' values.

The shape is the other tables': rows grouped by verl change (:func:`_change`: evidence, ``since`` and
the change's note once; a comment gives the commit's subject), one row per line (``# fmt: off``),
the changes in release order, then pull request. A row: ``(name, written_for, fate, when, keys)``
or ``(name, written_for, fate, when, keys, note)``; ``name`` is how warnings, doctor and
the tests refer to it.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

Fate = Literal["restored", "patched", "stopped", "named"]
FATES: tuple[Fate, ...] = ("restored", "patched", "stopped", "named")
Op = Literal["==", "!=", "in", ">", "contains", "any", "unset", "set", "missing_module"]
Scope = Literal["release", "trainer"]

A = "actor_rollout_ref.actor"
R = "actor_rollout_ref.rollout"
MT = "actor_rollout_ref.rollout.multi_turn"
# The loss patch's switch in the workers' environment (loss.ENV, per role): main_ppo merges these
# env_vars into the runtime_env of every Ray actor.
LOSS_SWITCH = "ray_kwargs.ray_init.runtime_env.env_vars.VERL_COMPAT_OLD_LOSS_NORMALISATION"
LARGE = 2**31 - 1  # a limit no tool reply or call list reaches: the old releases had none


@dataclasses.dataclass(frozen=True)
class Ratio:
    """A restoring value computed from the composed config: ``numerator / denominator``."""

    numerator: str
    denominator: str


Cond = tuple[str, Op, Any]


@dataclasses.dataclass(frozen=True)
class Row:
    name: str
    written_for: str  # "first..last": the releases a launch was written for that the change touches
    since: str  # the first release that computes it differently
    evidence: str  # "verl#NNNN (9 hex digits)", or "verl X.Y.Z wheel"
    fate: Fate
    when: tuple[Cond, ...]
    keys: tuple[tuple[str, Any], ...] = ()  # restored: what to set
    note: str = ""
    scope: Scope = "release"

    @property
    def prs(self) -> tuple[int, ...]:
        """The pull requests of the evidence, as integers."""
        import re

        return tuple(int(number) for number in re.findall(r"verl#(\d+)", self.evidence))

    @property
    def reads(self) -> frozenset[str]:
        """The keys ``when`` reads: a restoring key among them may be set over the launch's value."""
        return frozenset(key for key, op, _ in self.when if op != "missing_module")


_Entry = (
    tuple[str, str, Fate, tuple[Cond, ...], tuple[tuple[str, Any], ...]]
    | tuple[str, str, Fate, tuple[Cond, ...], tuple[tuple[str, Any], ...], str]
)


def _rows(evidence: str, since: str, note: str, scope: Scope, entries: tuple[_Entry, ...]) -> tuple[Row, ...]:
    rows = []
    for entry in entries:
        name, written_for, fate, when, keys = entry[:5]
        own = entry[5] if len(entry) > 5 else ""
        rows.append(Row(name, written_for, since, evidence, fate, when, keys, own or note, scope))
    return tuple(rows)


def _change(evidence: str, since: str, note: str, *entries: _Entry) -> tuple[Row, ...]:
    """The rows of one verl change; a row without a note of its own has the change's."""
    return _rows(evidence, since, note, "release", entries)


def _trainer_change(evidence: str, since: str, note: str, *entries: _Entry) -> tuple[Row, ...]:
    """The rows of a change to which trainer a launch runs on: they act on the release range."""
    return _rows(evidence, since, note, "trainer", entries)


# Keys only the V1 trainer reads (0.9.1 trainer/ppo/v1/trainer_base.py; the legacy ray_trainer.py
# reads none of them): a launch that sets one was written for V1.
V1_ONLY = ("transfer_queue", "trainer.v1", "skip.rollout_tq", "trainer.checkpoint_callback_class")
_LEGACY_TRAINER: tuple[Cond, ...] = (
    ("trainer.use_v1", "==", True),
    ("trainer.use_v1", "unset", None),
    ("algorithm.filter_groups.enable", "!=", True),
    *((key, "unset", None) for key in V1_ONLY),
)
_ON_V1: Cond = ("trainer.use_v1", "==", True)
_FSDP: Cond = (f"{A}.strategy", "in", ("fsdp", "fsdp2"))
_MEGATRON: Cond = (f"{A}.strategy", "==", "megatron")
_CRITIC_MEGATRON: Cond = ("critic.strategy", "==", "megatron")
_GAE: Cond = ("algorithm.adv_estimator", "==", "gae")
_MULTI_TURN: Cond = (f"{MT}.enable", "==", True)
_DR_GRPO: Cond = (f"{A}.loss_agg_mode", "==", "seq-mean-token-sum-norm")
_TO_LEGACY = "trainer.use_v1=false runs the legacy trainer, which honours it"

# fmt: off
ROWS: tuple[Row, ...] = (
    # [sglang] feat: Efficient and model-agnostic multi-turn messages tokenization and masking (#1668)
    *_change("verl#1668 (16662ceff)", "0.4.1", "multi_turn.format was the message format (chatml); it names the tool-call parser now: write multi_turn.format=hermes for Qwen2.5/Qwen3",
        ("multi_turn.format", "0.4.0..0.4.0", "named", (_MULTI_TURN,), ()),
    ),
    # [feat][BREAKING] Megatron: Support learning rate scheduler (#1701)
    *_change("verl#1701 (01ae0198f)", "0.4.1", "",
        ("megatron.warmup", "0.4.0..0.4.0", "restored", (_MEGATRON, (f"{A}.optim.lr_warmup_steps_ratio", ">", 0)), ((f"{A}.optim.lr_warmup_steps_ratio", 0.0),), "v0.4.0's Megatron actor had no LR scheduler: the warm-up keys were ignored and the LR constant"),
    ),
    # [megatron] fix: optimizer scheduler misalignment with FSDP (#2303)
    *_change("verl#2303 (18c6ffcf0)", "0.5.0", "",
        ("megatron.lr_decay", "0.4.1..0.4.1", "restored", (_MEGATRON, (f"{A}.optim.lr_decay_style", "==", "constant")), ((f"{A}.optim.lr_decay_style", "linear"),), "v0.4.1's Megatron actor LR decayed linearly to 0 over the run by default; it is constant since 0.5.0"),
    ),
    # [algo] feat: mask out observation token in GAE (#2337)
    *_change("verl#2337 (033286685)", "0.5.0", "GAE skips masked tool tokens instead of bootstrapping through them; no key restores it",
        ("gae.masked_tokens", "0.4.0..0.4.1", "named", (_MULTI_TURN, _GAE), ()),
    ),
    # [cfg] refactor: add ActorConfig, EngineConfig, and ActorWorker unit test, refactor validation code (#2621)
    *_change("verl#2621 (4de3ecf0f)", "0.6.0", "",
        ("megatron.critic_lr", "0.4.1..0.5.0", "restored", (_CRITIC_MEGATRON, _GAE), (("critic.optim.lr", 1e-6),), "the Megatron critic's default LR was 1e-6; it is 1e-5 since 0.6.0"),
    ),
    # [megatron] fix: add temperature parameter for logits scaling (#3133)
    *_change("verl#3133 (5deb8cc9a)", "0.6.0", "",
        ("megatron.temperature", "0.4.0..0.5.0", "stopped", (_MEGATRON, (f"{R}.temperature", "!=", 1.0)), (), "the old Megatron actor did not divide its logits by rollout.temperature (it trained the T=1 policy on samples drawn at T); verl divides them now and cannot do the old computation: set rollout.temperature=1.0, or declare the launch as written for the installed verl"),
    ),
    # [misc] fix: use uid for grouping in validation to avoid prompt confusion in multimodal tasks (#3280)
    *_change("verl#3280 (98676e8ad)", "0.6.0", "validation metrics are grouped by uid, not prompt text: prompts with the same text no longer merge (validation only)",
        ("val.grouping", "0.4.0..0.5.0", "named", (), ()),
    ),
    # [model] feat: polish model engine (#3321)
    *_change("verl#3321 (d7a046997)", "0.6.0", "",
        ("megatron.critic_lr_decay", "0.4.1..0.5.0", "restored", (_CRITIC_MEGATRON, _GAE, ("critic.optim.lr_decay_style", "==", "constant")), (("critic.optim.lr_decay_style", "linear"),), "the Megatron critic's LR decayed linearly by default until 0.6.0"),
    ),
    # [trainer] feat: add CI for accuracy alignment of SFT trainer with model engine (#3363)
    *_change("verl#3363 (7bc70bbf0)", "0.6.0", "the cosine warm-up ramps from 0, not from min_lr_ratio*lr; no key sets the start (first warm-up steps only)",
        ("cosine.warmup_start", "0.4.0..0.5.0", "named", ((f"{A}.optim.warmup_style", "==", "cosine"), (f"{A}.optim.min_lr_ratio", ">", 0)), ()),
    ),
    # [perf, data] feat: DP workload balance (#3605)
    *_change("verl#3605 (62221fa13)", "0.6.1", "each PPO mini-batch is formed from sequences sorted by workload, not in batch order; no key restores it (actor.shuffle=true makes it length-neutral, not identical)",
        ("minibatch.order", "0.4.0..0.6.0", "named", (("trainer.balance_batch", "==", True),), ()),
    ),
    # [trainer] fix: Add `data.seed` to config (#3815)
    *_change("verl#3815 (65eb019a8)", "0.6.1", "",
        ("data.seed", "0.4.0..0.6.0", "restored", (("data.shuffle", "==", True), ("data.seed", "==", None)), (("data.seed", 1),), "the training data was shuffled with a hidden seed 1; it is unseeded since 0.6.1 (epoch 1 identical with data.seed=1)"),
    ),
    # [BREAKING][rollout] feat: change rollout to server mode by default (#4106)
    *_change("verl#4106 (bd512a0ad)", "0.7.0", "",
        ("val.do_sample", "0.4.0..0.6.1", "restored", ((f"{R}.val_kwargs.do_sample", "==", False), (f"{R}.val_kwargs.temperature", ">", 0), (f"{R}.val_kwargs.top_p", "any", None), (f"{R}.val_kwargs.top_k", "any", None)), ((f"{R}.val_kwargs.temperature", 0), (f"{R}.val_kwargs.top_p", 1.0), (f"{R}.val_kwargs.top_k", -1)), "val_kwargs.do_sample=false meant greedy validation; the agent loop ignores it and samples at the validation temperature"),
        ("sampling.repetition_penalty", "0.4.0..0.6.1", "named", ((f"{R}.repetition_penalty", "set", None),), (), "the old sync rollout passed every SamplingParams key of rollout (repetition_penalty, min_p, stop, …); the agent loop sends temperature/top_p/top_k and repetition_penalty=1.0 only (a patch will restore them)"),
        ("sampling.presence_penalty", "0.4.0..0.6.1", "named", ((f"{R}.presence_penalty", "set", None),), (), "the old sync rollout passed every SamplingParams key of rollout (repetition_penalty, min_p, stop, …); the agent loop sends temperature/top_p/top_k and repetition_penalty=1.0 only (a patch will restore them)"),
        ("sampling.frequency_penalty", "0.4.0..0.6.1", "named", ((f"{R}.frequency_penalty", "set", None),), (), "the old sync rollout passed every SamplingParams key of rollout (repetition_penalty, min_p, stop, …); the agent loop sends temperature/top_p/top_k and repetition_penalty=1.0 only (a patch will restore them)"),
        ("sampling.min_p", "0.4.0..0.6.1", "named", ((f"{R}.min_p", "set", None),), (), "the old sync rollout passed every SamplingParams key of rollout (repetition_penalty, min_p, stop, …); the agent loop sends temperature/top_p/top_k and repetition_penalty=1.0 only (a patch will restore them)"),
        ("sampling.min_tokens", "0.4.0..0.6.1", "named", ((f"{R}.min_tokens", "set", None),), (), "the old sync rollout passed every SamplingParams key of rollout (repetition_penalty, min_p, stop, …); the agent loop sends temperature/top_p/top_k and repetition_penalty=1.0 only (a patch will restore them)"),
        ("sampling.stop", "0.4.0..0.6.1", "named", ((f"{R}.stop", "set", None),), (), "the old sync rollout passed every SamplingParams key of rollout (repetition_penalty, min_p, stop, …); the agent loop sends temperature/top_p/top_k and repetition_penalty=1.0 only (a patch will restore them)"),
        ("multi_turn.agent_loop", "0.4.0..0.6.1", "restored", (_MULTI_TURN, (f"{MT}.tool_config_path", "!=", None), (f"{R}.agent.default_agent_loop", "==", "single_turn_agent")), ((f"{R}.agent.default_agent_loop", "tool_agent"),), "multi_turn.enable=true ran every sample multi-turn; the agent loop picks the loop per sample from the dataset's agent_name and defaults to single_turn_agent: no tool is ever called"),
        ("multi_turn.tool_response_length", "0.4.0..0.6.1", "restored", (_MULTI_TURN,), ((f"{MT}.max_tool_response_length", LARGE),), "tool responses were not truncated; they are cut to 256 characters by default"),
        ("multi_turn.parallel_calls", "0.4.0..0.6.1", "restored", (_MULTI_TURN,), ((f"{MT}.max_parallel_calls", LARGE),), "every tool call of a turn ran; only the first max_parallel_calls (1) run by default"),
        ("multi_turn.trained_tokens", "0.4.0..0.6.1", "named", (_MULTI_TURN,), (), "the trained tokens are the sampled ids, not the chat template's re-rendering of the decoded text; no key restores it"),
        ("multi_turn.tools_offered", "0.4.0..0.6.1", "named", (_MULTI_TURN,), (), "every configured tool is offered to a sample, not only those of its tools_kwargs (extra_info.tool_selection selects)"),
        ("multi_turn.tool_rewards", "0.4.0..0.6.1", "named", (_MULTI_TURN,), (), "tool.calc_reward() is never called: extra_info['rollout_reward_scores'] is empty for reward functions that read it"),
        ("multi_turn.token_budget", "0.4.0..0.6.1", "named", (_MULTI_TURN,), (), "a multi-turn rollout stops once the response reaches response_length (the old one ran to max_model_len and cut afterwards)"),
        ("multi_turn.inference_chat_template", "0.4.0..0.6.1", "stopped", (_MULTI_TURN, (f"{MT}.use_inference_chat_template", "==", True)), (), "use_inference_chat_template=true re-rendered every turn's prompt from the messages; the agent loop reads the key nowhere: set it to false, or declare the launch as written for the installed verl"),
    ),
    # [trainer] fix: reproducible problem when resume training (#4156)
    *_change("verl#4156 (ef44dcc72)", "0.7.0", "epochs after the first are shuffled in another order (torchdata's stateful sampler); no key restores it",
        ("data.epoch_order", "0.4.0..0.6.1", "named", (("data.shuffle", "==", True), ("trainer.total_epochs", ">", 1)), ()),
    ),
    # [trainer] feat: support moving ppo actor logics to single controller (#4480)
    *_change("verl#4480 (d8195a819)", "0.7.0", "the Megatron actor's mini-batch shuffle is seeded (data_loader_seed 42); actor.data_loader_seed=null makes it unseeded again, not the same draw",
        ("megatron.shuffle_seed", "0.4.0..0.6.1", "named", (_MEGATRON, (f"{A}.shuffle", "==", True)), ()),
    ),
    # [megatron] chore: clean legacy code path part 1, make engine use mbridge by default (#4528)
    *_change("verl#4528 (d7c82bdec)", "0.7.0", "DeepSeek-V3's load-balancing loss: verl's converter set seq_aux_loss (coeff 0.001); the bridges set none. Likely restored by actor.megatron.override_transformer_config.moe_router_load_balancing_type=seq_aux_loss and moe_aux_loss_coeff=0.001 (not run)",
        ("megatron.dsv3_aux_loss", "0.4.0..0.6.1", "named", (_MEGATRON, ("actor_rollout_ref.model.path", "contains", "deepseek")), ()),
    ),
    # [data] feat: major refactor RLHFDataset for multi-modal data (#4759)
    *_change("verl#4759 (51d27376c)", "0.7.0", "data.truncation is read and unused: an overlong prompt no longer stops the run (error) or is cut on its side (right, middle); the agent loop cuts it from the left. data.filter_overlong_prompts=true drops them instead (a patch will stop as the old dataset did)",
        ("data.truncation", "0.4.0..0.6.1", "named", (("data.truncation", "in", ("error", "right", "middle")), ("data.filter_overlong_prompts", "==", False)), ()),
    ),
    # [ray,rollout,trtllm] feat: Adding tensorrt_llm as new rollout engine (#4665)
    *_change("verl#4665 (f65fd72c0)", "0.7.1", "the async agent loop did not send rollout.top_k; it does since 0.7.1",
        ("rollout.top_k", "0.6.0..0.6.1", "restored", ((f"{R}.mode", "==", "async"), (f"{R}.mode", "set", None), (f"{R}.top_k", "!=", -1)), ((f"{R}.top_k", -1),)),
        ("rollout.top_k", "0.7.0..0.7.0", "restored", ((f"{R}.top_k", "!=", -1),), ((f"{R}.top_k", -1),)),
    ),
    # [algo] feat: Exception for agg_loss when `dp_size > 1` but global information is absent & fix: correct & consistent loss aggregation for "seq-mean-token-sum-norm" (#5366)
    *_change("verl#5366 (3671d37fe)", "0.7.1", "",
        ("loss.dr_grpo", "0.4.0..0.7.0", "restored", (_DR_GRPO, (f"{A}.use_dynamic_bsz", "==", False), (f"{A}.ppo_micro_batch_size_per_gpu", ">", 0)), ((f"{A}.loss_scale_factor", Ratio(f"{R}.response_length", f"{A}.ppo_micro_batch_size_per_gpu")),), "seq-mean-token-sum-norm summed over the sequences of each micro-batch: gradients x ppo_micro_batch_size_per_gpu; loss_scale_factor=response_length/micro gives the old scale exactly"),
        ("loss.dr_grpo_dynamic", "0.4.0..0.7.0", "named", (_DR_GRPO, (f"{A}.use_dynamic_bsz", "==", True)), (), "seq-mean-token-sum-norm summed over the sequences of each micro-batch: with dynamic batch size the factor varies by rank and step, so no key restores it"),
    ),
    # [BREAKING] [misc] refactor: deprecate workers, migrate to engines (#6067)
    *_change("verl#6067 (044bbba27)", "0.8.0", "",
        ("loss.token_mean", "0.4.0..0.7.1", "patched", (_FSDP, (f"{A}.loss_agg_mode", "==", "token-mean"), (f"{A}.policy_loss.loss_mode", "==", "vanilla"), (f"{A}.use_dynamic_bsz", "==", False)), ((f"{LOSS_SWITCH}_ACTOR", "1"),), "token-mean was a per-micro-batch token mean x 1/GA (averaged over data-parallel ranks); it is one token mean over the mini-batch: another gradient direction (12-88 %). verl-compat scales each micro-batch's loss back to the old per-token weights (old_math/loss.py, proven equal to verl 0.7.1's dp_actor at dp 1 and 2, micro-batch 1/2/4)"),
        ("loss.token_mean_dynamic", "0.4.0..0.7.1", "named", (_FSDP, (f"{A}.loss_agg_mode", "==", "token-mean"), (f"{A}.use_dynamic_bsz", "==", True)), (), "token-mean with dynamic batch size weighed each micro-batch by its sequences over the mini-batch (n_seq/mini); verl-compat's patch gives it back at dp 1, but across ranks that cut a mini-batch into different numbers of micro-batches 0.9.1 cuts them otherwise, so no patch is exact: not applied"),
        ("loss.critic", "0.4.0..0.7.1", "patched", (_GAE, ("critic.strategy", "in", ("fsdp", "fsdp2")), ("critic.loss_agg_mode", "==", "token-mean"), ("critic.use_dynamic_bsz", "==", False)), ((f"{LOSS_SWITCH}_CRITIC", "1"),), "the critic's value loss was a per-micro-batch mean x 1/GA; it is one token mean over the mini-batch. verl-compat scales each micro-batch's value loss back (old_math/loss.py, proven equal to verl 0.7.1's dp_critic)"),
        ("loss.critic_dynamic", "0.4.0..0.7.1", "named", (_GAE, ("critic.strategy", "in", ("fsdp", "fsdp2")), ("critic.use_dynamic_bsz", "==", True)), (), "the critic's value loss with dynamic batch size: as loss.token_mean_dynamic, no patch is exact across ranks: not applied"),
        ("megatron.seq_mean_dynamic", "0.4.0..0.7.1", "named", (_MEGATRON, (f"{A}.loss_agg_mode", "in", ("seq-mean-token-mean", "seq-mean-token-sum")), (f"{A}.use_dynamic_bsz", "==", True)), (), "Megatron's seq-mean modes with dynamic batch size weighed each micro-batch alike (÷ micro-batches), not by its sequence count; no key restores it"),
        ("loss.scale_factor", "0.7.1..0.7.1", "restored", ((f"{A}.loss_scale_factor", "!=", None),), ((f"{A}.loss_scale_factor", None),), "the legacy workers' loss ignored actor.loss_scale_factor (it divided by the response length); the engine applies it"),
        ("actor.shuffle", "0.4.0..0.7.1", "restored", (_FSDP, (f"{A}.shuffle", "==", True)), ((f"{A}.shuffle", False),), "the FSDP actor ignored actor.shuffle; the engine shuffles mini-batches when it is true"),
        ("critic.shuffle", "0.4.0..0.7.1", "restored", (("critic.strategy", "in", ("fsdp", "fsdp2")), ("critic.shuffle", "==", True)), (("critic.shuffle", False),), "the FSDP critic ignored critic.shuffle; the engine shuffles mini-batches when it is true"),
        ("actor.warmup_steps", "0.4.0..0.7.1", "restored", (_FSDP, (f"{A}.optim.lr_warmup_steps", "==", 0), (f"{A}.optim.lr_warmup_steps_ratio", ">", 0)), ((f"{A}.optim.lr_warmup_steps_ratio", 0.0),), "lr_warmup_steps=0 meant no warm-up; 0 now falls back to lr_warmup_steps_ratio"),
        ("critic.warmup_steps", "0.4.0..0.7.1", "restored", (("critic.strategy", "in", ("fsdp", "fsdp2")), ("critic.optim.lr_warmup_steps", "==", 0), ("critic.optim.lr_warmup_steps_ratio", ">", 0)), (("critic.optim.lr_warmup_steps_ratio", 0.0),), "lr_warmup_steps=0 meant no warm-up; 0 now falls back to lr_warmup_steps_ratio"),
    ),
    # [tool] fix: tool response truncate side (#6313)
    *_change("verl#6313 (9874bea01)", "0.8.0", "tool_response_truncate_side left and right swapped meaning: left kept the head, it keeps the tail now",
        ("multi_turn.truncate_left", "0.5.0..0.7.1", "restored", ((f"{MT}.tool_response_truncate_side", "==", "left"),), ((f"{MT}.tool_response_truncate_side", "right"),)),
        ("multi_turn.truncate_right", "0.5.0..0.7.1", "restored", ((f"{MT}.tool_response_truncate_side", "==", "right"),), ((f"{MT}.tool_response_truncate_side", "left"),)),
    ),
    # [trainer] feat: add unify trainer abstraction for sync and async training (#6710)
    *_trainer_change("verl#6710 (45632b5fa)", "0.9.0", "",
        ("v1.remax", "0.4.0..0.9.0", "stopped", (_ON_V1, ("algorithm.adv_estimator", "==", "remax")), (), f"the V1 trainer has no greedy baseline rollout (TypeError … reward_baselines after the first rollout): {_TO_LEGACY}"),
        ("v1.optimal_token_baseline", "0.4.0..0.9.0", "stopped", (_ON_V1, ("algorithm.adv_estimator", "in", ("optimal_token_baseline", "tir_optimal_token_baseline"))), (), f"the V1 trainer never requests sum_pi_squared (AssertionError at the first step): {_TO_LEGACY}"),
        ("v1.gdpo", "0.4.0..0.9.0", "stopped", (_ON_V1, ("algorithm.adv_estimator", "==", "gdpo")), (), f"the V1 trainer's advantage batch lacks the reward fields GDPO reads (KeyError 'prompts' at the first step): {_TO_LEGACY}"),
        ("v1.balance_batch", "0.4.0..0.9.0", "stopped", (_ON_V1, ("trainer.balance_batch", "==", False)), (), f"the V1 trainer always balances the batch (verl#7758): {_TO_LEGACY}"),
        ("v1.pf_ppo", "0.4.0..0.9.0", "stopped", (_ON_V1, ("algorithm.use_pf_ppo", "==", True)), (), f"the V1 trainer resamples only the advantages and writes them back to the original trajectories (verl#7956): {_TO_LEGACY}"),
        ("v1.colocated_reward_model", "0.4.0..0.9.0", "stopped", (_ON_V1, ("reward.reward_model.enable", "==", True), ("reward.reward_model.enable_resource_pool", "==", False), ("reward.custom_reward_function.path", "!=", None)), (), f"the V1 trainer gives a colocated reward model only prompts/responses/raw_prompt (KeyError 'data_source' in the custom reward function): {_TO_LEGACY}"),
        ("v1.full_determinism", "0.4.0..0.9.0", "stopped", (_ON_V1, (f"{R}.full_determinism", "==", True)), (), f"the V1 trainer takes trajectories in completion order and cannot be deterministic (docs/advance/determinism.md): {_TO_LEGACY}"),
        ("v1.transfer_queue", "0.4.0..0.9.0", "stopped", (_ON_V1, ("transfer_queue", "missing_module", None)), (), f"the V1 trainer needs TransferQueue (pip install 'verl[verl-core]'), imported only after Ray starts: {_TO_LEGACY}"),
        ("v1.gen_batch_size", "0.4.0..0.8.0", "named", (_ON_V1, ("data.gen_batch_size", "set", None)), (), f"the V1 trainer fetches train_batch_size prompts per step in gen_batch_size chunks (the legacy one generated gen_batch_size prompts): {_TO_LEGACY}"),
        ("v1.critic_token_cap", "0.4.0..0.8.0", "named", (_ON_V1, ("critic.ppo_max_token_len_per_gpu", "set", None)), (), f"the V1 trainer caps the critic's micro-batches at ppo_infer_max_token_len_per_gpu: {_TO_LEGACY}"),
        ("v1.esi", "0.4.0..0.8.0", "named", (_ON_V1, ("trainer.esi_redundant_time", "set", None)), (), f"the V1 trainer writes no emergency checkpoint before the instance expires: {_TO_LEGACY}"),
        ("v1.rollout_trace", "0.4.0..0.8.0", "named", (_ON_V1, (f"{R}.trace.backend", "!=", None)), (), f"the V1 trainer traces no rollout: {_TO_LEGACY}"),
        ("v1.rollout_data_dir", "0.4.0..0.8.0", "named", (_ON_V1, ("trainer.rollout_data_dir", "!=", None)), (), f"the V1 trainer's rollout dump has no reward_extra_info columns and is sorted by trajectory key: {_TO_LEGACY}"),
        ("v1.partial_groups", "0.4.0..0.8.0", "named", (_ON_V1,), (), f"the V1 trainer trains on partial groups padded with synthetic rows where a rollout or reward call fails (the old trainer stopped), in completion order, and never calls a dataset's on_batch_end: {_TO_LEGACY}"),
    ),
    # [BREAKING][trainer, cfg] chore: enable V1 trainer by default (#6823)
    *_trainer_change("verl#6823 (bc6fb966c)", "0.9.0", "",
        ("trainer.use_v1", "0.4.0..0.8.0", "restored", _LEGACY_TRAINER, (("trainer.use_v1", False),), "verl 0.9 runs the V1 trainer by default, which the launch's release never had; trainer.use_v1=false runs the legacy one (0.8.0's loop). Set trainer.use_v1=true to opt in to V1"),
    ),
    # [algo] fix: normalize critic value loss over the global mini-batch, not per micro-batch (#6957)
    *_change("verl#6957 (2eb020aa9)", "0.9.0", "",
        ("loss.critic_0_8", "0.8.0..0.8.0", "named", (_GAE,), (), "0.8.0's engine critic loss was a per-micro-batch mean without 1/GA (the gradient x the micro-batch count); it is one token mean over the mini-batch (a patch will restore it)"),
    ),
    # [algo] fix: carry running_return through observation spans in REINFORCE++ (#7278) (#7300)
    *_change("verl#7300 (8a1bf6d5b)", "0.9.0", "REINFORCE++ returns carry through masked tool spans instead of resetting there; no key restores it",
        ("reinforce_pp.masked_spans", "0.4.0..0.8.0", "named", (_MULTI_TURN, ("algorithm.adv_estimator", "==", "reinforce_plus_plus")), ()),
    ),
    # GSPO follows actor.loss_agg_mode (the 0.9.1 wheel; not in verl's public history)
    *_change("verl 0.9.1 wheel", "0.9.1", "",
        ("loss.gspo", "0.4.0..0.9.0", "restored", ((f"{A}.policy_loss.loss_mode", "==", "gspo"), (f"{A}.loss_agg_mode", "unset", None)), ((f"{A}.loss_agg_mode", "seq-mean-token-mean"),), "GSPO always aggregated with seq-mean-token-mean; it follows actor.loss_agg_mode (default token-mean) now"),
    ),
)
# fmt: on

TRAINER_ROW = next(row for row in ROWS if row.name == "trainer.use_v1")
