"""Where memory snapshots land under a profiler ``save_path``: one set of file-name rules for the
code that writes them (the ``oom_snapshot`` fix) and the code that reads them (``verl-compat view``).

Every layout is verl's ``MemorySnapshotSampler.dump_memory_snapshot(out_dir, tag, sub_dir)``
(``verl/utils/memory_utils.py``, 0.6.1 to 0.9.1), which writes
``{out_dir}/{sub_dir}/{tag}_rank{RANK}_pid{pid}.pickle``; what differs is the tag and the folder:

========== ============================ ===================================== =====================
layout     folder                       file                                  written by
========== ============================ ===================================== =====================
step       ``step{N}``                  ``torch_memory_rank{R}_pid{P}``       DistProfiler, step N
window     ``steps{A}-{B}``             ``torch_memory_rank{R}_pid{P}``       0.9.1, several steps
oom        ``oom_{YYYYmmdd-HHMMSS-f}``  ``torch_memory_oom_rank{R}_pid{P}``   0.9.1 / ``oom_snapshot``
legacy     ``step{N+1}``                ``post_update_step{N+1}_rank{R}_…``   0.6–0.7 legacy call
untimed    ``{YYYYmmdd-HHMM}``          ``torch_memory_rank{R}_pid{P}``       a dump with no step
========== ============================ ===================================== =====================

The legacy call (``ray_trainer.py`` of 0.6.1 and 0.7.1: ``dump_memory_snapshot(tag=
f"post_update_step{self.global_steps}", sub_dir=f"step{self.global_steps}")`` after
``global_steps += 1``) labels step N's snapshot N+1; :func:`parse` gives the step it describes.
0.9.1's ``TorchMemoryProfiler._window_sub_dir`` names a window of several steps ``steps{A}-{B}``.
A dump without a step (0.8's ``TorchMemoryProfiler.start()`` called without ``profile_step``)
lands in a folder named by the minute.

Standard library only: the ``view`` tool imports it without wrapt or verl.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime
from pathlib import Path

SUFFIX = ".pickle"
STEP_TAG = "torch_memory"  # TorchMemoryProfiler.stop's tag, 0.6.1 to 0.9.1
OOM_TAG = "torch_memory_oom"  # TorchMemoryProfiler._on_out_of_memory's tag, 0.9.1
LEGACY_TAG = "post_update_step"  # the legacy call's tag prefix, 0.6.x and 0.7.x
OOM_TIME_FORMAT = "%Y%m%d-%H%M%S-%f"

# The layouts as a user reads them (docs, warnings): {N}, {R}, {P} stand for step, rank, pid.
STEP_PATTERN = "step{N}/torch_memory_rank{R}_pid{P}.pickle"
WINDOW_PATTERN = "steps{A}-{B}/torch_memory_rank{R}_pid{P}.pickle"
LEGACY_PATTERN = "step{N+1}/post_update_step{N+1}_rank{R}_pid{P}.pickle"
OOM_PATTERN = "oom_{timestamp}/torch_memory_oom_rank{R}_pid{P}.pickle"

_FILE = re.compile(r"(?P<tag>.+)_rank(?P<rank>\d+)_pid(?P<pid>\d+)\.pickle")
_STEP_DIR = re.compile(r"step(?P<step>\d+)")
_WINDOW_DIR = re.compile(r"steps(?P<first>\d+)-(?P<last>\d+)")
_OOM_DIR = re.compile(r"oom_(?P<time>\d{8}-\d{6}-\d{6})")
_MINUTE_DIR = re.compile(r"\d{8}-\d{4}")


# --- write ------------------------------------------------------------------------------------


def oom_sub_dir(now: datetime) -> str:
    """``oom_{timestamp}``, to the microsecond: each OOM (and each rank's) gets its own folder."""
    return f"oom_{now.strftime(OOM_TIME_FORMAT)}"


def step_sub_dir(step: int) -> str:
    return f"step{step}"


def file_name(tag: str, rank: int, pid: int) -> str:
    """``dump_memory_snapshot``'s file name."""
    return f"{tag}_rank{rank}_pid{pid}{SUFFIX}"


def legacy_tag(step: int) -> str:
    """The legacy call's tag for the snapshot of ``step`` (labelled one step late)."""
    return f"{LEGACY_TAG}{step + 1}"


# --- read -------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class SnapshotFile:
    """One snapshot file, named by the rules above."""

    path: Path
    layout: str  # step, window, oom, legacy, untimed
    rank: int
    pid: int
    step: int | None  # the step it describes (the window's last step); None for oom and untimed
    first_step: int | None = None  # a window's first step
    time: datetime | None = None  # an oom folder's timestamp

    @property
    def label(self) -> str:
        """The row it belongs to: ``step 3``, ``steps 3-4``, ``oom 2026-…``, or the folder's name."""
        if self.layout == "window":
            return f"steps {self.first_step}-{self.step}"
        if self.step is not None:
            return f"step {self.step}"
        if self.time is not None:
            return f"oom {self.time.isoformat(sep=' ')}"
        return self.path.parent.name


def parse(path: Path) -> SnapshotFile | None:
    """The snapshot ``path`` is by its folder and file name, or None when no rule names it."""
    name = _FILE.fullmatch(path.name)
    if name is None:
        return None
    tag, rank, pid, folder = name["tag"], int(name["rank"]), int(name["pid"]), path.parent.name
    if tag == STEP_TAG:
        if step := _STEP_DIR.fullmatch(folder):
            return SnapshotFile(path, "step", rank, pid, int(step["step"]))
        if window := _WINDOW_DIR.fullmatch(folder):
            first, last = int(window["first"]), int(window["last"])
            return SnapshotFile(path, "window", rank, pid, last, first_step=first)
        if _MINUTE_DIR.fullmatch(folder):
            return SnapshotFile(path, "untimed", rank, pid, None)
        return None
    if tag == OOM_TAG:
        if oom := _OOM_DIR.fullmatch(folder):
            return SnapshotFile(path, "oom", rank, pid, None, time=datetime.strptime(oom["time"], OOM_TIME_FORMAT))
        return None
    if tag.startswith(LEGACY_TAG) and (step := _STEP_DIR.fullmatch(folder)) and tag == f"{LEGACY_TAG}{step['step']}":
        return SnapshotFile(path, "legacy", rank, pid, int(step["step"]) - 1)
    return None


def find(save_path: Path) -> tuple[list[SnapshotFile], list[Path]]:
    """Every snapshot under ``save_path`` (at any depth), and the other ``.pickle`` files there
    that no rule names. Whatever bears a snapshot's name is one, readable or not (a dangling
    link, a folder): the reader says what is wrong with it."""
    found, other = [], []
    for path in sorted(Path(save_path).rglob(f"*{SUFFIX}")):
        snapshot = parse(path)
        if snapshot is None:
            other.append(path)
        else:
            found.append(snapshot)
    return found, other
