"""Stand-ins for the GPU-bound parts of verl's PPO trainer, so its real ``fit()`` runs on CPU.

Everything around these classes is verl's own: ``RayPPOTrainer``, ``RayWorkerGroup`` dispatch and
collect, the reward loop workers, the checkpoint engine manager, ``DistProfiler`` and
``TorchMemoryProfiler``. What is replaced, and why:

* ``EngineStyleActor`` / ``FsdpStyleActor``: the actor workers. They are real verl ``Worker`` +
  ``DistProfilerExtension`` subclasses with methods registered by verl's ``@register``, and they
  build their ``DistProfiler`` from ``config.actor.profiler`` the way verl's workers do, so a config
  edit made on the trainer's side reaches a real profiler. Only the model math is fake.
  ``FsdpStyleActor`` adds the legacy ``dump_memory_snapshot`` of verl 0.7.1's FSDP workers; the
  engine workers (and every worker of verl >= 0.8) lack it.
* ``StubCriticWorker``: the critic, speaking both critic APIs (the legacy worker API of 0.7.x and the
  ``TrainingWorker`` API that 0.9.x's trainer drives).
* ``StubAgentLoopManager``: generation (vLLM/SGLang servers + agent loops). It answers from the
  ground truth and scores through verl's real reward loop workers.
* ``StubReplica``: a rollout replica without servers, because 0.9.x's trainer always launches one.
* ``CPUResourcePoolManager``: verl's pool manager hard-codes GPUs.
* ``TinyGSM8K``: an in-memory dataset in the shape ``RLHFDataset`` yields (``TinyGSM8KTokenized``:
  0.6.x's, with the prompt tokens its trainer hands to the actor workers to generate from).
* ``flash_attn``: 0.8.0's trainer unpads batches with ``flash_attn.bert_padding`` (CUDA-only
  wheels) on any non-NPU host; importing this module backports 0.9's pure-torch fallback into the
  process (the trainer's: the test process, or verl's TaskRunner actor, which imports this module).

Every call to a stand-in worker is appended as one JSON line ``{"method": ..., "kwargs": {...}}`` to
``$VERL_COMPAT_TEST_CALL_LOG/<log name>-rank<R>.jsonl`` (log names ``actor``, ``critic`` and
``agent_loop_manager``). ``kwargs`` are the arguments as passed; data batches appear as
``"<DataProto>"``/``"<TensorDict>"``. The first line of a worker's log is ``__init__`` with the
settings its real ``DistProfiler`` got. A file, rather than worker memory, because it survives failed runs and
works the same whether the trainer runs in the test process or in verl's TaskRunner actor.

Version differences are decided by what verl objects offer (input types, signatures, config
attributes), never by ``verl.__version__``. This module must stay importable in Ray worker
processes: the harness puts its folder on their ``PYTHONPATH``.
"""

import functools
import importlib.util
import inspect
import json
import os
import re
import threading

import numpy as np
import ray
import torch
from omegaconf import OmegaConf
from tensordict import TensorDict
from torch.utils.data import Dataset
from verl import DataProto
from verl.single_controller.base import Worker
from verl.single_controller.base.decorator import Dispatch, make_nd_compute_dataproto_dispatch_fn, register
from verl.single_controller.ray.base import RayResourcePool
from verl.utils import hf_tokenizer
from verl.utils import tensordict_utils as tu
from verl.utils.config import omega_conf_to_dataclass
from verl.utils.profiler import DistProfiler, DistProfilerExtension, ProfilerConfig

try:
    from verl.single_controller.ray.base import ResourcePoolManager
except ImportError:  # 0.6.x keeps it with the trainer
    from verl.trainer.ppo.ray_trainer import ResourcePoolManager

CALL_LOG_ENV = "VERL_COMPAT_TEST_CALL_LOG"
ROLLOUT_NAME = "cpu_stub"
# Waits sized for a loaded machine (load 8 on 2 cores: every process several times slower).
RAY_GET_TIMEOUT_S = 300  # a stand-in's own wait on another actor: seconds of work, minutes at worst
PLACEMENT_TIMEOUT_S = 300  # a worker group's placement groups: placed in seconds when the CPUs are free


