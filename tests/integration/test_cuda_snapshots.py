"""GPU check: a legacy config on a real CUDA model writes real, loadable memory snapshots per step.

Marked ``gpu`` and skipped without CUDA: CI has no GPU. Run it on a machine with one:
``scripts/test.sh -m gpu`` (or ``VERL_COMPAT_TEST_RELEASES=0.9.1 scripts/test.sh -m gpu``).
"""

import os
import pickle

import pytest
import torch

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device"),
]


def test_legacy_key_writes_real_snapshots_per_step(shim, tmp_path):
    import harness
    from cuda_standins import CudaActor

    harness.ACTORS["cuda"] = CudaActor
    config = harness.compose_config(
        ["actor_rollout_ref.actor.profiler.tool=torch_memory", "trainer.n_gpus_per_node=1"], tmp_path
    )
    result = harness.run_fit(config, actor="cuda")

    result.raise_error()
    tree = result.profile_tree()
    assert sorted(tree) == ["step1", "step2", "step3"]
    for step, files in tree.items():
        [name] = files  # one rank, one dump, no legacy post_update_step file
        assert name.startswith("torch_memory_rank0_pid") and name.endswith(".pickle")
        with open(os.path.join(result.profile_dir, step, name), "rb") as f:
            snapshot = pickle.load(f)  # the format torch.cuda.memory._dump_snapshot writes
        assert snapshot["segments"], f"{step}: no CUDA segments"
        assert any(trace for trace in snapshot["device_traces"]), f"{step}: no allocation history"
