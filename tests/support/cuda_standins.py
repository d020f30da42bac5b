"""An actor stand-in that does real CUDA work, for the GPU snapshot check (``pytest -m gpu``).

Like ``standins.EngineStyleActor`` (no legacy ``dump_memory_snapshot``), but ``update_actor`` runs
a forward and backward pass of a tiny real Llama on the GPU, so verl's TorchMemoryProfiler records
real allocation history and its snapshots hold it.
"""

import standins
import torch
from transformers import AutoConfig, AutoModelForCausalLM
from verl.single_controller.base.decorator import make_nd_compute_dataproto_dispatch_fn, register


class CudaActor(standins.EngineStyleActor):
    @register(dispatch_mode=make_nd_compute_dataproto_dispatch_fn(mesh_name="actor"))
    def update_actor(self, data):
        self.log_call("update_actor", {"device": "cuda"})
        model = getattr(self, "_model", None)
        if model is None:
            config = AutoConfig.from_pretrained(self.config.model.path)
            model = self._model = AutoModelForCausalLM.from_config(config).to("cuda")
        input_ids = torch.randint(0, model.config.vocab_size, (4, 32), device="cuda")
        model(input_ids=input_ids, labels=input_ids).loss.backward()
        torch.cuda.synchronize()
        return standins._metrics(data, pg_loss=0.0)


class CudaOomActor(standins.EngineStyleActor):
    """Runs out of CUDA memory in its update: real allocations until the caching allocator raises
    ``torch.OutOfMemoryError`` (capped by a per-process memory fraction so it comes quickly and
    leaves the rest of the device alone). The error is not caught: the trainer gets torch's own."""

    MEMORY_FRACTION = 0.05
    CHUNK = 256 * 1024**2

    @register(dispatch_mode=make_nd_compute_dataproto_dispatch_fn(mesh_name="actor"))
    def update_actor(self, data):
        self.log_call("update_actor", {"device": "cuda", "until": "OutOfMemoryError"})
        torch.cuda.set_per_process_memory_fraction(self.MEMORY_FRACTION)
        held = []
        while True:  # ends in torch.OutOfMemoryError: the fraction caps what the allocator may take
            held.append(torch.empty(self.CHUNK, dtype=torch.uint8, device="cuda"))