# ----------------------------------------------------------------------------------- call log
def _jsonable(value):
    """Summarise what JSON cannot hold: numpy scalars become numbers, data batches their type name."""
    if isinstance(value, np.generic):
        return value.item()
    return f"<{type(value).__name__}>"


def log_call(log_name: str, rank: int, method: str, kwargs: dict) -> None:
    """Append one call to this rank's JSON-lines log; a no-op outside the harness."""
    log_dir = os.environ.get(CALL_LOG_ENV)
    if not log_dir:
        return
    line = json.dumps({"method": method, "kwargs": kwargs}, default=_jsonable)
    with open(os.path.join(log_dir, f"{log_name}-rank{rank}.jsonl"), "a") as f:
        f.write(line + "\n")


def _logged(fn):
    """Log each call (name + the arguments as passed) before running ``fn``.

    The arguments are bound to ``fn``'s signature first, so a call the signature rejects raises
    ``TypeError`` unlogged, exactly as calling a real worker with it would.
    """
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        arguments = dict(sig.bind(self, *args, **kwargs).arguments)
        del arguments["self"]
        for name, param in sig.parameters.items():
            if param.kind is param.VAR_KEYWORD:
                arguments.update(arguments.pop(name, {}))
        self.log_call(fn.__name__, arguments)
        return fn(self, *args, **kwargs)

    return wrapper


def _redeclared(name: str):
    """Re-declare ``DistProfilerExtension.<name>`` as verl's FSDP workers do, with logging.

    It keeps the installed release's exact signature (0.9.1's ``stop_profile(run_command=True)``,
    0.7.1's argument-less one) and delegates to the real method, i.e. to the real ``DistProfiler``.
    """
    base = getattr(DistProfilerExtension, name)

    @functools.wraps(base)
    def method(self, *args, **kwargs):
        return base(self, *args, **kwargs)

    return register(dispatch_mode=Dispatch.ONE_TO_ALL)(_logged(method))


def _dist_profiler(rank: int, profiler_cfg, **kwargs) -> DistProfiler:
    """Build a DistProfiler from a role's ``profiler`` config the way verl's workers do.

    ``ProfilerConfig`` via ``omega_conf_to_dataclass``, plus the ``tool_config`` entry of the
    selected tool (``TorchMemoryToolConfig`` for torch_memory). verl gates the latter on a per-release
    list of tools; every tool on those lists has a ``tool_config`` entry, so "has an entry" is the
    same rule without the list.
    """
    if profiler_cfg is None:  # e.g. 0.9.x TrainingWorkerConfig.profiler_config left unset
        return DistProfiler(rank=rank, config=None, **kwargs)
    config = omega_conf_to_dataclass(profiler_cfg, dataclass_type=ProfilerConfig)
    tool = profiler_cfg.get("tool", None)
    tool_cfg = (profiler_cfg.get("tool_config", None) or {}).get(tool) if tool else None
    tool_config = omega_conf_to_dataclass(tool_cfg) if tool_cfg is not None else None
    profiler = DistProfiler(rank=rank, config=config, tool_config=tool_config, **kwargs)
    if not hasattr(profiler, "config"):  # 0.6.x keeps no config; _log_init reports it
        profiler.config = config
    return profiler


class _StandInWorker(Worker, DistProfilerExtension):
    """Shared by the worker stand-ins: call logging and the re-declared profiler entry points."""

    log_name = ""

    def log_call(self, method: str, kwargs: dict) -> None:
        log_call(self.log_name, self.rank, method, kwargs)

    def _log_init(self, **kwargs) -> None:
        """Log construction with the settings the real DistProfiler got: on CPU no snapshot is
        written, so this is how a test sees which ranks profile (enable/all_ranks/ranks)."""
        config = getattr(self.profiler, "config", None)
        settings = {key: getattr(config, key, None) for key in ("tool", "enable", "all_ranks", "save_path")}
        settings["ranks"] = list(getattr(config, "ranks", None) or [])
        # verl's own verdict on whether this rank profiles (0.7.1+; 0.6.x's DistProfiler has no such check)
        check_this_rank = getattr(self.profiler, "check_this_rank", None)
        settings["this_rank"] = check_this_rank() if check_this_rank else None
        self.log_call("__init__", {**kwargs, "profiler": settings})

    start_profile = _redeclared("start_profile")
    stop_profile = _redeclared("stop_profile")

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    @_logged
    def save_checkpoint(self, local_path, hdfs_path=None, global_step=0, max_ckpt_to_keep=None):
        os.makedirs(local_path, exist_ok=True)  # the checkpoint tree is part of what tests look at

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    @_logged
    def load_checkpoint(self, local_path, hdfs_path=None, del_local_after_load=False):
        pass


