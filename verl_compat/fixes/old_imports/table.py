"""Module paths and top-level names that old verl user code imports and newer verl releases lack, as data.

Scope: the public modules of verl's ``verl/`` package (no path component or name starting with ``_``, tests
excluded) and their top-level names that some release tag v0.4.0 ... v0.8.0 had and the verl 0.9.1 wheel lacks;
rows also record where an earlier release (0.7.1, 0.8.0) already lacked them. A name removed and later added back
has no row. Names that a module only bound by importing another library (``import torch``) are not verl's and have
no rows; neither do module-level plumbing (``logger``, ``device_name``) and import-time temporaries of
``verl/__init__.py``. A few private names get rows because verl's own recipes imported them.

How the rows were found: every ``.py`` file of ``verl/`` at each tag (v0.4.0, v0.4.1, v0.5.0, v0.6.0, v0.6.1,
v0.7.0, v0.7.1, v0.8.0, v0.9.0, main at 1dda039b9c6311889a9c9a26040677e1254814f9 of 2026-08-22) and in the installed
0.9.1 wheel was parsed with ``ast`` (``scripts/build_import_index.py``: defs, classes, assignments, imports,
``__all__``; names bound under ``if``/``try`` count). The modules and names missing from 0.9.1 were then traced in
verl's history on main: a module to the commit that deleted or renamed its file (``git log -M --diff-filter=DR``),
a name to the first commit after which its module no longer binds it (each commit touching the file parsed in
turn). ``since`` is the first release whose tag (the wheel for 0.9.1) lacks the path. The fate was decided from
that commit's diff and the code in 0.9.1 (the words are defined once for every table in docs/tables.md):

- ``moved``: the very object lives at ``new`` (a renamed module, or the same function/class body with edits that
  keep its signature and meaning, maybe under another name). A name row whose ``new`` has no colon names a module:
  the old name was a submodule (``verl.utils.reward_score:math`` -> ``verl.utils.reward_score.math_reward``). A
  name that only re-exported another verl module's object is ``moved`` to where that object still lives.
- ``replaced``: ``new`` is the successor that does the same job with another contract (constructor, base class,
  config); ``note`` says what the user must change. A replaced module (``verl.trainer.fsdp_sft_trainer``) is an
  entry point or module whose job the new module does.
- ``removed``: nothing in 0.9.1 does it; ``note`` says what to do instead.

A module row gives the fate of the whole module and of every name in it; a name row overrides it for that name.
Names of a moved module that still exist under the new module have no rows. Names of a removed module go through
the module row, except the ones that moved elsewhere or left earlier than their module, which have name rows.
Names that left a module that still exists (``verl.trainer.main_ppo:create_rl_sampler``) have name rows.

``evidence`` is "verl#PR (commit)": the pull request of verl-project/verl and the first 9 hex digits of the commit
on verl's main branch that made the change (what ``git log --oneline`` prints for verl); "verl 0.9.1 wheel" where
only the wheel shows it. ``note`` is written for the user who hits the old import.

The shape: rows are grouped by verl change (:func:`_change`: its evidence, its ``since`` and its note, written once;
a comment above it gives the commit's subject), one row per line, ``(old, fate, new)`` or ``(old, fate, new,
note)``. A moved row has no note unless it gives one; a replaced or removed row without its own note has the
change's. ``scripts/follow_release.py`` writes rows in this shape, and tests/fixes/test_tables_hold.py checks each
against the installed release.

``KEYWORD_ROWS``: keyword arguments of verl callables that verl's own examples and recipes (v0.4.0 ... v0.8.0)
passed and that the 0.9.1 signature no longer takes (each call with keywords to an imported verl callable, checked
with ``inspect.signature`` on 0.9.1 and 0.8.0). ``callable`` is "module:Class" (its ``__init__``) or
"module:function". ``fate``: ``moved`` (the same parameter under the keyword ``new``), ``dropped`` (0.9.1 does the same from the
config: the keyword can be ignored, ``note`` says why), ``removed`` (an error; ``note`` says what to do). Grouped by
change too (:func:`_keyword_change`), one ``(callable, old, fate, new, note)`` per line.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

Fate = Literal["moved", "replaced", "removed"]
KeywordFate = Literal["moved", "dropped", "removed"]


@dataclasses.dataclass(frozen=True)
class Row:
    old: str  # "verl.a.b" (a module) or "verl.a.b:Name" (a top-level name of module verl.a.b)
    fate: Fate
    new: str | None  # same notation; None when removed
    since: str  # first release without the old path
    evidence: str  # "verl#NNNN (9 hex digits)"
    note: str = ""


@dataclasses.dataclass(frozen=True)
class KeywordRow:
    callable: str  # "module:Class" (its __init__) or "module:function"
    old: str  # the old keyword
    fate: KeywordFate
    new: str | None
    since: str
    evidence: str
    note: str = ""


# One row as written in a change: (old, fate, new) or (old, fate, new, note).
_Entry = tuple[str, Fate, str | None] | tuple[str, Fate, str | None, str]
_KeywordEntry = tuple[str, str, KeywordFate, str | None, str]


def _change(evidence: str, since: str, note: str, *entries: _Entry) -> tuple[Row, ...]:
    """The rows of one verl change: a moved row keeps no note unless it gives one; a replaced or removed row
    without its own note gets the change's."""
    rows = []
    for entry in entries:
        old, fate, new = entry[:3]
        own = entry[3] if len(entry) == 4 else None
        rows.append(Row(old, fate, new, since, evidence, own if own is not None else ("" if fate == "moved" else note)))
    return tuple(rows)


def _keyword_change(evidence: str, since: str, *entries: _KeywordEntry) -> tuple[KeywordRow, ...]:
    """The keyword rows of one verl change."""
    return tuple(KeywordRow(call, old, fate, new, since, evidence, note) for call, old, fate, new, note in entries)


# Notes shared by the rows of one verl change, named by its pull request.
_VERL_6302 = (
    "removed as unused plugin code: the five example tools (reference patterns live in verl's docs and git history), "
    "the curriculum sampler with data.sampler.{class_path,class_name} (create_rl_sampler is random/sequential only) "
    "and the dynamic dataset with data.datagen; keep a copy of the old module in your project if you need it"
)
_VERL_6129 = (
    "FullyAsyncAgentLoopManager now lives in verl.experimental.fully_async_policy.fully_async_rollouter with another "
    "constructor; server management is verl.workers.rollout.llm_server"
)
_VERL_6162 = (
    "VLA support moved out of verl into the standalone verl-vla repository (verl-project/verl-vla): install it and "
    "import from there"
)
_VERL_6074 = (
    "verl removed multi-turn interactions (verl.interactions and rollout.multi_turn.interaction_config_path) without "
    "an in-tree successor: keep a copy of the old classes or drive the conversation in a custom agent loop "
    "(verl.experimental.agent_loop)"
)
_VERL_5707 = (
    "verl's hand-written Megatron Llama/Qwen2 models were removed: Megatron models are built through "
    "Megatron-Bridge/mbridge (verl.models.mcore)"
)
_VERL_6445 = (
    "verl's own Megatron Qwen2.5-VL implementation was removed: VLMs are built through Megatron-Bridge/mbridge "
    "(verl.models.mcore)"
)
_VERL_2895 = (
    "RayMegatronWorker/RayMegatronWorkerGroup were removed: Megatron workers register their own dispatch/collect "
    "functions; use verl.single_controller.ray:RayWorkerGroup (and verl.single_controller.base:Worker)"
)
_VERL_3066 = (
    "the worker-group register center was removed: workers get MASTER_ADDR/MASTER_PORT from a task in the first "
    "placement group; nothing replaces the import"
)
_VERL_4523 = "the SPMD SGLang rollout was removed: SGLang runs as a server (verl.workers.rollout.sglang_rollout)"
_VERL_2257 = (
    "verl dropped vLLM 0.5.4/0.6.3 (it needs vLLM >= 0.7); the vendored vLLM copies and the rollouts built on them "
    "are gone: use the installed vllm package through verl's vLLM server rollout"
)
_VERL_6300 = "MCP tool support was removed (deprecated); tools are initialised by AgentLoopWorker from the tool config"
_VERL_6067 = (
    "the legacy actor/critic classes went with the legacy workers: the model engines (verl.workers.engine.*, driven "
    "by verl.workers.engine_workers.TrainingWorker) compute log-probs and values, the losses are in "
    "verl.workers.utils.losses (ppo_loss, value_loss); there is no drop-in class"
)
_VERL_3422 = "renamed by verl#3422, which also made the engine API take and return TensorDict instead of DataProto"
_VERL_6067_2 = (
    "verl deleted its legacy FSDP/Megatron workers; training runs on the model-engine workers of "
    "verl.workers.engine_workers (ActorRolloutRefWorker for actor/rollout/ref, TrainingWorker for the critic) with "
    "the engines under verl.workers.engine"
)
_VERL_5255 = (
    "the legacy FSDP/Megatron reward-model workers were removed: reward models run in the reward loop "
    "(verl.experimental.reward_loop, config reward.reward_model)"
)
_VERL_4352 = (
    "the new-engine role workers moved to verl.workers.engine_workers (TrainingWorker, ActorRolloutRefWorker) with "
    "another layout"
)
_VERL_3885 = (
    "legacy generative-reward-model code: reward models run in the reward loop (verl.experimental.reward_loop, config"
    " reward.reward_model)"
)
_VERL_4439 = (
    "rollout weights are synced by the checkpoint engine (verl.checkpoint_engine) to rollout servers; the "
    "training-to-rollout sharding managers were removed"
)
_VERL_6129_2 = (
    "renamed LLMServerClient and moved; get one from LLMServerManager.get_client() rather than building it from "
    "(config, server handles, load balancer)"
)
_VERL_3679 = "removed by verl#3679 without a same-named successor"
_VERL_4358 = "renamed RewardLoopWorker with reward-model support; its constructor differs"
_VERL_6074_2 = "it re-exported verl.interactions.base.BaseInteraction, which verl removed"
_VERL_6074_3 = (
    "it re-exported verl.interactions.utils.interaction_registry.initialize_interactions_from_config, "
    "which verl removed"
)
_VERL_6076 = "it re-exported verl.experimental.fully_async_policy.detach_utils.ValidateMetrics, which verl removed"
_VERL_6097 = (
    "RolloutSkip is now one of the SkipManager schemes: RolloutSkip(local_config, global_config) configured by "
    "skip.rollout.* instead of RolloutSkip(config, rollout_wg) wrapping generate_sequences; verl's trainers set it up"
    " from config"
)
_VERL_4572 = "renamed by verl#4572 (RewardLoopManager -> RewardManager in the class names)"
_VERL_6302_2 = "it re-exported verl.experimental.dataset.sampler.AbstractCurriculumSampler, which verl removed"
_VERL_3849 = "removed by verl#3849 without a same-named successor"
_VERL_5057 = "removed by verl#5057 without a same-named successor"
_VERL_5057_2 = "it re-exported verl.models.mcore.util.postprocess_thd_no_padding, which verl removed"
_VERL_5057_3 = "it re-exported verl.models.mcore.util.preprocess_thd_no_padding, which verl removed"
_VERL_4323 = "removed by verl#4323 without a same-named successor"
_VERL_462 = "removed by verl#462 without a same-named successor"
_VERL_4436 = "removed by verl#4436 without a same-named successor"
_VERL_3923 = "removed by verl#3923 without a same-named successor"
_VERL_3496 = "removed by verl#3496 without a same-named successor"
_VERL_2895_2 = "removed by verl#2895 without a same-named successor"
_VERL_2621 = "removed by verl#2621 without a same-named successor"
_VERL_4511 = "removed by verl#4511 without a same-named successor"
_VERL_5237 = (
    "batch reward managers were removed: rewards are computed by the reward loop (RewardLoopManager, configured by "
    "config.reward) while generating, and read back with verl.trainer.ppo.reward:extract_reward(batch)"
)
_VERL_2212 = "removed by verl#2212 without a same-named successor"
_VERL_4320 = (
    "the torch profiler is integrated into DistProfiler (verl.utils.profiler:DistProfiler with tool=torch, configured"
    " per role under profiler)"
)
_VERL_7327 = "removed by verl#7327 without a same-named successor"
_VERL_5575 = "removed by verl#5575 without a same-named successor"
_VERL_6555 = "removed by verl#6555 without a same-named successor"
_VERL_2125 = "removed by verl#2125 without a same-named successor"
_VERL_5374 = "removed by verl#5374 without a same-named successor"
_VERL_5454 = (
    "verl retired its first TransferQueue integration; 0.9 integrates TransferQueue through the transfer_queue "
    "package (verl.utils.transferqueue_utils.tq, transfer_queue.enable) in the v1 trainer (trainer.use_v1=True)"
)
_VERL_7042 = "removed by verl#7042 without a same-named successor"
_VERL_7224 = "removed by verl#7224 without a same-named successor"
_VERL_7190 = "removed by verl#7190 without a same-named successor"
_VERL_7374 = "removed by verl#7374 without a same-named successor"
_VERL_7374_2 = "it re-exported verl.workers.config.engine.MindSpeedEngineConfig, which verl removed"
_VERL_7374_3 = "it re-exported verl.workers.config.MindSpeedEngineConfig, which verl removed"
_VERL_6067_3 = (
    "the model-engine worker verl.workers.engine_workers:ActorRolloutRefWorker(config, role, "
    "distillation_config=None): rollout runs only as a server (no in-process generate_sequences), the actor/ref are "
    "TrainingWorker engines, and the methods a subclass overrides differ; port the subclass, or register this class "
    "for the role"
)
_VERL_6067_4 = (
    "async (server) rollout is the only mode now, so the async subclass is gone: the model-engine worker "
    "verl.workers.engine_workers:ActorRolloutRefWorker(config, role, distillation_config=None): rollout runs only as "
    "a server (no in-process generate_sequences), the actor/ref are TrainingWorker engines, and the methods a "
    "subclass overrides differ; port the subclass, or register this class for the role"
)
_VERL_6067_5 = (
    "register ray.remote(TrainingWorker) for Role.Critic: RayPPOTrainer builds its "
    "TrainingWorkerConfig(model_type='value_model') from config.critic; TrainingWorker takes that config object, not "
    "the critic DictConfig"
)
_VERL_5194 = (
    "the legacy reward-model worker was removed: reward models run in the reward loop (verl.experimental.reward_loop,"
    " config reward.reward_model.enable=True); RayPPOTrainer no longer takes a Role.RewardModel worker, only its "
    "resource pool"
)
_VERL_3456 = "removed by verl#3456 without a same-named successor"
_VERL_3456_2 = "it re-exported verl.workers.rollout.async_server.AsyncServerBase, which verl removed"
_VERL_5383 = "it re-exported verl.workers.rollout.utils.run_unvicorn, which verl removed"
_VERL_4422 = "removed by verl#4422 without a same-named successor"
_VERL_7224_2 = "it re-exported verl.utils.vllm.vllm_fp8_utils.apply_vllm_fp8_patches, which verl removed"
_VERL_7224_3 = "it re-exported verl.utils.vllm.vllm_fp8_utils.is_fp8_model, which verl removed"
_VERL_4280 = (
    "the worker-side async rollout became ServerAdapter, an HTTP client of a vLLM server running in its own process"
)
_VERL_6074_4 = "interactions were removed from verl; see verl.interactions"

