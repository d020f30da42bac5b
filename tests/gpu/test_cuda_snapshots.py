"""GPU check: a legacy config on a real CUDA model writes real, loadable memory snapshots per rank
per step, under verl's current names only, and ``verl-compat view`` reads them: its reconstruction
of each snapshot's peak (the state at the dump walked back through the trace) accounts for every
byte with a stack, and the page is left in ``test-artefacts/view/gpu/`` for a person to open.

Marked ``gpu`` and skipped without CUDA: CI has no GPU. ``scripts/gpu_check.sh`` builds a CUDA-torch
environment and runs it (or, on a machine that has one: ``scripts/test.sh -m gpu``).
"""

import importlib.metadata
import pickle
import re

import pytest
import torch
from pyrun import run_argv
from synthetic_snapshots import ROOT

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device"),
]

SNAPSHOT = re.compile(r"^torch_memory_rank(\d+)_pid\d+\.pickle$")
ARTEFACTS = ROOT / "test-artefacts" / "view" / "gpu"


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
    _view_reads(result.profile_dir)


def _view_reads(profile_dir):
    from verl_compat import snapshot_files
    from verl_compat.view.read import load
    from verl_compat.view.summary import STACKS_KEPT, summarise

    for path in profile_dir.rglob("*.pickle"):
        summary = summarise(load(path), snapshot_files.parse(path))
        assert summary.events and summary.peak_allocated >= summary.end_allocated > 0, path
        by_stack = sum(size for _, size, _ in summary.at_peak)
        assert (
            by_stack == summary.peak_allocated
            if len(summary.at_peak) < STACKS_KEPT
            else by_stack <= summary.peak_allocated
        )
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page = ARTEFACTS / f"cuda-snapshots-verl-{importlib.metadata.version('verl')}.html"
    assert "wrote page" in run_argv(["-m", "verl_compat", "view", str(profile_dir), "-o", str(page)]).stderr
    text = run_argv(["-m", "verl_compat", "view", str(profile_dir), "--text"]).stdout
    assert "6 snapshots: 3 steps x 2 ranks, 0 OOM" in text, text
    rows = [line for line in text.splitlines() if re.match(r"  step \d ", line)]
    assert len(rows) == 3 and all(len(row.split()) == 4 for row in rows), text
