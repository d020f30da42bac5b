"""GPU check: a legacy config on a real CUDA model writes real, loadable memory snapshots per rank
per step, under verl's current names only.

Marked ``gpu`` and skipped without CUDA: CI has no GPU. ``scripts/gpu_check.sh`` builds a CUDA-torch
environment and runs it (or, on a machine that has one: ``scripts/test.sh -m gpu``).
"""

import pickle
import re

import pytest
import torch

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device"),
]

SNAPSHOT = re.compile(r"^torch_memory_rank(\d+)_pid\d+\.pickle$")


def test_legacy_key_writes_real_snapshots_per_rank_per_step(shim, tmp_path):
    import harness
    from cuda_standins import CudaActor

    harness.ACTORS["cuda"] = CudaActor
    # Two actor ranks (compose_config's default), both on the one device a check machine has.
    config = harness.compose_config(["actor_rollout_ref.actor.profiler.tool=torch_memory"], tmp_path)
    result = harness.run_fit(config, actor="cuda")

    result.raise_error()
    every_file = sorted(p.relative_to(result.profile_dir).as_posix() for p in result.profile_dir.rglob("*.pickle"))
    tree = result.profile_tree()
    assert sorted(tree) == ["step1", "step2", "step3"], every_file
    for step, files in tree.items():
        # One dump per rank, nothing else: no legacy post_update_step{N} file, no second dump.
        ranks = sorted(SNAPSHOT.match(name).group(1) if SNAPSHOT.match(name) else name for name in files)
        assert ranks == ["0", "1"], f"{step}: {files}"
        for name in files:
            with open(result.profile_dir / step / name, "rb") as f:
                snapshot = pickle.load(f)  # the format torch.cuda.memory._dump_snapshot writes
            assert snapshot["segments"], f"{step}/{name}: no CUDA segments"
            assert any(trace for trace in snapshot["device_traces"]), f"{step}/{name}: no allocation history"
    assert len(every_file) == 6, every_file  # nothing outside the step folders either