def _zeros_like_tokens(data: TensorDict) -> torch.Tensor:
    """A float nested tensor shaped like the no-padding ``input_ids`` (one value per token)."""
    input_ids = data["input_ids"]
    return torch.nested.nested_tensor_from_jagged(torch.zeros(input_ids.values().shape[0]), offsets=input_ids.offsets())


def _zeros_per_response_token(data: DataProto) -> torch.Tensor:
    return torch.zeros(data.batch["responses"].shape, dtype=torch.float32)


def _metrics(data, **metrics):
    """A worker's metrics reply: ``DataProto`` meta_info on the legacy path, a TensorDict otherwise."""
    if isinstance(data, DataProto):
        return DataProto(meta_info={"metrics": metrics})
    return tu.get_tensordict(tensor_dict={}, non_tensor_dict={"metrics": {"mfu": 0.0, **metrics}})


def _scored_rows(data) -> list[dict]:
    """Each sample's ``token_level_scores`` row as the actor receives it for its update (a padded
    ``DataProto``, or 0.9's no-padding ``TensorDict``, where the scores stay padded), with what
    scored it: the response's valid ids, ``data_source``, ``reward_model``, ``extra_info``, and its
    uid group (``uid``). The
    reward fits compute what the old setup gives on these very samples and compare."""
    if isinstance(data, DataProto):
        tensors, non_tensors = data.batch, data.non_tensor_batch
    else:
        tensors = non_tensors = data
    # keys(), not `in`: a TensorDict refuses membership tests
    tensor_keys, non_tensor_keys = set(tensors.keys()), set(non_tensors.keys())

    def listed(key):
        if key not in non_tensor_keys:
            return None
        return list(non_tensors[key] if isinstance(data, DataProto) else tu.get(data, key))

    if not {"token_level_scores", "responses", "response_mask"} <= tensor_keys:
        return []
    scores, responses, mask = tensors["token_level_scores"], tensors["responses"], tensors["response_mask"]
    sources, models, extras, uids = listed("data_source"), listed("reward_model"), listed("extra_info"), listed("uid")
    rows = []
    for i in range(len(scores)):
        valid = int(mask[i].sum())
        rows.append(
            {
                "scores": [float(x) for x in scores[i]],
                "response_ids": [int(x) for x in responses[i][:valid]],
                "data_source": sources[i] if sources else None,
                "reward_model": dict(models[i]) if models else None,
                "extra_info": dict(extras[i]) if extras else None,
                "uid": str(uids[i]) if uids else None,
            }
        )
    return rows


def operands(prompt_text: str) -> tuple[int, int]:
    """``(A, B)`` of a ``what is A plus B ?`` prompt (row ``A - 1`` of ``TinyGSM8K``)."""
    a, b = map(int, re.search(r"what is (\d+) plus (\d+)", prompt_text).groups())
    return a, b


def answer_for(prompt_text: str) -> int:
    """The stand-ins' answer to ``what is A plus B ?``: right for odd A, off by one for even A."""
    a, b = operands(prompt_text)
    return a + b + (a % 2 == 0)


def respond(prompt_texts: list[str]) -> list[str]:
    """The stand-ins' response to each prompt of one generation call, as text (the worker appends
    the EOS token): ``the answer is #### N``, N from :func:`answer_for`."""
    return [f"the answer is #### {answer_for(text)}" for text in prompt_texts]


