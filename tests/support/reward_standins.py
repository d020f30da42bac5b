"""Stand-ins for the reward side of the old-reward oracle (``old_reward_oracle``): a dataset with the
columns old verl kept, a reward model on each release, and an agent loop that hands the reward loop
what verl's own does. GPU-free; the score is the same pure function of the response on every release.

* ``TinyGSM8KColumns`` (``…Tokenized`` for 0.6.x): ``TinyGSM8K`` with ``ability`` (verl's gsm8k
  preprocessing writes ``math``) and a custom column, ``level``.
* ``rm_score(text)``: the reward model, a function of the response text (its last number).
* 0.6.x: ``StubRewardModelWorker``, a verl ``Worker`` for ``Role.RewardModel`` whose
  ``compute_rm_score`` returns token-level ``rm_scores`` as verl's RM worker did (the score at the
  last valid response token), dispatched by verl's ``RayWorkerGroup``.
* 0.9.x: verl's ``RewardModelManager`` launches rollout replicas and its own router, and verl's
  ``RewardLoopWorker.compute_score_disrm`` posts to ``http://{router}/classify`` (engine ``vllm``).
  Only the GPU server is stood in for: ``ClassifyReplica`` (registered as ``vllm`` in verl's replica
  registry, in the trainer's process) starts a ``ClassifyServer`` Ray actor answering ``/classify``
  as vLLM does (``{"data": [{"probs": [..., score]}]}``) on 127.0.0.1, which stops itself.
* ``RewardLoopAgentLoopManager``: the harness's stand-in agent loop, scoring as verl's
  ``AgentLoopWorker`` does: each sample sent to a reward loop worker's ``compute_score`` with every
  column of its row, and, without reward loop workers (a colocated reward model), no score and the
  input's columns handed back.

Importable in Ray worker processes (the harness puts this folder on their ``PYTHONPATH``).
"""

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import ray
import standins
import torch
from verl import DataProto
from verl.single_controller.base import Worker
from verl.single_controller.base.decorator import Dispatch, make_nd_compute_dataproto_dispatch_fn, register
from verl.utils import hf_tokenizer

SERVER_LIFETIME_S = 600  # a ClassifyServer stops itself after this, whether or not the fit reaped it


# ----------------------------------------------------------------------------------- data
class TinyGSM8KColumns(standins.TinyGSM8K):
    """``TinyGSM8K`` with the columns verl's own preprocessed parquet files carry beside the reward
    keys (``ability``) and a column of the user's own (``level``)."""

    def __getitem__(self, i):
        return {**super().__getitem__(i), "ability": "math", "level": i % 3}


class TinyGSM8KColumnsTokenized(standins.TinyGSM8KTokenized):
    """``TinyGSM8KColumns`` as 0.6.x's ``RLHFDataset`` yields it (see ``TinyGSM8KTokenized``)."""

    def __getitem__(self, i):
        return {**super().__getitem__(i), "ability": "math", "level": i % 3}


# ----------------------------------------------------------------------------------- the reward model
def rm_score(response_text: str) -> float:
    """The reward model: ``(N % 8 + 1) / 8`` for the last number ``N`` of the response, else 0.
    Exact in float32, and never 0 for a stand-in answer (unlike a placeholder)."""
    numbers = re.findall(r"\d+", response_text)
    return (int(numbers[-1]) % 8 + 1) / 8 if numbers else 0.0


class StubRewardModelWorker(Worker):
    """verl 0.6.x's reward model worker (``Role.RewardModel``, built with ``config.reward_model``),
    without the model: ``compute_rm_score`` decodes each valid response and puts ``rm_score`` at its
    last valid token, as ``RewardModelWorker._expand_to_token_level`` did."""

    def __init__(self, config):
        Worker.__init__(self)
        self.config = config
        self._register_dispatch_collect_info("reward", dp_rank=self.rank, is_collect=True)

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    def init_model(self):
        self.tokenizer = hf_tokenizer(self.config.model.input_tokenizer)

    @register(dispatch_mode=make_nd_compute_dataproto_dispatch_fn(mesh_name="reward"))
    def compute_rm_score(self, data: DataProto) -> DataProto:
        responses = data.batch["responses"]
        valid = data.batch["attention_mask"][:, -responses.shape[-1] :].sum(-1)
        scores = torch.zeros(responses.shape, dtype=torch.float32)
        for i, length in enumerate(valid.tolist()):
            text = self.tokenizer.decode(responses[i, :length], skip_special_tokens=True)
            scores[i, length - 1] = rm_score(text)
        return DataProto.from_dict(tensors={"rm_scores": scores})


def _response_of(chat_text: str) -> str:
    """The assistant's turn of the reward model's input (the harness's chat template:
    ``role : content`` per message)."""
    return chat_text.rsplit("assistant :", 1)[-1]


