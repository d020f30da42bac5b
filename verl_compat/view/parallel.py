"""Read a run's snapshots on every core, one snapshot per worker process at a time.

Reading a snapshot is nearly all unpickling (about 0.5 s of CPU and 160 MiB for a 20 MB file),
which holds the GIL: threads would not help, processes do. A worker loads one pickle, summarises
it and sends back the :class:`~verl_compat.view.summary.Summary` (a few KB), then frees it; no
more files are handed out than there are workers, so memory stays at one unpickled snapshot per
worker. Results come back in the files' order, whatever order the workers finish in.

Workers start with ``forkserver`` (``spawn`` where there is none), never ``fork``: view may run in
a process that imported torch or Ray, whose threads make a forked child unsafe. A worker that dies
(the kernel's out-of-memory killer, a signal) breaks its pool: the files in flight are read again,
each in a process of its own, and one that kills that process too is named as unreadable; the
others go on in a new pool.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from pathlib import Path

from ..snapshot_files import SnapshotFile
from .read import SnapshotError, load
from .summary import Summary, summarise

Outcome = Summary | str  # the summary, or why the file could not be read
Reader = Callable[[SnapshotFile], Outcome]
Progress = Callable[[int, int, Path | None], None]  # (files done, files in all, the file or None)
DIED = "cannot read: the process reading it died (out of memory, or killed)"


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    if hasattr(os, "process_cpu_count"):  # Python 3.13+
        return os.process_cpu_count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def read_one(file: SnapshotFile) -> Outcome:
    """``file`` summarised, or the one-line reason it cannot be."""
    try:
        return summarise(load(file.path), file)
    except SnapshotError as exc:
        return str(exc)
    except (RecursionError, MemoryError) as exc:
        return f"not a memory snapshot ({type(exc).__name__})"


def read_all(
    files: list[SnapshotFile], jobs: int, progress: Progress | None = None, read: Reader = read_one
) -> list[Outcome]:
    """``read(file)`` for each of ``files``, in their order, in up to ``jobs`` worker processes
    (in this process when ``jobs`` or the number of files is 1)."""
    total = len(files)
    workers = min(jobs, total)
    if workers <= 1:
        outcomes = []
        for done, file in enumerate(files):
            if progress is not None:
                progress(done, total, file.path)
            outcomes.append(read(file))
        return outcomes

    found: dict[int, Outcome] = {}

    def finished(index: int, outcome: Outcome) -> None:
        found[index] = outcome
        if progress is not None and len(found) < total:
            progress(len(found), total, files[index].path)

    if progress is not None:
        progress(0, total, None)
    waiting = deque(range(total))
    while waiting:
        for index in _pool_pass(files, waiting, workers, read, finished):
            finished(index, _alone(files[index], read))
    return [found[index] for index in range(total)]


def _pool_pass(
    files: list[SnapshotFile],
    waiting: deque[int],
    workers: int,
    read: Reader,
    finished: Callable[[int, Outcome], None],
) -> list[int]:
    """Read the ``waiting`` files in one pool until they are done or a worker dies; returns the
    files that were in flight when it died."""
    orphans: list[int] = []
    running: dict[Future[Outcome], int] = {}

    def settle(future: Future[Outcome], index: int) -> None:
        try:
            outcome = future.result()
        except BrokenProcessPool:
            orphans.append(index)
        else:
            finished(index, outcome)

    with ProcessPoolExecutor(workers, mp_context=_context()) as pool:
        while (waiting or running) and not orphans:
            while waiting and len(running) < workers:
                index = waiting.popleft()
                running[pool.submit(read, files[index])] = index
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                settle(future, running.pop(future))
    for future, index in running.items():  # the pool is shut down: each has its outcome or the breakage
        settle(future, index)
    return orphans


def _alone(file: SnapshotFile, read: Reader) -> Outcome:
    """``read(file)`` in a process of its own: a file that kills its reader is named, not retried."""
    with ProcessPoolExecutor(1, mp_context=_context()) as pool:
        try:
            return pool.submit(read, file).result()
        except BrokenProcessPool:
            return DIED


def _context() -> BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
