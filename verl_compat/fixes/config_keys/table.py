"""Trainer-config keys verl renamed or removed between 0.4.0 and today, as data: one :class:`Row` per old path.

Scope: every key of verl's PPO trainer configs (``ppo_trainer``, ``ppo_megatron_trainer`` and the
``model_engine`` options of ``ppo_trainer``, with the sub-configs they compose: actor, critic, ref,
rollout, reward, data, algorithm, trainer, profiler, engine) that a release dropped, from v0.4.0 to
the verl 0.9.1 wheel and verl's main branch at commit 1dda039b9c6311889a9c9a26040677e1254814f9
(2026-08-22).

How the rows were found: each release's config was composed with Hydra (the release tags' own
``verl/trainer/config`` for v0.4.0 … v0.9.0 and main, the installed wheel for 0.9.1), every node path
listed, and the paths missing from the next release collected. Each was then traced in verl's git
history (``git log -S<key> -- verl/trainer/config``) to the commit that changed it, whose diff, pull
request text and the code that reads the config decided the fate. Paths a later release added back
need no row (the only ones: the per-role ``profiler`` sections, absent from 0.5.0 alone).
``_target_`` keys (verl's own dataclass bindings) have none either.

A row names a dotted path as a user writes it in an override, from the config root. It may name a
whole subtree (``critic.model.fsdp_config``): the row then applies to every key under it, the rest
of the key kept (``critic.model.fsdp_config.param_offload`` -> ``critic.fsdp.param_offload``).

``fate`` (the words are defined once for every table in docs/tables.md):

- ``moved``: the value moves to ``new`` as written;
- ``remapped``: the value moves to ``new`` through ``values`` (``((old_value, new_value), ...)``);
- ``dropped``: has no effect any more, and what the user asked is what the release does anyway: the
  key is removed with a warning that says why (``note``);
- ``removed``: asks for something the release cannot do: the run stops before workers start, and
  ``note`` says what to do instead.

The messages users read keep their words (:func:`said`): a ``moved`` key "is renamed to" its
successor, a ``remapped`` one "is moved to" it.

``since`` is the first release without the old path ("0.9.1" for changes only the 0.9.1 wheel
has, which main at the commit above does not yet show). ``evidence`` names the verl pull request and
the commit that changed it; "verl 0.9.1 wheel" where the commit is not in verl's public history at
the commit above.

Two cases beyond a plain path -> path:

- A successor under a free-form dict: ``new`` may be a key the release's schema does not list, under
  an empty dict that verl hands on as is (``engine_kwargs.vllm: {}``, ``model.override_config: {}``);
  the value is added there (``+key=value``). ``new == old`` is that case for a key that stayed at the
  same path but left the schema (``engine_kwargs.sglang.attention_backend``).
- A chain: a successor may itself be the old path of another row (``rollout.skip_rollout`` ->
  ``rollout.skip.enable`` (0.8.0) -> ``skip.rollout.enable`` (0.9.0)); a release translates as far
  as its own config goes.

``group`` rows are config-group options, not keys: ``old`` is the group (``model_engine``) and
``values`` lists ``(option, None)`` for each option the release no longer ships.

Declared but unread: a row with a ``reader`` names a key the release's config still declares, which
nothing on ``main_ppo``'s path reads any more. verl 0.9.0 keeps the legacy reward block
(``trainer/config/legacy_reward_impl.yaml``: ``custom_reward_function.*``, ``reward_model.*``,
``sandbox_fusion.*``) so that Hydra accepts it, but ``main_ppo`` no longer calls
``migrate_legacy_reward_impl``, the function that moved it into ``reward.*`` (verl#6710): the keys
compose and are silently ignored. Such a row applies where the release's config has the reader's
``home`` (``reward``) and its ``entry`` (``verl/trainer/main_ppo.py``, read as source, not imported)
calls the reader nowhere: 0.7.1 and 0.8.0 migrate the keys themselves, 0.6.x (no ``reward``
section) reads them natively, and there nothing changes. The rows follow the reader's own mapping
(verl 0.8.0 ``verl/experimental/reward_loop/reward_loop.py``), key by key, so that a key the user
did not set keeps today's default (``custom_reward_function.name``: ``compute_score``, as it was).

One field beyond the core format: ``inert``, the values that asked for nothing beyond what the
release does anyway (mostly the old default). Such a value is dropped with a warning instead of
stopping the run (``removed``: ``use_legacy_worker_impl=auto``) or being moved (``remapped``:
``disable_mm_preprocessor_cache=False`` is not turned into a vLLM setting verl would otherwise choose).

The shape: rows are grouped by verl change (:func:`_change`: its evidence, its ``since`` and its
note, written once; a comment above it gives the commit's subject), one row per line (a ``# fmt:
off`` region: a review diff is a row): ``(old, fate, new)``, ``(old, fate, new, note)`` or ``(old,
fate, new, note, {"values": ..., "inert": ..., "group": ...})``, a ``note`` of ``None`` being the
change's. A moved or remapped row has no note unless it gives one; a dropped or removed row
without its own note has the change's. The changes are in release order, then by pull request;
a row under another row's subtree comes before it (:func:`.translate.translate_config` moves a
YAML's keys row by row, and the subtree's row would take the deeper key with it).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal, TypedDict

Fate = Literal["moved", "remapped", "dropped", "removed"]
FATES: tuple[Fate, ...] = ("moved", "remapped", "dropped", "removed")
TRAINER_CONFIGS = ("ppo_trainer", "ppo_megatron_trainer")  # verl's configs the table covers

# The words the messages use for two fates: users read "is renamed to" and "was moved" as before.
_SAID = {"moved": "renamed", "remapped": "moved"}


def said(fate: str) -> str:
    """The word a warning, a doctor row or a migrate message uses for ``fate``."""
    return _SAID.get(fate, fate)


@dataclasses.dataclass(frozen=True)
class Reader:
    """verl's function that read still-declared keys on an entry point's path, in the releases that
    call it there."""

    function: str  # "migrate_legacy_reward_impl"
    entry: str  # the entry's source, relative to verl's package: "trainer/main_ppo.py"
    home: str  # the config section the function moved the keys into: a release without it reads them natively
    gone: str = ""  # what the messages say is gone; default: "<entry's name> no longer calls <function>"

    def said(self) -> str:
        """The fact a warning and a stop name: why verl alone ignores the key."""
        return self.gone or f"{self.entry.rpartition('/')[2].removesuffix('.py')} no longer calls {self.function}"


@dataclasses.dataclass(frozen=True)
class Row:
    old: str  # a dotted path from the config root; a group row: the config group
    fate: Fate
    new: str | None  # None when dropped or removed
    since: str  # first release without the old path
    evidence: str  # "verl#NNNN (9 hex digits)"
    note: str = ""
    values: tuple[tuple[Any, Any], ...] = ()  # remapped: (old value, new value); a group row: (option, None)
    group: bool = False
    inert: tuple[Any, ...] = ()
    reader: Reader | None = None  # declared but unread: see the module's docstring


class _Extra(TypedDict, total=False):
    values: tuple[tuple[Any, Any], ...]
    inert: tuple[Any, ...]
    group: bool


# One row as written in a change: (old, fate, new), (old, fate, new, note) or (old, fate, new, note, extra);
# a note of None is the change's.
_Entry = (
    tuple[str, Fate, str | None]
    | tuple[str, Fate, str | None, str | None]
    | tuple[str, Fate, str | None, str | None, _Extra]
)


def _change(evidence: str, since: str, note: str, *entries: _Entry) -> tuple[Row, ...]:
    """The rows of one verl change: a moved or remapped row keeps no note unless it gives one; a dropped or
    removed row without its own note gets the change's."""
    return _rows(evidence, since, note, None, entries)


