"""The run for a terminal: the OOM section, the findings and the steps × ranks table."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from .run import Run, findings, format_bytes, grew, imbalanced
from .summary import Stack, Summary

GIB = 1 << 30


def oom_time(summary: Summary) -> str:
    """When the OOM happened: the trace's ``oom`` entry, else the folder's timestamp."""
    times = [oom["time_us"] for oom in summary.ooms if oom["time_us"] is not None]
    if times:
        return datetime.fromtimestamp(times[-1] / 1e6).isoformat(sep=" ", timespec="milliseconds")
    return summary.file.time.isoformat(sep=" ", timespec="milliseconds") if summary.file.time else "unknown"


def oom_request(summary: Summary) -> str:
    if not summary.ooms:
        return "no oom entry in the trace"
    oom = summary.ooms[-1]
    free = f" with {format_bytes(oom['device_free'])} free on the device" if oom["device_free"] is not None else ""
    return f"asked for {format_bytes(oom['requested'])}{free}"


def same_blocks(blocks: Iterable[tuple[int, Stack]]) -> list[tuple[tuple[int, Stack], int]]:
    """``[((bytes, stack), count)]``: equal blocks from one stack counted once, largest first."""
    counts: dict[tuple[int, Stack], int] = {}
    for block in blocks:
        counts[block] = counts.get(block, 0) + 1
    return list(counts.items())


def relative(run: Run, path: Path) -> str:
    try:
        return str(path.relative_to(run.save_path))
    except ValueError:
        return str(path)


def render(run: Run) -> str:
    lines = [
        f"verl-compat view: {run.save_path}",
        f"{run.snapshot_count} snapshots: {len(run.rows)} steps x {len(run.ranks)} ranks, {len(run.ooms)} OOM",
    ]
    if run.bad:
        lines += ["", f"INCOMPLETE: {len(run.bad)} file(s) could not be read and are left out:"]
        lines += [f"  {relative(run, path)}: {reason}" for path, reason in run.bad]
    if run.ooms:
        lines += ["", f"OUT OF MEMORY ({len(run.ooms)})"]
        for summary in run.ooms:
            lines.append(
                f"  rank {summary.file.rank} (pid {summary.file.pid}, device {summary.device}) at {oom_time(summary)}: "
                f"{oom_request(summary)}"
            )
            lines.append(
                f"    live: {format_bytes(summary.end_allocated)} allocated, "
                f"{format_bytes(summary.end_reserved)} reserved"
            )
            lines.append("    largest live blocks:")
            for (size, stack), count in same_blocks(summary.largest_blocks):
                lines.append(f"      {count:>2} x {format_bytes(size):>11}  {stack[0]}")
                lines += [f"{'':24}{frame}" for frame in stack[1:4]]
            lines.append(f"    file: {relative(run, summary.file.path)}")
    found = findings(run)
    if found:
        lines += ["", "FINDINGS"]
        for finding in found:
            lines.append(f"  {finding.kind}: {finding.text}")
            if finding.stack:
                lines.append(f"    grew most: {finding.stack[0]}")
    if run.rows:
        lines += ["", "PEAK ALLOCATED / RESERVED / FRAGMENTATION (GiB), per step and rank", *table(run)]
        lines.append("  + held more at step end than the step before    ! peak 10 % or more above the median rank")
    return "\n".join(lines) + "\n"


def table(run: Run) -> list[str]:
    cells = {}
    for (row, rank), s in run.cells.items():
        mark = ("+" if grew(run, row, rank) else " ") + ("!" if imbalanced(run, row, rank) else " ")
        cells[(row, rank)] = (
            f"{s.peak_allocated / GIB:.2f}/{s.reserved_at_peak / GIB:.2f}/{s.fragmentation / GIB:.2f}{mark}"
        )
    width = max([len(c) for c in cells.values()] + [8])
    label_width = max(len(row) for row in run.rows)
    header = f"  {'':{label_width}}  " + "  ".join(f"{f'rank {rank}':>{width}}" for rank in run.ranks)
    out = [header]
    out.extend(
        f"  {row:{label_width}}  " + "  ".join(f"{cells.get((row, rank), '-'):>{width}}" for rank in run.ranks)
        for row in run.rows
    )
    return out
