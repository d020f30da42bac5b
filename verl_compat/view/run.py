"""A run's snapshots as one table (steps × ranks) and what stands out in it.

Reading holds one snapshot at a time per process: each is summarised (``summary.py``) and dropped
before the next is opened, so memory grows with the number of snapshots, not their size; with
``jobs`` > 1 the snapshots are read in that many processes at once (``parallel.py``).

What is flagged, and why:

- **growth**: a rank holds more at the end of a step (memory still allocated at the dump) than at
  the end of the step before, by more than ``max(1 MiB, 0.5 %)``. Peaks move with batch lengths;
  what a step leaves behind does not, unless something keeps it.
- **leak**: growth on at least three quarters of a rank's step transitions (two at least).
- **imbalance**: a rank's peak is 10 % or more above the median of the ranks' peaks in that step;
  a rank is named when that holds for its median step.
"""

from __future__ import annotations

import dataclasses
import os
import statistics
from collections import Counter
from pathlib import Path

from .. import snapshot_files
from .parallel import Progress, read_all
from .summary import Stack, Summary

GROWTH_MIN_BYTES = 1 << 20
GROWTH_MIN_RATIO = 0.005
LEAK_SHARE = 0.75
IMBALANCE_RATIO = 1.10


@dataclasses.dataclass
class Run:
    save_path: Path
    rows: list[str]  # row labels, in step order
    ranks: list[int]
    cells: dict[tuple[str, int], Summary]  # (row, rank) -> Summary
    ooms: list[Summary]  # each OOM snapshot's, oldest first
    bad: list[tuple[Path, str]]  # (path, reason) of each file that could not be read
    ignored: list[Path]  # .pickle files that no naming rule matches
    replaced: list[tuple[Path, Path]]  # (kept, dropped): one step and rank written twice (a restart): newer kept

    @property
    def complete(self) -> bool:
        return not self.bad

    @property
    def snapshot_count(self) -> int:
        return len(self.cells) + len(self.ooms)

    def __post_init__(self) -> None:
        # Each row but the first, mapped to the row before it (rows[1:] is one shorter on purpose).
        self._row_before = dict(zip(self.rows[1:], self.rows, strict=False))

    def row_before(self, row: str) -> str | None:
        return self._row_before.get(row)

    def previous(self, row: str, rank: int) -> Summary | None:
        """The same rank's snapshot in the row before ``row``, if there is one."""
        before = self._row_before.get(row)
        return None if before is None else self.cells.get((before, rank))


def _row_key(file: snapshot_files.SnapshotFile) -> tuple[int, int, int, str]:
    if file.step is not None:
        return (0, file.step, file.first_step or file.step, "")
    return (1, 0, 0, file.label)


def collect(save_path: Path, progress: Progress | None = None, jobs: int = 1) -> Run:
    """Read and summarise every snapshot under ``save_path``, in ``jobs`` processes (1: in this
    one). ``progress(done, total, path)`` is called as the files are read, and once at the end."""
    files, ignored = snapshot_files.find(save_path)
    cells: dict[tuple[str, int], Summary] = {}
    ooms: list[Summary] = []
    bad: list[tuple[Path, str]] = []
    replaced: list[tuple[Path, Path]] = []
    rows: dict[str, tuple[int, int, int, str]] = {}
    for file, summary in zip(files, read_all(files, jobs, progress), strict=True):
        if isinstance(summary, str):
            bad.append((file.path, summary))
            continue
        if file.layout == "oom":
            ooms.append(summary)
            continue
        key = (file.label, file.rank)
        if key in cells:
            kept, dropped = sorted((cells[key], summary), key=lambda s: os.stat(s.file.path).st_mtime, reverse=True)
            replaced.append((kept.file.path, dropped.file.path))
            summary = kept
        cells[key] = summary
        rows[file.label] = _row_key(file)
    if progress is not None:
        progress(len(files), len(files), None)
    ooms.sort(key=lambda s: (s.file.time, s.file.rank))
    return Run(
        save_path=Path(save_path),
        rows=sorted(rows, key=rows.get),
        ranks=sorted({rank for _, rank in cells} | {s.file.rank for s in ooms}),
        cells=cells,
        ooms=ooms,
        bad=bad,
        ignored=ignored,
        replaced=replaced,
    )