# ----------------------------------------------------------------------------------- workers
class EngineStyleActor(_StandInWorker):
    """The actor/rollout worker (``Role.ActorRollout``), shaped like ``engine_workers.ActorRolloutRefWorker``.

    No ``dump_memory_snapshot``: on verl 0.7.1 the trainer's legacy per-step call therefore fails
    with the ``AttributeError`` users hit with engine workers. The compute path follows the input
    type: ``DataProto`` (0.7.1's legacy path) or no-padding ``TensorDict`` (0.9.1). 0.7.1's own
    TensorDict path (``trainer.use_legacy_worker_impl=disable``) cannot run on CPU: the trainer's
    padding conversion imports ``flash_attn``.
    """

    log_name = "actor"
    respond = staticmethod(respond)  # what generate_sequences answers (the recipe fits' stand-ins vary it)

    def __init__(self, config, role, **kwargs):
        Worker.__init__(self)
        self.config = config  # the actor_rollout_ref subtree, as verl passes it
        DistProfilerExtension.__init__(self, self._build_profiler(role))
        self._register_dispatch_collect_info("actor", dp_rank=self.rank, is_collect=True)  # for _balance_batch
        self._log_init(role=role)

    def _build_profiler(self, role):
        kwargs = {}
        if "save_file_prefix" in inspect.signature(DistProfiler.__init__).parameters:
            kwargs["save_file_prefix"] = role  # 0.9.x workers label their traces with the role
        return _dist_profiler(self.rank, self.config.actor.get("profiler", None), **kwargs)

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    @_logged
    def init_model(self):
        pass

    @register(dispatch_mode=make_nd_compute_dataproto_dispatch_fn(mesh_name="actor"))
    @_logged
    def compute_log_prob(self, data):
        if isinstance(data, DataProto):
            zeros = _zeros_per_response_token(data)
            return DataProto.from_dict(
                tensors={"old_log_probs": zeros, "entropys": zeros.clone()},
                meta_info={"temperature": self.config.rollout.temperature},
            )
        return tu.get_tensordict(
            tensor_dict={"log_probs": _zeros_like_tokens(data), "entropy": _zeros_like_tokens(data)},
            non_tensor_dict={"metrics": {"mfu": 0.0}},
        )

    @register(dispatch_mode=make_nd_compute_dataproto_dispatch_fn(mesh_name="actor"))
    @_logged
    def update_actor(self, data):
        scored = _scored_rows(data)
        if scored:
            log_call("scores", self.rank, "update_actor", {"rows": scored})
        return _metrics(data, pg_loss=0.0)

    @register(dispatch_mode=make_nd_compute_dataproto_dispatch_fn(mesh_name="actor"))
    @_logged
    def generate_sequences(self, prompts):
        """0.6.x's synchronous rollout (``rollout.mode=sync``), done by the actor workers themselves."""
        tokenizer = hf_tokenizer(self.config.model.path)
        r_len = self.config.rollout.response_length
        prompt_ids, prompt_mask = prompts.batch["input_ids"], prompts.batch["attention_mask"]
        responses = torch.full((len(prompt_ids), r_len), tokenizer.pad_token_id, dtype=torch.long)
        response_mask = torch.zeros_like(responses)
        texts = [tokenizer.decode(ids[mask.bool()].tolist()) for ids, mask in zip(prompt_ids, prompt_mask, strict=True)]
        for i, text in enumerate(self.respond(texts)):
            row = [*tokenizer.encode(text, add_special_tokens=False), tokenizer.eos_token_id]
            responses[i, : len(row)], response_mask[i, : len(row)] = torch.tensor(row[:r_len]), 1
        attention_mask = torch.cat([prompt_mask, response_mask], dim=1)
        tensors = {
            "prompts": prompt_ids,
            "responses": responses,
            "input_ids": torch.cat([prompt_ids, responses], dim=1),
            "attention_mask": attention_mask,
            "position_ids": torch.clamp(attention_mask.cumsum(dim=1) - 1, min=0),
        }
        # As 0.6.x's vLLM rollout: the input's columns come back, less what it consumed.
        kept = {k: v for k, v in prompts.non_tensor_batch.items() if k not in ("raw_prompt_ids", "multi_modal_data")}
        return DataProto.from_dict(tensors=tensors, non_tensors=kept, meta_info={"timing": {}})

    # Non-blocking: CheckpointEngineManager(naive) does ray.get() on what the worker group returns.
    @register(dispatch_mode=Dispatch.ONE_TO_ALL, blocking=False)
    @_logged
    def update_weights(self, global_steps=None, **kwargs):
        return True


