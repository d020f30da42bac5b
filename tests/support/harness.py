"""Driver side of the CPU harness: verl's real ``RayPPOTrainer`` fit, on a real local Ray cluster.

Only the GPU-bound parts are stand-ins (see ``standins``). Typical use::

    config = compose_config(["actor_rollout_ref.actor.profiler.tool=torch_memory"], tmp_path)
    result = run_fit(config, actor="fsdp")          # or run_ppo_fit(config): trainer in verl's TaskRunner actor
    result.raise_error()
    result.actor_calls[1]                           # rank 1's calls: [{"method": ..., "kwargs": {...}}, ...]
    result.profile_tree()                           # {"step1": [...files], ...} under the actor profiler save_path

A run's working folder is the parent of ``trainer.default_local_dir`` (``compose_config`` lays it
out as ``<workdir>/{ckpt,prof,model,calls}``). All runs of a process share one Ray session; each run
removes every actor and placement group it created, because a worker group that cannot get its CPUs
waits forever, silently.
"""

import atexit
import contextlib
import copy
import functools
import inspect
import json
import os
import shutil
import signal
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyrun
import ray
import standins
import verl
from hydra import compose, initialize_config_dir
from omegaconf import DictConfig, OmegaConf
from verl.trainer import main_ppo
from verl.trainer.ppo.ray_trainer import RayPPOTrainer, Role
from verl.trainer.ppo.utils import need_critic, need_reference_policy
from verl.utils import hf_tokenizer
from verl.utils.config import validate_config

SUPPORT_DIR = Path(__file__).resolve().parent
ACTORS = {"engine": standins.EngineStyleActor, "fsdp": standins.FsdpStyleActor}

# The trainer itself dumps legacy torch_memory snapshots every step (verl <= 0.7.x), which needs
# dump_memory_snapshot on the actor workers.
TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT = "dump_memory_snapshot" in inspect.getsource(RayPPOTrainer.fit)


def verl_actor_workers() -> dict[str, bool]:
    """verl's own ``ActorRolloutRefWorker`` classes, by module (``fsdp_workers``, ``megatron_workers``,
    ``engine_workers``, where the release has them), and whether each registers the legacy
    ``dump_memory_snapshot``. Read from the installed source: ``megatron_workers`` imports Megatron,
    which a CPU environment does not have."""
    import ast
    import importlib.util

    found = {}
    for name in ("fsdp_workers", "megatron_workers", "engine_workers"):
        spec = importlib.util.find_spec(f"verl.workers.{name}")
        if spec is None or spec.origin is None:
            continue
        tree = ast.parse(Path(spec.origin).read_text())
        worker = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ActorRolloutRefWorker"), None)
        if worker is None:
            continue
        method = next((n for n in worker.body if getattr(n, "name", None) == "dump_memory_snapshot"), None)
        found[name] = method is not None and any("register" in ast.unparse(d) for d in method.decorator_list)
    return found


# The actor stand-in shaped like verl's own workers for a baseline run: "engine" (no legacy method)
# where one of verl's actor workers lacks it, else "fsdp" (0.6.1: both its FSDP and its Megatron
# workers register it, so the legacy key dumps one step late instead of crashing).
BASELINE_ACTOR = "fsdp" if all(verl_actor_workers().values()) else "engine"


# ----------------------------------------------------------------------------------- inputs
CHAT_TEMPLATE = (
    "{% for message in messages %}{{ message['role'] }} : {{ message['content'] }} {% endfor %}"
    "{% if add_generation_prompt %}assistant :{% endif %}"
)


def tiny_model_dir(path) -> Path:
    """Write an offline model folder (tokenizer + ``config.json``, no weights) and return it.

    verl loads tokenizer and config from ``actor_rollout_ref.model.path`` in the trainer, the reward
    workers and the critic config, so it must be a real folder. ``architectures`` is required
    (``HFModelConfig`` asserts exactly one). The tokenizer has no decoder on purpose: decoding then
    joins tokens with spaces, which keeps ``#### 42`` intact for verl's gsm8k scorer.
    """
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, PreTrainedTokenizerFast

    path = Path(path)
    if (path / "config.json").exists():
        return path
    vocab = {word: i for i, word in enumerate(standins.TinyGSM8K.VOCAB)}
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend, unk_token="<unk>", pad_token="<pad>", bos_token="<s>", eos_token="</s>"
    )
    tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.save_pretrained(path)
    LlamaConfig(
        vocab_size=len(vocab),
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=64,
        pad_token_id=0,
        bos_token_id=2,
        eos_token_id=3,
        architectures=["LlamaForCausalLM"],
    ).save_pretrained(path)
    return path


