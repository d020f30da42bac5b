#!/usr/bin/env python3
"""Write a run's worth of synthetic CUDA memory snapshots, for ``verl-compat view`` without a GPU.

    scripts/make_snapshots.py DIR [--ranks 4] [--steps 5] [--layout step|legacy] [--no-oom]
                              [--events N] [--leak-mib 48]

Each file is what ``torch.cuda.memory._dump_snapshot`` pickles (torch 2.13,
``torch/cuda/memory.py``, ``_snapshot``): a dict of builtins with ``segments`` (each with its
``blocks``: ``address``, ``size``, ``requested_size``, ``state``, ``frames``), ``device_traces``
(one list per device of ``alloc``/``free_requested``/``free_completed``/``segment_alloc``/``oom``
entries with ``addr`` or ``device_free``, ``size``, ``stream``, ``time_us``, ``frames``) and
``allocator_settings``; frames are ``{filename, line, name}``, innermost first, Python frames after
the allocator's C++ ones (``stacks="all"``, as verl records them).

The run it writes has something to find: every rank keeps ``--leak-mib`` more per step (a list that
holds each step's logits), rank ``--imbalanced-rank`` holds 60 % more activations than the others,
and, unless ``--no-oom``, ``--oom-rank`` dies of an out-of-memory error in the step after the last,
leaving an ``oom_{timestamp}/`` snapshot. Each rank runs a small caching allocator (whole segments
reused, new ones reserved as needed), so reserved, allocated and the trace agree as on a device;
the history is cleared after every dump, as verl's DistProfiler does.

Names come from ``verl_compat.snapshot_files`` when verl-compat is importable (the rules the
viewer reads by); the tests import :func:`write_run`. Standard library only.
"""

from __future__ import annotations

import argparse
import bisect
import pickle
import random
import sys
from datetime import datetime, timedelta
from pathlib import Path

MiB = 1 << 20
GiB = 1 << 30
SEGMENT_ROUND = 2 * MiB  # large-pool segments are reserved in 2 MiB multiples
BLOCK_ROUND = 512
STEP_TIME_US = 4_000_000
START = datetime(2026, 12, 4, 9, 30, 0)


def _frame(filename: str, line: int, name: str) -> dict:
    return {"filename": filename, "line": line, "name": name}


_CPP = [
    _frame(
        "??",
        0,
        "c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc("
        "signed char, unsigned long, CUstream_st*)",
    ),
    _frame("??", 0, "at::TensorBase at::detail::_empty_generic<long>(c10::ArrayRef<long>, c10::Allocator*, ...)"),
]


def _stack(*python_frames) -> list:
    """Innermost first: the allocator's C++ frames, then Python (innermost to outermost)."""
    return [*_CPP, *(_frame(*f) for f in python_frames), _frame("verl/single_controller/ray/base.py", 714, "func")]


STACKS = {
    "params": _stack(
        ("torch/nn/modules/module.py", 1355, "convert"),
        ("torch/distributed/fsdp/_init_utils.py", 1068, "_move_module_to_device"),
        ("verl/workers/fsdp_workers.py", 472, "_build_model_optimizer"),
        ("verl/workers/fsdp_workers.py", 803, "init_model"),
    ),
    "optimizer": _stack(
        ("torch/optim/adamw.py", 170, "_init_group"),
        ("torch/optim/optimizer.py", 493, "wrapper"),
        ("verl/workers/actor/dp_actor.py", 268, "_optimizer_step"),
        ("verl/workers/actor/dp_actor.py", 561, "update_policy"),
    ),
    "activations": _stack(
        ("transformers/models/qwen2/modeling_qwen2.py", 251, "forward"),
        ("torch/nn/modules/module.py", 1784, "_call_impl"),
        ("verl/workers/actor/dp_actor.py", 184, "_forward_micro_batch"),
        ("verl/workers/actor/dp_actor.py", 512, "update_policy"),
    ),
    "logits": _stack(
        ("transformers/models/qwen2/modeling_qwen2.py", 462, "forward"),
        ("verl/workers/actor/dp_actor.py", 201, "_forward_micro_batch"),
        ("verl/workers/actor/dp_actor.py", 512, "update_policy"),
    ),
    "grads": _stack(
        ("torch/autograd/graph.py", 829, "_engine_run_backward"),
        ("torch/_tensor.py", 647, "backward"),
        ("verl/workers/actor/dp_actor.py", 540, "update_policy"),
    ),
    "leak": _stack(
        ("my_recipe/metrics.py", 37, "keep_logits"),
        ("my_recipe/trainer.py", 118, "on_step_end"),
        ("verl/workers/actor/dp_actor.py", 575, "update_policy"),
    ),
}


