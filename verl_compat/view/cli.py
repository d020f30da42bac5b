"""``verl-compat view SAVE_PATH``: every memory snapshot of a run on one offline page (or ``--text``).

Unreadable files are left out and named, on the page (marked incomplete) and on stderr, with exit
status 1: one bad pickle should not hide the 159 good ones, and nobody should take the page for
the whole run. With nothing readable there is no page (exit status 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from .. import snapshot_files
from ..files import write_atomically
from . import html, parallel, text
from . import run as run_model

OK, INCOMPLETE, NOTHING = 0, 1, 2
DEFAULT_OUTPUT = "memory_view.html"
PATTERNS = (snapshot_files.STEP_PATTERN, snapshot_files.OOM_PATTERN, snapshot_files.LEGACY_PATTERN)

LAYOUTS = "\n".join(
    f"  {pattern:<58}{what}"
    for pattern, what in (
        (snapshot_files.STEP_PATTERN, "one per step and rank"),
        (snapshot_files.WINDOW_PATTERN, "verl 0.9.1: several steps per dump"),
        (snapshot_files.OOM_PATTERN, "at a CUDA out-of-memory error"),
        (snapshot_files.LEGACY_PATTERN, "verl 0.6/0.7's legacy call, step N"),
    )
)

EPILOG = f"""\
Finds the snapshots that verl and verl-compat write under a profiler save_path, at any depth:
{LAYOUTS}

The page is one self-contained HTML file (no network: it opens from file:// and as a CI
artefact); it names each snapshot's path, to open it in PyTorch's memory_viz as well.

Reading a pickle runs code. view loads snapshots with a restricted unpickler that accepts only
the builtin types a memory snapshot is made of (dict, list, tuple, str, int, float, bool, None)
and refuses any other; still, read only snapshots you trust.

exit status:
  {OK}  every snapshot read; the page (or --text summary) covers them all
  {INCOMPLETE}  written, but some files could not be read: each is named on stderr and on the page
  {NOTHING}  nothing to show: no snapshot found or none readable (or a usage error)

examples:
  verl-compat view outputs/profile -o memory.html
  verl-compat view outputs/profile --text

docs: https://github.com/verl-compat/verl-compat/blob/main/docs/view.md"""


def _jobs(value: str) -> int:
    try:
        jobs = int(value)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"expected a number of processes, 1 or more: {value!r}")
    return jobs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EPILOG
    parser.add_argument("save_path", metavar="SAVE_PATH", type=Path, help="the profiler's save_path")
    parser.add_argument(
        "-o", "--output", type=Path, default=Path(DEFAULT_OUTPUT), help=f"the page to write (default: {DEFAULT_OUTPUT})"
    )
    parser.add_argument(
        "--text", action="store_true", help="print the summary (OOMs, findings, the table) instead of writing a page"
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        metavar="N",
        help="read snapshots in N processes at once (default: one per core; each holds one unpickled snapshot, "
        "several times its file size); 1 reads them in this process",
    )


class Progress:
    """A one-line bar on stderr while reading, where stderr is a terminal."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream if stream.isatty() else None

    def __call__(self, done: int, total: int, path: Path | None) -> None:
        if self.stream is None or total < 2:
            return
        filled = 30 * done // total
        end = "\n" if done == total else ""
        self.stream.write(f"\rreading snapshots [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}{end}")
        self.stream.flush()


def run(args: argparse.Namespace) -> int:
    save_path = args.save_path
    if not save_path.is_dir():
        print(f"verl-compat view: {save_path}: not a folder", file=sys.stderr)
        return NOTHING
    try:
        jobs = args.jobs or parallel.cores()
        result = run_model.collect(save_path, progress=Progress(sys.stderr), jobs=jobs)
    except OSError as exc:
        print(f"verl-compat view: {save_path}: cannot list: {exc.strerror or exc}", file=sys.stderr)
        return NOTHING
    for path, reason in result.bad:
        print(f"verl-compat view: {path}: {reason}", file=sys.stderr)
    if not result.cells and not result.ooms:
        what = "no snapshot could be read" if result.bad else "no memory snapshot found"
        hint = "" if result.bad else f" (looked for {', '.join(PATTERNS)} at any depth)"
        print(f"verl-compat view: {save_path}: {what}{hint}; nothing written", file=sys.stderr)
        return NOTHING
    if args.text:
        sys.stdout.write(text.render(result))
    else:
        try:
            write_atomically(args.output, html.render(result))
        except OSError as exc:
            print(f"verl-compat view: {args.output}: cannot write: {exc.strerror or exc}", file=sys.stderr)
            return NOTHING
        state = "INCOMPLETE page" if result.bad else "page"
        print(f"verl-compat view: wrote {state} {args.output} ({result.snapshot_count} snapshots)", file=sys.stderr)
    if result.bad:
        print(f"verl-compat view: {len(result.bad)} file(s) left out (named above)", file=sys.stderr)
        return INCOMPLETE
    return OK