def _unread_change(reader: Reader, evidence: str, since: str, note: str, *entries: _Entry) -> tuple[Row, ...]:
    """The rows of a change that left keys declared but unread: each row names the reader."""
    return _rows(evidence, since, note, reader, entries)


def _rows(evidence: str, since: str, note: str, reader: Reader | None, entries: tuple[_Entry, ...]) -> tuple[Row, ...]:
    rows = []
    for entry in entries:
        old, fate, new = entry[0], entry[1], entry[2]
        own = entry[3] if len(entry) > 3 else None
        extra: _Extra = entry[4] if len(entry) > 4 else {}
        if own is None:
            own = note if fate in ("dropped", "removed") else ""
        rows.append(Row(old, fate, new, since, evidence, own, reader=reader, **extra))
    return tuple(rows)


# Notes shared by several rows.
_GRAD_OFFLOAD = "it never had an effect: Megatron gradients live with the parameters and follow param_offload"
_MINDSPEED = (
    "verl removed the MindSpeed-LLM engine (model_engine=mindspeed); "
    "use model_engine=megatron (MindSpeed-Bridge on Ascend) and set the same keys under .megatron"
)
_RM_WORKER = (
    "the reward model no longer runs in an FSDP/Megatron worker: it is served by inference "
    "servers (reward.reward_model.rollout), so the worker's settings have nothing to configure"
)
_RM_PROFILER = (
    "the reward-model worker it profiled is gone; it only shaped a profile that reward_model.profiler.enable turned on"
)
_TORCH_STEPS = (
    "verl 0.7.1 profiles the steps in global_profiler.steps with the torch tool; "
    "set global_profiler.steps=[...] instead"
)
_NPU_CONTENTS = (
    "0.6.0 lists what the NPU profiler records in actor_rollout_ref.actor.profiler.tool_config.npu.contents "
    "(e.g. [npu,cpu,memory,shapes,module,stack]); set that list instead"
)


LEGACY_REWARD = Reader("migrate_legacy_reward_impl", "trainer/main_ppo.py", "reward")
# The legacy FSDP workers (verl 0.7.1 verl/workers/fsdp_workers.py, workers/actor/dp_actor.py,
# workers/critic/dp_critic.py) read these keys; verl 0.8.0 deleted the files (verl#6067) and its
# engines read the successors. A release that still ships the file reads the key itself (or, before
# the key existed, Hydra refuses it, as without verl-compat).
_LEGACY_WORKERS = "verl 0.8.0 deleted the legacy FSDP workers that read it"
LEGACY_FSDP_WORKERS = Reader(
    "_build_model_optimizer",
    "workers/fsdp_workers.py",
    "actor_rollout_ref.actor.fsdp_config",
    _LEGACY_WORKERS + " (workers/fsdp_workers.py)",
)
# The legacy worker file of each strategy: its workers started the training process group
# (``init_process_group``) and read the keys a reader made by :func:`legacy_worker` names; a release
# that still ships the file reads them itself.
LEGACY_WORKER_FILES = {"fsdp": "workers/fsdp_workers.py", "megatron": "workers/megatron_workers.py"}