def _round(size: int, to: int) -> int:
    return -(-size // to) * to


class Device:
    """One rank's caching allocator: whole cached segments reused, the smallest that fits."""

    def __init__(self, rank: int, clock_us: int):
        self.next_address = 0x7F0000000000 + rank * (1 << 36)
        self.segments = {}  # address -> [address, total_size, frames, used]; used = (requested, frames) or None
        self.free_segments = []  # sorted (total_size, address) of the cached, unused segments
        self.trace = []
        self.clock_us = clock_us
        self.tick_us = 37
        self.allocated = 0  # requested bytes live, as the viewer counts them
        self.peak = 0  # highest since the last snapshot

    def _event(self, action: str, size: int, frames: list, **where) -> None:
        self.clock_us += self.tick_us
        entry = {"action": action, **where, "size": size, "stream": 0, "time_us": self.clock_us, "frames": list(frames)}
        entry["compile_context"] = "N/A"
        entry["user_metadata"] = ""
        self.trace.append(entry)

    def alloc(self, requested: int, frames: list) -> int:
        size = _round(requested, BLOCK_ROUND)
        i = bisect.bisect_left(self.free_segments, (size, 0))
        if i < len(self.free_segments):
            segment = self.segments[self.free_segments.pop(i)[1]]
        else:
            # Large requests get 2 MiB multiples; small ones (the small pool's) their rounded size.
            segment = [self.next_address, _round(size, SEGMENT_ROUND) if size > MiB else size, frames, None]
            self.next_address += segment[1]
            self.segments[segment[0]] = segment
            self._event("segment_alloc", segment[1], frames, addr=segment[0])
        segment[3] = (requested, frames)
        self._event("alloc", requested, frames, addr=segment[0])
        self.allocated += requested
        self.peak = max(self.peak, self.allocated)
        return segment[0]

    def free(self, address: int) -> None:
        segment = self.segments[address]
        requested, frames = segment[3]
        self._event("free_requested", requested, frames, addr=address)
        self._event("free_completed", requested, frames, addr=address)
        self.allocated -= requested
        segment[3] = None
        bisect.insort(self.free_segments, (segment[1], address))

    def oom(self, requested: int, frames: list) -> None:
        self._event("oom", requested, frames, device_free=5 * GiB // 4)

    def snapshot(self) -> dict:
        """What ``torch.cuda.memory._snapshot()`` returns now; the history is cleared after."""
        segments = []
        for address, total, frames, used in sorted(self.segments.values()):
            blocks = []
            if used is not None:
                requested, block_frames = used
                size = _round(requested, BLOCK_ROUND)
                blocks.append(
                    {
                        "address": address,
                        "size": size,
                        "requested_size": requested,
                        "state": "active_allocated",
                        "frames": list(block_frames),
                    }
                )
                if total > size:
                    blocks.append(
                        {
                            "address": address + size,
                            "size": total - size,
                            "requested_size": 0,
                            "state": "inactive",
                            "frames": [],
                        }
                    )
            else:
                blocks.append(
                    {"address": address, "size": total, "requested_size": 0, "state": "inactive", "frames": []}
                )
            allocated = sum(b["size"] for b in blocks if b["state"] == "active_allocated")
            segments.append(
                {
                    "device": 0,
                    "address": address,
                    "total_size": total,
                    "allocated_size": allocated,
                    "active_size": allocated,
                    "requested_size": sum(b["requested_size"] for b in blocks),
                    "stream": 0,
                    "segment_type": "large" if total > MiB else "small",
                    "segment_pool_id": (0, 0),
                    "is_expandable": False,
                    "frames": list(frames),
                    "blocks": blocks,
                }
            )
        snapshot = {
            "segments": segments,
            "device_traces": [self.trace],
            "allocator_settings": {
                "PYTORCH_CUDA_ALLOC_CONF": "",
                "max_split_size": -1,
                "garbage_collection_threshold": 0.0,
                "expandable_segments": False,
                "pinned_num_register_threads": 1,
                "release_lock_on_cudamalloc": False,
                "pinned_use_cuda_host_register": False,
                "roundup_power2_divisions": {"1": 0, "2": 0},
            },
        }
        self.trace = []
        self.peak = self.allocated
        return snapshot


def _names():
    """verl-compat's naming rules when it is importable, else the same rules written out."""
    try:
        from verl_compat import snapshot_files

        return snapshot_files
    except ImportError:  # a checkout without verl-compat installed
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from verl_compat import snapshot_files

        return snapshot_files


def _dump(device: Device, path: Path, rank: int, step: int) -> dict:
    """Write the device's snapshot to ``path``; return what the viewer should find in it."""
    truth = {"path": path, "rank": rank, "step": step, "peak": device.peak, "end": device.allocated}
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        pickle.dump(device.snapshot(), f)  # as torch.cuda.memory._dump_snapshot: default protocol, builtins only
    return truth


def write_run(
    save_path,
    *,
    ranks: int = 4,
    steps: int = 5,
    layout: str = "step",
    leak_mib: int = 48,
    imbalanced_rank: int | None = 3,
    oom_rank: int | None = 1,
    events: int = 60,
    seed: int = 0,
) -> list[dict]:
    """Write ``steps`` snapshots per rank (and the OOM one) under ``save_path``; return, for each
    file, what it holds: ``{"path", "rank", "step" (None: the OOM), "peak", "end"}`` (allocated
    bytes at the step's peak and at the dump, counted as the allocator simulation counted them).

    ``events`` scales each step's trace (allocations per micro-batch pass): about 10 KB of pickle
    each; ``events=2000`` gives snapshots of about 20 MB."""
    names = _names()
    save_path = Path(save_path)
    written = []
    for rank in range(ranks):
        rng = random.Random(seed * 1000 + rank)
        pid = 4000 + rank
        device = Device(rank, int(START.timestamp() * 1e6))
        scale = 1.6 if rank == imbalanced_rank else 1.0
        params = [device.alloc(128 * MiB + i * 4096, STACKS["params"]) for i in range(8)]
        optimizer_state = []
        leaked = []
        for step in range(1, steps + 2):
            dying = step == steps + 1
            if dying and rank != oom_rank:
                break
            device.clock_us = int((START + timedelta(microseconds=STEP_TIME_US * step)).timestamp() * 1e6) + rank * 11
            device.tick_us = STEP_TIME_US // (5 * events)  # a step's ~4 events per allocation fill most of it
            activations = []
            for i in range(events):
                size = int((16 * MiB + rng.randrange(0, 48 * MiB)) * scale * 60 / events)
                activations.append(device.alloc(size, STACKS["activations" if i % 4 else "logits"]))
                if dying and i == events // 2:
                    device.oom(int(24 * GiB * scale), STACKS["logits"])
                    break
            if dying:
                oom_time = START + timedelta(microseconds=STEP_TIME_US * step + 2_000_000)
                path = save_path / names.oom_sub_dir(oom_time) / names.file_name(names.OOM_TAG, rank, pid)
                written.append(_dump(device, path, rank, None))
                break
            grads = []
            for address in reversed(activations):
                device.free(address)
                if len(grads) < 8:
                    grads.append(device.alloc(128 * MiB, STACKS["grads"]))
            if not optimizer_state:
                optimizer_state = [device.alloc(256 * MiB, STACKS["optimizer"]) for _ in range(8)]
            for address in grads:
                device.free(address)
            if leak_mib:
                leaked.append(device.alloc(leak_mib * MiB, STACKS["leak"]))
            if layout == "legacy":
                path = save_path / names.step_sub_dir(step + 1) / names.file_name(names.legacy_tag(step), rank, pid)
            else:
                path = save_path / names.step_sub_dir(step) / names.file_name(names.STEP_TAG, rank, pid)
            written.append(_dump(device, path, rank, step))
        del params, optimizer_state, leaked
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("save_path", type=Path)
    parser.add_argument("--ranks", type=int, default=4)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--layout", choices=("step", "legacy"), default="step")
    parser.add_argument("--leak-mib", type=int, default=48)
    parser.add_argument("--imbalanced-rank", type=int, default=3)
    parser.add_argument("--oom-rank", type=int, default=1)
    parser.add_argument("--no-oom", action="store_true")
    parser.add_argument("--events", type=int, default=60, help="trace entries per step scale (2000: ~20 MB files)")
    args = parser.parse_args(argv)
    written = write_run(
        args.save_path,
        ranks=args.ranks,
        steps=args.steps,
        layout=args.layout,
        leak_mib=args.leak_mib,
        imbalanced_rank=args.imbalanced_rank,
        oom_rank=None if args.no_oom else args.oom_rank,
        events=args.events,
    )
    print(f"wrote {len(written)} snapshots under {args.save_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
