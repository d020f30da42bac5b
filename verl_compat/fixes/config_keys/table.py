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
request text and the code that reads the config decided the kind. Paths a later release added back
need no row (the only ones: the per-role ``profiler`` sections, absent from 0.5.0 alone).
``_target_`` keys (verl's own dataclass bindings) have none either.

A row names a dotted path as a user writes it in an override, from the config root. It may name a
whole subtree (``critic.model.fsdp_config``): the row then applies to every key under it, the rest
of the key kept (``critic.model.fsdp_config.param_offload`` -> ``critic.fsdp.param_offload``).

``kind``:

- ``renamed``: the value moves to ``new`` as written;
- ``moved``: the value moves to ``new`` through ``values`` (``((old_value, new_value), ...)``);
- ``dropped``: has no effect any more, and what the user asked is what the release does anyway: the
  key is removed with a warning that says why (``why``);
- ``removed``: asks for something the release cannot do: the run stops before workers start, and
  ``why`` says what to do instead.

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
stopping the run (``removed``: ``use_legacy_worker_impl=auto``) or being moved (``moved``:
``disable_mm_preprocessor_cache=False`` is not turned into a vLLM setting verl would otherwise choose).
"""

from __future__ import annotations

import dataclasses

KINDS = ("renamed", "moved", "dropped", "removed")
TRAINER_CONFIGS = ("ppo_trainer", "ppo_megatron_trainer")  # verl's configs the table covers


@dataclasses.dataclass(frozen=True)
class Reader:
    """verl's function that read still-declared keys on an entry point's path, in the releases that
    call it there."""

    function: str  # "migrate_legacy_reward_impl"
    entry: str  # the entry's source, relative to verl's package: "trainer/main_ppo.py"
    home: str  # the config section the function moved the keys into: a release without it reads them natively


@dataclasses.dataclass(frozen=True)
class Row:
    old: str
    kind: str
    new: str | None
    since: str
    evidence: str
    why: str = ""
    values: tuple = ()
    group: bool = False
    inert: tuple = ()
    reader: Reader | None = None  # declared but unread: see the module's docstring


# Explanations shared by several rows.
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

# The reference model's optimizer keys only model_engine=mindspeed composed (0.8.0 - 0.9.0).
_MINDSPEED_REF_OPTIM = (
    "optimizer",
    "override_optimizer_config",
    "min_lr",
    "lr_decay_steps",
    "lr_decay_style",
    "lr_warmup_init",
    "lr_wsd_decay_steps",
    "lr_wsd_decay_style",
    "weight_decay_incr_style",
    "use_checkpoint_opt_param_scheduler",
    "use_layer_wise_distributed_optimizer",
    "use_precision_aware_optimizer",
    "exp_avg_dtype",
    "exp_avg_sq_dtype",
    "main_grads_dtype",
    "muon_coefficient_type",
    "muon_extra_scale_factor",
    "muon_fp32_matmul_prec",
    "muon_match_adamw_update_rms",
    "muon_momentum",
    "muon_nesterov",
    "muon_num_ns_steps",
    "muon_scalar_optimizer",
    "muon_scale_mode",
    "muon_split_qkv",
    "muon_tp_mode",
)

_PROFILER_2894 = "verl#2894 (545f89984)"
_REWARD_5194 = "verl#5194 (4ef45d093)"
_REWARD_5255 = "verl#5255 (67dc84b96)"
_MINDSPEED_7374 = "verl#7374 (859c71295)"
_UNREAD_6710 = "verl#6710 (45632b5fa)"
LEGACY_REWARD = Reader("migrate_legacy_reward_impl", "trainer/main_ppo.py", "reward")
_RM_MODEL_CONFIG = (
    "verl 0.9.0 builds the reward model's HFModelConfig from reward.reward_model.model_path alone "
    "(verl 0.9.1 verl/experimental/reward_loop/reward_model.py) and migrate_legacy_reward_impl never "
    "carried this key over: no key of this verl sets it"
)


def _per_role(suffix: str, kind: str, new: str | None, since: str, evidence: str, roles, why: str = "", **kw):
    """The same change made under several roles (actor, ref, critic); ``{role}`` in ``new`` and
    ``why`` names each."""
    return tuple(
        Row(
            f"{role}.{suffix}",
            kind,
            new.format(role=role) if new else None,
            since,
            evidence,
            why=why.format(role=role),
            **kw,
        )
        for role in roles
    )


_ACTOR, _REF, _CRITIC = "actor_rollout_ref.actor", "actor_rollout_ref.ref", "critic"
_ROLLOUT = "actor_rollout_ref.rollout"

ROWS: tuple[Row, ...] = (
    # --- trainer and profiler (0.4.1 - 0.7.1) ---------------------------------------------------
    Row("trainer.profile_steps", "renamed", "global_profiler.steps", "0.6.0", _PROFILER_2894),
    Row(
        "trainer.controller_nsight_options",
        "renamed",
        "global_profiler.global_tool_config.nsys.controller_nsight_options",
        "0.6.0",
        _PROFILER_2894,
    ),
    Row(
        "trainer.worker_nsight_options",
        "renamed",
        "global_profiler.global_tool_config.nsys.worker_nsight_options",
        "0.6.0",
        _PROFILER_2894,
    ),
    Row(
        "trainer.npu_profile.options.level",
        "renamed",
        "actor_rollout_ref.actor.profiler.tool_config.npu.level",
        "0.6.0",
        _PROFILER_2894,
    ),
    Row(
        "trainer.npu_profile.options.analysis",
        "renamed",
        "actor_rollout_ref.actor.profiler.tool_config.npu.analysis",
        "0.6.0",
        _PROFILER_2894,
    ),
    Row("trainer.npu_profile.options.save_path", "renamed", "global_profiler.save_path", "0.6.0", _PROFILER_2894),
    *(
        Row(
            f"trainer.npu_profile.options.{key}",
            "removed",
            None,
            "0.6.0",
            _PROFILER_2894,
            why=_NPU_CONTENTS,
            inert=(False,),
        )
        for key in ("record_shapes", "with_cpu", "with_memory", "with_module", "with_npu", "with_stack")
    ),
    Row(
        "actor_rollout_ref.profiler.discrete",
        "renamed",
        "global_profiler.global_tool_config.nsys.discrete",
        "0.6.0",
        _PROFILER_2894,
        why="0.6.0 keeps nsys' discrete mode in the global tool config, which every role's profiler reads",
    ),
    Row(
        "actor_rollout_ref.profiler.all_ranks",
        "renamed",
        "actor_rollout_ref.actor.profiler.all_ranks",
        "0.6.0",
        _PROFILER_2894,
        why="0.6.0 gives each role its own profiler; the rollout's and ref's default to the actor's",
    ),
    Row(
        "actor_rollout_ref.profiler.ranks",
        "renamed",
        "actor_rollout_ref.actor.profiler.ranks",
        "0.6.0",
        _PROFILER_2894,
        why="0.6.0 gives each role its own profiler; the rollout's and ref's default to the actor's",
    ),
    *(
        Row(
            f"{role}.profiler.discrete",
            "renamed",
            "global_profiler.global_tool_config.nsys.discrete",
            since,
            evidence,
            why="nsys' discrete mode is one global setting since 0.6.0",
        )
        for role, since, evidence in (
            (_ACTOR, "0.5.0", "verl#2456 (1dfc1359d)"),
            (_REF, "0.5.0", "verl#2456 (1dfc1359d)"),
            ("actor_rollout_ref.rollout", "0.5.0", "verl#2456 (1dfc1359d)"),
            (_CRITIC, "0.6.0", _PROFILER_2894),
        )
    ),
    *_per_role(
        "profile",
        "removed",
        None,
        "0.6.0",
        _PROFILER_2894,
        (_ACTOR, _REF),
        inert=(False, None, -1),
        why="the torch profiler is set with {role}.profiler (enable, ranks, tool=torch) and "
        "global_profiler.steps since 0.6.0",
    ),
    *(
        Row(
            f"{role}.profiler.tool_config.torch.{key}",
            "removed",
            None,
            "0.7.1",
            "verl#4320 (cd1926cef)",
            why=_TORCH_STEPS,
            inert=inert,
        )
        for role in (_ACTOR, _REF, _CRITIC)
        for key, inert in (("step_start", (0, -1, None)), ("step_end", (None, -1)))
    ),
    Row("reward_model.profiler.enable", "removed", None, "0.7.1", _REWARD_5194, why=_RM_WORKER, inert=(False,)),
    *(
        Row(f"reward_model.profiler.{key}", "dropped", None, "0.7.1", _REWARD_5194, why=_RM_PROFILER)
        for key in ("all_ranks", "ranks", "discrete", "save_path", "tool", "tool_config")
    ),
    Row(
        "trainer.use_legacy_worker_impl",
        "removed",
        None,
        "0.8.0",
        "verl#6067 (044bbba27)",
        why="verl 0.8.0 removed the legacy workers: every run uses the engine workers; delete the key",
        inert=("auto", "disable"),
    ),
    Row("ray_init.num_cpus", "renamed", "ray_kwargs.ray_init.num_cpus", "0.6.0", "verl#3049 (2bbd09245)"),
    Row("ray_init.timeline_json_file", "renamed", "ray_kwargs.timeline_json_file", "0.6.0", "verl#3049 (2bbd09245)"),
    # --- checkpoints, weights --------------------------------------------------------------------
    *_per_role(
        "checkpoint.contents",
        "renamed",
        "{role}.checkpoint.save_contents",
        "0.4.1",
        "verl#1350 (a1a152ee4)",
        (_ACTOR, _CRITIC),
        why="load_contents defaults to save_contents",
    ),
    *_per_role(
        "load_weight",
        "removed",
        None,
        "0.9.0",
        "verl#6014 (22b04f949)",
        (_ACTOR, _REF, _CRITIC),
        why="verl always loads the model's weights since 0.9.0; a randomly initialised model is not an option any more",
        inert=(True,),
    ),
    # --- Megatron / MindSpeed / VeOmni engines ----------------------------------------------------
    *_per_role(
        "megatron.grad_offload",
        "dropped",
        None,
        "0.9.1",
        "verl#7544 (verl 0.9.1 wheel)",
        (_ACTOR, _REF, _CRITIC),
        why=_GRAD_OFFLOAD,
    ),
    Row(
        "model_engine",
        "removed",
        None,
        "0.9.1",
        _MINDSPEED_7374,
        why=_MINDSPEED,
        values=(("mindspeed", None),),
        group=True,
    ),
    *_per_role("mindspeed", "removed", None, "0.9.1", _MINDSPEED_7374, (_ACTOR, _REF, _CRITIC), why=_MINDSPEED),
    *(
        Row(
            f"actor_rollout_ref.ref.optim.{key}",
            "dropped",
            None,
            "0.9.1",
            _MINDSPEED_7374,
            why="the reference model is never trained: MindSpeed's ref optimizer settings configured nothing",
        )
        for key in _MINDSPEED_REF_OPTIM
    ),
    *_per_role(
        "veomni.activation_gpu_limit",
        "removed",
        None,
        "0.9.1",
        "verl 0.9.1 wheel",  # engine/veomni.yaml; not in verl's public history at the commit above
        (_ACTOR, _REF, _CRITIC),
        why="0.9.1's VeOmni engine offloads activations with "
        "{role}.veomni.enable_async_activation_offload=true "
        "and activation_offload_modules, without a GPU-memory limit",
        inert=(0.0, 0),
    ),
    *_per_role(
        "router_replay",
        "renamed",
        "{role}.megatron.router_replay",
        "0.9.1",
        "verl#7466 (514dcab4d)",
        (_ACTOR, _REF),
        why="the Megatron and VeOmni engines read their own router_replay ({role}.veomni.router_replay for VeOmni)",
    ),
    *_per_role(
        "veomni.moe_load_balance_monitor_interval",
        "removed",
        None,
        "0.9.0",
        "verl#6853 (3d66a3d7c)",
        (_ACTOR, _REF, _CRITIC),
        why="verl logs MoE load-balance metrics from the rollout: set "
        "actor_rollout_ref.rollout.moe_load_balance_metrics_interval",
        inert=(0,),
    ),
    *(
        Row(
            f"{model}.model.gradient_checkpointing_kwargs.activations_checkpoint_{key}",
            "renamed",
            f"{engine}.megatron.override_transformer_config.recompute_{new}",
            "0.5.0",
            "verl#2651 (c5b189a1a)",
            why="Megatron activation checkpointing is set through override_transformer_config since 0.5.0",
        )
        for model, engine in (("actor_rollout_ref", _ACTOR), (_CRITIC, _CRITIC))
        for key, new in (("granularity", "granularity"), ("method", "method"), ("num_layers", "num_layers"))
    ),
    # --- models -----------------------------------------------------------------------------------
    Row(
        "critic.model.fsdp_config",
        "renamed",
        "critic.fsdp",
        "0.8.0",
        "verl#5870 (16253911d)",
        why="the critic's FSDP engine config sits beside its model since 0.8.0, as the actor's does",
    ),
    *(
        Row(
            f"{role}.model.override_config.{sub}",
            "renamed",
            f"{role}.model.override_config.{sub}",
            "0.8.0",
            "verl#5848 (2edc06a4e)",
            why="override_config is a free-form dict since 0.8.0; verl still reads the key there",
        )
        for role in ("actor_rollout_ref", _CRITIC)
        for sub in ("model_config", "moe_config")
    ),
    *_per_role(
        "kl_ctrl",
        "dropped",
        None,
        "0.5.0",
        "verl#2583 (0b62a6ece)",
        (_CRITIC,),
        why="the critic never read it: the KL controller is algorithm.kl_ctrl",
    ),
    Row(
        "actor_rollout_ref.ref.model.path",
        "removed",
        None,
        "0.7.0",
        "verl#4211 (8ed5bafc0)",  # its last reader, the legacy FSDP worker, went in verl#6067 (044bbba27)
        why="the reference policy is the actor's initial model (actor_rollout_ref.model.path); a separate "
        "reference model is not supported any more",
        inert=(None,),
    ),
    Row(
        "actor_rollout_ref.ref.model",
        "dropped",
        None,
        "0.7.0",
        "verl#4211 (8ed5bafc0)",
        why="verl never read anything under it but its path: the reference policy is built from "
        "actor_rollout_ref.model",
    ),
    Row(
        "actor_rollout_ref.actor.sum_pi_squared_checkpointing",
        "removed",
        None,
        "0.8.0",
        "verl#6153 (695ac0ebc)",
        why="0.8.0 computes sum_pi_squared only when actor_rollout_ref.actor.calculate_sum_pi_squared=True, "
        "without a checkpointing option",
        inert=(False,),
    ),
    # --- rollout ------------------------------------------------------------------------------------
    Row(
        "actor_rollout_ref.rollout.update_weights_bucket_megabytes",
        "renamed",
        "actor_rollout_ref.rollout.checkpoint_engine.update_weights_bucket_megabytes",
        "0.7.1",
        "verl#5031 (ef6eaa05d)",
    ),
    Row(
        "actor_rollout_ref.rollout.engine_kwargs.vllm.disable_mm_preprocessor_cache",
        "moved",
        "actor_rollout_ref.rollout.engine_kwargs.vllm.mm_processor_cache_gb",
        "0.6.0",
        "verl#3037 (bd756c15c)",
        why="engine_kwargs.vllm is handed to vLLM as is since 0.6.0, and vLLM spells a disabled cache "
        "mm_processor_cache_gb=0; left unset, verl chooses (0.9.1 turns the cache off where vLLM's desyncs)",
        values=((True, 0),),
        inert=(False,),
    ),
    Row(
        "actor_rollout_ref.rollout.engine_kwargs.vllm.swap_space",
        "dropped",
        None,
        "0.6.0",
        "verl#3037 (bd756c15c)",
        why="vLLM's V1 engine, the only one verl runs since 0.6.0, never swaps to CPU (it recomputes "
        "preempted requests)",
    ),
    Row(
        "actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend",
        "renamed",
        "actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend",
        "0.6.0",
        "verl#3037 (bd756c15c)",
        why="engine_kwargs.sglang is handed to SGLang's server arguments as is since 0.6.0",
    ),
    Row(
        "actor_rollout_ref.rollout.layer_name_map",
        "removed",
        None,
        "0.8.0",
        "verl#5848 (2edc06a4e)",
        why="verl uses its built-in Megatron layer names (qkv, gate_up) since 0.8.0",
        inert=("qkv", "gate_up"),
    ),
    Row(
        "actor_rollout_ref.rollout.multi_turn.max_turns",
        "renamed",
        "actor_rollout_ref.rollout.multi_turn.max_assistant_turns",
        "0.4.1",
        "verl#1630 (c7aa5e845)",
        why="0.4.1 limits assistant and user turns separately (max_user_turns)",
    ),
    Row(
        "actor_rollout_ref.rollout.chat_scheduler",
        "removed",
        None,
        "0.4.1",
        "verl#1831 (457f4d2a2)",
        why="verl removed the chat scheduler (verl#2725); multi-turn rollouts run as agent loops "
        "(actor_rollout_ref.rollout.agent)",
        inert=(None,),
    ),
    Row(
        "actor_rollout_ref.rollout.multi_turn.completion_callback",
        "removed",
        None,
        "0.6.0",
        "verl#2725 (f10780083)",
        why="verl removed the chat scheduler and its callbacks; multi-turn rollouts run as agent loops "
        "(actor_rollout_ref.rollout.agent)",
        inert=(None,),
    ),
    Row(
        "actor_rollout_ref.rollout.multi_turn.interaction_config_path",
        "removed",
        None,
        "0.8.0",
        "verl#6074 (63dc08501)",
        why="verl 0.8.0 removed verl/interactions; user turns are produced by an agent loop of your own",
        inert=(None,),
    ),
    Row(
        "actor_rollout_ref.rollout.use_fire_sampling",
        "removed",
        None,
        "0.5.0",
        "verl#2257 (52065c640)",
        why="FIRE sampling went with vLLM 0.5.4/0.6.3 support",
        inert=(False,),
    ),
    *(
        Row(f"{_ROLLOUT}.skip_{key}", "renamed", f"{_ROLLOUT}.skip.{new}", "0.8.0", "verl#5556 (01a2bd385)")
        for key, new in (("rollout", "enable"), ("dump_dir", "dump_dir"))
    ),
    *(
        Row(f"{_ROLLOUT}.skip.{key}", "renamed", f"skip.rollout.{key}", "0.9.0", "verl#6097 (266fdceda)")
        for key in ("enable", "dump_dir", "action")
    ),
    Row(
        "actor_rollout_ref.rollout.skip.max_dump_step",
        "removed",
        None,
        "0.9.0",
        "verl#6097 (266fdceda)",
        why="0.9.0 names the skipped steps in skip.rollout.steps=[...]",
        inert=(1,),
    ),
    # --- algorithm: rollout correction ----------------------------------------------------------------
    Row(
        "algorithm.rollout_is",
        "removed",
        None,
        "0.6.1",
        "verl#3984 (418f964ab)",
        why="0.6.1 sets rollout importance sampling with algorithm.rollout_correction.rollout_is=token|sequence",
        inert=(False,),
    ),
    Row(
        "algorithm.rollout_is_level",
        "removed",
        None,
        "0.6.1",
        "verl#3984 (418f964ab)",
        why="the level is the value of algorithm.rollout_correction.rollout_is (token|sequence)",
        inert=("token",),
    ),
    Row(
        "algorithm.rollout_is_mode",
        "removed",
        None,
        "0.6.1",
        "verl#3984 (418f964ab)",
        why="truncation is algorithm.rollout_correction.rollout_is_threshold; masking is rejection sampling "
        "(algorithm.rollout_correction.rollout_rs)",
        inert=("truncate",),
    ),
    Row(
        "algorithm.rollout_is_threshold",
        "renamed",
        "algorithm.rollout_correction.rollout_is_threshold",
        "0.6.1",
        "verl#3984 (418f964ab)",
    ),
    Row(
        "algorithm.rollout_is_threshold_lower",
        "removed",
        None,
        "0.6.1",
        "verl#3984 (418f964ab)",
        why="0.6.1 computes the lower bound as 1/upper; rejection-sampling bounds are "
        "algorithm.rollout_correction.rollout_rs_threshold",
        inert=(None,),
    ),
    Row(
        "algorithm.rollout_is_veto_threshold",
        "removed",
        None,
        "0.6.1",
        "verl#3984 (418f964ab)",
        why="0.7.1 expresses a veto as a rejection-sampling criterion: "
        "algorithm.rollout_correction.rollout_rs and rollout_rs_threshold",
        inert=(None,),
    ),
    Row(
        "algorithm.rollout_correction.use_policy_gradient",
        "moved",
        "algorithm.rollout_correction.loss_type",
        "0.7.0",
        "verl#4511 (518bada21)",
        values=((True, "reinforce"), (False, "ppo_clip")),
    ),
    *(
        Row(
            f"algorithm.rollout_correction.{key}",
            "removed",
            None,
            "0.7.1",
            "verl#4544 (97eac9048)",
            why="0.7.1 folds both bounds and the veto into algorithm.rollout_correction.rollout_rs / "
            "rollout_rs_threshold (see verl's docs/algo/rollout_corr.md)",
            inert=(None,),
        )
        for key in ("rollout_rs_threshold_lower", "rollout_token_veto_threshold")
    ),
    # --- data -------------------------------------------------------------------------------------------
    *(
        Row(
            f"data.{key}",
            "removed",
            None,
            "0.8.0",
            "verl#6302 (5a506cc58)",
            why="verl 0.8.0 removed the curriculum sampler and the dynamic dataset generator",
            inert=(None,),
        )
        for key in ("sampler", "datagen")
    ),
    Row(
        "data.continuous_token",
        "dropped",
        None,
        "0.9.1",
        "verl#6804 (df9e22433)",
        why="Continuous Token is the default and only tokenization path of agent loops, and the model family "
        "is inferred from the model path",
    ),
    # --- reward (0.7.0 -> 0.7.1) --------------------------------------------------------------------------
    Row("reward_manager", "renamed", "reward.reward_manager", "0.7.1", _REWARD_5255),
    Row("reward_model.sandbox_fusion", "renamed", "reward.sandbox_fusion", "0.7.1", _REWARD_5255),
    Row(
        "reward_model.use_reward_loop",
        "removed",
        None,
        "0.7.1",
        _REWARD_5255,
        why="the reward loop is the only reward path since 0.7.1",
        inert=(True,),
    ),
    Row(
        "reward_model.launch_reward_fn_async",
        "dropped",
        None,
        "0.7.1",
        "verl#5237 (3df21a68e)",
        why="the reward loop computes rewards asynchronously, beside the rollout, on every run",
    ),
    *(
        Row(f"reward_model.{key}", "dropped", None, "0.7.1", _REWARD_5194, why=_RM_WORKER)
        for key in (
            "strategy",
            "megatron",
            "micro_batch_size",
            "micro_batch_size_per_gpu",
            "max_length",
            "use_dynamic_bsz",
            "forward_max_token_len_per_gpu",
            "ulysses_sequence_parallel_size",
            "load_weight",
            "nccl_timeout",
            "model.fsdp_config",
            "model.input_tokenizer",
            "model.use_remove_padding",
            "model.use_fused_kernels",
            "model.use_shm",
            "model.override_config",
        )
    ),
    # --- reward (0.9.0): the legacy block, declared but unread by main_ppo -------------------------
    Row(
        "custom_reward_function",
        "renamed",
        "reward.custom_reward_function",
        "0.9.0",
        _UNREAD_6710,
        reader=LEGACY_REWARD,
    ),
    Row("reward_model.num_workers", "renamed", "reward.num_workers", "0.9.0", _UNREAD_6710, reader=LEGACY_REWARD),
    *(
        Row(
            f"reward_model.{old}",
            "renamed",
            f"reward.reward_manager.{new}",
            "0.9.0",
            _UNREAD_6710,
            reader=LEGACY_REWARD,
        )
        for old, new in (
            ("reward_manager", "name"),
            ("reward_loop_source", "source"),
            ("reward_loop_module_path", "module.path"),
            ("reward_loop_class_name", "module.name"),
        )
    ),
    *(
        Row(f"reward_model.{key}", "renamed", f"reward.reward_model.{key}", "0.9.0", _UNREAD_6710, reader=LEGACY_REWARD)
        for key in ("enable", "enable_resource_pool", "n_gpus_per_node", "nnodes", "rollout")
    ),
    Row(
        "reward_model.model.path",
        "renamed",
        "reward.reward_model.model_path",
        "0.9.0",
        _UNREAD_6710,
        reader=LEGACY_REWARD,
    ),
    Row(
        "reward_model.model.external_lib",
        "removed",
        None,
        "0.9.0",
        _UNREAD_6710,
        why=_RM_MODEL_CONFIG + " (the reward model's server imports no external library)",
        inert=(None, ""),
        reader=LEGACY_REWARD,
    ),
    Row(
        "reward_model.model.trust_remote_code",
        "removed",
        None,
        "0.9.0",
        _UNREAD_6710,
        why=_RM_MODEL_CONFIG + " (its server loads the model with trust_remote_code=False)",
        inert=(None, False),
        reader=LEGACY_REWARD,
    ),
    Row("reward_model.reward_kwargs", "renamed", "reward.reward_kwargs", "0.9.0", _UNREAD_6710, reader=LEGACY_REWARD),
    Row("sandbox_fusion", "renamed", "reward.sandbox_fusion", "0.9.0", _UNREAD_6710, reader=LEGACY_REWARD),
)