class FsdpStyleActor(EngineStyleActor):
    """The actor with the legacy ``dump_memory_snapshot`` of verl 0.7.1's FSDP workers."""

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    @_logged
    def dump_memory_snapshot(self, tag="manual", sub_dir=None):
        # Body of verl 0.7.1 fsdp_workers.ActorRolloutRefWorker.dump_memory_snapshot: every rank
        # dumps, whatever enable/all_ranks/ranks say; errors are swallowed.
        if hasattr(self, "profiler") and hasattr(self.profiler, "_impl"):
            try:
                if hasattr(self.profiler._impl, "sampler"):
                    out_dir = OmegaConf.select(self.config, "actor.profiler.save_path") or "."
                    self.profiler._impl.sampler.dump_memory_snapshot(out_dir=out_dir, tag=tag, sub_dir=sub_dir)
            except Exception:
                pass


class StubCriticWorker(_StandInWorker):
    """The critic (``Role.Critic``), speaking both critic APIs verl's trainers use.

    0.7.x drives the legacy worker API (``init_model``, ``compute_values``, ``update_critic``; mesh
    ``critic``) with a ``CriticConfig``. 0.9.x drives ``TrainingWorker``'s (``reset``,
    ``set_loss_fn``, non-blocking ``infer_batch``/``train_mini_batch``; mesh ``train``) with a
    ``TrainingWorkerConfig``. The unused half is never called.
    """

    log_name = "critic"

    def __init__(self, config):
        Worker.__init__(self)
        # A TrainingWorkerConfig has profiler_config.
        profiler_cfg = config.profiler_config if hasattr(config, "profiler_config") else config.get("profiler", None)
        DistProfilerExtension.__init__(self, _dist_profiler(self.rank, profiler_cfg))
        self._register_dispatch_collect_info("critic", dp_rank=self.rank, is_collect=True)
        self._register_dispatch_collect_info("train", dp_rank=self.rank, is_collect=True)
        self._log_init()

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    @_logged
    def init_model(self):
        pass

    @register(dispatch_mode=make_nd_compute_dataproto_dispatch_fn(mesh_name="critic"))
    @_logged
    def compute_values(self, data):
        return DataProto.from_dict(tensors={"values": _zeros_per_response_token(data)})

    @register(dispatch_mode=make_nd_compute_dataproto_dispatch_fn(mesh_name="critic"))
    @_logged
    def update_critic(self, data):
        return _metrics(data, vf_loss=0.0)

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    @_logged
    def reset(self):
        pass

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    @_logged
    def set_loss_fn(self, loss_fn):
        pass

    @register(dispatch_mode=make_nd_compute_dataproto_dispatch_fn(mesh_name="train"), blocking=False)
    @_logged
    def infer_batch(self, data):
        return tu.get_tensordict(
            tensor_dict={"values": _zeros_like_tokens(data)}, non_tensor_dict={"metrics": {"mfu": 0.0}}
        )

    @register(dispatch_mode=make_nd_compute_dataproto_dispatch_fn(mesh_name="train"), blocking=False)
    @_logged
    def train_mini_batch(self, data):
        return _metrics(data, loss=0.0)