@ray.remote(num_cpus=0)
class ClassifyServer:
    """vLLM's ``/classify`` for a one-label sequence classifier, on 127.0.0.1: ``{"input": text}`` ->
    ``{"data": [{"probs": [rm_score(response)]}]}``. It stops serving after ``lifetime_s``."""

    def __init__(self, lifetime_s: float = SERVER_LIFETIME_S):
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                body = json.dumps({"data": [{"probs": [rm_score(_response_of(request["input"]))]}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.stopper = threading.Timer(lifetime_s, self.httpd.shutdown)
        self.stopper.daemon = True
        self.stopper.start()

    def address(self) -> str:
        return f"127.0.0.1:{self.httpd.server_address[1]}"

    def wake_up(self):
        pass

    def sleep(self):
        pass


def register_classify_replica() -> None:
    """Make ``reward.reward_model.rollout.name=vllm`` resolve to ``ClassifyReplica`` in this process
    (the trainer's, where verl's ``RewardModelManager`` runs). Idempotent."""
    from verl.workers.rollout.replica import RolloutReplicaRegistry

    RolloutReplicaRegistry.register("vllm", _classify_replica_class)


def _classify_replica_class():
    from verl.workers.rollout.replica import RolloutMode, RolloutReplica

    class ClassifyReplica(RolloutReplica):
        """A reward model replica whose server is a ``ClassifyServer``: no GPU workers, in either
        layout (verl hands it the reward pool, or the global pool when colocated)."""

        async def init_colocated(self, resource_pool):
            self.rollout_mode, self.resource_pool = RolloutMode.COLOCATED, resource_pool
            await self.launch_servers()

        async def init_standalone(self):
            self.rollout_mode = RolloutMode.STANDALONE
            await self.launch_servers()

        async def launch_servers(self):
            server = ClassifyServer.remote()
            self.servers, self._server_handle = [server], server
            self._server_address = await server.address.remote()

    return ClassifyReplica


# ----------------------------------------------------------------------------------- agent loop
class RewardLoopAgentLoopManager(standins.StubAgentLoopManager):
    """The stand-in agent loop, scoring as verl 0.9's ``AgentLoopWorker`` does (``_compute_score``,
    ``_postprocess``): one ``compute_score`` call per sample, with every column of its row; without
    reward loop workers (a colocated reward model) nothing is scored and the input's columns come
    back on the output."""

    def __init__(self, config, reward_loop_worker_handles):
        self.config = config
        self.reward_workers = reward_loop_worker_handles
        self.tokenizer = hf_tokenizer(config.actor_rollout_ref.model.path)
        self.rollout_replicas = []

    def generate_sequences(self, prompts: DataProto) -> DataProto:
        tensors = self.rollout_tensors(prompts)
        columns = prompts.non_tensor_batch
        non_tensors = {
            "__num_turns__": np.full(len(prompts), 2, dtype=np.int32),
            # fit() iterates this unconditionally; the real agent loop sets it for multimodal data only.
            "multi_modal_inputs": np.array([{} for _ in range(len(prompts))], dtype=object),
        }
        meta_info = {"timing": {}}
        if self.reward_workers:
            workers = self.reward_workers
            calls = [
                workers[i % len(workers)].compute_score.remote(self._sample(tensors, columns, i))
                for i in range(len(prompts))
            ]
            results = ray.get(calls, timeout=standins.RAY_GET_TIMEOUT_S)
            mask = tensors["response_mask"]
            rm_scores = torch.zeros(mask.shape, dtype=torch.float32)
            rm_scores[torch.arange(len(results)), mask.sum(dim=1) - 1] = torch.tensor(
                [r["reward_score"] for r in results], dtype=torch.float32
            )
            tensors["rm_scores"] = rm_scores
            extra_keys = list(results[0].get("reward_extra_info", {}))
            non_tensors.update({key: np.array([r["reward_extra_info"][key] for r in results]) for key in extra_keys})
            meta_info["reward_extra_keys"] = extra_keys
        else:
            non_tensors.update(columns)
        return DataProto.from_dict(tensors=tensors, non_tensors=non_tensors, meta_info=meta_info)

    @staticmethod
    def _sample(tensors: dict, columns: dict, i: int) -> DataProto:
        """Sample ``i`` as ``AgentLoopWorker._compute_score`` sends it: unpadded, with its row's columns."""
        prompt_length = tensors["prompts"].shape[1]
        prompt = tensors["prompts"][i][tensors["attention_mask"][i, :prompt_length].bool()]
        response = tensors["responses"][i][tensors["response_mask"][i].bool()]
        input_ids = torch.cat([prompt, response]).unsqueeze(0)
        sample = {
            "prompts": prompt.unsqueeze(0),
            "responses": response.unsqueeze(0),
            "input_ids": input_ids,
            "attention_mask": torch.ones_like(input_ids),
            "position_ids": torch.arange(input_ids.shape[1]).unsqueeze(0),
        }
        non_tensors = {key: _one_row(values[i]) for key, values in columns.items()}
        non_tensors["__num_turns__"] = np.array([2])
        return DataProto.from_dict(tensors=sample, non_tensors=non_tensors)


def _one_row(value) -> np.ndarray:
    """A one-row column as verl's agent loop builds it (``np.array([v] * n)``)."""
    return np.array([value])