# One verl change after another (by release, then pull request); its rows sorted by path.
# fmt: off
ROWS: tuple[Row, ...] = (
    # [fsdp] feat: Memory efficient cross entropy with a linear layer fused (#462)
    *_change("verl#462 (c8908e197)", "0.4.1", _VERL_462,
        ("verl.models.transformers.llama:CausalLMOutputForPPO", "moved", "verl.models.transformers.dense_common:CausalLMOutputForPPO"),
        ("verl.models.transformers.llama:forward_for_ppo", "removed", None),
        ("verl.models.transformers.qwen2_5_vl:forward_for_ppo", "removed", None),
        ("verl.models.transformers.qwen2_vl:forward_for_ppo", "removed", None),
    ),
    # [ckpt] refactor: enhance FSDP checkpoint manager flexibility (#1350)
    *_change("verl#1350 (a1a152ee4)", "0.4.1", "",
        ("verl.utils.megatron_utils:print_rank_0", "moved", "verl.utils.logger.aggregate_logger:print_rank_0"),
    ),
    # [sglang] feat: Efficient and model-agnostic multi-turn messages tokenization and masking (#1668)
    *_change("verl#1668 (16662ceff)", "0.4.1", "",
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:compute_position_id_with_mask", "moved", "verl.utils.model:compute_position_id_with_mask"),
    ),
    # [feat] Wandb Timing: Add more detailed timing of gen_sequence and weights resharding (#1834)
    *_change("verl#1834 (70bd3d3d6)", "0.4.1", "removed by verl#1834 without a same-named successor",
        ("verl.trainer.ppo.ray_trainer:_timer", "moved", "verl.utils.profiler.performance:simple_timer", "the same (name, timing_raw) timing context manager under a public name; verl's trainers use marked_timer, which also emits profiler ranges"),
        ("verl.workers.sharding_manager.megatron_vllm:AllGatherPPModel", "removed", None),
    ),
    # fix sequence parallelism conflict in kimiVL (#1899)
    *_change("verl#1899 (ea121f0d3)", "0.4.1", "",
        ("verl.models.transformers.kimi_vl:gather_outpus_and_unpad", "moved", "verl.utils.ulysses:gather_outpus_and_unpad"),
        ("verl.models.transformers.kimi_vl:get_ulysses_sequence_parallel_group", "moved", "verl.utils.ulysses:get_ulysses_sequence_parallel_group"),
        ("verl.models.transformers.kimi_vl:get_ulysses_sequence_parallel_rank", "moved", "verl.utils.ulysses:get_ulysses_sequence_parallel_rank"),
    ),
    # [trainer] refactor: refactor reward manager, advantage estimator (#1916)
    *_change("verl#1916 (916ab431b)", "0.4.1", "it re-exported verl.workers.rollout.async_server.AsyncLLMServerManager, which verl removed",
        ("verl.trainer.ppo.ray_trainer:AsyncLLMServerManager", "removed", None),
    ),
    # [hardware] refactor: refactor part of device management (#1974)
    *_change("verl#1974 (ca65c363f)", "0.4.1", "",
        ("verl.utils.distributed:is_cuda_available", "moved", "verl.utils.device:is_cuda_available"),
    ),
    # [ci] feat: Add CI for checking irregular device api usage (#2089)
    *_change("verl#2089 (0077f3e38)", "0.4.1", "",
        ("verl.utils.checkpoint.checkpoint_manager:is_cuda_available", "moved", "verl.utils.device:is_cuda_available"),
        ("verl.utils.checkpoint.checkpoint_manager:is_npu_available", "moved", "verl.utils.device:is_npu_available"),
    ),
    # [megatron] feat: Support of dist checkpoint (#2125)
    *_change("verl#2125 (3b3e59704)", "0.4.1", _VERL_2125,
        ("verl.trainer.ppo.ray_trainer:BaseCheckpointManager", "moved", "verl.utils.checkpoint.checkpoint_manager:BaseCheckpointManager"),
        ("verl.utils.checkpoint.megatron_checkpoint_manager:get_hf_config_and_tokenizer_checkpoint_path", "removed", None, "it re-exported verl.utils.megatron_utils.get_hf_config_and_tokenizer_checkpoint_path, which verl removed"),
        ("verl.utils.checkpoint.megatron_checkpoint_manager:get_model_checkpoint_path", "moved", "verl.utils.megatron_utils:get_model_checkpoint_path"),
        ("verl.utils.checkpoint.megatron_checkpoint_manager:get_optimizer_checkpoint_path", "moved", "verl.utils.megatron_utils:get_optimizer_checkpoint_path"),
        ("verl.utils.checkpoint.megatron_checkpoint_manager:get_rng_states_checkpoint_path", "removed", None, "it re-exported verl.utils.megatron_utils.get_rng_states_checkpoint_path, which verl removed"),
        ("verl.utils.megatron_utils:get_hf_config_and_tokenizer_checkpoint_path", "removed", None),
        ("verl.utils.megatron_utils:get_rng_states_checkpoint_path", "removed", None),
    ),
    # [rollout] fix: Make `free_cache_engine` option workable in latest vLLM/SGLang (#1464)
    *_change("verl#1464 (afee3acb5)", "0.5.0", "",
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:vllm_version", "moved", "verl.third_party.vllm:vllm_version"),
    ),
    # [rollout] feat: add agent loop (#2124)
    *_change("verl#2124 (790a8a29c)", "0.5.0", "removed by verl#2124 without a same-named successor",
        ("verl.tools.base_tool:initialize_tools_from_config", "removed", None),
    ),
    # [trainer, cfg] feat: add BaseConfig for all dataclass configs. Introduce dataclass for algorithm related configs (#2147)
    *_change("verl#2147 (c936ec7d5)", "0.5.0", "verl.utils.debug.profile moved to verl.utils.profiler.profile (verl#2147), whose Profiler verl#4320 removed in 0.7.1: the torch profiler is integrated into DistProfiler (verl.utils.profiler:DistProfiler with tool=torch, configured per role under profiler)",
        ("verl.utils.debug.empty_annotations", "moved", "verl.utils.profiler.empty_annotations"),
        ("verl.utils.debug.nvtx_profile", "moved", "verl.utils.profiler.nvtx_profile"),
        ("verl.utils.debug.performance:DecoratorLoggerBase", "moved", "verl.utils.logger:DecoratorLoggerBase"),
        ("verl.utils.debug.performance:GPUMemoryLogger", "moved", "verl.utils.profiler.performance:GPUMemoryLogger"),
        ("verl.utils.debug.performance:get_device_id", "moved", "verl.utils.device:get_device_id"),
        ("verl.utils.debug.performance:get_torch_device", "moved", "verl.utils.device:get_torch_device"),
        ("verl.utils.debug.performance:log_gpu_memory_usage", "moved", "verl.utils.profiler.performance:log_gpu_memory_usage"),
        ("verl.utils.debug.performance:log_print", "moved", "verl.utils.profiler.performance:log_print"),
        ("verl.utils.debug.performance:marked_timer", "moved", "verl.utils.profiler.performance:marked_timer"),
        ("verl.utils.debug.profile", "moved", "verl.utils.profiler.profile"),
        ("verl.utils.debug.profile:Profiler", "removed", None),
        ("verl.utils.debug:log_print", "moved", "verl.utils.profiler.performance:log_print"),
    ),
    # [model] fix: separate minicpmo data (#2212)
    *_change("verl#2212 (e96f0fbf4)", "0.5.0", _VERL_2212,
        ("verl.utils.dataset.vision_utils:build_image_bound", "removed", None),
        ("verl.utils.dataset.vision_utils:build_transform", "removed", None),
        ("verl.utils.dataset.vision_utils:compute_position_id_with_mask", "moved", "verl.utils.model:compute_position_id_with_mask"),
        ("verl.utils.dataset.vision_utils:ensure_divide", "removed", None),
        ("verl.utils.dataset.vision_utils:find_best_resize", "removed", None),
        ("verl.utils.dataset.vision_utils:get_grid_placeholder", "removed", None),
        ("verl.utils.dataset.vision_utils:get_refine_size", "removed", None),
        ("verl.utils.dataset.vision_utils:init_minicpmo_config", "removed", None),
        ("verl.utils.dataset.vision_utils:preprocess", "removed", None),
        ("verl.utils.dataset.vision_utils:process_minicpmo_data", "removed", None),
        ("verl.utils.dataset.vision_utils:reshape_by_patch", "removed", None),
        ("verl.utils.dataset.vision_utils:slice_image", "removed", None),
        ("verl.utils.dataset.vision_utils:split_to_patches", "removed", None),
        ("verl.utils.dataset.vision_utils:verl_F", "moved", "verl.utils.torch_functional"),
    ),
    # [BREAKING][rollout] refactor: drop vllm v0.5.4 and v0.6.3 support (#2257)
    *_change("verl#2257 (52065c640)", "0.5.0", _VERL_2257,
        ("verl.third_party.vllm.vllm_v_0_5_4", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_5_4.arg_utils", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_5_4.config", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_5_4.dtensor_weight_loaders", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_5_4.hf_weight_loader", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_5_4.llm", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_5_4.llm_engine_sp", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_5_4.megatron_weight_loaders", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_5_4.model_loader", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_5_4.model_runner", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_5_4.parallel_state", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_5_4.spmd_gpu_executor", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_5_4.tokenizer", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_5_4.worker", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_6_3", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_6_3.arg_utils", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_6_3.config", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_6_3.dtensor_weight_loaders", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_6_3.hf_weight_loader", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_6_3.llm", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_6_3.llm_engine_sp", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_6_3.megatron_weight_loaders", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_6_3.model_loader", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_6_3.model_runner", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_6_3.parallel_state", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_6_3.spmd_gpu_executor", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_6_3.tokenizer", "removed", None),
        ("verl.third_party.vllm.vllm_v_0_6_3.worker", "removed", None),
        ("verl.third_party.vllm:LLMEngine", "removed", None, "it re-exported verl.third_party.vllm.vllm_v_0_5_4.llm.LLMEngine, which verl removed"),
        ("verl.workers.rollout.vllm_rollout.fire_vllm_rollout", "removed", None),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:GPUMemoryLogger", "moved", "verl.utils.debug:GPUMemoryLogger"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:LLM", "moved", "verl.third_party.vllm:LLM"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:get_response_mask", "moved", "verl.utils.torch_functional:get_response_mask"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:pad_sequence_to_length", "moved", "verl.utils.torch_functional:pad_sequence_to_length"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:vLLMRollout", "removed", None, "removed by verl#2257 without a same-named successor"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:vllm_ps", "moved", "verl.third_party.vllm:parallel_state"),
        ("verl.workers.rollout.vllm_rollout:FIREvLLMRollout", "removed", None, "it re-exported verl.workers.rollout.vllm_rollout.fire_vllm_rollout.FIREvLLMRollout, which verl removed"),
    ),
    # [misc] refactor: remove deprecated codes (#2494)
    *_change("verl#2494 (11e0cf752)", "0.5.0", "removed by verl#2494 without a same-named successor",
        ("verl.workers.rollout.vllm_rollout:vllm_mode", "removed", None),
    ),
    # [sglang] fix: rename Sglang to SGLang following SGLang's fashion (#2672)
    *_change("verl#2672 (72cae971d)", "0.5.0", "removed by verl#2672 without a same-named successor",
        ("verl.workers.rollout.sglang_rollout.async_sglang_server:AsyncSglangServer", "removed", None),
    ),
    # [cfg] refactor: add ActorConfig, EngineConfig, and ActorWorker unit test, refactor validation code (#2621)
    *_change("verl#2621 (4de3ecf0f)", "0.6.0", _VERL_2621,
        ("verl.trainer.config.algorithm:PFPPOConfig", "removed", None),
        ("verl.trainer.config.config:CriticConfig", "removed", None, "removed by verl#2621 without a same-named successor; verl.workers.config.critic.CriticConfig in verl 0.9.1 is a different implementation, not a drop-in"),
        ("verl.trainer.config.config:FSDPCriticConfig", "removed", None, "removed by verl#2621 without a same-named successor; verl.workers.config.critic.FSDPCriticConfig in verl 0.9.1 is a different implementation, not a drop-in"),
        ("verl.trainer.config.config:MegatronCriticConfig", "removed", None),
        ("verl.trainer.config:CriticConfig", "removed", None, "it re-exported verl.trainer.config.config.CriticConfig, which verl removed"),
        ("verl.trainer.config:FSDPCriticConfig", "removed", None, "it re-exported verl.trainer.config.config.FSDPCriticConfig, which verl removed"),
        ("verl.trainer.config:MegatronCriticConfig", "removed", None, "it re-exported verl.trainer.config.config.MegatronCriticConfig, which verl removed"),
        ("verl.trainer.config:PFPPOConfig", "removed", None, "it re-exported verl.trainer.config.algorithm.PFPPOConfig, which verl removed"),
    ),
    # [rollout] feat: remove chat scheduler (#2725)
    *_change("verl#2725 (f10780083)", "0.6.0", "the chat scheduler was removed (verl#2618): multi-turn and tool rollouts run in agent loops (verl.experimental.agent_loop)",
        ("verl.workers.rollout.chat_scheduler", "removed", None),
    ),
    # [vllm] fix: verl + vllm-ascend(version 0.9.1) running failed issue (#2782)
    *_change("verl#2782 (bf89f612e)", "0.6.0", "",
        ("verl.utils.vllm_utils", "moved", "verl.utils.vllm.utils"),
        ("verl.utils.vllm_utils:SUPPORTED_MOE_MODELS", "moved", "verl.utils.vllm.patch:SUPPORTED_MOE_MODELS"),
        ("verl.utils.vllm_utils:patch_vllm_moe_model_weight_loader", "moved", "verl.utils.vllm.patch:patch_vllm_moe_model_weight_loader", "split out of verl.utils.vllm_utils into verl.utils.vllm.patch, same (model) signature"),
    ),
    # [docker] feat: Upgrade sglang 0.4.9 + transformers 4.53.2 (#2794)
    *_change("verl#2794 (f32e54dea)", "0.6.0", "it re-exported verl.workers.rollout.sglang_rollout.sglang_rollout.SGLangRollout, which verl removed",
        ("verl.workers.rollout.sglang_rollout:SGLangRollout", "removed", None),
    ),
    # [BREAKING] [ray, megatron] feat: remove RayMegatronWorker (#2895)
    *_change("verl#2895 (c0f99f3da)", "0.6.0", _VERL_2895_2,
        ("verl.single_controller.base.decorator:collect_megatron_compute", "removed", None),
        ("verl.single_controller.base.decorator:collect_megatron_compute_data_proto", "removed", None),
        ("verl.single_controller.base.decorator:collect_megatron_pp_as_dp", "removed", None),
        ("verl.single_controller.base.decorator:collect_megatron_pp_as_dp_data_proto", "removed", None),
        ("verl.single_controller.base.decorator:collect_megatron_pp_only", "removed", None),
        ("verl.single_controller.base.decorator:dispatch_megatron_compute", "removed", None),
        ("verl.single_controller.base.decorator:dispatch_megatron_compute_data_proto", "removed", None),
        ("verl.single_controller.base.decorator:dispatch_megatron_pp_as_dp", "removed", None),
        ("verl.single_controller.base.decorator:dispatch_megatron_pp_as_dp_data_proto", "removed", None),
        ("verl.single_controller.base.megatron", "removed", None, _VERL_2895),
        ("verl.single_controller.base.megatron.worker", "removed", None, _VERL_2895),
        ("verl.single_controller.base.megatron.worker_group", "removed", None, _VERL_2895),
        ("verl.single_controller.ray.megatron", "removed", None, _VERL_2895),
    ),
    # [megatron] fix: retain MLA config in mcore config converter (#2933)
    *_change("verl#2933 (3ebe6717a)", "0.6.0", "removed by verl#2933 without a same-named successor",
        ("verl.models.mcore.config_converter:check_and_disable_incompatible_configs", "removed", None),
    ),
    # [megatron] feat: Allow override optimizer config (#2959)
    *_change("verl#2959 (6bd44e631)", "0.6.0", "removed by verl#2959 without a same-named successor",
        ("verl.utils.megatron_utils:init_megatron_optim_config", "removed", None),
    ),
    # [ray] feat: remove worker group register center (#3066)
    *_change("verl#3066 (d253526c7)", "0.6.0", _VERL_3066,
        ("verl.single_controller.base.register_center", "removed", None),
        ("verl.single_controller.base.register_center.ray", "removed", None),
    ),
    # [trainer] refactor: PPO config validation fast fail (#3187)
    *_change("verl#3187 (7592d69cb)", "0.6.0", "",
        ("verl.trainer.ppo.ray_trainer:Worker", "moved", "verl.single_controller.base:Worker"),
    ),
    # [training_utils] fix: stop using `math` naming under reward score" (#3378)
    *_change("verl#3378 (f346f96d2)", "0.6.0", "",
        ("verl.utils.reward_score.math", "moved", "verl.utils.reward_score.math_reward"),
        ("verl.utils.reward_score:math", "moved", "verl.utils.reward_score.math_reward", "the submodule was renamed math_reward (it shadowed the standard library's math)"),
    ),
    # [model] feat: replace DataProto with TensorDict in engine (#3422)
    *_change("verl#3422 (5c46f4f43)", "0.6.0", _VERL_3422,
        ("verl.workers.engine.base:DataProto", "moved", "verl:DataProto"),
        ("verl.workers.engine.fsdp.engine_impl", "replaced", "verl.workers.engine.fsdp.transformer_impl"),
        ("verl.workers.engine.megatron.engine_impl", "replaced", "verl.workers.engine.megatron.transformer_impl"),
    ),
    # [1/N][rollout] feat: support vllm/sglang native http server (#3456)
    *_change("verl#3456 (fd8ae6672)", "0.6.0", _VERL_3456,
        ("verl.experimental.agent_loop.agent_loop:async_server_class", "removed", None, "it re-exported verl.workers.rollout.async_server.async_server_class, which verl removed"),
        ("verl.workers.rollout.async_server", "removed", None, "the async-server wrappers were replaced by native vLLM/SGLang HTTP servers: replicas come from verl.workers.rollout.replica and requests go through verl.workers.rollout.llm_server:LLMServerClient"),
        ("verl.workers.rollout.sglang_rollout.async_sglang_server:AsyncSGLangServer", "removed", None),
        ("verl.workers.rollout.sglang_rollout.async_sglang_server:AsyncServerBase", "removed", None, _VERL_3456_2),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:Message", "moved", "verl.workers.rollout.schemas:Message"),
        ("verl.workers.rollout.vllm_rollout.vllm_async_server:AsyncServerBase", "removed", None, _VERL_3456_2),
        ("verl.workers.rollout.vllm_rollout.vllm_async_server:AsyncvLLMServer", "removed", None),
        ("verl.workers.rollout.vllm_rollout.vllm_async_server:ExternalRayDistributedExecutor", "removed", None),
        ("verl.workers.rollout.vllm_rollout.vllm_async_server:copy_to_local", "moved", "verl.utils.fs:copy_to_local"),
    ),
    # [model] fix: refactor qwen2vl patches & support no-image input for fsdp (#3496)
    *_change("verl#3496 (0d4541f39)", "0.6.0", _VERL_3496,
        ("verl.models.transformers.qwen2_5_vl", "removed", None, "the Qwen2.5-VL patch was folded into the Qwen2-VL one (verl.models.transformers.qwen2_vl), applied by verl.models.transformers.monkey_patch:apply_monkey_patch"),
        ("verl.models.transformers.qwen2_vl:flash_attention_forward", "removed", None),
        ("verl.models.transformers.qwen2_vl:forward_base_model", "removed", None),
        ("verl.models.transformers.qwen2_vl:ulysses_flash_attn_forward", "removed", None),
    ),
    # [model] feat: support parameter generator for model engine (#3529)
    *_change("verl#3529 (d33c85e2c)", "0.6.0", "",
        ("verl.utils.kernel.linear_cross_entropy:kernels", "moved", "verl.utils.kernel.kernels"),
    ),
    # [trainer, worker] feat: more flexible and easy-to-use reward model (#3679)
    *_change("verl#3679 (d55929fd3)", "0.6.1", _VERL_3679,
        ("verl.experimental.agent_loop.agent_loop:BatchExecutor", "removed", None),
        ("verl.experimental.agent_loop.agent_loop:load_reward_manager", "moved", "verl.trainer.ppo.reward:load_reward_manager"),
        ("verl.workers.config.reward_model:ProfilerConfig", "moved", "verl.utils.profiler:ProfilerConfig"),
        ("verl.workers.config.reward_model:RewardModelDataProcessorConfig", "removed", None),
        ("verl.workers.config.reward_model:SamplingConfig", "moved", "verl.workers.config.rollout:SamplingConfig"),
        ("verl.workers.config.reward_model:ServerConfig", "moved", "verl.workers.config.rollout:ServerConfig"),
        ("verl.workers.config.reward_model:get_custome_process_fn", "removed", None),
        ("verl.workers.config:RewardModelDataProcessorConfig", "removed", None, "it re-exported verl.workers.config.reward_model.RewardModelDataProcessorConfig, which verl removed"),
        ("verl.workers.config:get_custome_process_fn", "removed", None, "it re-exported verl.workers.config.reward_model.get_custome_process_fn, which verl removed"),
        ("verl.workers.rollout.replica:RewardModelConfig", "moved", "verl.workers.config:RewardModelConfig"),
        ("verl.workers.rollout.sglang_rollout.async_sglang_server:RewardModelConfig", "moved", "verl.workers.config:RewardModelConfig"),
    ),
    # [megatron] fix: VLMs using fused kernels (#3849)
    *_change("verl#3849 (ab676dc2b)", "0.6.1", _VERL_3849,
        ("verl.models.mcore.model_forward:gptmodel_forward", "removed", None),
        ("verl.models.mcore.model_forward:gptmodel_forward_qwen2_5_vl", "removed", None),
        ("verl.models.mcore.model_forward:recover_left_padding", "removed", None, "it re-exported verl.models.mcore.util.recover_left_padding, which verl removed"),
        ("verl.models.mcore.model_forward:remove_left_padding", "removed", None, "it re-exported verl.models.mcore.util.remove_left_padding, which verl removed"),
        ("verl.models.mcore.model_forward_fused:Qwen2_5VLModel", "removed", None, "it re-exported verl.models.mcore.qwen2_5_vl.model.Qwen2_5VLModel, which verl removed"),
        ("verl.models.mcore.model_forward_fused:fused_forward_gptmodel", "removed", None),
        ("verl.models.mcore.model_forward_fused:fused_forward_qwen2_5_vl", "removed", None),
        ("verl.models.mcore.registry:fused_forward_gptmodel", "removed", None, "it re-exported verl.models.mcore.model_forward_fused.fused_forward_gptmodel, which verl removed"),
        ("verl.models.mcore.registry:fused_forward_qwen2_5_vl", "removed", None, "it re-exported verl.models.mcore.model_forward_fused.fused_forward_qwen2_5_vl, which verl removed"),
        ("verl.models.mcore.registry:gptmodel_forward", "removed", None, "it re-exported verl.models.mcore.model_forward.gptmodel_forward, which verl removed"),
        ("verl.models.mcore.registry:gptmodel_forward_qwen2_5_vl", "removed", None, "it re-exported verl.models.mcore.model_forward.gptmodel_forward_qwen2_5_vl, which verl removed"),
    ),
    # [model] chore: deprecated legacy code for GRM (#3885)
    *_change("verl#3885 (7fe074a9d)", "0.6.1", _VERL_3885,
        ("verl.workers.roles.reward_model", "removed", None),
        ("verl.workers.roles.reward_model_engine", "removed", None),
        ("verl.workers.roles.reward_model_engine.base", "removed", None),
        ("verl.workers.roles.reward_model_engine.sglang_reward_model", "removed", None),
    ),
    # [fsdp] feat: add NPU fusion kernels for Qwen2 and Qwen2.5 dense model. (#3923)
    *_change("verl#3923 (57569404c)", "0.6.1", _VERL_3923,
        ("verl.models.transformers.npu_patch:apply_rotary_pos_emb_flashatt_qwen2_5_vl_npu", "removed", None),
        ("verl.models.transformers.npu_patch:apply_rotary_pos_emb_qwen3_npu", "removed", None),
    ),
    # [BREAKING][algo] feat: Rollout Correction for General Off-Policy Problems (#3984)
    *_change("verl#3984 (418f964ab)", "0.6.1", "superseded by rollout correction: verl.trainer.ppo.rollout_corr_helper, configured under algorithm.rollout_correction",
        ("verl.trainer.ppo.mismatch_helper", "replaced", "verl.trainer.ppo.rollout_corr_helper"),
        ("verl.trainer.ppo.ray_trainer:compute_rollout_importance_weights", "removed", None, "it re-exported verl.trainer.ppo.mismatch_helper.compute_rollout_importance_weights, which verl removed"),
    ),
    # [ci, doc] feat: Update Ascend Dockerfile and docker build workflow to 8.3.RC1 version (#4123)
    *_change("verl#4123 (21f256280)", "0.7.0", "",
        ("verl.utils.npu_utils", "moved", "verl.utils.npu_flash_attn_utils"),
    ),
    # [recipe, data] feat: TransferQueue - Support managing multiple data partitions for Train/Val/Test in controller (#4175)
    *_change("verl#4175 (09a923ab9)", "0.7.0", "the validation client was folded into partitions of one TransferQueue client (verl#4175); verl retired its first TransferQueue integration; 0.9 integrates TransferQueue through the transfer_queue package (verl.utils.transferqueue_utils.tq, transfer_queue.enable) in the v1 trainer (trainer.use_v1=True)",
        ("verl.utils.transferqueue_utils:get_val_transferqueue_client", "removed", None),
    ),
    # [worker, sglang] fix: Rename the file sglang_router.py to avoid circular imports (#4187)
    *_change("verl#4187 (ac3d92877)", "0.7.0", "",
        ("verl.experimental.reward.router.sglang_router", "moved", "verl.experimental.reward_loop.router.inner_sglang_router"),
    ),
    # [misc] fix: fix list conversion in get_tensordict (#4304)
    *_change("verl#4304 (77ef1db32)", "0.7.0", "removed by verl#4304 without a same-named successor",
        ("verl.utils.tensordict_utils:assign_non_tensor_dict", "removed", None),
    ),
    # [megatron] feat: support gpt-oss (#4323)
    *_change("verl#4323 (9f3199f58)", "0.7.0", _VERL_4323,
        ("verl.models.mcore.model_forward:postprocess_packed_seqs_no_padding", "removed", None, "it re-exported verl.models.mcore.util.postprocess_packed_seqs_no_padding, which verl removed"),
        ("verl.models.mcore.model_forward:preprocess_packed_seqs_no_padding", "removed", None, "it re-exported verl.models.mcore.util.preprocess_packed_seqs_no_padding, which verl removed"),
        ("verl.models.mcore.util:postprocess_packed_seqs_no_padding", "removed", None),
        ("verl.models.mcore.util:preprocess_packed_seqs_no_padding", "removed", None),
        ("verl.models.mcore.util:recover_left_padding", "removed", None),
        ("verl.models.mcore.util:remove_left_padding", "removed", None),
    ),
    # [model] feat: refactor engine folder structure (#4352)
    *_change("verl#4352 (5a5fe9df9)", "0.7.0", _VERL_4352,
        ("verl.workers.roles", "removed", None),
        ("verl.workers.roles.actor", "removed", None),
        ("verl.workers.roles.critic", "removed", None),
        ("verl.workers.roles.hybrid_engine", "removed", None),
        ("verl.workers.roles.utils", "moved", "verl.workers.utils"),
        ("verl.workers.roles.utils.losses", "moved", "verl.workers.utils.losses"),
        ("verl.workers.roles.utils.padding", "moved", "verl.workers.utils.padding"),
    ),
    # [rollout] feat: add support for discriminative reward model in reward loop (#4358)
    *_change("verl#4358 (5d00c0821)", "0.7.0", _VERL_4358,
        ("verl.experimental.agent_loop.agent_loop:RewardManagerWorker", "replaced", "verl.experimental.reward_loop:RewardLoopWorker"),
        ("verl.experimental.reward.reward_manager:RewardManagerWorker", "replaced", "verl.experimental.reward_loop.reward_loop:RewardLoopWorker"),
        ("verl.experimental.reward:RewardManagerWorker", "replaced", "verl.experimental.reward_loop:RewardLoopWorker"),
        ("verl.workers.rollout.vllm_rollout.vllm_async_server:RewardModelConfig", "moved", "verl.workers.config:RewardModelConfig"),
    ),
    # [misc] refactor: clean up unused sharding managers (#4361)
    *_change("verl#4361 (62a996504)", "0.7.0", _VERL_4439,
        ("verl.workers.sharding_manager.fsdp_vllm", "removed", None),
        ("verl.workers.sharding_manager.megatron_sglang", "removed", None),
        ("verl.workers.sharding_manager.megatron_vllm", "removed", None),
    ),
    # [worker] feat: Add TrainingWorker that resembles Tinker-like API (#4371)
    *_change("verl#4371 (01eeb49e2)", "0.7.0", "",
        ("verl.trainer.sft_trainer:FlopsCounter", "moved", "verl.utils.flops_counter:FlopsCounter"),
    ),
    # [trainer,fsdp] feat: enable reproducibility for training (#4378)
    *_change("verl#4378 (fb860f0bd)", "0.7.0", "",
        ("verl.trainer.sft_trainer:is_cuda_available", "moved", "verl.utils.device:is_cuda_available"),
        ("verl.trainer.sft_trainer:is_npu_available", "moved", "verl.utils.device:is_npu_available"),
    ),
    # [worker] feat: custom reward_manager (#4387)
    *_change("verl#4387 (ab0705220)", "0.7.0", "",
        ("verl.trainer.main_ppo:load_extern_type", "moved", "verl.utils.import_utils:load_extern_type"),
        ("verl.trainer.ppo.reward:get_reward_manager_cls", "moved", "verl.workers.reward_manager:get_reward_manager_cls"),
    ),
    # [vllm] feat: retires vllm spmd mode in the codebase (#4411)
    *_change("verl#4411 (fd893c788)", "0.7.0", "the SPMD (in-process) vLLM rollout was retired: vLLM runs as a server (rollout.mode=async); the trainer-side handle is verl.workers.rollout.vllm_rollout:ServerAdapter",
        ("verl.workers.rollout.vllm_rollout.vllm_rollout_spmd", "removed", None),
        ("verl.workers.rollout.vllm_rollout:vLLMRollout", "removed", None, "the SPMD vLLM rollout was retired (verl#4411): vLLM runs as a server; the trainer-side handle is verl.workers.rollout.vllm_rollout:ServerAdapter"),
    ),
    # [sglang] feat: retires sglang spmd mode in the codebase (#4422)
    *_change("verl#4422 (16039d624)", "0.7.0", _VERL_4422,
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:AsyncEngine", "removed", None),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:AsyncRolloutRequest", "moved", "verl.workers.rollout.schemas:AsyncRolloutRequest"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:AsyncRolloutRequestStateEnum", "moved", "verl.workers.rollout.schemas:AsyncRolloutRequestStateEnum"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:BaseInteraction", "removed", None, _VERL_6074_2),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:BaseTool", "moved", "verl.tools.base_tool:BaseTool"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:DataProto", "moved", "verl:DataProto"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:FinishReasonTypeEnum", "moved", "verl.workers.rollout.schemas:FinishReasonTypeEnum"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:GPUMemoryLogger", "moved", "verl.utils.profiler:GPUMemoryLogger"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:OpenAIFunctionCallSchema", "moved", "verl.tools.schemas:OpenAIFunctionCallSchema"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:OpenAIFunctionParsedSchema", "moved", "verl.tools.schemas:OpenAIFunctionParsedSchema"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:OpenAIFunctionToolCall", "moved", "verl.tools.schemas:OpenAIFunctionToolCall"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:SGLangRollout", "removed", None),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:broadcast_pyobj", "moved", "verl.workers.rollout.sglang_rollout.utils:broadcast_pyobj"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:deprecated", "moved", "verl.utils.import_utils:deprecated"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:get_response_mask", "moved", "verl.utils.torch_functional:get_response_mask"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:get_tool_call_parser_type", "removed", None),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:get_visible_devices_keyword", "moved", "verl.utils.device:get_visible_devices_keyword"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:initialize_interactions_from_config", "removed", None, _VERL_6074_3),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:initialize_tools_from_config", "moved", "verl.tools.tool_registry:initialize_tools_from_config"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:is_ipv6", "moved", "verl.utils.net_utils:is_ipv6"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:pad_sequence_to_length", "moved", "verl.utils.torch_functional:pad_sequence_to_length"),
        ("verl.workers.rollout.sglang_rollout.sglang_rollout:sglang_ps", "removed", None, "it re-exported verl.third_party.sglang.parallel_state, which verl removed"),
    ),
    # [hardware] chore: clean npu_patch (#4436)
    *_change("verl#4436 (0b3769624)", "0.7.0", _VERL_4436,
        ("verl.models.transformers.npu_patch:GmmFunction", "removed", None),
        ("verl.models.transformers.npu_patch:apply_rotary_pos_emb_flashatt_npu", "removed", None),
        ("verl.models.transformers.npu_patch:moe_block_forward", "removed", None),
        ("verl.models.transformers.npu_patch:rms_norm_forward", "removed", None),
        ("verl.models.transformers.npu_patch:silu_forward", "removed", None),
    ),
    # [misc] refactor: clean up unused sharding manager (#4439)
    *_change("verl#4439 (5eedbaec6)", "0.7.0", _VERL_4439,
        ("verl.workers.sharding_manager.fsdp_sglang", "removed", None),
    ),
    # [rollout] feat: pass agent_data to tool calling (#4469)
    *_change("verl#4469 (ebec85dc4)", "0.7.0", "a private placeholder of verl's agent loop; nothing replaces it",
        ("verl.experimental.agent_loop.agent_loop:_DummyConfig", "removed", None),
    ),
    # [model] feat: support manual control load/offload (#4472)
    *_change("verl#4472 (7ffd4fe66)", "0.7.0", "",
        ("verl.workers.engine.fsdp.transformer_impl:get_torch_device", "moved", "verl.utils.device:get_torch_device"),
    ),
    # [trainer] feat: support moving ppo actor logics to single controller (#4480)
    *_change("verl#4480 (d8195a819)", "0.7.0", "",
        ("verl.workers.roles.utils.padding:is_cuda_available", "moved", "verl.utils.device:is_cuda_available"),
        ("verl.workers.roles.utils.padding:is_npu_available", "moved", "verl.utils.device:is_npu_available"),
    ),
    # [trainer] feat: enable model engine based critic (#4507)
    *_change("verl#4507 (290b522c0)", "0.7.0", "existed only on verl's main branch between v0.6.1 and v0.7.0 (added by verl#4352); the critic is a TrainingWorker configured with model_type='value_model'",
        ("verl.workers.engine_workers:CriticWorker", "replaced", "verl.workers.engine_workers:TrainingWorker"),
    ),
    # [algo,doc] refactor: rollout correction (#4511)
    *_change("verl#4511 (518bada21)", "0.7.0", _VERL_4511,
        ("verl.trainer.ppo.core_algos:compute_policy_loss_rollout_correction_wrapper", "removed", None),
        ("verl.trainer.ppo.core_algos:compute_policy_loss_with_rollout_correction", "removed", None),
        ("verl.trainer.ppo.rollout_corr_helper:apply_rollout_correction", "moved", "verl.trainer.ppo.rollout_corr_helper:apply_bypass_mode", "renamed, same (batch, rollout_corr_config, policy_loss_config) signature; the sub-mode is chosen by rollout_correction.loss_type instead of use_policy_gradient"),
    ),
    # [sglang, rollout] feat: delete remaining sglang spmd code (#4523)
    *_change("verl#4523 (5922445d6)", "0.7.0", _VERL_4523,
        ("verl.third_party.sglang", "removed", None),
        ("verl.third_party.sglang.parallel_state", "removed", None),
    ),
    # [megatron] chore: clean legacy code path part 1, make engine use mbridge by default (#4528)
    *_change("verl#4528 (d7c82bdec)", "0.7.0", "",
        ("verl.workers.engine.megatron.transformer_impl:load_megatron_gptmodel_weights", "moved", "verl.utils.model:load_megatron_gptmodel_weights"),
        ("verl.workers.engine.megatron.transformer_impl:per_tensor_generator", "moved", "verl.utils.megatron_utils:per_tensor_generator"),
    ),
    # [rollout] chore: update reward loop file names (#4547)
    *_change("verl#4547 (1ae510c24)", "0.7.0", "",
        ("verl.experimental.reward.reward_loop", "moved", "verl.experimental.reward_loop.reward_manager"),
        ("verl.experimental.reward.reward_loop.base", "moved", "verl.experimental.reward_loop.reward_manager.base"),
        ("verl.experimental.reward.reward_loop.dapo", "moved", "verl.experimental.reward_loop.reward_manager.dapo"),
        ("verl.experimental.reward.reward_loop.naive", "moved", "verl.experimental.reward_loop.reward_manager.naive"),
        ("verl.experimental.reward.reward_loop.registry", "moved", "verl.experimental.reward_loop.reward_manager.registry"),
        ("verl.experimental.reward.reward_manager", "moved", "verl.experimental.reward_loop.reward_loop", "renamed reward/reward_loop.py by verl#4547, then moved to reward_loop/ by verl#4572"),
    ),
    # [rollout, trainer] feat: extend agent loop for custom implementations (#4548)
    *_change("verl#4548 (022c0aee0)", "0.7.0", "",
        ("verl.experimental.agent_loop.tool_agent_loop:add_generation_prompt_for_gpt_oss", "moved", "verl.experimental.agent_loop.utils:add_generation_prompt_for_gpt_oss"),
        ("verl.experimental.agent_loop.tool_agent_loop:format_gpt_oss_tool_response_manually", "moved", "verl.experimental.agent_loop.utils:format_gpt_oss_tool_response_manually"),
    ),
    # [rollout] chore: rename reward loop class name and update ci (#4572)
    *_change("verl#4572 (6bc3e1232)", "0.7.0", "verl#5237 (0.7.1) replaced the registry dict by REWARD_MANAGER, which unifies both kinds of reward manager; register with verl.experimental.reward_loop.reward_manager:register",
        ("verl.experimental.reward", "moved", "verl.experimental.reward_loop"),
        ("verl.experimental.reward.reward_loop.base:RewardLoopManagerBase", "moved", "verl.experimental.reward_loop.reward_manager.base:RewardManagerBase", _VERL_4572),
        ("verl.experimental.reward.reward_loop.dapo:DAPORewardLoopManager", "moved", "verl.experimental.reward_loop.reward_manager.dapo:DAPORewardManager", _VERL_4572),
        ("verl.experimental.reward.reward_loop.dapo:RewardLoopManagerBase", "moved", "verl.experimental.reward_loop.reward_manager.base:RewardManagerBase", _VERL_4572),
        ("verl.experimental.reward.reward_loop.naive:NaiveRewardLoopManager", "moved", "verl.experimental.reward_loop.reward_manager.naive:NaiveRewardManager", _VERL_4572),
        ("verl.experimental.reward.reward_loop.naive:RewardLoopManagerBase", "moved", "verl.experimental.reward_loop.reward_manager.base:RewardManagerBase", _VERL_4572),
        ("verl.experimental.reward.reward_loop.registry:REWARD_LOOP_MANAGER_REGISTRY", "replaced", "verl.experimental.reward_loop.reward_manager.registry:REWARD_MANAGER"),
        ("verl.experimental.reward.reward_loop.registry:RewardLoopManagerBase", "moved", "verl.experimental.reward_loop.reward_manager.base:RewardManagerBase", _VERL_4572),
        ("verl.experimental.reward.reward_loop.registry:get_reward_loop_manager_cls", "moved", "verl.experimental.reward_loop.reward_manager.registry:get_reward_manager_cls", _VERL_4572),
        ("verl.experimental.reward.reward_loop:DAPORewardLoopManager", "moved", "verl.experimental.reward_loop.reward_manager:DAPORewardManager", _VERL_4572),
        ("verl.experimental.reward.reward_loop:NaiveRewardLoopManager", "moved", "verl.experimental.reward_loop.reward_manager:NaiveRewardManager", _VERL_4572),
        ("verl.experimental.reward.reward_loop:get_reward_loop_manager_cls", "moved", "verl.experimental.reward_loop.reward_manager:get_reward_manager_cls", _VERL_4572),
        ("verl.experimental.reward.reward_manager:DataProto", "moved", "verl.protocol:DataProto"),
        ("verl.experimental.reward.reward_manager:copy_to_local", "moved", "verl.utils.fs:copy_to_local"),
        ("verl.experimental.reward.reward_manager:get_custom_reward_fn", "moved", "verl.trainer.ppo.reward:get_custom_reward_fn"),
        ("verl.experimental.reward.reward_manager:get_reward_loop_manager_cls", "moved", "verl.experimental.reward_loop.reward_manager:get_reward_manager_cls", _VERL_4572),
        ("verl.experimental.reward.reward_manager:hf_tokenizer", "moved", "verl.utils:hf_tokenizer"),
        ("verl.experimental.reward.reward_model", "moved", "verl.experimental.reward_loop.reward_model"),
        ("verl.experimental.reward.reward_model:DataProto", "moved", "verl:DataProto"),
        ("verl.experimental.reward.reward_model:RayWorkerGroup", "moved", "verl.single_controller.ray.base:RayWorkerGroup"),
        ("verl.experimental.reward.router", "moved", "verl.experimental.reward_loop.router"),
        ("verl.experimental.reward.router.naive_router", "moved", "verl.experimental.reward_loop.router.naive_router"),
    ),
    # [misc] refactor: refactor flops counter (#4633)
    *_change("verl#4633 (9b54f837a)", "0.7.0", "removed by verl#4633 without a same-named successor",
        ("verl.utils.flops_counter:VALID_CONFIG_TYPE", "removed", None),
    ),
    # [data] feat: major refactor RLHFDataset for multi-modal data (#4759)
    *_change("verl#4759 (51d27376c)", "0.7.0", "",
        ("verl.utils.dataset.rl_dataset:compute_position_id_with_mask", "moved", "verl.utils.model:compute_position_id_with_mask"),
        ("verl.utils.dataset.rl_dataset:verl_F", "moved", "verl.utils.torch_functional"),
    ),
    # [BREAKING][worker, rollout, vllm] feat: implement vLLM colocated training-inference rollout with process separation (#4280)
    *_change("verl#4280 (e9405d70b)", "0.7.1", _VERL_4280,
        ("verl.workers.rollout.utils:is_valid_ipv6_address", "moved", "verl.utils.net_utils:is_valid_ipv6_address"),
        ("verl.workers.rollout.vllm_rollout.vllm_async_server:ExternalZeroMQDistributedExecutor", "removed", None, "removed by verl#4280 without a same-named successor"),
        ("verl.workers.rollout.vllm_rollout.vllm_async_server:vLLMAsyncRollout", "replaced", "verl.workers.rollout.vllm_rollout:ServerAdapter"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:TensorLoRARequest", "moved", "verl.utils.vllm:TensorLoRARequest"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:VLLMHijack", "moved", "verl.utils.vllm:VLLMHijack"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:VLLM_LORA_INT_ID", "moved", "verl.workers.rollout.vllm_rollout.utils:VLLM_LORA_INT_ID"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:VLLM_LORA_NAME", "moved", "verl.workers.rollout.vllm_rollout.utils:VLLM_LORA_NAME"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:VLLM_LORA_PATH", "moved", "verl.workers.rollout.vllm_rollout.utils:VLLM_LORA_PATH"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:apply_vllm_fp8_patches", "removed", None, _VERL_7224_2),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:get_event_loop", "moved", "verl.utils.ray_utils:get_event_loop"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:get_free_port", "removed", None, "it re-exported verl.workers.rollout.utils.get_free_port, which verl removed"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:get_vllm_max_lora_rank", "moved", "verl.workers.rollout.vllm_rollout.utils:get_vllm_max_lora_rank"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:initialize_global_process_group_ray", "moved", "verl.utils.distributed:initialize_global_process_group_ray"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:is_fp8_model", "removed", None, _VERL_7224_3),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:is_npu_available", "moved", "verl.utils.device:is_npu_available"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:is_valid_ipv6_address", "moved", "verl.utils.net_utils:is_valid_ipv6_address"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:is_version_ge", "moved", "verl.utils.vllm:is_version_ge"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:load_quanted_weights", "moved", "verl.utils.vllm.vllm_quant_utils:load_quanted_weights"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:ray_noset_visible_devices", "moved", "verl.utils.ray_utils:ray_noset_visible_devices"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:vLLMAsyncRollout", "replaced", "verl.workers.rollout.vllm_rollout.vllm_rollout:ServerAdapter"),
        ("verl.workers.rollout.vllm_rollout:vLLMAsyncRollout", "replaced", "verl.workers.rollout.vllm_rollout:ServerAdapter"),
    ),
    # [perf] feat: verl profiler system support Agent Loop scenario and integrate torch.profiler (#4320)
    *_change("verl#4320 (cd1926cef)", "0.7.1", _VERL_4320,
        ("verl.utils.debug:Profiler", "removed", None),
        ("verl.utils.profiler.profile:Profiler", "removed", None),
        ("verl.utils.profiler.profile:TorchProfilerToolConfig", "moved", "verl.utils.profiler.config:TorchProfilerToolConfig"),
        ("verl.utils.profiler:Profiler", "removed", None),
    ),
    # [misc] feat: delete unnecessary base class in agent loop worker and vLLMHttpServer (#4838)
    *_change("verl#4838 (ba76c5edf)", "0.7.1", "the base class was merged into AgentLoopWorker: subclass AgentLoopWorker (its constructor differs)",
        ("verl.experimental.agent_loop.agent_loop:AgentLoopWorkerBase", "replaced", "verl.experimental.agent_loop.agent_loop:AgentLoopWorker"),
        ("verl.workers.rollout.vllm_rollout.vllm_async_server:vLLMHttpServerBase", "replaced", "verl.workers.rollout.vllm_rollout.vllm_async_server:vLLMHttpServer", "the base class was merged into vLLMHttpServer: subclass vLLMHttpServer (its constructor and hooks differ)"),
    ),
    # [megatron] fix: patch mcore for MLA support with flash_attn (#4931)
    *_change("verl#4931 (f31df3447)", "0.7.1", "",
        ("verl.models.mcore.patch_v012", "moved", "verl.models.mcore.patch"),
    ),
    # [training_utils] fix: correctly `_resolve_device` when not specified (#4961)
    *_change("verl#4961 (e9c43b936)", "0.7.1", "",
        ("verl.utils.groupwise:get_torch_device", "moved", "verl.utils.device:get_torch_device"),
    ),
    # [fsdp, megatron] feat: refactor fully-async and one-step-off training to support multiple checkpoint engine backends (#5029)
    *_change("verl#5029 (9c75bfe01)", "0.7.1", "",
        ("verl.workers.rollout.sglang_rollout.async_sglang_server:RayClassWithInitArgs", "moved", "verl.single_controller.ray:RayClassWithInitArgs"),
        ("verl.workers.rollout.sglang_rollout.async_sglang_server:ServerAdapter", "moved", "verl.workers.rollout.sglang_rollout.sglang_rollout:ServerAdapter"),
        ("verl.workers.rollout.vllm_rollout.vllm_async_server:RayClassWithInitArgs", "moved", "verl.single_controller.ray:RayClassWithInitArgs"),
    ),
    # [ckpt] feat: add CheckpointEngineManager (#5031)
    *_change("verl#5031 (ef6eaa05d)", "0.7.1", "",
        ("verl.trainer.ppo.ray_trainer:RayResourcePool", "moved", "verl.single_controller.ray:RayResourcePool"),
    ),
    # [vllm] fix: ignore MoE router layers for FP8 quantization (#5107)
    *_change("verl#5107 (597b63fae)", "0.7.1", "removed by verl#5107 without a same-named successor",
        ("verl.utils.vllm.vllm_fp8_utils:FP8_BLOCK_QUANT_KWARGS", "removed", None),
    ),
    # [fsdp] feat: Merge lora in fsdp training to speed up rollout (#5115)
    *_change("verl#5115 (d6ced8065)", "0.7.1", "",
        ("verl.workers.utils.padding:pad_input", "moved", "verl.utils.attention_utils:pad_input"),
    ),
    # [reward] feat: split reward loop manager and agent loop manager (#5134)
    *_change("verl#5134 (84d9d8f51)", "0.7.1", "",
        ("verl.experimental.agent_loop.agent_loop:RewardLoopWorker", "moved", "verl.experimental.reward_loop:RewardLoopWorker"),
    ),
    # [BREAKING][reward] refactor: remove reward model worker code and invocation (#5194)
    *_change("verl#5194 (4ef45d093)", "0.7.1", _VERL_5194,
        ("verl.workers.fsdp_workers:RewardModelWorker", "removed", None),
        ("verl.workers.megatron_workers:RewardModelWorker", "removed", None),
    ),
    # [BREAKING][reward] refactor: deprecate batch reward manager (#5237)
    *_change("verl#5237 (3df21a68e)", "0.7.1", _VERL_5237,
        ("verl.experimental.reward_loop.reward_loop:get_custom_reward_fn", "moved", "verl.trainer.ppo.reward:get_custom_reward_fn"),
        ("verl.experimental.reward_loop.reward_loop:get_reward_manager_cls", "moved", "verl.experimental.reward_loop.reward_manager:get_reward_manager_cls"),
        ("verl.experimental.reward_loop.reward_manager.registry:REWARD_LOOP_MANAGER_REGISTRY", "replaced", "verl.experimental.reward_loop.reward_manager.registry:REWARD_MANAGER", "REWARD_MANAGER unifies both kinds of reward manager; register with verl.experimental.reward_loop.reward_manager:register"),
        ("verl.trainer.config.config:RewardManagerConfig", "moved", "verl.workers.config.reward:RewardManagerConfig"),
        ("verl.trainer.config:RewardManagerConfig", "moved", "verl.workers.config.reward:RewardManagerConfig"),
        ("verl.trainer.main_ppo:load_reward_manager", "moved", "verl.trainer.ppo.reward:load_reward_manager"),
        ("verl.trainer.ppo.ray_trainer:compute_reward", "removed", None),
        ("verl.trainer.ppo.ray_trainer:compute_reward_async", "removed", None),
        ("verl.trainer.ppo.reward:AbstractRewardManager", "moved", "verl.workers.reward_manager.abstract:AbstractRewardManager"),
        ("verl.trainer.ppo.reward:compute_reward", "removed", None),
        ("verl.trainer.ppo.reward:compute_reward_async", "removed", None),
        ("verl.trainer.ppo.reward:tqbridge", "moved", "verl.utils.transferqueue_utils:tqbridge"),
    ),
    # [BREAKING][reward] refactor: the full reward configuration (#5255)
    *_change("verl#5255 (67dc84b96)", "0.7.1", _VERL_5255,
        ("verl.workers.config.reward_model", "moved", "verl.workers.config.reward"),
        ("verl.workers.config.reward_model:HFModelConfig", "moved", "verl.workers.config.model:HFModelConfig"),
        ("verl.workers.config.reward_model:RewardModelConfig", "replaced", "verl.workers.config.reward:RewardModelConfig", "the reward config was restructured (reward.*): reward_manager moved to RewardManagerConfig, model to model_path, sandbox_fusion to its own section"),
        ("verl.workers.config:reward_model", "removed", None, "it re-exported verl.workers.config.reward_model, which verl removed"),
        ("verl.workers.reward_model", "removed", None),
        ("verl.workers.reward_model.base", "removed", None),
        ("verl.workers.reward_model.megatron", "removed", None),
        ("verl.workers.reward_model.megatron.reward_model", "removed", None),
    ),
    # [fsdp, veomni, trainer] fix: restrict npu-patch scope to avoid veomni backend interference (#5268)
    *_change("verl#5268 (d643921a8)", "0.7.1", "",
        ("verl:npu_patch", "moved", "verl.models.transformers.npu_patch"),
    ),
    # [fsdp,veomni] fix: remove FSDPUlyssesShardingManager to make eval_mode/train_mode reentrant (#5305)
    *_change("verl#5305 (9cb89d85c)", "0.7.1", "",
        ("verl.workers.engine.fsdp.transformer_impl:FSDPUlyssesShardingManager", "moved", "verl.utils.ulysses:FSDPUlyssesShardingManager"),
        ("verl.workers.engine.veomni.transformer_impl:FSDPUlyssesShardingManager", "moved", "verl.utils.ulysses:FSDPUlyssesShardingManager"),
    ),
    # [misc] refactor: remove deprecated codes (#5336)
    *_change("verl#5336 (54d41ca49)", "0.7.1", "removed as dead code; verl.utils.megatron.memory:MemoryBuffer(numel, numel_padded, dtype) is a smaller buffer with another signature",
        ("verl.utils.memory_buffer", "removed", None),
    ),
    # [BREAKING][trtllm] feat: Add FP8 refit support for trtllm rollout (#5374)
    *_change("verl#5374 (b35cf93be)", "0.7.1", _VERL_5374,
        ("verl.utils.sglang.sglang_fp8_utils:quant_weights_by_name", "removed", None),
        ("verl.utils.sglang.sglang_fp8_utils:scaled_fp8_blockwise", "removed", None),
        ("verl.utils.sglang.sglang_fp8_utils:should_quantize_param", "removed", None),
    ),
    # [trainer] refactor: remove fsdp_sft_trainer.py (#5382)
    *_change("verl#5382 (4c8101dd2)", "0.7.1", "the model-engine SFT trainer does the same job with another config (sft_trainer_engine): model.partial_pretrain -> model.path, model.fsdp_config.* / model.strategy / ulysses_sequence_parallel_size -> engine.*, use_remove_padding -> model.use_remove_padding, trainer.checkpoint.* -> checkpoint.*, optim.lr_scheduler -> optim.lr_scheduler_type; single-turn data.prompt_key/response_key datasets are gone (data must be a messages column, or data.custom_cls); several defaults changed (optim.lr 1e-5 -> 1e-3, engine.strategy fsdp2 -> fsdp): pin them",
        ("verl.trainer.fsdp_sft_trainer", "replaced", "verl.trainer.sft_trainer"),
        ("verl.trainer.main_generation", "replaced", "verl.trainer.main_generation_server", "offline generation now starts rollout servers (ppo_trainer config): data.path -> data.train_files, data.n_samples -> actor_rollout_ref.rollout.n, data.output_path -> +data.output_path, model.* -> actor_rollout_ref.model.*, rollout.* -> actor_rollout_ref.rollout.*; data.batch_size, actor.* and ray_kwargs are not used; the output parquet has the same `responses` column (one list of n strings per row)"),
        ("verl.utils.dataset.sft_dataset", "removed", None, "single-turn SFTDataset was removed with fsdp_sft_trainer: convert prompt/response columns into a messages column for verl.utils.dataset.multiturn_sft_dataset:MultiTurnSFTDataset, or load your own class via data.custom_cls"),
        ("verl.utils.dataset:SFTDataset", "removed", None, "it re-exported verl.utils.dataset.sft_dataset.SFTDataset, which verl removed"),
    ),
    # [rollout] fix: make `run_uvicorn` behavior more reliable (#5383)
    *_change("verl#5383 (3309a158a)", "0.7.1", _VERL_5383,
        ("verl.workers.rollout.sglang_rollout.async_sglang_server:run_unvicorn", "removed", None),
        ("verl.workers.rollout.utils:get_free_port", "removed", None, "removed by verl#5383 without a same-named successor; verl.utils.net_utils.get_free_port in verl 0.9.1 is a different implementation, not a drop-in"),
        ("verl.workers.rollout.utils:run_unvicorn", "removed", None, "removed by verl#5383 without a same-named successor"),
        ("verl.workers.rollout.vllm_rollout.vllm_async_server:run_unvicorn", "removed", None),
    ),
    # [BREAKING][rollout,cfg] refactor: get rid of actor_rollout_ref config from rollout (#5418)
    *_change("verl#5418 (de6a1bcab)", "0.7.1", _VERL_6129_2,
        ("verl.experimental.agent_loop.agent_loop:copy_to_local", "moved", "verl.utils.fs:copy_to_local"),
        ("verl.experimental.agent_loop.agent_loop:hf_processor", "moved", "verl.utils:hf_processor"),
        ("verl.experimental.agent_loop.agent_loop:hf_tokenizer", "moved", "verl.utils:hf_tokenizer"),
        ("verl.experimental.agent_loop.tool_agent_loop:AsyncLLMServerManager", "replaced", "verl.workers.rollout.llm_server:LLMServerClient"),
        ("verl.experimental.agent_loop.tool_agent_loop:DictConfigWrap", "moved", "verl.experimental.agent_loop.agent_loop:DictConfigWrap"),
    ),
    # [single_controller] refactor: use BatchData to simplify concat and chunk in single_controller (#5450)
    *_change("verl#5450 (88066a4a9)", "0.7.1", "",
        ("verl.single_controller.base.decorator:chunk_tensordict", "moved", "verl.utils.tensordict_utils:chunk_tensordict"),
        ("verl.single_controller.base.decorator:concat_tensordict", "moved", "verl.utils.tensordict_utils:concat_tensordict"),
    ),
    # [data] refactor: TransferQueue - retire legacy integration codes (#5454)
    *_change("verl#5454 (d4afed3b5)", "0.7.1", _VERL_5454,
        ("verl.experimental.agent_loop.agent_loop:tqbridge", "moved", "verl.utils.transferqueue_utils:tqbridge"),
        ("verl.single_controller.base.decorator:BatchMeta", "moved", "verl.utils.transferqueue_utils:BatchMeta"),
        ("verl.utils.transferqueue_utils:DataProto", "moved", "verl.protocol:DataProto"),
        ("verl.utils.transferqueue_utils:create_transferqueue_client", "removed", None),
        ("verl.utils.transferqueue_utils:get_transferqueue_client", "removed", None),
        ("verl.utils.transferqueue_utils:is_transferqueue_enabled", "removed", None, "removed by verl#5454 without a same-named successor"),
    ),
    # [rollout] fix: fix some compatibility issue with  qwen vl seris support of trtllm rollout (#5583)
    *_change("verl#5583 (efc48d536)", "0.7.1", "",
        ("verl.workers.rollout.vllm_rollout.vllm_async_server:_qwen2_5_vl_dedup_image_tokens", "moved", "verl.workers.rollout.utils:qwen2_5_vl_dedup_image_tokens", "made public under the name without the underscore"),
    ),
    # [megatron] feat: support dynamic CP (#5057)
    *_change("verl#5057 (7e9a07c49)", "0.8.0", _VERL_5057,
        ("verl.models.mcore.model_forward:gptmodel_forward_no_padding", "removed", None),
        ("verl.models.mcore.model_forward:postprocess_bshd_no_padding", "removed", None, "it re-exported verl.models.mcore.util.postprocess_bshd_no_padding, which verl removed"),
        ("verl.models.mcore.model_forward:postprocess_thd_no_padding", "removed", None, _VERL_5057_2),
        ("verl.models.mcore.model_forward:preprocess_bshd_no_padding", "removed", None, "it re-exported verl.models.mcore.util.preprocess_bshd_no_padding, which verl removed"),
        ("verl.models.mcore.model_forward:preprocess_thd_no_padding", "removed", None, _VERL_5057_3),
        ("verl.models.mcore.model_forward_fused:fused_forward_no_padding_gen", "removed", None),
        ("verl.models.mcore.model_forward_fused:postprocess_thd_no_padding", "removed", None, _VERL_5057_2),
        ("verl.models.mcore.model_forward_fused:preprocess_thd_no_padding", "removed", None, _VERL_5057_3),
        ("verl.models.mcore.registry:MODEL_FORWARD_NOPAD_REGISTRY", "removed", None),
        ("verl.models.mcore.registry:fused_forward_no_padding_gen", "removed", None, "it re-exported verl.models.mcore.model_forward_fused.fused_forward_no_padding_gen, which verl removed"),
        ("verl.models.mcore.registry:get_mcore_forward_fused_no_padding_fn", "removed", None),
        ("verl.models.mcore.registry:get_mcore_forward_no_padding_fn", "removed", None),
        ("verl.models.mcore.registry:gptmodel_forward_no_padding", "removed", None, "it re-exported verl.models.mcore.model_forward.gptmodel_forward_no_padding, which verl removed"),
        ("verl.models.mcore.util:postprocess_bshd_no_padding", "removed", None),
        ("verl.models.mcore.util:postprocess_thd_no_padding", "removed", None),
        ("verl.models.mcore.util:preprocess_bshd_no_padding", "removed", None),
        ("verl.models.mcore.util:preprocess_thd_no_padding", "removed", None),
        ("verl.models.mcore:get_mcore_forward_fused_no_padding_fn", "removed", None, "it re-exported verl.models.mcore.registry.get_mcore_forward_fused_no_padding_fn, which verl removed"),
        ("verl.models.mcore:get_mcore_forward_no_padding_fn", "removed", None, "it re-exported verl.models.mcore.registry.get_mcore_forward_no_padding_fn, which verl removed"),
        ("verl.utils.megatron.router_replay_utils:postprocess_thd_no_padding", "removed", None, _VERL_5057_2),
        ("verl.utils.megatron.router_replay_utils:preprocess_thd_no_padding", "removed", None, _VERL_5057_3),
        ("verl.workers.engine.megatron.transformer_impl:get_mcore_forward_fused_no_padding_fn", "removed", None, "it re-exported verl.models.mcore.get_mcore_forward_fused_no_padding_fn, which verl removed"),
    ),
    # [megatron] feat: checkpoint save as HF PEFT format (#5575)
    *_change("verl#5575 (e9aa879bc)", "0.8.0", _VERL_5575,
        ("verl.utils.megatron_peft_utils:get_adapter_state_dict", "removed", None),
        ("verl.utils.megatron_peft_utils:load_adapter_checkpoint", "removed", None),
        ("verl.utils.megatron_peft_utils:save_adapter_checkpoint", "removed", None),
    ),
    # [megatron] fix: remove llama and qwen2 files (#5707)
    *_change("verl#5707 (f05642555)", "0.8.0", _VERL_5707,
        ("verl.models.llama", "removed", None),
        ("verl.models.llama.megatron", "removed", None),
        ("verl.models.llama.megatron.checkpoint_utils", "removed", None),
        ("verl.models.llama.megatron.checkpoint_utils.llama_loader", "removed", None),
        ("verl.models.llama.megatron.checkpoint_utils.llama_loader_depracated", "removed", None),
        ("verl.models.llama.megatron.checkpoint_utils.llama_saver", "removed", None),
        ("verl.models.llama.megatron.layers", "removed", None),
        ("verl.models.llama.megatron.layers.parallel_attention", "removed", None),
        ("verl.models.llama.megatron.layers.parallel_decoder", "removed", None),
        ("verl.models.llama.megatron.layers.parallel_linear", "removed", None),
        ("verl.models.llama.megatron.layers.parallel_mlp", "removed", None),
        ("verl.models.llama.megatron.layers.parallel_rmsnorm", "removed", None),
        ("verl.models.llama.megatron.modeling_llama_megatron", "removed", None),
        ("verl.models.qwen2", "removed", None),
        ("verl.models.qwen2.megatron", "removed", None),
        ("verl.models.qwen2.megatron.checkpoint_utils", "removed", None),
        ("verl.models.qwen2.megatron.checkpoint_utils.qwen2_loader", "removed", None),
        ("verl.models.qwen2.megatron.checkpoint_utils.qwen2_loader_depracated", "removed", None),
        ("verl.models.qwen2.megatron.checkpoint_utils.qwen2_saver", "removed", None),
        ("verl.models.qwen2.megatron.layers", "removed", None),
        ("verl.models.qwen2.megatron.layers.parallel_attention", "removed", None),
        ("verl.models.qwen2.megatron.layers.parallel_decoder", "removed", None),
        ("verl.models.qwen2.megatron.layers.parallel_linear", "removed", None),
        ("verl.models.qwen2.megatron.layers.parallel_mlp", "removed", None),
        ("verl.models.qwen2.megatron.layers.parallel_rmsnorm", "removed", None),
        ("verl.models.qwen2.megatron.modeling_qwen2_megatron", "removed", None),
    ),
    # [3/n][reward] feat: flowgrpo - support image-based rewards (rule-based & genrm) (#5713)
    *_change("verl#5713 (69cc40f08)", "0.8.0", "",
        ("verl.trainer.ppo.reward:default_compute_score", "moved", "verl.utils.reward_score:default_compute_score"),
    ),
    # [ckpt, trainer] feat: Add plugin hooks for custom CheckpointEngineManager and CheckpointEngine (#5718)
    *_change("verl#5718 (5b0da583b)", "0.8.0", "",
        ("verl.trainer.ppo.ray_trainer:CheckpointEngineManager", "moved", "verl.checkpoint_engine:CheckpointEngineManager"),
    ),
    # [rollout] chore: bump up trtllm image version to 1.3.0rc10 (#5841)
    *_change("verl#5841 (a1b292021)", "0.8.0", "",
        ("verl.workers.rollout.trtllm_rollout.trtllm_async_server:ServerAdapter", "moved", "verl.workers.rollout.trtllm_rollout.trtllm_rollout:ServerAdapter"),
    ),
    # [megatron] fix: support critic model (#5870)
    *_change("verl#5870 (16253911d)", "0.8.0", "",
        ("verl.trainer.ppo.ray_trainer:FSDPEngineConfig", "moved", "verl.workers.config:FSDPEngineConfig"),
    ),
    # [BREAKING] [misc] refactor: deprecate workers, migrate to engines (#6067)
    *_change("verl#6067 (044bbba27)", "0.8.0", _VERL_6067,
        ("verl.workers.actor", "removed", None),
        ("verl.workers.actor.base", "removed", None),
        ("verl.workers.actor.dp_actor", "removed", None),
        ("verl.workers.actor.megatron_actor", "removed", None),
        ("verl.workers.critic", "removed", None),
        ("verl.workers.critic.base", "removed", None),
        ("verl.workers.critic.dp_critic", "removed", None),
        ("verl.workers.critic.megatron_critic", "removed", None),
        ("verl.workers.fsdp_workers", "removed", None, _VERL_6067_2),
        ("verl.workers.fsdp_workers:ActorRolloutRefWorker", "replaced", "verl.workers.engine_workers:ActorRolloutRefWorker", _VERL_6067_3),
        ("verl.workers.fsdp_workers:AsyncActorRolloutRefWorker", "replaced", "verl.workers.engine_workers:ActorRolloutRefWorker", _VERL_6067_4),
        ("verl.workers.fsdp_workers:CriticWorker", "replaced", "verl.workers.engine_workers:TrainingWorker", _VERL_6067_5),
        ("verl.workers.fsdp_workers:create_device_mesh", "moved", "verl.workers.engine.fsdp.utils:create_device_mesh", "verl.workers.engine.fsdp.utils has the same function (world_size, fsdp_size)"),
        ("verl.workers.fsdp_workers:get_sharding_strategy", "moved", "verl.workers.engine.fsdp.utils:get_sharding_strategy", "verl.workers.engine.fsdp.utils has the same function (device_mesh)"),
        ("verl.workers.megatron_workers", "removed", None, _VERL_6067_2),
        ("verl.workers.megatron_workers:ActorRolloutRefWorker", "replaced", "verl.workers.engine_workers:ActorRolloutRefWorker", _VERL_6067_3),
        ("verl.workers.megatron_workers:AsyncActorRolloutRefWorker", "replaced", "verl.workers.engine_workers:ActorRolloutRefWorker", _VERL_6067_4),
        ("verl.workers.megatron_workers:CriticWorker", "replaced", "verl.workers.engine_workers:TrainingWorker", _VERL_6067_5),
        ("verl.workers.megatron_workers:MegatronWorker", "removed", None, "the Megatron worker base class went with the legacy workers; model-engine workers derive from verl.single_controller.base:Worker"),
        ("verl.workers.sharding_manager", "removed", None, "the sharding managers were removed with the legacy workers; BaseShardingManager and FSDPUlyssesShardingManager moved to verl.utils.ulysses"),
        ("verl.workers.sharding_manager.base", "removed", None, "BaseShardingManager moved to verl.utils.ulysses"),
        ("verl.workers.sharding_manager.base:BaseShardingManager", "moved", "verl.utils.ulysses:BaseShardingManager"),
        ("verl.workers.sharding_manager.fsdp_ulysses", "removed", None, "FSDPUlyssesShardingManager moved to verl.utils.ulysses"),
        ("verl.workers.sharding_manager.fsdp_ulysses:FSDPUlyssesShardingManager", "moved", "verl.utils.ulysses:FSDPUlyssesShardingManager"),
    ),
    # [BREAKING] [env] refactor: deprecate verl/interactions (#6074)
    *_change("verl#6074 (63dc08501)", "0.8.0", _VERL_6074,
        ("verl.experimental.agent_loop.tool_agent_loop:BaseInteraction", "removed", None, _VERL_6074_2),
        ("verl.experimental.agent_loop.tool_agent_loop:initialize_interactions_from_config", "removed", None, _VERL_6074_3),
        ("verl.interactions", "removed", None),
        ("verl.interactions.base", "removed", None),
        ("verl.interactions.gsm8k_interaction", "removed", None),
        ("verl.interactions.utils", "removed", None),
        ("verl.interactions.utils.interaction_registry", "removed", None),
        ("verl.interactions.weather_interaction", "removed", None),
    ),
    # [fully_async] feat: reuse trainer worker group for hybrid rollout to do validation (#6076)
    *_change("verl#6076 (d324b014d)", "0.8.0", _VERL_6076,
        ("verl.experimental.fully_async_policy.detach_utils:ValidateMetrics", "removed", None, "removed by verl#6076 without a same-named successor"),
        ("verl.experimental.fully_async_policy.fully_async_rollouter:Role", "moved", "verl.trainer.ppo.utils:Role"),
        ("verl.experimental.fully_async_policy.fully_async_rollouter:ValidateMetrics", "removed", None),
        ("verl.experimental.fully_async_policy.fully_async_rollouter:WorkerType", "moved", "verl.trainer.ppo.utils:WorkerType"),
        ("verl.experimental.fully_async_policy.fully_async_trainer:ValidateMetrics", "removed", None),
    ),
    # [BREAKING][rollout] refactor: move LLMServerManager out of AgentLoopManager (#6129)
    *_change("verl#6129 (3c5f6e049)", "0.8.0", _VERL_6129_2,
        ("verl.experimental.agent_loop.agent_loop:AsyncLLMServerManager", "replaced", "verl.workers.rollout.llm_server:LLMServerClient"),
        ("verl.experimental.agent_loop.agent_loop:GlobalRequestLoadBalancer", "removed", None, "removed by verl#6129 without a same-named successor"),
        ("verl.experimental.agent_loop.agent_loop:RayResourcePool", "moved", "verl.single_controller.ray.base:RayResourcePool"),
        ("verl.experimental.agent_loop.agent_loop:RayWorkerGroup", "moved", "verl.single_controller.ray.base:RayWorkerGroup"),
        ("verl.experimental.agent_loop.agent_loop:TokenOutput", "moved", "verl.workers.rollout.replica:TokenOutput"),
        ("verl.experimental.agent_loop.agent_loop:get_rollout_replica_class", "moved", "verl.workers.rollout.replica:get_rollout_replica_class"),
        ("verl.experimental.agent_loop.agent_loop:rollout_trace_op", "moved", "verl.utils.rollout_trace:rollout_trace_op"),
        ("verl.experimental.agent_loop.agent_loop:update_prometheus_config", "moved", "verl.workers.rollout.utils:update_prometheus_config"),
        ("verl.experimental.agent_loop.prometheus_utils", "removed", None, "update_prometheus_config moved to verl.workers.rollout.utils"),
        ("verl.experimental.agent_loop.prometheus_utils:update_prometheus_config", "moved", "verl.workers.rollout.utils:update_prometheus_config"),
        ("verl.experimental.agent_loop:AsyncLLMServerManager", "replaced", "verl.workers.rollout.llm_server:LLMServerClient"),
        ("verl.experimental.fully_async_policy.agent_loop", "removed", None, _VERL_6129),
        ("verl.experimental.fully_async_policy.agent_loop.agent_loop", "removed", None, _VERL_6129),
        ("verl.experimental.fully_async_policy.agent_loop.agent_loop:FullyAsyncAgentLoopManager", "replaced", "verl.experimental.fully_async_policy.fully_async_rollouter:FullyAsyncAgentLoopManager", "moved into fully_async_rollouter; it no longer takes (config, worker_group, rollout_resource_pool, ...): servers come from verl.workers.rollout.llm_server"),
    ),
    # [repo] refactor: move experimental/vla to standalone verl-vla repository (#6162)
    *_change("verl#6162 (955fda828)", "0.8.0", _VERL_6162,
        ("verl.experimental.vla", "removed", None),
        ("verl.experimental.vla.dp_rob", "removed", None),
        ("verl.experimental.vla.env_loop", "removed", None),
        ("verl.experimental.vla.envs", "removed", None),
        ("verl.experimental.vla.envs.action_utils", "removed", None),
        ("verl.experimental.vla.envs.isaac_env", "removed", None),
        ("verl.experimental.vla.envs.isaac_env.isaac_env", "removed", None),
        ("verl.experimental.vla.envs.libero_env", "removed", None),
        ("verl.experimental.vla.envs.libero_env.libero_env", "removed", None),
        ("verl.experimental.vla.envs.libero_env.utils", "removed", None),
        ("verl.experimental.vla.envs.libero_env.venv", "removed", None),
        ("verl.experimental.vla.fsdp_workers", "removed", None),
        ("verl.experimental.vla.main_ppo", "removed", None),
        ("verl.experimental.vla.main_sac", "removed", None),
        ("verl.experimental.vla.models", "removed", None),
        ("verl.experimental.vla.models.modules", "removed", None),
        ("verl.experimental.vla.models.modules.mlp", "removed", None),
        ("verl.experimental.vla.models.openvla_oft", "removed", None),
        ("verl.experimental.vla.models.openvla_oft.configuration_prismatic", "removed", None),
        ("verl.experimental.vla.models.openvla_oft.constants", "removed", None),
        ("verl.experimental.vla.models.openvla_oft.modeling_prismatic", "removed", None),
        ("verl.experimental.vla.models.openvla_oft.processing_prismatic", "removed", None),
        ("verl.experimental.vla.models.openvla_oft.train_utils", "removed", None),
        ("verl.experimental.vla.models.pi0_torch", "removed", None),
        ("verl.experimental.vla.models.pi0_torch.configuration_pi0_torch", "removed", None),
        ("verl.experimental.vla.models.pi0_torch.model", "removed", None),
        ("verl.experimental.vla.models.pi0_torch.model.modeling_pi0", "removed", None),
        ("verl.experimental.vla.models.pi0_torch.model.paligemma_with_expert", "removed", None),
        ("verl.experimental.vla.models.pi0_torch.modeling_pi0_torch", "removed", None),
        ("verl.experimental.vla.models.pi0_torch.pi0_utils", "removed", None),
        ("verl.experimental.vla.models.pi0_torch.policy", "removed", None),
        ("verl.experimental.vla.models.pi0_torch.policy.base", "removed", None),
        ("verl.experimental.vla.models.pi0_torch.policy.libero_policy", "removed", None),
        ("verl.experimental.vla.models.register_vla_models", "removed", None),
        ("verl.experimental.vla.naive_rollout_rob", "removed", None),
        ("verl.experimental.vla.prepare_libero_dataset", "removed", None),
        ("verl.experimental.vla.rob_ray_trainer", "removed", None),
        ("verl.experimental.vla.sac", "removed", None),
        ("verl.experimental.vla.sac.base", "removed", None),
        ("verl.experimental.vla.sac.naive_rollout_pi05", "removed", None),
        ("verl.experimental.vla.sac.replay_pool", "removed", None),
        ("verl.experimental.vla.sac.sac_actor", "removed", None),
        ("verl.experimental.vla.sac.sac_ray_trainer", "removed", None),
        ("verl.experimental.vla.workers", "removed", None),
        ("verl.experimental.vla.workers.env", "removed", None),
        ("verl.experimental.vla.workers.env.env_loop_wg_test", "removed", None),
        ("verl.experimental.vla.workers.env.env_manager", "removed", None),
        ("verl.experimental.vla.workers.env.env_worker", "removed", None),
    ),
    # [trainer] feat: extend CheckpointEngineManager and AgentLoopManager hooks to separation and one-step-off trainers (#6173)
    *_change("verl#6173 (5febe8501)", "0.8.0", "",
        ("verl.experimental.separation.ray_trainer:CheckpointEngineManager", "moved", "verl.checkpoint_engine:CheckpointEngineManager"),
    ),
    # [tool] fix: In the memory snapshot collection logic, opening history records is not compatible with NPU (#6216)
    *_change("verl#6216 (4cff240b9)", "0.8.0", "",
        ("verl.utils.memory_utils:is_cuda_available", "moved", "verl.utils.device:is_cuda_available"),
    ),
    # [tool] refactor: tools will be initialized in AgentLoopWorker (#6300)
    *_change("verl#6300 (4f8f4c01b)", "0.8.0", _VERL_6300,
        ("verl.experimental.agent_loop.tool_agent_loop:initialize_tools_from_config", "moved", "verl.tools.tool_registry:initialize_tools_from_config"),
        ("verl.tools.mcp_base_tool", "removed", None),
        ("verl.tools.mcp_search_tool", "removed", None),
        ("verl.tools.utils.mcp_clients", "removed", None),
        ("verl.tools.utils.mcp_clients.McpClientManager", "removed", None),
        ("verl.tools.utils.mcp_clients.utils", "removed", None),
    ),
    # [BREAKING][tool, data] refactor: remove curriculum sampler + dynamic dataset + tool examples (#6302)
    *_change("verl#6302 (5a506cc58)", "0.8.0", _VERL_6302,
        ("verl.experimental.dataset", "removed", None),
        ("verl.experimental.dataset.sampler", "removed", None),
        ("verl.experimental.dynamic_dataset", "removed", None),
        ("verl.experimental.dynamic_dataset.dynamicgen_dataset", "removed", None),
        ("verl.experimental.separation.ray_trainer:AbstractCurriculumSampler", "removed", None, _VERL_6302_2),
        ("verl.tools.geo3k_tool", "removed", None),
        ("verl.tools.gsm8k_tool", "removed", None),
        ("verl.tools.image_zoom_in_tool", "removed", None),
        ("verl.tools.sandbox_fusion_tools", "removed", None),
        ("verl.tools.search_tool", "removed", None),
        ("verl.tools.utils", "removed", None),
        ("verl.tools.utils.search_r1_like_utils", "removed", None),
        ("verl.tools.utils.tool_registry", "moved", "verl.tools.tool_registry"),
        ("verl.tools.utils.tool_registry:initialize_mcp_tool", "removed", None, "removed by verl#6302 without a same-named successor"),
        ("verl.trainer.main_ppo:AbstractSampler", "removed", None, "it re-exported verl.experimental.dataset.sampler.AbstractSampler, which verl removed"),
        ("verl.trainer.main_ppo:load_extern_object", "moved", "verl.utils.import_utils:load_extern_object"),
        ("verl.trainer.ppo.ray_trainer:AbstractCurriculumSampler", "removed", None, _VERL_6302_2),
    ),
    # [megatron] fix: fix bug with mcore0.12.1 + torch2.9.0 (#6322)
    *_change("verl#6322 (c311eaa95)", "0.8.0", "removed by verl#6322 without a same-named successor",
        ("verl.models.mcore.patch:apply_patch_megatron_v012_with_torch_v28", "removed", None),
        ("verl.models.mcore:apply_patch_megatron_v012_with_torch_v28", "removed", None, "it re-exported verl.models.mcore.patch.apply_patch_megatron_v012_with_torch_v28, which verl removed"),
    ),
    # [model] refactor: clean up outdated Qwen2_5_vl code implementation (#6445)
    *_change("verl#6445 (2c6543640)", "0.8.0", _VERL_6445,
        ("verl.models.mcore.model_initializer:Qwen25VLModel", "removed", None, "removed by verl#6445 without a same-named successor"),
        ("verl.models.mcore.qwen2_5_vl", "removed", None),
        ("verl.models.mcore.qwen2_5_vl.attention", "removed", None),
        ("verl.models.mcore.qwen2_5_vl.model", "removed", None),
        ("verl.models.mcore.qwen2_5_vl.rope_utils", "removed", None),
        ("verl.models.mcore.qwen2_5_vl.vision_config", "removed", None),
        ("verl.models.mcore.qwen2_5_vl.vision_model", "removed", None),
        ("verl.models.mcore.qwen2_5_vl.vision_transformer_block", "removed", None),
        ("verl.models.mcore.registry:Qwen25VLModel", "removed", None, "it re-exported verl.models.mcore.model_initializer.Qwen25VLModel, which verl removed"),
    ),
    # [perf] feat: support partial-token window profiling for rollout in verl (#5760)
    *_change("verl#5760 (381ed247f)", "0.9.0", "",
        ("verl.utils.profiler.profile:MemorySnapshotSampler", "moved", "verl.utils.memory_utils:MemorySnapshotSampler"),
        ("verl.utils.profiler.profile:TorchMemoryProfiler", "moved", "verl.utils.profiler.torch_memory_profile:TorchMemoryProfiler"),
        ("verl.utils.profiler.profile:TorchMemoryToolConfig", "moved", "verl.utils.profiler.config:TorchMemoryToolConfig"),
        ("verl.utils.profiler.profile:clear_memory_history", "moved", "verl.utils.memory_utils:clear_memory_history"),
        ("verl.utils.profiler.profile:enable_memory_visualize", "moved", "verl.utils.memory_utils:enable_memory_visualize"),
    ),
    # [megatron, ckpt] refactor: optimize mcore ckpt manager impl, checkpoint yaml config APIs (#6014)
    *_change("verl#6014 (22b04f949)", "0.9.0", "",
        ("verl.utils.checkpoint.megatron_checkpoint_manager:get_dist_checkpoint_path", "moved", "verl.utils.megatron_utils:get_dist_checkpoint_path"),
        ("verl.utils.checkpoint.megatron_checkpoint_manager:get_weight_saver", "moved", "verl.models.weight_loader_registry:get_weight_saver"),
    ),
    # [hardware] feat: add platform abstraction layer and plugin-based engine override system (#6086)
    *_change("verl#6086 (7a457c934)", "0.9.0", "",
        ("verl.single_controller.base.worker:is_npu_available", "moved", "verl.utils.device:is_npu_available"),
        ("verl.single_controller.ray.base:is_torch_npu_available", "moved", "verl.utils.device:is_torch_npu_available"),
    ),
    # [tool, rollout] feat: Use SkipManager to uniformly manage the skipping schemes. (#6097)
    *_change("verl#6097 (266fdceda)", "0.9.0", _VERL_6097,
        ("verl.experimental.one_step_off_policy.ray_trainer:RolloutSkip", "replaced", "verl.utils.skip.rollout_skip:RolloutSkip"),
        ("verl.experimental.separation.ray_trainer:RolloutSkip", "replaced", "verl.utils.skip.rollout_skip:RolloutSkip"),
        ("verl.trainer.ppo.ray_trainer:RolloutSkip", "replaced", "verl.utils.skip.rollout_skip:RolloutSkip"),
        ("verl.utils.rollout_skip", "removed", None, "replaced by the SkipManager schemes of verl.utils.skip (config skip.rollout.*)"),
        ("verl.utils.rollout_skip:RolloutSkip", "replaced", "verl.utils.skip.rollout_skip:RolloutSkip"),
        ("verl.utils.rollout_skip:SkipAction", "replaced", "verl.utils.skip.base_skip:SkipAction", "the actions changed (cache, repeat, random, empty; no repeat_last)"),
        ("verl.workers.config.rollout:SkipConfig", "removed", None, "removed by verl#6097 without a same-named successor"),
        ("verl.workers.config:SkipConfig", "removed", None, "it re-exported verl.workers.config.rollout.SkipConfig, which verl removed"),
    ),
    # [megatron] feat: add dynamic context parallel scheduling (#6555)
    *_change("verl#6555 (38f437225)", "0.9.0", _VERL_6555,
        ("verl.utils.megatron_utils:dynamic_cp_merge_output", "removed", None),
        ("verl.utils.megatron_utils:dynamic_cp_split_batch", "removed", None),
        ("verl.utils.megatron_utils:tu", "moved", "verl.utils.tensordict_utils"),
    ),
    # [trainer] feat: add unify trainer abstraction for sync and async training (#6710)
    *_change("verl#6710 (45632b5fa)", "0.9.0", "the legacy runner moved to verl.trainer.main_ppo_v0 and is now decorated @ray.remote: pass it as run_ppo(config, task_runner_class=TaskRunner) instead of wrapping it in ray.remote again; to customise it, subclass verl.trainer.main_ppo_v0:BaseTaskRunner (the old helper methods) and add run(); python -m verl.trainer.main_ppo runs it with trainer.use_v1=False",
        ("verl.trainer.main_ppo:RayPPOTrainer", "moved", "verl.trainer.ppo.ray_trainer:RayPPOTrainer"),
        ("verl.trainer.main_ppo:TaskRunner", "replaced", "verl.trainer.main_ppo_v0:TaskRunner"),
        ("verl.trainer.main_ppo:create_rl_dataset", "moved", "verl.trainer.ppo.utils:create_rl_dataset"),
        ("verl.trainer.main_ppo:create_rl_sampler", "moved", "verl.trainer.ppo.utils:create_rl_sampler"),
        ("verl.trainer.main_ppo:deprecated", "moved", "verl.utils.import_utils:deprecated"),
        ("verl.trainer.main_ppo:is_distillation_enabled", "moved", "verl.trainer.distillation:is_distillation_enabled"),
        ("verl.trainer.main_ppo:migrate_legacy_reward_impl", "moved", "verl.experimental.reward_loop:migrate_legacy_reward_impl"),
        ("verl.trainer.main_ppo_sync", "replaced", "verl.trainer.main_ppo", "the TransferQueue-based trainer became verl's v1 trainer: run `python -m verl.trainer.main_ppo trainer.use_v1=True` (the trainer classes are in verl.trainer.ppo.v1)"),
        ("verl.trainer.main_ppo_sync:AgentLoopManagerTQ", "replaced", "verl.trainer.ppo.v1.agent_loop_tq:AgentLoopManagerTQ", "moved to verl.trainer.ppo.v1.agent_loop_tq; its constructor no longer takes replay_buffer"),
        ("verl.trainer.main_ppo_sync:AgentLoopWorkerTQ", "moved", "verl.trainer.ppo.v1.agent_loop_tq:AgentLoopWorkerTQ"),
        ("verl.trainer.main_ppo_sync:TaskRunner", "replaced", "verl.trainer.main_ppo:TaskRunnerV1", "run `python -m verl.trainer.main_ppo trainer.use_v1=True`; TaskRunnerV1 is a @ray.remote actor class"),
        ("verl.trainer.main_ppo_sync:main", "replaced", "verl.trainer.main_ppo:main", "`python -m verl.trainer.main_ppo trainer.use_v1=True` runs the same v1 trainer"),
    ),
    # [trainer] fix: use FullyAsyncLLMServerClient for async trainer (#6716)
    *_change("verl#6716 (e2cde0abd)", "0.9.0", "",
        ("verl.experimental.fully_async_policy.fully_async_rollouter:TokenOutput", "moved", "verl.workers.rollout.replica:TokenOutput"),
        ("verl.experimental.fully_async_policy.fully_async_rollouter:normalize_token_ids", "moved", "verl.utils:normalize_token_ids"),
        ("verl.experimental.fully_async_policy.fully_async_rollouter:rollout_trace_op", "moved", "verl.utils.rollout_trace:rollout_trace_op"),
    ),
    # [rollout] feat: add Continuous Token for Agentic Rollout (#6779)
    *_change("verl#6779 (603944b0b)", "0.9.0", "",
        ("verl.utils.chat_template", "moved", "verl.utils.tokenizer.chat_template"),
        ("verl.utils.tokenizer:set_pad_token_id", "moved", "verl.utils.tokenizer.tokenizer:set_pad_token_id"),
    ),
    # [BREAKING][rollout] feat: Add Multimodal Continuous Token (#6804)
    *_change("verl#6804 (df9e22433)", "0.9.0", "",
        ("verl.experimental.agent_loop.agent_loop:apply_chat_template", "moved", "verl.utils.tokenizer.chat_template:apply_chat_template"),
        ("verl.experimental.agent_loop.agent_loop:initialize_system_prompt", "moved", "verl.utils.tokenizer.chat_template:initialize_system_prompt"),
        ("verl.experimental.agent_loop.agent_loop:normalize_token_ids", "moved", "verl.utils.tokenizer:normalize_token_ids"),
    ),
    # [ci] chore: remove vllm_ascend patch and fix ci (#7042)
    *_change("verl#7042 (6f2aa24ab)", "0.9.0", _VERL_7042,
        ("verl.utils.vllm.npu_vllm_patch:VERL_NPU_ENABLE_A2_PATCH_VLLM_ASCEND_MC2", "removed", None),
        ("verl.utils.vllm.npu_vllm_patch:check_vllm_ascend_before_server_launch", "removed", None),
        ("verl.utils.vllm.npu_vllm_patch:vllm_ascend_v011_matmul_and_reduce_wrapper", "removed", None),
        ("verl.utils.vllm.npu_vllm_patch:vllm_ascend_v011_select_moe_comm_method_wrapper", "removed", None),
        ("verl.utils.vllm.npu_vllm_patch:vllm_ascend_v013_matmul_and_reduce_wrapper", "removed", None),
        ("verl.utils.vllm.npu_vllm_patch:vllm_ascend_v013_select_moe_comm_method_wrapper", "removed", None),
        ("verl.utils.vllm:check_vllm_ascend_before_server_launch", "removed", None, "it re-exported verl.utils.vllm.npu_vllm_patch.check_vllm_ascend_before_server_launch, which verl removed"),
    ),
    # [recipe] feat: Retain model output from tinker forward backward (#7109)
    *_change("verl#7109 (2b47a68b6)", "0.9.0", "",
        ("verl.experimental.teacher_loop.teacher_model:HFModelConfig", "moved", "verl.workers.config:HFModelConfig"),
    ),
    # [rollout, hardware] fix: fix rollout replica.py for device abstraction (#7128)
    *_change("verl#7128 (11c94ad23)", "0.9.0", "",
        ("verl.workers.rollout.replica:is_torch_npu_available", "moved", "verl.utils.device:is_torch_npu_available"),
    ),
    # [vllm] chore: remove unused get_device_uuid from vllm rollout (#7189)
    *_change("verl#7189 (d996e7ddd)", "0.9.0", "removed by verl#7189 without a same-named successor",
        ("verl.workers.rollout.vllm_rollout.utils:get_device_uuid", "removed", None),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:get_device_id", "moved", "verl.utils.device:get_device_id"),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:get_device_uuid", "removed", None, "it re-exported verl.workers.rollout.vllm_rollout.utils.get_device_uuid, which verl removed"),
    ),
    # [vllm] refactor: drop support for vLLM older than 0.18.0 (#7190)
    *_change("verl#7190 (668baad74)", "0.9.0", _VERL_7190,
        ("verl.utils.vllm.vllm_fp8_utils:process_weights_after_loading_for_vllm10", "removed", None),
        ("verl.utils.vllm.vllm_fp8_utils:process_weights_after_loading_for_vllm11", "removed", None),
        ("verl.utils.vllm.vllm_fp8_utils:process_weights_after_loading_moe_for_vllm10", "removed", None),
        ("verl.utils.vllm.vllm_fp8_utils:process_weights_after_loading_moe_for_vllm11", "removed", None),
        ("verl.workers.rollout.vllm_rollout.vllm_rollout:get_version", "moved", "verl.third_party.vllm:get_version"),
    ),
    # [vllm] feat: enhance DeepSeek V4 fp8/fp4 linear and moe weight refit (#7224)
    *_change("verl#7224 (e35735452)", "0.9.0", _VERL_7224,
        ("verl.utils.vllm.vllm_fp8_utils:FP8State", "moved", "verl.utils.vllm.vllm_quant_utils:FP8State"),
        ("verl.utils.vllm.vllm_fp8_utils:apply_mxfp8_transformation_after_loading", "moved", "verl.utils.vllm.vllm_quant_utils:apply_mxfp8_transformation_after_loading"),
        ("verl.utils.vllm.vllm_fp8_utils:apply_vllm_fp8_patches", "removed", None),
        ("verl.utils.vllm.vllm_fp8_utils:fp8_state", "moved", "verl.utils.vllm.vllm_quant_utils:fp8_state"),
        ("verl.utils.vllm.vllm_fp8_utils:get_module_from_param_name", "moved", "verl.utils.vllm.vllm_quant_utils:get_module_from_param_name"),
        ("verl.utils.vllm.vllm_fp8_utils:is_fp8_model", "removed", None),
        ("verl.utils.vllm.vllm_fp8_utils:is_fp8_weight", "moved", "verl.utils.vllm.vllm_quant_utils:is_fp8_weight"),
        ("verl.utils.vllm.vllm_fp8_utils:is_mxfp8_vllm_ascend", "removed", None),
        ("verl.utils.vllm.vllm_fp8_utils:load_quanted_weights", "moved", "verl.utils.vllm.vllm_quant_utils:load_quanted_weights"),
        ("verl.utils.vllm.vllm_fp8_utils:quant_weights", "moved", "verl.utils.vllm.vllm_quant_utils:quant_weights"),
        ("verl.utils.vllm.vllm_fp8_utils:restore_mxfp8_weights_for_loading", "moved", "verl.utils.vllm.vllm_quant_utils:restore_mxfp8_weights_for_loading"),
        ("verl.utils.vllm.vllm_fp8_utils:scaled_fp8_blockwise", "moved", "verl.utils.kernel.fp8_kernel:scaled_fp8_blockwise"),
        ("verl.workers.rollout.vllm_rollout.utils:apply_vllm_fp8_patches", "removed", None, _VERL_7224_2),
        ("verl.workers.rollout.vllm_rollout.utils:is_fp8_model", "removed", None, _VERL_7224_3),
        ("verl.workers.rollout.vllm_rollout.vllm_async_server:apply_vllm_fp8_patches", "removed", None, _VERL_7224_2),
    ),
    # [veomni] fix: preserve GPT-OSS weights without expert parallelism (#7243)
    *_change("verl#7243 (849739183)", "0.9.0", "",
        ("verl.workers.engine.veomni.transformer_impl:MOE_PARAM_HANDERS", "moved", "verl.workers.engine.veomni.utils:MOE_PARAM_HANDERS"),
    ),
    # [ckpt, fsdp]  feat: sharded delta weight sync for the TorchTitan engine (#7324)
    *_change("verl#7324 (040a28659)", "0.9.0", "",
    ),
    # [vllm] fix: resolve .base_layer on the vLLM receiver for non-merged LoRA sync (#7327)
    *_change("verl#7327 (19e5347f2)", "0.9.0", _VERL_7327,
        ("verl.utils.megatron_peft_utils:MEGATRON_TO_HF_MODULES", "removed", None),
        ("verl.utils.megatron_peft_utils:STACKED_PARAMS", "removed", None),
        ("verl.utils.megatron_peft_utils:add_base_layer_suffix", "removed", None),
        ("verl.utils.megatron_peft_utils:convert_megatron_to_hf_target_modules", "removed", None),
        ("verl.workers.engine.megatron.transformer_impl:add_base_layer_suffix", "removed", None, "it re-exported verl.utils.megatron_peft_utils.add_base_layer_suffix, which verl removed"),
    ),
    # [ci, trainer] feat: remove mindspeedllm backend engine support. (#7374)
    *_change("verl#7374 (859c71295)", "0.9.0", _VERL_7374,
        ("verl.workers.config.actor:MindSpeedActorConfig", "removed", None),
        ("verl.workers.config.actor:MindSpeedEngineConfig", "removed", None, _VERL_7374_2),
        ("verl.workers.config.critic:MindSpeedCriticConfig", "removed", None),
        ("verl.workers.config.critic:MindSpeedEngineConfig", "removed", None, _VERL_7374_2),
        ("verl.workers.config.engine:MindSpeedEngineConfig", "removed", None),
        ("verl.workers.config:MindSpeedActorConfig", "removed", None, "it re-exported verl.workers.config.actor.MindSpeedActorConfig, which verl removed"),
        ("verl.workers.config:MindSpeedCriticConfig", "removed", None, "it re-exported verl.workers.config.critic.MindSpeedCriticConfig, which verl removed"),
        ("verl.workers.config:MindSpeedEngineConfig", "removed", None, "it re-exported verl.workers.config.actor.MindSpeedEngineConfig, which verl removed"),
        ("verl.workers.engine.mindspeed.transformer_impl:MindSpeedEngineConfig", "removed", None, _VERL_7374_3),
        ("verl.workers.engine.mindspeed.transformer_impl:MindSpeedMegatronEngineWithLMHead", "removed", None),
        ("verl.workers.engine.mindspeed.transformer_impl:apply_patch", "removed", None, "it re-exported verl.workers.engine.mindspeed.utils.apply_patch, which verl removed"),
        ("verl.workers.engine.mindspeed.transformer_impl:gpt_model_provider", "removed", None, "it re-exported verl.workers.engine.mindspeed.utils.gpt_model_provider, which verl removed"),
        ("verl.workers.engine.mindspeed.utils:HFModelConfig", "moved", "verl.workers.config:HFModelConfig"),
        ("verl.workers.engine.mindspeed.utils:McoreOptimizerConfig", "moved", "verl.workers.config:McoreOptimizerConfig"),
        ("verl.workers.engine.mindspeed.utils:MindSpeedEngineConfig", "removed", None, _VERL_7374_3),
        ("verl.workers.engine.mindspeed.utils:add_mcore_arguments", "removed", None),
        ("verl.workers.engine.mindspeed.utils:apply_patch", "removed", None),
        ("verl.workers.engine.mindspeed.utils:get_base_mcore_config_from_engine_config", "removed", None),
        ("verl.workers.engine.mindspeed.utils:get_base_mcore_config_from_model_config", "removed", None),
        ("verl.workers.engine.mindspeed.utils:get_base_mcore_config_from_optim_config", "removed", None),
        ("verl.workers.engine.mindspeed.utils:gpt_model_provider", "removed", None),
        ("verl.workers.engine.mindspeed.utils:set_global_config", "removed", None),
        ("verl.workers.engine.mindspeed:MindSpeedMegatronEngineWithLMHead", "removed", None, "it re-exported verl.workers.engine.mindspeed.transformer_impl.MindSpeedMegatronEngineWithLMHead, which verl removed"),
        ("verl.workers.engine:MindSpeedMegatronEngineWithLMHead", "removed", None, "it re-exported verl.workers.engine.mindspeed.MindSpeedMegatronEngineWithLMHead, which verl removed"),
    ),
    # [megatron,veomni] feat: use torch.int16 for routed_experts (#7407)
    *_change("verl#7407 (bf48903d9)", "0.9.0", "",
    ),
    # [perf] feat: add profiler post hook, fix behaviors and allow comprehensive torch profiler (#7408)
    *_change("verl#7408 (9097cc4d4)", "0.9.0", "",
        ("verl.workers.rollout.sglang_rollout.async_sglang_server:DistProfiler", "moved", "verl.utils.profiler:DistProfiler"),
        ("verl.workers.rollout.vllm_rollout.vllm_async_server:DistProfiler", "moved", "verl.utils.profiler:DistProfiler"),
    ),
    # only the verl 0.9.1 wheel shows it
    *_change("verl 0.9.1 wheel", "0.9.0", "",
        ("verl.workers.rollout.llm_server:DEFAULT_ROUTING_CACHE_SIZE", "moved", "verl.workers.rollout.router:DEFAULT_ROUTING_CACHE_SIZE", "the same constant (10000) next to the router"),
    ),
    # Definitions these changes moved out, which the v0.9.0 tag still re-exported with an import line (an old import
    # works there): gone from the 0.9.1 wheel.
    *_change("verl#6804 (df9e22433)", "0.9.1", "",
        ("verl.experimental.agent_loop.tool_agent_loop:build_gpt_oss_tool_response_text", "moved", "verl.experimental.agent_loop.utils:build_gpt_oss_tool_response_text"),
    ),
    *_change("verl#7324 (040a28659)", "0.9.1", "",
        ("verl.workers.engine.torchtitan.transformer_impl:iter_per_tensor_params_ep", "moved", "verl.workers.engine.torchtitan.utils:iter_per_tensor_params_ep"),
    ),
    *_change("verl#7374 (859c71295)", "0.9.1", "",
        ("verl.workers.engine.mindspeed.transformer_impl:RouterReplay", "moved", "verl.utils.megatron.router_replay_patch:RouterReplay"),
        ("verl.workers.engine.mindspeed.transformer_impl:print_model_size", "moved", "verl.utils.model:print_model_size"),
    ),
    *_change("verl#7407 (bf48903d9)", "0.9.1", "",
        ("verl.utils.veomni.router_replay:all_gather_tensor", "moved", "verl.utils.ulysses:all_gather_tensor"),
        ("verl.utils.veomni.router_replay:slice_input_tensor", "moved", "verl.utils.ulysses:slice_input_tensor"),
    ),
)