# ----------------------------------------------------------------------------------- rollout side
class StubAgentLoopManager:
    """Generation without an inference server; loaded by verl from
    ``actor_rollout_ref.rollout.agent.agent_loop_manager_class=standins.StubAgentLoopManager``.

    For each prompt it renders the real chat template, answers what :func:`respond` says (the
    answer right for even ``extra_info.index``, off by one for odd ones, as the actor's 0.6.x
    rollout does), scores through verl's real reward loop workers, and returns the batch
    ``AgentLoopWorker._postprocess`` would. It runs in the trainer's process; its profiling calls go
    to the ``agent_loop_manager`` log.
    """

    respond = staticmethod(respond)

    def __init__(self, config, reward_loop_worker_handles):
        assert reward_loop_worker_handles, "stand-in scores through verl's reward loop workers"
        self.config = config
        self.reward_workers = reward_loop_worker_handles
        self.tokenizer = hf_tokenizer(config.actor_rollout_ref.model.path)
        self.rollout_replicas = []  # 0.7.1's CheckpointEngineManager takes the replicas from here

    @classmethod
    def create(cls, config, reward_loop_worker_handles=None, **kwargs):
        # 0.7.1 also passes worker_group/rollout_resource_pool, 0.9.1 llm_client/teacher_client.
        return cls(config, reward_loop_worker_handles)

    def start_profile(self, **kwargs):
        log_call("agent_loop_manager", 0, "start_profile", kwargs)

    def stop_profile(self, **kwargs):
        log_call("agent_loop_manager", 0, "stop_profile", kwargs)

    def _encode(self, text: str) -> list[int]:
        return self.tokenizer.encode(text, add_special_tokens=False)

    def rollout_tensors(self, prompts: DataProto) -> dict[str, torch.Tensor]:
        """The rollout's tensors for ``prompts`` (what ``AgentLoopWorker._postprocess`` stacks)."""
        tok, data_cfg = self.tokenizer, self.config.data
        p_len, r_len = data_cfg.max_prompt_length, data_cfg.max_response_length
        nt = prompts.non_tensor_batch
        texts = [tok.apply_chat_template(list(m), add_generation_prompt=True, tokenize=False) for m in nt["raw_prompt"]]
        prompt_ids = [self._encode(text)[-p_len:] for text in texts]
        response_ids = [[*self._encode(text), tok.eos_token_id][:r_len] for text in self.respond(texts)]

        def pad(rows, length, left):
            ids = torch.full((len(rows), length), tok.pad_token_id, dtype=torch.long)
            mask = torch.zeros((len(rows), length), dtype=torch.long)
            for i, row in enumerate(rows):
                span = slice(length - len(row), length) if left else slice(0, len(row))
                ids[i, span], mask[i, span] = torch.tensor(row), 1
            return ids, mask

        prompts_t, prompt_mask = pad(prompt_ids, p_len, left=True)
        responses_t, response_mask = pad(response_ids, r_len, left=False)
        attention_mask = torch.cat([prompt_mask, response_mask], dim=1)
        return {
            "prompts": prompts_t,
            "responses": responses_t,
            "response_mask": response_mask,
            "input_ids": torch.cat([prompts_t, responses_t], dim=1),
            "attention_mask": attention_mask,
            "position_ids": torch.clamp(attention_mask.cumsum(dim=1) - 1, min=0),
        }

    def generate_sequences(self, prompts: DataProto) -> DataProto:
        tensors = self.rollout_tensors(prompts)
        nt = prompts.non_tensor_batch
        # Which dataset rows the trainer served (a resumed run's data order is checked on these).
        served = {
            "indices": [int(info["index"]) for info in nt["extra_info"]],
            "validate": bool(prompts.meta_info.get("validate")),
        }
        log_call("agent_loop_manager", 0, "generate_sequences", served)
        responses_t, response_mask = tensors["responses"], tensors["response_mask"]
        # Score with verl's RewardLoopWorker (the first: compose_config starts one), on what the real
        # agent loop hands it.
        to_score = DataProto.from_dict(
            tensors=tensors,
            non_tensors={key: nt[key] for key in ("data_source", "reward_model", "extra_info")},
        )
        results = ray.get(self.reward_workers[0].compute_score_batch.remote(to_score), timeout=RAY_GET_TIMEOUT_S)
        rm_scores = torch.zeros(responses_t.shape, dtype=torch.float32)
        rm_scores[torch.arange(len(results)), response_mask.sum(dim=1) - 1] = torch.tensor(
            [r["reward_score"] for r in results], dtype=torch.float32
        )
        tensors["rm_scores"] = rm_scores

        extra_keys = list(results[0].get("reward_extra_info", {}))
        non_tensors = {key: np.array([r["reward_extra_info"][key] for r in results]) for key in extra_keys}
        non_tensors["__num_turns__"] = np.full(len(results), 2, dtype=np.int32)
        # fit() iterates this unconditionally; the real agent loop sets it for multimodal data only.
        non_tensors["multi_modal_inputs"] = np.array([{} for _ in results], dtype=object)
        return DataProto.from_dict(
            tensors=tensors, non_tensors=non_tensors, meta_info={"timing": {}, "reward_extra_keys": extra_keys}
        )


