"""GPU check of the ``oom_snapshot`` fix: a real CUDA out-of-memory inside the actor's update, with
the legacy key, leaves verl 0.9.1's OOM snapshot on every profiled rank, on every release (written
by verl-compat where verl's torch_memory has no observer, by verl itself from 0.9.1).

``verl-compat view`` shows it first, with the request the allocator refused.

Marked ``gpu`` and skipped without CUDA: CI has no GPU. ``scripts/gpu_check.sh`` runs it.
"""

import pickle
import re

import pytest
import torch
from pyrun import run_argv

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device"),
]

OOM_FILE = re.compile(r"^torch_memory_oom_rank(\d+)_pid\d+\.pickle$")


def test_cuda_oom_leaves_one_loadable_snapshot_per_profiled_rank(shim, tmp_path):
    import harness
    from cuda_standins import CudaOomActor

    harness.ACTORS["cuda-oom"] = CudaOomActor
    config = harness.compose_config(
        ["actor_rollout_ref.actor.profiler.tool=torch_memory", "trainer.n_gpus_per_node=1"], tmp_path
    )
    result = harness.run_fit(config, actor="cuda-oom")

    # torch's own error reaches the trainer, unchanged (Ray re-raises it as an instance of its type).
    assert isinstance(result.error, torch.OutOfMemoryError), repr(result.error)
    assert "CUDA out of memory" in str(result.error)

    oom_dirs = sorted(result.profile_dir.glob("oom_*"))
    assert len(oom_dirs) == 1, [d.name for d in oom_dirs]  # one profiled rank, one OOM
    [snapshot_file] = oom_dirs[0].iterdir()
    assert OOM_FILE.match(snapshot_file.name).group(1) == "0", snapshot_file.name
    with open(snapshot_file, "rb") as f:
        snapshot = pickle.load(f)  # what torch.cuda.memory._dump_snapshot writes
    assert snapshot["segments"], "no CUDA segments"
    actions = [entry["action"] for trace in snapshot["device_traces"] for entry in trace]
    assert "oom" in actions, f"the device trace does not record the OOM: {sorted(set(actions))}"
    text = run_argv(["-m", "verl_compat", "view", str(result.profile_dir), "--text"]).stdout
    assert "OUT OF MEMORY (1)" in text and "rank 0 (pid " in text and "asked for " in text, text
