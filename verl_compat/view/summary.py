"""One snapshot reduced to what the page needs, so that a run's worth of them fits in memory.

A snapshot (``torch.cuda.memory._snapshot()``) holds the allocator's state at the dump (``segments``
and their ``blocks``) and, when history is recorded, the allocator's actions before it
(``device_traces``: one list per device, oldest first). verl clears the history after each dump, so
a step's snapshot traces that step.

Memory is counted as PyTorch's memory_viz counts it: *allocated* is the bytes live tensors asked
for (``requested_size``; the trace records requested sizes), *reserved* is what the allocator holds
from CUDA (segment sizes). The allocated curve is the end state walked back through the trace
(``alloc`` adds, ``free_completed`` removes); reserved likewise with ``segment_alloc``/``map`` and
``segment_free``/``unmap``. Fields this module does not know (a newer torch's) are ignored.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable
from typing import Any, NoReturn

from ..snapshot_files import SnapshotFile
from .read import SnapshotError

TIMELINE_BUCKETS = 120  # each keeps its lowest and highest point: the peaks survive downsampling
STACKS_KEPT = 100  # by-stack totals kept per snapshot, for the top allocations and the step diff
BLOCKS_KEPT = 10  # the largest live blocks, for the OOM section
FRAMES_KEPT = 10
Stack = tuple[str, ...]  # "file:line function" frames, innermost first
NO_STACK: Stack = ("(no stack recorded)",)
LIVE_STATES = ("active_allocated", "active_pending_free")
ALLOCATED_DELTA = {"alloc": 1, "free_completed": -1}
RESERVED_DELTA = {"segment_alloc": 1, "segment_map": 1, "segment_free": -1, "segment_unmap": -1}


@dataclasses.dataclass
class Summary:
    file: SnapshotFile
    device: int | None
    events: int  # trace entries read (0: no history recorded)
    end_allocated: int
    end_reserved: int
    peak_allocated: int
    reserved_at_peak: int
    peak_reserved: int
    peak_time_us: int | None
    timeline: list[tuple[int, int, int]]  # [(time_us, allocated, reserved)], downsampled, time-ordered
    at_peak: list[tuple[Stack, int, int]]  # [(stack, bytes, count)] largest first: live at the allocated peak
    at_end: list[tuple[Stack, int, int]]  # [(stack, bytes, count)] largest first: live at the dump
    largest_blocks: list[tuple[int, Stack]]  # [(bytes, stack)] largest live blocks at the dump
    ooms: list[dict[str, Any]]  # [{"requested", "device_free", "time_us", "stack"}]

    @property
    def fragmentation(self) -> int:
        """Reserved but not allocated, at the allocated peak."""
        return max(self.reserved_at_peak - self.peak_allocated, 0)


def _fail(where: str, what: str) -> NoReturn:
    raise SnapshotError(f"not a memory snapshot: {where} {what}")


def _get(entry: object, key: str, kind: type, where: str, default: object = dataclasses.MISSING) -> Any:
    if not isinstance(entry, dict):
        _fail(where, f"is a {type(entry).__name__}, not a dict")
    value = entry.get(key, default)
    if value is dataclasses.MISSING:
        _fail(where, f"has no '{key}'")
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        _fail(where, f"has '{key}' of type {type(value).__name__}")
    return value


class _Stacks:
    """Frames lists to stack keys, cached by the identity of their frame dicts (torch shares one
    dict per distinct frame across the snapshot)."""

    def __init__(self) -> None:
        self._cache: dict[tuple[int, ...], Stack] = {}

    def key(self, frames: object) -> Stack:
        if not isinstance(frames, list) or not frames:
            return NO_STACK
        ident = tuple(map(id, frames))
        found = self._cache.get(ident)
        if found is None:
            found = self._cache[ident] = self._format(frames)
        return found

    @staticmethod
    def _format(frames: list[Any]) -> Stack:
        python, other = [], []
        for frame in frames:
            if not isinstance(frame, dict):
                continue
            filename, line, name = frame.get("filename", "?"), frame.get("line", 0), frame.get("name", "?")
            text = f"{filename}:{line} {name}"
            (python if str(filename).endswith(".py") else other).append(text)
        return tuple((python or other)[:FRAMES_KEPT]) or NO_STACK


def _block_frames(block: dict[str, Any]) -> object:
    """A block's allocation stack: ``frames`` (torch >= 2.1) or its first ``history`` entry (older)."""
    if "frames" in block:
        return block["frames"]
    history = block.get("history")
    if isinstance(history, list) and history and isinstance(history[0], dict):
        return history[0].get("frames")
    return None


def _group(items: Iterable[tuple[int, Stack]], limit: int) -> list[tuple[Stack, int, int]]:
    """``(bytes, stack)`` pairs to ``[(stack, total, count)]``, largest ``limit`` first."""
    totals: Counter[Stack] = Counter()
    counts: Counter[Stack] = Counter()
    for size, stack in items:
        totals[stack] += size
        counts[stack] += 1
    return [(stack, total, counts[stack]) for stack, total in totals.most_common(limit)]


def _device_trace(data: dict[str, Any]) -> tuple[int | None, list[Any]]:
    """The device this process used (the one with the most trace entries) and its trace."""
    traces = data.get("device_traces", [])
    if not isinstance(traces, list):
        _fail("device_traces", f"is a {type(traces).__name__}, not a list")
    best = max(range(len(traces)), key=lambda i: len(traces[i]) if isinstance(traces[i], list) else -1, default=None)
    if best is None or not isinstance(traces[best], list):
        return None, []
    return best, traces[best]