def register_cpu_rollout() -> None:
    """Make ``rollout.name=cpu_stub`` resolve to a ``StubReplica``; call it in the trainer's process.

    0.9.x's ``init_workers`` always builds an ``LLMServerManager``, which resolves ``rollout.name``
    through this registry (vllm/sglang would import those packages). 0.7.x has the same registry but
    only the replaced ``AgentLoopManager`` reads it; registering there keeps one config for both.
    Idempotent.
    """
    from verl.workers.rollout.replica import RolloutReplicaRegistry

    RolloutReplicaRegistry.register(ROLLOUT_NAME, _stub_replica_class)


def _stub_replica_class():
    from verl.workers.rollout.replica import RolloutReplica

    class StubReplica(RolloutReplica):
        """A replica with no servers: sleep/wake_up/profile gather over an empty list."""

        async def launch_servers(self):
            self.servers = []
            self._server_address = f"{ROLLOUT_NAME}-{self.replica_rank}"

    return StubReplica


class StarvedPlacementGroup(TimeoutError):
    """A worker group's placement groups were not placed in time: the cluster lacks the CPUs."""


class CPUResourcePool(RayResourcePool):
    """verl's resource pool, whose placement wait is bounded.

    verl's ``get_placement_groups`` waits on ``pg.ready()`` without a timeout: a pool the cluster
    cannot fit blocks ``RayWorkerGroup`` forever, silently. Here verl's own method runs in a helper
    thread for at most ``placement_timeout_s``; past it, the test fails with what the pool waited
    for and what the cluster had. (The harness then removes the pending placement groups, which
    ends the helper's wait.)
    """

    placement_timeout_s = PLACEMENT_TIMEOUT_S

    def get_placement_groups(self, *args, **kwargs):
        if self.pgs is not None:
            return self.pgs
        placed = {}

        def place():
            try:
                placed["pgs"] = super(CPUResourcePool, self).get_placement_groups(*args, **kwargs)
            except BaseException as error:
                placed["error"] = error

        helper = threading.Thread(target=place, name=f"place-{self.name_prefix}", daemon=True)
        helper.start()
        helper.join(self.placement_timeout_s)
        if helper.is_alive():
            raise StarvedPlacementGroup(
                f"resource pool {self.name_prefix!r}: placement groups for {self.store} bundles of "
                f"{{'CPU': {self.max_colocate_count}}} not placed in {self.placement_timeout_s} s; "
                f"the Ray cluster has {ray.available_resources()} free of {ray.cluster_resources()}"
            )
        if "error" in placed:
            raise placed["error"]
        return placed["pgs"]


class CPUResourcePoolManager(ResourcePoolManager):
    """verl's manager with CPU bundles of one CPU each, in pools whose placement wait is bounded.

    verl's ``create_resource_pool`` asks for GPUs (and fails with "Total available GPUs 0"); its
    ``max_colocate_count=3`` would make each bundle ask for 3 CPUs, and ``RayWorkerGroup`` would
    wait for a placement group that cannot fit (see ``CPUResourcePool``).
    """

    def create_resource_pool(self):
        for name, process_on_nodes in self.resource_pool_spec.items():
            self.resource_pool_dict[name] = CPUResourcePool(
                process_on_nodes=process_on_nodes, use_gpu=False, max_colocate_count=1, name_prefix=name
            )