# --- flags ------------------------------------------------------------------------------------


def growth(run: Run, row: str, rank: int) -> int | None:
    """Bytes held at the end of this step minus at the end of the step before (same rank)."""
    current, previous = run.cells.get((row, rank)), run.previous(row, rank)
    if current is None or previous is None:
        return None
    return current.end_allocated - previous.end_allocated


def grew(run: Run, row: str, rank: int) -> bool:
    delta, previous = growth(run, row, rank), run.previous(row, rank)
    return delta is not None and delta > max(GROWTH_MIN_BYTES, GROWTH_MIN_RATIO * previous.end_allocated)


def imbalance(run: Run, row: str, rank: int) -> float | None:
    """This rank's peak over the median peak of the ranks in the same step."""
    peaks = [run.cells[(row, r)].peak_allocated for r in run.ranks if (row, r) in run.cells]
    cell = run.cells.get((row, rank))
    if cell is None or len(peaks) < 2 or not statistics.median(peaks):
        return None
    return cell.peak_allocated / statistics.median(peaks)


def imbalanced(run: Run, row: str, rank: int) -> bool:
    ratio = imbalance(run, row, rank)
    return ratio is not None and ratio >= IMBALANCE_RATIO


@dataclasses.dataclass(frozen=True)
class Finding:
    kind: str  # leak, imbalance
    ranks: tuple[int, ...]
    text: str
    stack: Stack | None = None  # what grew most, for a leak


def findings(run: Run) -> list[Finding]:
    found = []
    leaking: dict[int, list[str]] = {}
    for rank in run.ranks:
        rows = [row for row in run.rows if (row, rank) in run.cells and run.previous(row, rank) is not None]
        if len(rows) >= 2 and sum(grew(run, row, rank) for row in rows) >= LEAK_SHARE * len(rows):
            leaking[rank] = rows
    if leaking:
        per_step = [
            (run.cells[(rows[-1], rank)].end_allocated - run.previous(rows[0], rank).end_allocated) / len(rows)
            for rank, rows in leaking.items()
        ]
        grown: Counter[Stack] = Counter()
        for rank, rows in leaking.items():
            for stack, delta in diff_by_stack(run.previous(rows[0], rank).at_end, run.cells[(rows[-1], rank)].at_end):
                grown[stack] += delta
        stack = grown.most_common(1)[0][0] if grown and grown.most_common(1)[0][1] > 0 else None
        ranks = tuple(leaking)
        first, last = next(iter(leaking.values()))[0], next(iter(leaking.values()))[-1]
        found.append(
            Finding(
                "leak",
                ranks,
                f"memory held after each step grows on {_ranks(ranks)}: {format_bytes(statistics.median(per_step))} "
                f"per step ({run.row_before(first)} to {last})",
                stack,
            )
        )
    for rank in run.ranks:
        ratios = [r for r in (imbalance(run, row, rank) for row in run.rows) if r is not None]
        if ratios and statistics.median(ratios) >= IMBALANCE_RATIO:
            found.append(
                Finding(
                    "imbalance",
                    (rank,),
                    f"rank {rank} peaks {round((statistics.median(ratios) - 1) * 100)} % above the median rank "
                    f"(median over {len(ratios)} steps)",
                )
            )
    return found


def _ranks(ranks: tuple[int, ...]) -> str:
    return ("rank " if len(ranks) == 1 else "ranks ") + ", ".join(map(str, ranks))


# --- diff -------------------------------------------------------------------------------------


def diff_by_stack(before: list[tuple[Stack, int, int]], after: list[tuple[Stack, int, int]]) -> list[tuple[Stack, int]]:
    """``[(stack, bytes after - bytes before)]`` for the stacks in either, largest growth first.
    A stack outside a snapshot's kept totals counts as absent there."""
    totals = Counter({stack: size for stack, size, _ in after})
    totals.subtract({stack: size for stack, size, _ in before})
    return sorted(((stack, delta) for stack, delta in totals.items() if delta), key=lambda item: -item[1])


def format_bytes(n: float) -> str:
    sign = "-" if n < 0 else ""
    n = abs(n)
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{sign}{n / size:.2f} {unit}"
    return f"{sign}{int(n)} B"