def summarise(data: dict[str, Any], file: SnapshotFile) -> Summary:
    stacks = _Stacks()
    device, trace = _device_trace(data)
    if not trace:  # no history: the device is the one the segments are on
        devices = Counter(s.get("device") for s in data["segments"] if isinstance(s, dict))
        device = devices.most_common(1)[0][0] if devices else None

    live: dict[int, tuple[int, Stack]] = {}  # address -> (requested bytes, stack) at the dump
    end_reserved = 0
    for i, segment in enumerate(data["segments"]):
        where = f"segments[{i}]"
        if device is not None and isinstance(segment, dict) and segment.get("device", device) != device:
            continue  # another device's memory: this process's rank uses one
        end_reserved += _get(segment, "total_size", int, where)
        address = segment.get("address", 0)
        for j, block in enumerate(_get(segment, "blocks", list, where)):
            size = _get(block, "size", int, f"{where}.blocks[{j}]")
            state = _get(block, "state", str, f"{where}.blocks[{j}]")
            block_address = block.get("address", address)
            address = block_address + size if isinstance(block_address, int) else address
            if state in LIVE_STATES:
                requested = block.get("requested_size", size)
                requested = requested if isinstance(requested, int) else size
                live[block_address] = (requested, stacks.key(_block_frames(block)))
    end_allocated = sum(size for size, _ in live.values())

    # Walk the trace once: totals before it began, then the curve, the peak and its index.
    allocated_delta = reserved_delta = 0
    for i, entry in enumerate(trace):
        action = _get(entry, "action", str, f"device_traces[{device}][{i}]")
        size = _get(entry, "size", int, f"device_traces[{device}][{i}]", 0)
        allocated_delta += ALLOCATED_DELTA.get(action, 0) * size
        reserved_delta += RESERVED_DELTA.get(action, 0) * size
    allocated = max(end_allocated - allocated_delta, 0)
    reserved = max(end_reserved - reserved_delta, 0)
    peak_allocated, reserved_at_peak, peak_reserved = allocated, reserved, reserved
    peak_index, peak_time = -1, None
    timed = [e.get("time_us") for e in (trace[0], trace[-1])] if trace else [None, None]
    first_time, last_time = timed if all(isinstance(t, int) for t in timed) else (None, None)
    buckets = {}
    ooms = []
    for i, entry in enumerate(trace):
        action, size, time_us = entry["action"], entry.get("size", 0), entry.get("time_us")
        allocated += ALLOCATED_DELTA.get(action, 0) * size
        reserved += RESERVED_DELTA.get(action, 0) * size
        if allocated > peak_allocated:
            peak_allocated, reserved_at_peak, peak_index, peak_time = allocated, reserved, i, time_us
        peak_reserved = max(peak_reserved, reserved)
        if action == "oom":
            ooms.append(
                {
                    "requested": size,
                    "device_free": entry.get("device_free") if isinstance(entry.get("device_free"), int) else None,
                    "time_us": time_us if isinstance(time_us, int) else None,
                    "stack": stacks.key(entry.get("frames")),
                }
            )
        if first_time is not None and isinstance(time_us, int):
            bucket = (time_us - first_time) * TIMELINE_BUCKETS // (last_time - first_time + 1)
            low_high = buckets.get(bucket)
            point = (time_us, allocated, reserved)
            if low_high is None:
                buckets[bucket] = [point, point]
            elif allocated < low_high[0][1]:
                low_high[0] = point
            elif allocated > low_high[1][1]:
                low_high[1] = point
    timeline = sorted({p for pair in buckets.values() for p in pair})

    return Summary(
        file=file,
        device=device,
        events=len(trace),
        end_allocated=end_allocated,
        end_reserved=end_reserved,
        peak_allocated=peak_allocated,
        reserved_at_peak=reserved_at_peak,
        peak_reserved=peak_reserved,
        peak_time_us=peak_time if isinstance(peak_time, int) else None,
        timeline=timeline,
        at_peak=_group(_live_at(trace, peak_index, live, stacks), STACKS_KEPT),
        at_end=_group(live.values(), STACKS_KEPT),
        largest_blocks=sorted(((size, stack) for size, stack in live.values()), key=lambda b: -b[0])[:BLOCKS_KEPT],
        ooms=ooms,
    )


def _live_at(
    trace: list[Any], index: int, live_at_end: dict[int, tuple[int, Stack]], stacks: _Stacks
) -> list[tuple[int, Stack]]:
    """``(bytes, stack)`` of every allocation live just after ``trace[index]`` (-1: before the
    trace): those made in the trace up to it and not yet freed, those from before the trace still
    live at the dump, and those from before the trace freed after it (their stack is the free's)."""
    if index == len(trace) - 1:
        return list(live_at_end.values())
    live, made_in_trace = {}, set()
    for entry in trace[: index + 1]:
        action, address = entry["action"], entry.get("addr")
        if action == "alloc":
            live[address] = (entry.get("size", 0), stacks.key(entry.get("frames")))
            made_in_trace.add(address)
        elif action == "free_completed":
            live.pop(address, None)
    made_after = set()
    for entry in trace[index + 1 :]:
        action, address = entry["action"], entry.get("addr")
        if action == "alloc":
            made_after.add(address)
            made_in_trace.add(address)
        elif action == "free_completed":
            if address in made_after:
                made_after.discard(address)
            elif address not in live:
                live[address] = (entry.get("size", 0), stacks.key(entry.get("frames")))
    for address, block in live_at_end.items():
        if address not in made_in_trace:
            live.setdefault(address, block)
    return list(live.values())