# ----------------------------------------------------------------------------------- data
class TinyGSM8K(Dataset):
    """Eight gsm8k-style rows ``what is A plus B ?``, shaped like ``RLHFDataset.__getitem__`` output.

    Loaded by verl from ``data.custom_cls.path=pkg://standins data.custom_cls.name=TinyGSM8K``;
    the file arguments are ignored. Since verl 0.7 the dataset does not tokenize: the agent loop does.
    """

    SIZE = 8
    # Every word of the rows, of the harness's chat template and of the stand-in's answers.
    VOCAB = ("<pad>", "<unk>", "<s>", "</s>", "user", "assistant", ":", "what", "is", "plus", "?")
    VOCAB += ("the", "answer", "####", *(str(n) for n in range(100)))

    def __init__(self, data_files=None, tokenizer=None, processor=None, config=None, max_samples=-1, **kwargs):
        self.size = self.SIZE if max_samples is None or max_samples < 0 else min(self.SIZE, max_samples)

    def __len__(self):
        return self.size

    def __getitem__(self, i):
        a, b = i + 1, 2 * i + 3
        return {
            "raw_prompt": [{"role": "user", "content": f"what is {a} plus {b} ?"}],
            "dummy_tensor": torch.tensor([0], dtype=torch.uint8),
            "data_source": "openai/gsm8k",
            "reward_model": {"style": "rule", "ground_truth": str(a + b)},
            "extra_info": {"index": i},
            "index": i,
            "tools_kwargs": {},
            "interaction_kwargs": {},
            "agent_name": "single_turn_agent",
        }


class TinyGSM8KTokenized(TinyGSM8K):
    """``TinyGSM8K`` as 0.6.x's ``RLHFDataset`` yields it: the chat-templated prompt tokenized and
    left-padded to ``data.max_prompt_length``, which the trainer hands to the actor to generate."""

    def __init__(self, data_files=None, tokenizer=None, processor=None, config=None, max_samples=-1, **kwargs):
        super().__init__(data_files, tokenizer, processor, config, max_samples, **kwargs)
        self.tokenizer, self.max_prompt_length = tokenizer, config.max_prompt_length

    def __getitem__(self, i):
        row = super().__getitem__(i)
        text = self.tokenizer.apply_chat_template(row["raw_prompt"], add_generation_prompt=True, tokenize=False)
        ids = self.tokenizer.encode(text, add_special_tokens=False)[-self.max_prompt_length :]
        pad = self.max_prompt_length - len(ids)
        mask = torch.tensor([0] * pad + [1] * len(ids))
        row["input_ids"] = torch.tensor([self.tokenizer.pad_token_id] * pad + ids)
        row["attention_mask"] = mask
        row["position_ids"] = torch.clamp(mask.cumsum(0) - 1, min=0)
        row["raw_prompt_ids"] = ids
        return row


# ----------------------------------------------------------------------------------- flash_attn
def _pure_torch_unpad_input(hidden_states, attention_mask, unused_mask=None):
    mask = attention_mask + unused_mask if unused_mask is not None else attention_mask
    seqlens = mask.sum(dim=-1, dtype=torch.int32)
    indices = torch.nonzero(mask.flatten(), as_tuple=False).flatten()
    cu_seqlens = torch.nn.functional.pad(torch.cumsum(seqlens, dim=0, dtype=torch.int32), (1, 0))
    flat = hidden_states.reshape(-1, *hidden_states.shape[2:])
    return flat[indices], indices, cu_seqlens, int(seqlens.max()), attention_mask.sum(dim=-1, dtype=torch.int32)


def _pure_torch_pad_input(hidden_states, indices, batch, seqlen):
    output = hidden_states.new_zeros(batch * seqlen, *hidden_states.shape[1:])
    output[indices] = hidden_states
    return output.view(batch, seqlen, *hidden_states.shape[1:])


def _einops_rearrange(*args, **kwargs):
    from einops import rearrange  # not on the trainer's path; imported only if called

    return rearrange(*args, **kwargs)


def _backport_attention_fallback() -> None:
    """Where verl's ``attention_utils`` has no fallback of its own and flash_attn is absent (0.8.0
    on CPU), answer its lookup with pure-torch functions, as 0.9's does."""
    try:
        from verl.utils import attention_utils
    except ImportError:
        return
    original = getattr(attention_utils, "_get_attention_functions", None)
    if original is None or hasattr(attention_utils, "_fallback_unpad_input"):
        return
    if importlib.util.find_spec("flash_attn") is not None:
        return

    def get_attention_functions():
        try:
            return original()
        except ImportError:
            index_first_axis = lambda tensor, indices: tensor[indices]  # noqa: E731
            return index_first_axis, _pure_torch_pad_input, _einops_rearrange, _pure_torch_unpad_input

    attention_utils._get_attention_functions = get_attention_functions


_backport_attention_fallback()