KEYWORD_ROWS: tuple[KeywordRow, ...] = (
    # [BREAKING][reward] refactor: deprecate batch reward manager (#5237)
    *_keyword_change("verl#5237 (3df21a68e)", "0.7.1",
        ("verl.trainer.ppo.reward:load_reward_manager", "num_examine", "dropped", None, "the reward-loop managers that load_reward_manager builds take no num_examine; it only set how many decoded samples the old managers printed"),
        ("verl.trainer.ppo.reward:load_reward_manager", "max_resp_len", "removed", None, "DAPORewardManager reads it from the config: set reward.reward_kwargs.max_resp_len instead"),
        ("verl.trainer.ppo.reward:load_reward_manager", "overlong_buffer_cfg", "removed", None, "DAPORewardManager reads it from the config: set reward.reward_kwargs.overlong_buffer_cfg instead"),
    ),
    # [BREAKING][ckpt] refactor: rename misleading `trainer` arg to `actor_wg` (#6724)
    *_keyword_change("verl#6724 (e71ae41d2)", "0.9.0",
        ("verl.checkpoint_engine.base:CheckpointEngineManager", "trainer", "moved", "actor_wg", "the actor worker group that produces the weights"),
    ),
    # [reward] feat: split reward loop manager and agent loop manager (#5134)
    *_keyword_change("verl#5134 (84d9d8f51)", "0.7.1",
        ("verl.experimental.agent_loop.agent_loop:AgentLoopManager", "rm_resource_pool", "removed", None, "the reward loop has its own manager (verl.experimental.reward_loop:RewardLoopManager); pass its workers as reward_loop_worker_handles"),
    ),
    # [BREAKING][rollout] refactor: move LLMServerManager out of AgentLoopManager (#6129)
    *_keyword_change("verl#6129 (3c5f6e049)", "0.8.0",
        ("verl.experimental.agent_loop.agent_loop:AgentLoopManager", "worker_group", "removed", None, "AgentLoopManager(config, llm_client, ...) takes an LLMServerClient: build an LLMServerManager (verl.workers.rollout.llm_server) from the worker group and pass manager.get_client()"),
    ),
    # [BREAKING] [env] refactor: deprecate verl/interactions (#6074)
    *_keyword_change("verl#6074 (63dc08501)", "0.8.0",
        ("verl.experimental.agent_loop.tool_agent_loop:AgentData", "interaction", "removed", None, _VERL_6074_4),
        ("verl.experimental.agent_loop.tool_agent_loop:AgentData", "interaction_kwargs", "removed", None, _VERL_6074_4),
    ),
    # [data] refactor: TransferQueue - retire legacy integration codes (#5454)
    *_keyword_change("verl#5454 (d4afed3b5)", "0.7.1",
        ("verl.utils.transferqueue_utils:tqbridge", "put_data", "removed", None, "the legacy TransferQueue integration was retired (verl#5454); the tqbridge that verl#5401 brought back in 0.8.0 takes only dispatch_mode"),
    ),
)
# fmt: on