def legacy_worker(strategy: str | None, home: str, gone: str) -> Reader:
    """The legacy worker of ``strategy`` (Megatron's, else FSDP's) as the reader of keys it read."""
    return Reader(
        "init_process_group", LEGACY_WORKER_FILES["megatron" if strategy == "megatron" else "fsdp"], home, gone
    )


LEGACY_ACTOR_CLIP = Reader(
    "_optimizer_step",
    "workers/actor/dp_actor.py",
    "actor_rollout_ref.actor.optim",
    _LEGACY_WORKERS + " (workers/actor/dp_actor.py)",
)
LEGACY_CRITIC_CLIP = Reader(
    "_optimizer_step", "workers/critic/dp_critic.py", "critic.optim", _LEGACY_WORKERS + " (workers/critic/dp_critic.py)"
)
_RM_MODEL_CONFIG = (
    "verl 0.9.0 builds the reward model's HFModelConfig from reward.reward_model.model_path alone "
    "(verl 0.9.1 verl/experimental/reward_loop/reward_model.py) and migrate_legacy_reward_impl never "
    "carried this key over: no key of this verl sets it"
)


# One verl change after another (by release, then pull request).
# fmt: off
ROWS: tuple[Row, ...] = (
    # [ckpt] refactor: enhance FSDP checkpoint manager flexibility (#1350)
    *_change("verl#1350 (a1a152ee4)", "0.4.1", "",
        ("actor_rollout_ref.actor.checkpoint.contents", "moved", "actor_rollout_ref.actor.checkpoint.save_contents", "load_contents defaults to save_contents"),
        ("critic.checkpoint.contents", "moved", "critic.checkpoint.save_contents", "load_contents defaults to save_contents"),
    ),
    # [sglang] feat: Support async multi-turn rollout with simulation feedback in sglang (#1630)
    *_change("verl#1630 (c7aa5e845)", "0.4.1", "",
        ("actor_rollout_ref.rollout.multi_turn.max_turns", "moved", "actor_rollout_ref.rollout.multi_turn.max_assistant_turns", "0.4.1 limits assistant and user turns separately (max_user_turns)"),
    ),
    # [rollout] feat: follow OpenAI tool calling schema in chat scheduler (#1831)
    *_change("verl#1831 (457f4d2a2)", "0.4.1", "verl removed the chat scheduler (verl#2725); multi-turn rollouts run as agent loops (actor_rollout_ref.rollout.agent)",
        ("actor_rollout_ref.rollout.chat_scheduler", "removed", None, None, {"inert": (None,)}),
    ),
    # [BREAKING][rollout] refactor: drop vllm v0.5.4 and v0.6.3 support (#2257)
    *_change("verl#2257 (52065c640)", "0.5.0", "FIRE sampling went with vLLM 0.5.4/0.6.3 support",
        ("actor_rollout_ref.rollout.use_fire_sampling", "removed", None, None, {"inert": (False,)}),
    ),
    # [perf] feat: add range tag to start/stop profile; clean actor_rollout_ref.profiler (#2456)
    *_change("verl#2456 (1dfc1359d)", "0.5.0", "",
        ("actor_rollout_ref.actor.profiler.discrete", "moved", "global_profiler.global_tool_config.nsys.discrete", "nsys' discrete mode is one global setting since 0.6.0"),
        ("actor_rollout_ref.ref.profiler.discrete", "moved", "global_profiler.global_tool_config.nsys.discrete", "nsys' discrete mode is one global setting since 0.6.0"),
        ("actor_rollout_ref.rollout.profiler.discrete", "moved", "global_profiler.global_tool_config.nsys.discrete", "nsys' discrete mode is one global setting since 0.6.0"),
    ),
    # [cfg] feat: add critic config class (#2583)
    *_change("verl#2583 (0b62a6ece)", "0.5.0", "the critic never read it: the KL controller is algorithm.kl_ctrl",
        ("critic.kl_ctrl", "dropped", None),
    ),
    # [BREAKING][megatron] refactor: activation checkpointing APIs (#2651)
    *_change("verl#2651 (c5b189a1a)", "0.5.0", "",
        ("actor_rollout_ref.model.gradient_checkpointing_kwargs.activations_checkpoint_granularity", "moved", "actor_rollout_ref.actor.megatron.override_transformer_config.recompute_granularity", "Megatron activation checkpointing is set through override_transformer_config since 0.5.0"),
        ("actor_rollout_ref.model.gradient_checkpointing_kwargs.activations_checkpoint_method", "moved", "actor_rollout_ref.actor.megatron.override_transformer_config.recompute_method", "Megatron activation checkpointing is set through override_transformer_config since 0.5.0"),
        ("actor_rollout_ref.model.gradient_checkpointing_kwargs.activations_checkpoint_num_layers", "moved", "actor_rollout_ref.actor.megatron.override_transformer_config.recompute_num_layers", "Megatron activation checkpointing is set through override_transformer_config since 0.5.0"),
        ("critic.model.gradient_checkpointing_kwargs.activations_checkpoint_granularity", "moved", "critic.megatron.override_transformer_config.recompute_granularity", "Megatron activation checkpointing is set through override_transformer_config since 0.5.0"),
        ("critic.model.gradient_checkpointing_kwargs.activations_checkpoint_method", "moved", "critic.megatron.override_transformer_config.recompute_method", "Megatron activation checkpointing is set through override_transformer_config since 0.5.0"),
        ("critic.model.gradient_checkpointing_kwargs.activations_checkpoint_num_layers", "moved", "critic.megatron.override_transformer_config.recompute_num_layers", "Megatron activation checkpointing is set through override_transformer_config since 0.5.0"),
    ),
    # [rollout] feat: remove chat scheduler (#2725)
    *_change("verl#2725 (f10780083)", "0.6.0", "verl removed the chat scheduler and its callbacks; multi-turn rollouts run as agent loops (actor_rollout_ref.rollout.agent)",
        ("actor_rollout_ref.rollout.multi_turn.completion_callback", "removed", None, None, {"inert": (None,)}),
    ),
    # [BREAKING] [perf] refactor: Profiler api refactor (#2894)
    *_change("verl#2894 (545f89984)", "0.6.0", _NPU_CONTENTS,
        ("trainer.profile_steps", "moved", "global_profiler.steps"),
        ("trainer.controller_nsight_options", "moved", "global_profiler.global_tool_config.nsys.controller_nsight_options"),
        ("trainer.worker_nsight_options", "moved", "global_profiler.global_tool_config.nsys.worker_nsight_options"),
        ("trainer.npu_profile.options.level", "moved", "actor_rollout_ref.actor.profiler.tool_config.npu.level"),
        ("trainer.npu_profile.options.analysis", "moved", "actor_rollout_ref.actor.profiler.tool_config.npu.analysis"),
        ("trainer.npu_profile.options.save_path", "moved", "global_profiler.save_path"),
        ("trainer.npu_profile.options.record_shapes", "removed", None, None, {"inert": (False,)}),
        ("trainer.npu_profile.options.with_cpu", "removed", None, None, {"inert": (False,)}),
        ("trainer.npu_profile.options.with_memory", "removed", None, None, {"inert": (False,)}),
        ("trainer.npu_profile.options.with_module", "removed", None, None, {"inert": (False,)}),
        ("trainer.npu_profile.options.with_npu", "removed", None, None, {"inert": (False,)}),
        ("trainer.npu_profile.options.with_stack", "removed", None, None, {"inert": (False,)}),
        ("actor_rollout_ref.profiler.discrete", "moved", "global_profiler.global_tool_config.nsys.discrete", "0.6.0 keeps nsys' discrete mode in the global tool config, which every role's profiler reads"),
        ("actor_rollout_ref.profiler.all_ranks", "moved", "actor_rollout_ref.actor.profiler.all_ranks", "0.6.0 gives each role its own profiler; the rollout's and ref's default to the actor's"),
        ("actor_rollout_ref.profiler.ranks", "moved", "actor_rollout_ref.actor.profiler.ranks", "0.6.0 gives each role its own profiler; the rollout's and ref's default to the actor's"),
        ("critic.profiler.discrete", "moved", "global_profiler.global_tool_config.nsys.discrete", "nsys' discrete mode is one global setting since 0.6.0"),
        ("actor_rollout_ref.actor.profile", "removed", None, "the torch profiler is set with actor_rollout_ref.actor.profiler (enable, ranks, tool=torch) and global_profiler.steps since 0.6.0", {"inert": (False, None, -1)}),
        ("actor_rollout_ref.ref.profile", "removed", None, "the torch profiler is set with actor_rollout_ref.ref.profiler (enable, ranks, tool=torch) and global_profiler.steps since 0.6.0", {"inert": (False, None, -1)}),
    ),
    # [BREAKING][rollout] feat: allow users pass all vllm/sglang engine args (#3037)
    *_change("verl#3037 (bd756c15c)", "0.6.0", "vLLM's V1 engine, the only one verl runs since 0.6.0, never swaps to CPU (it recomputes preempted requests)",
        ("actor_rollout_ref.rollout.engine_kwargs.vllm.disable_mm_preprocessor_cache", "remapped", "actor_rollout_ref.rollout.engine_kwargs.vllm.mm_processor_cache_gb", "engine_kwargs.vllm is handed to vLLM as is since 0.6.0, and vLLM spells a disabled cache mm_processor_cache_gb=0; left unset, verl chooses (0.9.1 turns the cache off where vLLM's desyncs)", {"values": ((True, 0),), "inert": (False,)}),
        ("actor_rollout_ref.rollout.engine_kwargs.vllm.swap_space", "dropped", None),
        ("actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend", "moved", "actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend", "engine_kwargs.sglang is handed to SGLang's server arguments as is since 0.6.0"),
    ),
    # [ray] feat: add support for ray init kwargs (#3049)
    *_change("verl#3049 (2bbd09245)", "0.6.0", "",
        ("ray_init.num_cpus", "moved", "ray_kwargs.ray_init.num_cpus"),
        ("ray_init.timeline_json_file", "moved", "ray_kwargs.timeline_json_file"),
    ),
    # [BREAKING][algo] feat: Rollout Correction for General Off-Policy Problems (#3984)
    *_change("verl#3984 (418f964ab)", "0.6.1", "",
        ("algorithm.rollout_is", "removed", None, "0.6.1 sets rollout importance sampling with algorithm.rollout_correction.rollout_is=token|sequence", {"inert": (False,)}),
        ("algorithm.rollout_is_level", "removed", None, "the level is the value of algorithm.rollout_correction.rollout_is (token|sequence)", {"inert": ("token",)}),
        ("algorithm.rollout_is_mode", "removed", None, "truncation is algorithm.rollout_correction.rollout_is_threshold; masking is rejection sampling (algorithm.rollout_correction.rollout_rs)", {"inert": ("truncate",)}),
        ("algorithm.rollout_is_threshold", "moved", "algorithm.rollout_correction.rollout_is_threshold"),
        ("algorithm.rollout_is_threshold_lower", "removed", None, "0.6.1 computes the lower bound as 1/upper; rejection-sampling bounds are algorithm.rollout_correction.rollout_rs_threshold", {"inert": (None,)}),
        ("algorithm.rollout_is_veto_threshold", "removed", None, "0.7.1 expresses a veto as a rejection-sampling criterion: algorithm.rollout_correction.rollout_rs and rollout_rs_threshold", {"inert": (None,)}),
    ),
    # [trainer] feat: refactor workers with model engine (#4211)
    *_change("verl#4211 (8ed5bafc0)", "0.7.0", "",
        ("actor_rollout_ref.ref.model.path", "removed", None, "the reference policy is the actor's initial model (actor_rollout_ref.model.path); a separate reference model is not supported any more", {"inert": (None,)}),
        ("actor_rollout_ref.ref.model", "dropped", None, "verl never read anything under it but its path: the reference policy is built from actor_rollout_ref.model"),
    ),
    # [algo,doc] refactor: rollout correction (#4511)
    *_change("verl#4511 (518bada21)", "0.7.0", "",
        ("algorithm.rollout_correction.use_policy_gradient", "remapped", "algorithm.rollout_correction.loss_type", None, {"values": ((True, "reinforce"), (False, "ppo_clip"))}),
    ),
    # [perf] feat: verl profiler system support Agent Loop scenario and integrate torch.profiler (#4320)
    *_change("verl#4320 (cd1926cef)", "0.7.1", _TORCH_STEPS,
        ("actor_rollout_ref.actor.profiler.tool_config.torch.step_start", "removed", None, None, {"inert": (0, -1, None)}),
        ("actor_rollout_ref.actor.profiler.tool_config.torch.step_end", "removed", None, None, {"inert": (None, -1)}),
        ("actor_rollout_ref.ref.profiler.tool_config.torch.step_start", "removed", None, None, {"inert": (0, -1, None)}),
        ("actor_rollout_ref.ref.profiler.tool_config.torch.step_end", "removed", None, None, {"inert": (None, -1)}),
        ("critic.profiler.tool_config.torch.step_start", "removed", None, None, {"inert": (0, -1, None)}),
        ("critic.profiler.tool_config.torch.step_end", "removed", None, None, {"inert": (None, -1)}),
    ),
    # [algo, doc] feat: trust region sequence masking - (1) k3 KL avg and (2) veto for max criterion (#4544)
    *_change("verl#4544 (97eac9048)", "0.7.1", "0.7.1 folds both bounds and the veto into algorithm.rollout_correction.rollout_rs / rollout_rs_threshold (see verl's docs/algo/rollout_corr.md)",
        ("algorithm.rollout_correction.rollout_rs_threshold_lower", "removed", None, None, {"inert": (None,)}),
        ("algorithm.rollout_correction.rollout_token_veto_threshold", "removed", None, None, {"inert": (None,)}),
    ),
    # [ckpt] feat: add CheckpointEngineManager (#5031)
    *_change("verl#5031 (ef6eaa05d)", "0.7.1", "",
        ("actor_rollout_ref.rollout.update_weights_bucket_megabytes", "moved", "actor_rollout_ref.rollout.checkpoint_engine.update_weights_bucket_megabytes"),
    ),
    # [BREAKING][reward] refactor: remove reward model worker code and invocation (#5194)
    *_change("verl#5194 (4ef45d093)", "0.7.1", _RM_WORKER,
        ("reward_model.profiler.enable", "removed", None, None, {"inert": (False,)}),
        ("reward_model.profiler.all_ranks", "dropped", None, _RM_PROFILER),
        ("reward_model.profiler.ranks", "dropped", None, _RM_PROFILER),
        ("reward_model.profiler.discrete", "dropped", None, _RM_PROFILER),
        ("reward_model.profiler.save_path", "dropped", None, _RM_PROFILER),
        ("reward_model.profiler.tool", "dropped", None, _RM_PROFILER),
        ("reward_model.profiler.tool_config", "dropped", None, _RM_PROFILER),
        ("reward_model.strategy", "dropped", None),
        ("reward_model.megatron", "dropped", None),
        ("reward_model.micro_batch_size", "dropped", None),
        ("reward_model.micro_batch_size_per_gpu", "dropped", None),
        ("reward_model.max_length", "dropped", None),
        ("reward_model.use_dynamic_bsz", "dropped", None),
        ("reward_model.forward_max_token_len_per_gpu", "dropped", None),
        ("reward_model.ulysses_sequence_parallel_size", "dropped", None),
        ("reward_model.load_weight", "dropped", None),
        ("reward_model.nccl_timeout", "dropped", None),
        ("reward_model.model.fsdp_config", "dropped", None),
        ("reward_model.model.input_tokenizer", "dropped", None),
        ("reward_model.model.use_remove_padding", "dropped", None),
        ("reward_model.model.use_fused_kernels", "dropped", None),
        ("reward_model.model.use_shm", "dropped", None),
        ("reward_model.model.override_config", "dropped", None),
    ),
    # [BREAKING][reward] refactor: deprecate batch reward manager (#5237)
    *_change("verl#5237 (3df21a68e)", "0.7.1", "a reward manager of today's contract or a reward function runs in the reward loop, asynchronously, beside the rollout, on every run; an old-contract reward manager or a reward_fn is called by verl-compat synchronously on the step batch in the trainer, as launch_reward_fn_async=False called it",
        ("reward_model.launch_reward_fn_async", "dropped", None),
    ),
    # [BREAKING][reward] refactor: the full reward configuration (#5255)
    *_change("verl#5255 (67dc84b96)", "0.7.1", "the reward loop is the only reward path since 0.7.1",
        ("reward_manager", "moved", "reward.reward_manager"),
        ("reward_model.sandbox_fusion", "moved", "reward.sandbox_fusion"),
        ("reward_model.use_reward_loop", "removed", None, None, {"inert": (True,)}),
    ),
    # [rollout, tool] feat: support multi-step in skip_rollout v2  (#5556)
    *_change("verl#5556 (01a2bd385)", "0.8.0", "",
        ("actor_rollout_ref.rollout.skip_rollout", "moved", "actor_rollout_ref.rollout.skip.enable"),
        ("actor_rollout_ref.rollout.skip_dump_dir", "moved", "actor_rollout_ref.rollout.skip.dump_dir"),
    ),
    # [cfg] refactor: unify ppo_trainer and ppo_megatron_trainer config (#5848)
    *_change("verl#5848 (2edc06a4e)", "0.8.0", "verl uses its built-in Megatron layer names (qkv, gate_up) since 0.8.0",
        ("actor_rollout_ref.model.override_config.model_config", "moved", "actor_rollout_ref.model.override_config.model_config", "override_config is a free-form dict since 0.8.0; verl still reads the key there"),
        ("critic.model.override_config.model_config", "moved", "critic.model.override_config.model_config", "override_config is a free-form dict since 0.8.0; verl still reads the key there"),
        ("actor_rollout_ref.rollout.layer_name_map", "removed", None, None, {"inert": ("qkv", "gate_up")}),
    ),
    # [megatron] fix: support critic model (#5870)
    *_change("verl#5870 (16253911d)", "0.8.0", "",
        ("critic.model.fsdp_config", "moved", "critic.fsdp", "the critic's FSDP engine config sits beside its model since 0.8.0, as the actor's does"),
    ),
    # [BREAKING] [misc] refactor: deprecate workers, migrate to engines (#6067)
    *_change("verl#6067 (044bbba27)", "0.8.0", "verl 0.8.0 removed the legacy workers: every run uses the engine workers; delete the key",
        ("trainer.use_legacy_worker_impl", "removed", None, None, {"inert": ("auto", "disable")}),
        ("actor_rollout_ref.model.override_config.moe_config", "moved", "actor_rollout_ref.actor.megatron.override_mcore_model_config.moe_config", "the Megatron engine reads moe_config (freeze_moe_router) from the actor's override_mcore_model_config only; under model.override_config it is ignored and the routers train"),
        ("critic.model.override_config.moe_config", "moved", "critic.megatron.override_mcore_model_config.moe_config", "the Megatron engine reads moe_config (freeze_moe_router) from the critic's override_mcore_model_config only; under model.override_config it is ignored and the routers train"),
    ),
    # (the same change) keys still declared that only the deleted legacy FSDP workers read
    *_unread_change(LEGACY_FSDP_WORKERS, "verl#6067 (044bbba27)", "0.8.0", "",
        ("actor_rollout_ref.actor.qat", "moved", "actor_rollout_ref.actor.fsdp_config.qat", "the FSDP engine reads QAT from its engine config (verl 0.9.1 verl/workers/engine/fsdp/transformer_impl.py); actor.qat is left as declared and QAT stays off"),
        ("actor_rollout_ref.actor.freeze_vision_tower", "removed", None, "the FSDP engine never freezes the vision tower (nothing in this verl reads the key): the vision tower would train. Freeze it in your own model code, or pin verl < 0.8.0", {"inert": (False,)}),
    ),
    *_unread_change(LEGACY_ACTOR_CLIP, "verl#6067 (044bbba27)", "0.8.0", "",
        ("actor_rollout_ref.actor.grad_clip", "moved", "actor_rollout_ref.actor.optim.clip_grad", "the FSDP engine clips the actor's gradients at optim.clip_grad"),
    ),
    *_unread_change(LEGACY_CRITIC_CLIP, "verl#6067 (044bbba27)", "0.8.0", "",
        ("critic.grad_clip", "moved", "critic.optim.clip_grad", "the FSDP engine clips the critic's gradients at optim.clip_grad"),
    ),
    # [BREAKING] [env] refactor: deprecate verl/interactions (#6074)
    *_change("verl#6074 (63dc08501)", "0.8.0", "verl 0.8.0 removed verl/interactions; user turns are produced by an agent loop of your own",
        ("actor_rollout_ref.rollout.multi_turn.interaction_config_path", "removed", None, None, {"inert": (None,)}),
    ),
    # [algo, fsdp, megatron, cfg] fix: wire up sum_pi_squared for optimal_token_baseline (#6153)
    *_change("verl#6153 (695ac0ebc)", "0.8.0", "0.8.0 computes sum_pi_squared only when actor_rollout_ref.actor.calculate_sum_pi_squared=True, without a checkpointing option",
        ("actor_rollout_ref.actor.sum_pi_squared_checkpointing", "removed", None, None, {"inert": (False,)}),
    ),
    # [BREAKING][tool, data] refactor: remove curriculum sampler + dynamic dataset + tool examples (#6302)
    *_change("verl#6302 (5a506cc58)", "0.8.0", "verl 0.8.0 removed the curriculum sampler and the dynamic dataset generator",
        ("data.sampler", "removed", None, None, {"inert": (None,)}),
        ("data.datagen", "removed", None, None, {"inert": (None,)}),
    ),
    # [megatron, ckpt] refactor: optimize mcore ckpt manager impl, checkpoint yaml config APIs (#6014)
    *_change("verl#6014 (22b04f949)", "0.9.0", "verl always loads the model's weights since 0.9.0; a randomly initialised model is not an option any more",
        ("actor_rollout_ref.actor.load_weight", "removed", None, None, {"inert": (True,)}),
        ("actor_rollout_ref.ref.load_weight", "removed", None, None, {"inert": (True,)}),
        ("critic.load_weight", "removed", None, None, {"inert": (True,)}),
    ),
    # [tool, rollout] feat: Use SkipManager to uniformly manage the skipping schemes. (#6097)
    *_change("verl#6097 (266fdceda)", "0.9.0", "0.9.0 names the skipped steps in skip.rollout.steps=[...]",
        ("actor_rollout_ref.rollout.skip.enable", "moved", "skip.rollout.enable"),
        ("actor_rollout_ref.rollout.skip.dump_dir", "moved", "skip.rollout.dump_dir"),
        ("actor_rollout_ref.rollout.skip.action", "moved", "skip.rollout.action"),
        ("actor_rollout_ref.rollout.skip.max_dump_step", "removed", None, None, {"inert": (1,)}),
    ),
    # [trainer] feat: add unify trainer abstraction for sync and async training (#6710)
    *_unread_change(LEGACY_REWARD, "verl#6710 (45632b5fa)", "0.9.0", "",
        ("custom_reward_function", "moved", "reward.custom_reward_function"),
        ("reward_model.num_workers", "moved", "reward.num_workers"),
        ("reward_model.reward_manager", "moved", "reward.reward_manager.name"),
        ("reward_model.reward_loop_source", "moved", "reward.reward_manager.source"),
        ("reward_model.reward_loop_module_path", "moved", "reward.reward_manager.module.path"),
        ("reward_model.reward_loop_class_name", "moved", "reward.reward_manager.module.name"),
        ("reward_model.enable", "moved", "reward.reward_model.enable"),
        ("reward_model.enable_resource_pool", "moved", "reward.reward_model.enable_resource_pool"),
        ("reward_model.n_gpus_per_node", "moved", "reward.reward_model.n_gpus_per_node"),
        ("reward_model.nnodes", "moved", "reward.reward_model.nnodes"),
        ("reward_model.rollout", "moved", "reward.reward_model.rollout"),
        ("reward_model.model.path", "moved", "reward.reward_model.model_path"),
        ("reward_model.model.external_lib", "removed", None, _RM_MODEL_CONFIG + " (the reward model's server imports no external library)", {"inert": (None, "")}),
        ("reward_model.model.trust_remote_code", "removed", None, _RM_MODEL_CONFIG + " (its server loads the model with trust_remote_code=False)", {"inert": (None, False)}),
        ("reward_model.reward_kwargs", "moved", "reward.reward_kwargs"),
        ("sandbox_fusion", "moved", "reward.sandbox_fusion"),
    ),
    # [trainer, rollout] feat: log rollout moe load-balance metrics (#6853)
    *_change("verl#6853 (3d66a3d7c)", "0.9.0", "verl logs MoE load-balance metrics from the rollout: set actor_rollout_ref.rollout.moe_load_balance_metrics_interval",
        ("actor_rollout_ref.actor.veomni.moe_load_balance_monitor_interval", "removed", None, None, {"inert": (0,)}),
        ("actor_rollout_ref.ref.veomni.moe_load_balance_monitor_interval", "removed", None, None, {"inert": (0,)}),
        ("critic.veomni.moe_load_balance_monitor_interval", "removed", None, None, {"inert": (0,)}),
    ),
    # [BREAKING][rollout] feat: Add Multimodal Continuous Token (#6804)
    *_change("verl#6804 (df9e22433)", "0.9.1", "Continuous Token is the default and only tokenization path of agent loops, and the model family is inferred from the model path",
        ("data.continuous_token", "dropped", None),
    ),
    # [ci, trainer] feat: remove mindspeedllm backend engine support. (#7374)
    *_change("verl#7374 (859c71295)", "0.9.1", "the reference model is never trained: MindSpeed's ref optimizer settings configured nothing",
        ("model_engine", "removed", None, _MINDSPEED, {"values": (("mindspeed", None),), "group": True}),
        ("actor_rollout_ref.actor.mindspeed", "removed", None, _MINDSPEED),
        ("actor_rollout_ref.ref.mindspeed", "removed", None, _MINDSPEED),
        ("critic.mindspeed", "removed", None, _MINDSPEED),
        ("actor_rollout_ref.ref.optim.optimizer", "dropped", None),
        ("actor_rollout_ref.ref.optim.override_optimizer_config", "dropped", None),
        ("actor_rollout_ref.ref.optim.min_lr", "dropped", None),
        ("actor_rollout_ref.ref.optim.lr_decay_steps", "dropped", None),
        ("actor_rollout_ref.ref.optim.lr_decay_style", "dropped", None),
        ("actor_rollout_ref.ref.optim.lr_warmup_init", "dropped", None),
        ("actor_rollout_ref.ref.optim.lr_wsd_decay_steps", "dropped", None),
        ("actor_rollout_ref.ref.optim.lr_wsd_decay_style", "dropped", None),
        ("actor_rollout_ref.ref.optim.weight_decay_incr_style", "dropped", None),
        ("actor_rollout_ref.ref.optim.use_checkpoint_opt_param_scheduler", "dropped", None),
        ("actor_rollout_ref.ref.optim.use_layer_wise_distributed_optimizer", "dropped", None),
        ("actor_rollout_ref.ref.optim.use_precision_aware_optimizer", "dropped", None),
        ("actor_rollout_ref.ref.optim.exp_avg_dtype", "dropped", None),
        ("actor_rollout_ref.ref.optim.exp_avg_sq_dtype", "dropped", None),
        ("actor_rollout_ref.ref.optim.main_grads_dtype", "dropped", None),
        ("actor_rollout_ref.ref.optim.muon_coefficient_type", "dropped", None),
        ("actor_rollout_ref.ref.optim.muon_extra_scale_factor", "dropped", None),
        ("actor_rollout_ref.ref.optim.muon_fp32_matmul_prec", "dropped", None),
        ("actor_rollout_ref.ref.optim.muon_match_adamw_update_rms", "dropped", None),
        ("actor_rollout_ref.ref.optim.muon_momentum", "dropped", None),
        ("actor_rollout_ref.ref.optim.muon_nesterov", "dropped", None),
        ("actor_rollout_ref.ref.optim.muon_num_ns_steps", "dropped", None),
        ("actor_rollout_ref.ref.optim.muon_scalar_optimizer", "dropped", None),
        ("actor_rollout_ref.ref.optim.muon_scale_mode", "dropped", None),
        ("actor_rollout_ref.ref.optim.muon_split_qkv", "dropped", None),
        ("actor_rollout_ref.ref.optim.muon_tp_mode", "dropped", None),
    ),
    # [cfg, megatron, doc] fix: drop unused actor.router_replay
    *_change("verl#7466 (514dcab4d)", "0.9.1", "",
        ("actor_rollout_ref.actor.router_replay", "moved", "actor_rollout_ref.actor.megatron.router_replay", "the Megatron and VeOmni engines read their own router_replay (actor_rollout_ref.actor.veomni.router_replay for VeOmni)"),
        ("actor_rollout_ref.ref.router_replay", "moved", "actor_rollout_ref.ref.megatron.router_replay", "the Megatron and VeOmni engines read their own router_replay (actor_rollout_ref.ref.veomni.router_replay for VeOmni)"),
    ),
    # verl#7544 (verl 0.9.1 wheel): not in verl's public history at the commit above
    *_change("verl#7544 (verl 0.9.1 wheel)", "0.9.1", _GRAD_OFFLOAD,
        ("actor_rollout_ref.actor.megatron.grad_offload", "dropped", None),
        ("actor_rollout_ref.ref.megatron.grad_offload", "dropped", None),
        ("critic.megatron.grad_offload", "dropped", None),
    ),
    # verl 0.9.1 wheel: not in verl's public history at the commit above
    *_change("verl 0.9.1 wheel", "0.9.1", "",
        ("actor_rollout_ref.actor.veomni.activation_gpu_limit", "removed", None, "0.9.1's VeOmni engine offloads activations with actor_rollout_ref.actor.veomni.enable_async_activation_offload=true and activation_offload_modules, without a GPU-memory limit", {"inert": (0.0, 0)}),
        ("actor_rollout_ref.ref.veomni.activation_gpu_limit", "removed", None, "0.9.1's VeOmni engine offloads activations with actor_rollout_ref.ref.veomni.enable_async_activation_offload=true and activation_offload_modules, without a GPU-memory limit", {"inert": (0.0, 0)}),
        ("critic.veomni.activation_gpu_limit", "removed", None, "0.9.1's VeOmni engine offloads activations with critic.veomni.enable_async_activation_offload=true and activation_offload_modules, without a GPU-memory limit", {"inert": (0.0, 0)}),
    ),
)
# fmt: on
