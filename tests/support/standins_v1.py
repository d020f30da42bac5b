"""Stand-ins for verl's TransferQueue trainers: the v1 ``PPOTrainer`` family (0.9.x, the default of
``main_ppo``) and 0.8.0's ``main_ppo_sync.PPOTrainer``.

These trainers generate through verl's real agent loop (``AgentLoopManagerTQ`` and its
``AgentLoopWorkerTQ`` actors, ``SingleTurnAgentLoop``, ``LLMServerClient`` and the load balancer),
score with the real ``RewardLoopWorker`` and move every batch through a real TransferQueue. Only
what needs a GPU is replaced, on top of ``standins``:

* ``StubLLMServer``: the inference server (vLLM/SGLang) behind a rollout replica. Token in, token
  out: it decodes the prompt ``what is A plus B ?`` and answers ``the answer is #### A+B`` (off by
  one for even A), with zero log-probs when asked (``rollout.calculate_log_probs`` defaults on).
* ``StubServerReplica``: registered as ``rollout.name=cpu_stub_server``; launches one server.
* ``ServerActor``: ``standins.EngineStyleActor`` whose ``update_weights`` tells the server the
  weights' step, as the hybrid engine's in-process rollout does (the agent loop tags each sample
  with it).

The v1 trainer builds its workers itself from module globals of ``verl.trainer.ppo.v1.trainer_base``
(``ActorRolloutRefWorker``, ``TrainingWorker``, ``ResourcePoolManager``), so
:func:`apply_v1_cpu_patches` rebinds those in the process that builds the trainer; the trainer
classes themselves are untouched. 0.8.0's trainer takes its workers as arguments, like
``RayPPOTrainer``.
"""

import re

import ray
import standins

SERVER_ROLLOUT_NAME = "cpu_stub_server"


def _server_name(replica_rank: int) -> str:
    return f"{SERVER_ROLLOUT_NAME}_{replica_rank}"


@ray.remote(num_cpus=0)
class StubLLMServer:
    """One rollout replica's inference server, speaking the token-in/token-out ``generate`` of
    verl's servers, and no-ops for their lifecycle calls (sleep, wake_up, abort, profile, ...)."""

    def __init__(self, model_path: str):
        from verl.utils import hf_tokenizer

        self.tokenizer = hf_tokenizer(model_path)
        self.global_steps = None

    def set_global_steps(self, global_steps):
        self.global_steps = global_steps

    async def generate(self, request_id, prompt_ids, sampling_params, image_data=None, video_data=None, **kwargs):
        from verl.workers.rollout.replica import TokenOutput

        text = self.tokenizer.decode(prompt_ids)
        a, b = map(int, re.search(r"what is (\d+) plus (\d+)", text).groups())
        answer = a + b + (a % 2 == 0)
        token_ids = self.tokenizer.encode(f"the answer is #### {answer}", add_special_tokens=False)
        token_ids.append(self.tokenizer.eos_token_id)
        log_probs = [0.0] * len(token_ids) if sampling_params.get("logprobs") else None
        return TokenOutput(
            token_ids=token_ids,
            log_probs=log_probs,
            stop_reason="completed",
            extra_fields={"global_steps": self.global_steps},
        )

    def _noop(self, *args, **kwargs):
        return None

    wake_up = sleep = abort_all_requests = resume_generation = _noop
    clear_kv_cache = release_kv_cache = resume_kv_cache = start_profile = stop_profile = _noop


def _stub_server_replica_class():
    from verl.workers.rollout.replica import RolloutReplica

    class StubServerReplica(RolloutReplica):
        async def launch_servers(self):
            model_path = self.model_config.path
            server = StubLLMServer.options(name=_server_name(self.replica_rank)).remote(model_path)
            self.servers = [server]
            self._server_handle = server
            self._server_address = _server_name(self.replica_rank)

    return StubServerReplica


def register_stub_server_rollout() -> None:
    """Make ``rollout.name=cpu_stub_server`` resolve to a ``StubServerReplica``; call it in the
    trainer's process (only the trainer's ``LLMServerManager`` resolves the name). Idempotent."""
    from verl.workers.rollout.replica import RolloutReplicaRegistry

    RolloutReplicaRegistry.register(SERVER_ROLLOUT_NAME, _stub_server_replica_class)


class ServerActor(standins.EngineStyleActor):
    """The actor stand-in of the TransferQueue trainers: ``update_weights(global_steps=N)`` also
    reaches the replica's server, as verl's hybrid worker updates its in-process rollout."""

    @standins.register(dispatch_mode=standins.Dispatch.ONE_TO_ALL, blocking=False)
    @standins._logged
    def update_weights(self, global_steps=None, **kwargs):
        if global_steps is not None:
            server = ray.get_actor(_server_name(0))
            ray.get(server.set_global_steps.remote(global_steps), timeout=standins.RAY_GET_TIMEOUT_S)
        return True


def apply_v1_cpu_patches() -> None:
    """Rebind the worker classes and the pool manager the v1 trainer builds from its module globals,
    and register the stub rollout. In the process that builds the trainer; idempotent."""
    from verl.trainer.ppo.v1 import trainer_base

    trainer_base.ActorRolloutRefWorker = ServerActor
    trainer_base.TrainingWorker = standins.StubCriticWorker
    trainer_base.ResourcePoolManager = standins.CPUResourcePoolManager
    register_stub_server_rollout()