def stub_router_config(workdir) -> Path:
    """The router plugin YAML that puts ``router_standin.StubRouter`` in front of the (absent)
    rollout servers, in place of verl's ``GlobalRequestLoadBalancer`` actor (see that module)."""
    path = Path(workdir) / "router.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("router_class: router_standin.StubRouter\n")
    return path


CONFIG_DIR = Path(verl.__file__).parent / "trainer" / "config"


@functools.cache
def _release_defaults() -> DictConfig:
    """The installed release's ``ppo_trainer.yaml`` as verl ships it (composed once per process)."""
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base=None):
        return compose(config_name="ppo_trainer")


def _in_release(override: str) -> bool:
    """Whether the release's config has the key ``override`` sets ('+' overrides add keys: always)."""
    key = override.split("=", 1)[0]
    if key.startswith("+"):
        return True
    parent, _, leaf = key.rpartition(".")
    node = OmegaConf.select(_release_defaults(), parent) if parent else _release_defaults()
    # Not `leaf in node`: a DictConfig says False there for a '???' (missing) value; its keys() has it.
    return isinstance(node, DictConfig) and leaf in node.keys()  # noqa: SIM118


ENGINE_MICRO_BATCHES = ("use_dynamic_bsz=false", "micro_batch_size_per_gpu=1", "infer_micro_batch_size_per_gpu=1")


def compose_config(overrides=(), workdir=None, default_trainer=False) -> DictConfig:
    """Compose the installed release's real ``ppo_trainer.yaml`` with CPU overrides, then ``overrides``.

    The defaults stay verl's (GAE with a critic, validation before training, balance_batch, ...);
    the CPU overrides make the run small: 2 actor ranks (so per-rank behaviour is visible),
    3 steps of 2 samples, checkpoints and validation at steps 2 and 3, one reward worker (verl
    starts 8, each a ~7 s import), the stand-in dataset, agent loop manager, rollout name and
    rollout router (0.9+: no verl import in its actor).
    A CPU override whose key the release does not have is left out (0.6.x has no ``reward`` group:
    its trainer scores in-process). ``overrides`` come last, so they win.

    From 0.9 ``main_ppo`` runs a v1 trainer unless ``trainer.use_v1=false``; the config selects
    ``RayPPOTrainer`` unless ``default_trainer`` keeps verl's default.
    """
    workdir = Path(workdir or tempfile.mkdtemp(prefix="verl-fit-")).resolve()
    model = tiny_model_dir(workdir / "model")
    router = stub_router_config(workdir)
    cpu = [
        f"actor_rollout_ref.model.path={model}",
        f"critic.model.path={model}",
        f"actor_rollout_ref.rollout.name={standins.ROLLOUT_NAME}",
        # '+': the key exists in verl's dataclass, but not in the yaml
        "+actor_rollout_ref.rollout.agent.agent_loop_manager_class=standins.StubAgentLoopManager",
        "data.custom_cls.path=pkg://standins",
        # Up to 0.6.x the trainer generates through the actor workers (rollout.mode=sync) from
        # prompts the dataset has tokenized; later the agent loop tokenizes.
        f"data.custom_cls.name={'TinyGSM8KTokenized' if _sync_rollout() else 'TinyGSM8K'}",
        "data.train_batch_size=2",
        "data.dataloader_num_workers=0",
        "data.max_prompt_length=32",
        "data.max_response_length=16",
        "actor_rollout_ref.actor.ppo_mini_batch_size=2",
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1",
        "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1",
        "critic.ppo_mini_batch_size=2",
        "critic.ppo_micro_batch_size_per_gpu=1",  # the critic config raises without a micro batch size
        "reward.num_workers=1",
        f"actor_rollout_ref.rollout.router_config_path={router}",  # 0.9+: router_standin
        "trainer.logger=[console]",
        "trainer.device=cpu",
        "trainer.nnodes=1",
        "trainer.n_gpus_per_node=2",
        "trainer.total_training_steps=3",
        "trainer.save_freq=2",
        "trainer.test_freq=2",
        f"trainer.default_local_dir={workdir / 'ckpt'}",
        f"global_profiler.save_path={workdir / 'prof'}",
    ]
    if OmegaConf.select(_release_defaults(), "critic.fsdp") is not None:
        # 0.8.0+ builds the critic's worker from critic.fsdp (dynamic batching by default) and reads
        # critic.ppo_micro_batch_size_per_gpu nowhere: the same micro-batches, where it reads them.
        cpu += [f"+critic.fsdp.{key}" for key in ENGINE_MICRO_BATCHES]
    cpu = [override for override in cpu if _in_release(override)]
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base=None):
        config = compose(config_name="ppo_trainer", overrides=cpu + list(overrides))
    if "use_v1" in config.trainer and not default_trainer:
        config.trainer.use_v1 = False
    return config


def launcher_ray_init(argv, support: Path, num_cpus: int) -> list:
    """A launcher script's ``ray_kwargs.ray_init`` overrides: the workers import from ``support``
    (a user-set ``PYTHONPATH`` that propagation must keep), and Ray joins the cluster at
    ``--address HOST:PORT`` in ``argv`` or starts locally with ``num_cpus`` and no dashboard."""
    ray_init = [f"+ray_kwargs.ray_init.runtime_env.env_vars.PYTHONPATH={support}"]
    if "--address" in argv:
        ray_init.append(f"+ray_kwargs.ray_init.address={argv[argv.index('--address') + 1]}")
    else:
        ray_init += [f"ray_kwargs.ray_init.num_cpus={num_cpus}", "+ray_kwargs.ray_init.include_dashboard=False"]
    return ray_init


def _sync_rollout() -> bool:
    return OmegaConf.select(_release_defaults(), "actor_rollout_ref.rollout.mode") == "sync"


# ----------------------------------------------------------------------------------- Ray session
_call_spool: Path | None = None  # where the stand-ins of the running fit write their call logs


def ray_session() -> None:
    """Start the process's one local Ray cluster (idempotent); it is shut down at exit.

    ``num_cpus=8`` on 2 cores: Ray's counts are logical. A run holds 2 worker bundles (+ the
    TaskRunner under ``run_ppo``; + the TransferQueue controller and storage unit for the
    TransferQueue trainers), and an actor without ``num_cpus`` (reward and agent loop workers) still
    needs one free CPU to be placed: short of it, the run waits forever, silently. Workers get this
    folder on ``PYTHONPATH`` (they import ``standins``), the call-log spool, and the
    ``VERL_COMPAT_*`` switches of this process.
    """
    global _call_spool
    if _call_spool is not None:
        return
    if ray.is_initialized():
        raise RuntimeError("Ray was started elsewhere; the harness needs its own runtime_env")
    spool = Path(tempfile.mkdtemp(prefix="verl-compat-calls-"))
    env = {key: value for key, value in os.environ.items() if key.startswith("VERL_COMPAT_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SUPPORT_DIR), os.environ.get("PYTHONPATH")]))
    env[standins.CALL_LOG_ENV] = str(spool)
    os.environ[standins.CALL_LOG_ENV] = str(spool)  # stand-ins living in this process log too

    def start() -> None:
        try:
            ray.init(num_cpus=8, include_dashboard=False, runtime_env={"env_vars": env})
        except Exception:
            ray.shutdown()  # what the failed start left (its GCS, its session), before a retry
            raise

    # atexit runs last-registered first: Ray is shut down, then the spool goes (one folder a process).
    atexit.register(shutil.rmtree, spool, ignore_errors=True)
    pyrun.ray_start(start, "the harness's Ray cluster (ray.init)")
    atexit.register(ray.shutdown)
    _call_spool = spool


def _live_actors() -> dict[str, dict]:
    return {aid: info for aid, info in ray._private.state.actors().items() if info["State"] != "DEAD"}


def _live_placement_groups() -> set[str]:
    return {pg for pg, info in ray.util.placement_group_table().items() if info["state"] != "REMOVED"}


def _reap(actors_before, pgs_before, timeout_s=180.0) -> None:
    """Kill every actor and remove every placement group created since the snapshot, and wait.

    Ray has no public kill-by-id. Actors the driver owns are killed through its core worker; those
    created inside other actors (the TaskRunner's children) die with their owner.
    """
    from ray.exceptions import ActorHandleNotFoundError
    from ray.util.placement_group import PlacementGroup

    core_worker = ray._private.worker.global_worker.core_worker
    new_actors = set(_live_actors()) - set(actors_before)
    for actor_id in new_actors:
        with contextlib.suppress(ActorHandleNotFoundError):
            core_worker.kill_actor(ray.ActorID(bytes.fromhex(actor_id)), True)
    for pg_id in _live_placement_groups() - pgs_before:
        ray.util.remove_placement_group(PlacementGroup(ray.PlacementGroupID(bytes.fromhex(pg_id))))
    deadline = time.monotonic() + timeout_s
    while left := (new_actors & set(_live_actors())) | (_live_placement_groups() - pgs_before):
        if time.monotonic() > deadline:
            raise RuntimeError(f"actors/placement groups of the last run are still alive: {sorted(left)}")
        time.sleep(0.2)


# ----------------------------------------------------------------------------------- runs
@dataclass
class FitResult:
    """What one fit left behind. Its Ray actors are gone; the Python objects remain for inspection."""

    config: DictConfig  # the config the run got (resolved by run_fit; run_ppo_fit resolves in the actor)
    trainer: Any = None  # the RayPPOTrainer (None when it ran inside verl's TaskRunner actor)
    error: BaseException | None = None  # raised by init_workers()/fit()/run_ppo(), not swallowed
    wall_s: float = 0.0
    fit_s: float = 0.0  # fit() alone (run_fit only): what per-step overhead comparisons divide
    calls: dict[str, list[list[dict]]] = field(default_factory=dict)  # log name -> per-rank call lists

    @property
    def actor_calls(self) -> list[list[dict]]:
        return self.calls.get("actor", [])

    @property
    def critic_calls(self) -> list[list[dict]]:
        return self.calls.get("critic", [])

    def raise_error(self) -> None:
        if self.error is not None:
            raise self.error

    @property
    def profile_dir(self) -> Path | None:
        save_path = OmegaConf.select(self.config, "actor_rollout_ref.actor.profiler.save_path")
        return Path(save_path) if save_path else None

    def profile_tree(self) -> dict[str, list[str]]:
        """``{sub folder: sorted file names}`` under the actor profiler's ``save_path``."""
        root = self.profile_dir
        if root is None or not root.is_dir():
            return {}
        return {d.name: sorted(f.name for f in d.iterdir()) for d in sorted(root.iterdir()) if d.is_dir()}


def _as_main_passes_it(config: DictConfig) -> DictConfig:
    """A copy of ``config`` as verl's ``main()`` hands it on: with the legacy reward migration where
    the release's main() applies it (0.7.x). Still unresolved, like the config ``run_ppo`` receives."""
    config = copy.deepcopy(config)
    # main_ppo's own binding: verl-compat's old_imports serves the moved name on 0.9 too.
    if "migrate_legacy_reward_impl" in vars(main_ppo):
        config = main_ppo.migrate_legacy_reward_impl(config)
    return config


def _read_calls(folder: Path) -> dict[str, list[list[dict]]]:
    calls: dict[str, dict[int, list[dict]]] = {}
    for path in folder.glob("*-rank*.jsonl"):
        name, rank = path.stem.rsplit("-rank", 1)
        calls.setdefault(name, {})[int(rank)] = [json.loads(line) for line in path.read_text().splitlines()]
    return {name: [ranks[r] for r in sorted(ranks)] for name, ranks in calls.items()}


FIT_TIMEOUT_S = 480  # a 3-step fit takes 20-60 s on 2 cores; past this it is stuck, not slow


class FitTimeout(TimeoutError):
    """A fit ran past ``FIT_TIMEOUT_S``: some wait inside verl (a Ray get on a worker) never ended."""


@contextlib.contextmanager
def _deadline(seconds: int, what: str):
    """Raise ``FitTimeout`` in this (main) thread after ``seconds``, wherever it is waiting: Ray's
    blocking gets check for signals about once a second, so the alarm's exception ends them."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals reach the main thread only; the caller's own bound applies
        return

    def expired(signum, frame):
        raise FitTimeout(f"{what} did not finish in {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def _fit_run(config: DictConfig):
    """Time a run (bounded by ``FIT_TIMEOUT_S``), keep its exception, then reap its actors and copy
    its call logs to ``<workdir>/calls``."""
    ray_session()
    for stale in _call_spool.iterdir():
        stale.unlink()
    actors_before, pgs_before = _live_actors(), _live_placement_groups()
    result = FitResult(config=config)
    start = time.monotonic()
    try:
        with _deadline(FIT_TIMEOUT_S, f"the fit in {Path(config.trainer.default_local_dir).parent}"):
            yield result
    except Exception as error:
        result.error = error
    finally:
        result.wall_s = time.monotonic() - start
        _reap(actors_before, pgs_before)
        calls_dir = Path(config.trainer.default_local_dir).parent / "calls"
        shutil.rmtree(calls_dir, ignore_errors=True)
        shutil.copytree(_call_spool, calls_dir)
        result.calls = _read_calls(calls_dir)


class Built(Exception):
    """What :func:`build_only` raises: the trainer verl built (its ``__init__`` ran, and each fix's
    config step with it); no worker was started."""

    def __init__(self, trainer):
        super().__init__("built")
        self.trainer = trainer


def build_only(*args, **kwargs):
    """A ``trainer_cls`` for :func:`run_fit` that builds verl's ``RayPPOTrainer`` and stops there."""
    raise Built(RayPPOTrainer(*args, **kwargs))


def run_fit(
    config: DictConfig, actor="engine", trainer_cls=None, reward_fns=None, reward_model_worker=None
) -> FitResult:
    """Build verl's ``RayPPOTrainer`` (or ``trainer_cls``, a class that takes its arguments) in this
    process and run ``init_workers()`` + ``fit()``.

    ``actor`` picks the actor stand-in: ``"engine"`` (no ``dump_memory_snapshot``, like verl's engine
    workers), ``"fsdp"`` (with it, like 0.7.1's FSDP workers), or a stand-in class. Datasets come from the config
    (``data.custom_cls``), as in ``run_ppo``; where the trainer scores in its own process (0.6.x:
    ``reward_fn``), with verl's reward manager for the config, as 0.6.x's ``TaskRunner`` builds it.
    ``reward_fns`` (``{"reward_fn": ..., "val_reward_fn": ...}``) are passed to the trainer instead,
    on any release: an old script's own reward callables.

    Where the config enables a reward model, ``Role.RewardModel`` gets a pool as verl's ``main_ppo``
    gives it (``reward_pool`` with ``enable_resource_pool``, else the global pool), and, on 0.6.x,
    which builds reward model workers itself, the worker class ``reward_model_worker``.
    """
    config = _as_main_passes_it(config)
    OmegaConf.resolve(config)  # what TaskRunner.run does before building the trainer
    validate_config(config, use_reference_policy=need_reference_policy(config), use_critic=need_critic(config))
    standins.register_cpu_rollout()
    actor_cls = ACTORS[actor] if isinstance(actor, str) else actor
    workers = {Role.ActorRollout: ray.remote(actor_cls), Role.Critic: ray.remote(standins.StubCriticWorker)}
    spec = {"global_pool": [config.trainer.n_gpus_per_node] * config.trainer.nnodes}
    mapping = dict.fromkeys(workers, "global_pool")
    reward_model = OmegaConf.select(config, "reward.reward_model") or OmegaConf.select(config, "reward_model")
    if reward_model is not None and reward_model.get("enable"):
        mapping[Role.RewardModel] = "global_pool"
        if reward_model.get("enable_resource_pool"):
            spec["reward_pool"] = [reward_model.n_gpus_per_node] * reward_model.nnodes
            mapping[Role.RewardModel] = "reward_pool"
        if reward_model_worker is not None:
            workers[Role.RewardModel] = ray.remote(reward_model_worker)
    pools = standins.CPUResourcePoolManager(resource_pool_spec=spec, mapping=mapping)
    tokenizer = hf_tokenizer(config.actor_rollout_ref.model.path)
    reward = dict(reward_fns or {})
    if not reward and "reward_fn" in inspect.signature(RayPPOTrainer.__init__).parameters:
        from verl.trainer.ppo.reward import load_reward_manager

        reward = {
            "reward_fn": load_reward_manager(config, tokenizer, num_examine=0),
            "val_reward_fn": load_reward_manager(config, tokenizer, num_examine=1),
        }
    with _fit_run(config) as result:
        result.trainer = (trainer_cls or RayPPOTrainer)(
            config=config,
            tokenizer=tokenizer,
            role_worker_mapping=workers,
            resource_pool_manager=pools,
            **reward,
        )
        result.trainer.init_workers()
        start = time.monotonic()
        result.trainer.fit()
        result.fit_s = time.monotonic() - start
    return result


def run_ppo_fit(config: DictConfig) -> FitResult:
    """Run through verl's own ``main_ppo.run_ppo`` with ``CPUTaskRunner``: the trainer is built and
    fit inside verl's TaskRunner Ray actor, as in production. The actor stand-in mirrors the worker
    class verl itself picks for the config (see ``cpu_task_runner``)."""
    from cpu_task_runner import CPUTaskRunner

    config = _as_main_passes_it(config)
    with _fit_run(config) as result:
        main_ppo.run_ppo(config, task_runner_class=ray.remote(num_cpus=1)(CPUTaskRunner))
    return result
