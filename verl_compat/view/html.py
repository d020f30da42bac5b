"""The run as one self-contained HTML page: inline CSS, SVG and script, nothing fetched.

The sections (OOM, findings, table, charts, file list) are static HTML and SVG written here, so
the page reads without JavaScript; the script only fills the snapshot panel (top allocations at
the peak, difference from the previous step) from a JSON block, for the snapshot picked in the
table or the list. Stacks are stored once and referred to by index.

The page stays under ``LIMIT_BYTES`` whatever the run's size: it is rendered at the most detailed
of ``LEVELS`` that fits (fewer stacks, frames and chart points per level), then, if even the least
detail is too much, with fewer steps in the table (the first, the last, flagged ones, the rest
evenly spaced), halving until it fits.

The page's CSS and script are package data (``page.css``, ``page.js``), read with
``importlib.resources`` so that they work from a wheel, a zip or a checkout alike, and inlined.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Sequence
from datetime import datetime
from html import escape
from importlib import resources
from typing import Any

from .._version import __version__
from .run import Run, diff_by_stack, findings, format_bytes, grew, growth, imbalance, imbalanced
from .summary import Stack, Summary
from .text import oom_request, oom_time, relative, same_blocks

LIMIT_BYTES = 10_000_000
GIB = 1 << 30
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")
Point = tuple[int, int, int]  # a timeline point: (time_us, allocated, reserved)


@dataclasses.dataclass(frozen=True)
class Level:
    top: int  # stacks at the peak per snapshot
    diff: int  # stacks in the diff per snapshot
    frames: int  # frames per stack
    points: int  # timeline points per rank


LEVELS = (Level(12, 12, 10, 2400), Level(6, 6, 6, 1200), Level(3, 3, 4, 600), Level(1, 1, 2, 150))


@functools.cache
def asset(name: str) -> str:
    """``page.css`` or ``page.js``, as shipped in the package."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def render(run: Run) -> str:
    """The most detailed page under ``LIMIT_BYTES``: every step at the finest level that fits,
    else the least detail and half as many steps shown, until it fits."""
    for level in LEVELS:
        page = Page(run, level, run.rows).html()
        if len(page.encode()) < LIMIT_BYTES:
            return page
    shown = len(run.rows)
    while shown > 2:
        shown //= 2
        page = Page(run, LEVELS[-1], _shown_rows(run, shown)).html()
        if len(page.encode()) < LIMIT_BYTES:
            break
    return page


class Page:
    def __init__(self, run: Run, level: Level, rows: list[str]) -> None:
        self.run, self.level, self.rows = run, level, rows
        shown = ((row, rank) for row in self.rows for rank in run.ranks if (row, rank) in run.cells)
        self.ids = {key: i for i, key in enumerate(shown)}
        self.stacks: dict[Stack, int] = {}

    def stack(self, stack: Stack) -> int:
        stack = stack[: self.level.frames]
        return self.stacks.setdefault(stack, len(self.stacks))

    # --- the page -----------------------------------------------------------------------------

    def html(self) -> str:
        run = self.run
        title = f"verl-compat view: {run.save_path}" + (" (INCOMPLETE)" if run.bad else "")
        body = [
            f"<header><h1>Memory snapshots of {escape(str(run.save_path))}</h1>",
            f'<p class="meta">{run.snapshot_count} snapshots: {len(run.rows)} steps &times; {len(run.ranks)} ranks, '
            f"{len(run.ooms)} out-of-memory &middot; verl-compat {escape(__version__)} view, "
            f"{datetime.now().isoformat(sep=' ', timespec='seconds')}</p></header>",
            self.incomplete(),
            self.oom(),
            self.findings(),
            self.table(),
            self.charts(),
            self.detail(),
            self.files(),
        ]
        data = json.dumps(self.data(), separators=(",", ":")).replace("</", "<\\/")
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>\n{asset('page.css')}</style></head><body>\n"
            + "\n".join(part for part in body if part)
            + f'\n<script type="application/json" id="data">{data}</script>\n'
            + f"<script>\n{asset('page.js')}</script>\n</body></html>\n"
        )

    def incomplete(self) -> str:
        if not self.run.bad:
            return ""
        items = "".join(
            f"<li><code>{escape(relative(self.run, path))}</code>: {escape(reason)}</li>"
            for path, reason in self.run.bad
        )
        return (
            f'<section id="incomplete" class="warn"><h2>Incomplete: {len(self.run.bad)} file(s) could not be read</h2>'
            f"<p>They are left out of everything below.</p><ul>{items}</ul></section>"
        )

    def oom(self) -> str:
        if not self.run.ooms:
            return ""
        cards = []
        for s in self.run.ooms:
            blocks = "".join(
                f'<tr><td class="num">{count} &times; {format_bytes(size)}</td>'
                f"<td>{_stack_html(stack[: self.level.frames])}</td></tr>"
                for (size, stack), count in same_blocks(s.largest_blocks)
            )
            cards.append(
                f'<div class="oom-card" data-rank="{s.file.rank}"><h3>Rank {s.file.rank} ran out of memory</h3><dl>'
                f"<dt>when</dt><dd>{escape(oom_time(s))}</dd>"
                f"<dt>device</dt><dd>{escape(str(s.device))} (pid {s.file.pid})</dd>"
                f"<dt>request</dt><dd>{escape(oom_request(s))}</dd>"
                f'<dt>live</dt><dd class="oom-live">{format_bytes(s.end_allocated)} allocated, '
                f"{format_bytes(s.end_reserved)} reserved</dd>"
                f"<dt>file</dt><dd><code>{escape(relative(self.run, s.file.path))}</code></dd></dl>"
                f'<table class="blocks"><thead><tr><th>largest live blocks</th><th>allocated from</th></tr></thead>'
                f"<tbody>{blocks}</tbody></table></div>"
            )
        return f'<section id="oom"><h2>Out of memory ({len(self.run.ooms)})</h2>{"".join(cards)}</section>'

    def findings(self) -> str:
        found = findings(self.run)
        if not found:
            items = (
                "<li>Nothing stands out: no rank keeps growing from step to step, and no rank is 10 % above the "
                "others.</li>"
            )
        else:
            items = "".join(
                f'<li class="finding {f.kind}"><b>{f.kind}</b>: {escape(f.text)}'
                + (f"<br>grew most: {_stack_html(f.stack[:3])}" if f.stack else "")
                + "</li>"
                for f in found
            )
        return f'<section id="findings"><h2>Findings</h2><ul>{items}</ul></section>'

    def table(self) -> str:
        run = self.run
        if not run.cells:
            return (
                '<section id="steps"><h2>Steps</h2><p class="note">No step snapshots: only the OOM above.</p></section>'
            )
        peaks = [s.peak_allocated for s in run.cells.values()]
        low, span = min(peaks), (max(peaks) - min(peaks)) or 1
        head = "".join(f"<th>rank {rank}</th>" for rank in run.ranks)
        body = []
        for row in self.rows:
            cells = []
            for rank in run.ranks:
                s = run.cells.get((row, rank))
                if s is None:
                    cells.append('<td class="empty">&ndash;</td>')
                    continue
                flags, classes = [], ["cell"]
                if grew(run, row, rank):
                    flags.append(
                        f'<span class="flag grow" title="held at step end vs the step before">'
                        f"&#9650; +{format_bytes(growth(run, row, rank))}</span>"
                    )
                    classes.append("grew")
                if imbalanced(run, row, rank):
                    flags.append(
                        f'<span class="flag imbalance" title="peak over the median rank">'
                        f"&#9670; {imbalance(run, row, rank):.2f}&times;</span>"
                    )
                    classes.append("imbalanced")
                cells.append(
                    f'<td class="{" ".join(classes)}" data-id="{self.ids[(row, rank)]}" '
                    f'style="background:{_heat((s.peak_allocated - low) / span)}" tabindex="0">'
                    f'<span class="peak">{s.peak_allocated / GIB:.2f}</span>'
                    f'<span class="sub">res {s.reserved_at_peak / GIB:.2f} &middot; '
                    f"frag {s.fragmentation / GIB:.2f}</span>"
                    f"{''.join(flags)}</td>"
                )
            body.append(f"<tr><th>{escape(row)}</th>{''.join(cells)}</tr>")
        shown = (
            ""
            if len(self.rows) == len(run.rows)
            else (
                f'<p class="note">{len(self.rows)} of {len(run.rows)} steps shown (every flagged step, the rest evenly '
                "spaced), to keep this page under 10 MB; <code>verl-compat view --text</code> lists every step.</p>"
            )
        )
        return (
            '<section id="steps"><h2>Peak memory per step and rank (GiB)</h2>'
            "<p>Each cell: peak allocated (coloured from the run's lowest, pale, to its highest, red), reserved at "
            "that moment, and fragmentation (reserved &minus; allocated). &#9650; the rank held more at the end of "
            "the step than at the end of the step before; &#9670; its peak is 10 % or more above the median rank. "
            "Click a cell for its details.</p>"
            f'{shown}<table id="steps-table"><thead><tr><th>step</th>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table></section>"
        )

    def charts(self) -> str:
        return (
            '<section id="charts"><h2>Allocated memory over time, per rank</h2>'
            + _timeline(self.run, self.level.points)
            + "<h2>Peak allocated per step, per rank</h2>"
            + _peaks(self.run, self.rows)
            + "</section>"
        )

    def detail(self) -> str:
        if not self.ids:
            return ""
        options = "".join(
            f'<option value="{i}">{escape(row)}, rank {rank}</option>' for (row, rank), i in self.ids.items()
        )
        return (
            '<section id="detail"><h2>Snapshot</h2><label>snapshot <select id="pick">'
            f'{options}</select></label><div id="detail-body"><p>Pick a snapshot in the table.</p></div></section>'
        )

    def files(self) -> str:
        run = self.run
        rows = "".join(
            f"<tr><td>{escape(row)}</td><td>{rank}</td>"
            f"<td><code>{escape(relative(run, run.cells[(row, rank)].file.path))}</code></td></tr>"
            for (row, rank) in self.ids
        )
        extra = ""
        if run.replaced:
            extra += (
                "<p>Two files for one step and rank (a restarted run?); the newer is shown:</p><ul>"
                + "".join(
                    f"<li><code>{escape(relative(run, kept))}</code> over "
                    f"<code>{escape(relative(run, dropped))}</code></li>"
                    for kept, dropped in run.replaced
                )
                + "</ul>"
            )
        if run.ignored:
            extra += (
                f"<p>{len(run.ignored)} other <code>.pickle</code> file(s) are not named as snapshots and were not "
                "read:</p><ul>"
                + "".join(f"<li><code>{escape(relative(run, path))}</code></li>" for path in run.ignored[:50])
                + "</ul>"
            )
        return (
            '<section id="files"><h2>Files</h2><p>Any of them opens in PyTorch\'s memory_viz '
            "(<code>python -m torch.cuda._memory_viz trace_plot FILE</code>, "
            "or the page at pytorch.org/memory_viz).</p>"
            f"<details><summary>{len(self.ids)} snapshot files</summary><table><thead><tr><th>step</th><th>rank</th>"
            f"<th>path under {escape(str(run.save_path))}</th></tr></thead><tbody>{rows}</tbody></table></details>"
            f"{extra}</section>"
        )

    # --- the snapshot panel's data ------------------------------------------------------------

    def data(self) -> dict[str, Any]:
        snapshots = []
        for row, rank in self.ids:
            s = self.run.cells[(row, rank)]
            previous = self.run.previous(row, rank)
            snapshots.append(
                {
                    "label": row,
                    "rank": rank,
                    "path": relative(self.run, s.file.path),
                    "peak": s.peak_allocated,
                    "reserved": s.reserved_at_peak,
                    "frag": s.fragmentation,
                    "end": s.end_allocated,
                    "events": s.events,
                    "top": [[self.stack(stack), size, count] for stack, size, count in s.at_peak[: self.level.top]],
                    "prev": None if previous is None else self.run.row_before(row),
                    "diff": [] if previous is None else self._diff(previous, s),
                }
            )
        return {
            "snapshots": snapshots,
            "stacks": [list(stack) for stack in self.stacks],
            "start": self._start(),
        }

    def _diff(self, previous: Summary, current: Summary) -> list[list[int]]:
        held = dict(diff_by_stack(previous.at_end, current.at_end))
        peak = dict(diff_by_stack(previous.at_peak, current.at_peak))
        ordered = sorted(set(held) | set(peak), key=lambda stack: (-held.get(stack, 0), -peak.get(stack, 0)))
        return [[self.stack(stack), held.get(stack, 0), peak.get(stack, 0)] for stack in ordered[: self.level.diff]]

    def _start(self) -> int | None:
        """The snapshot the panel opens on: the last step of a leak, else the highest peak."""
        for finding in findings(self.run):
            if finding.kind == "leak":
                for row in reversed(self.rows):
                    if (row, finding.ranks[0]) in self.ids:
                        return self.ids[(row, finding.ranks[0])]
        if not self.ids:
            return None
        return self.ids[max(self.ids, key=lambda key: self.run.cells[key].peak_allocated)]


def _shown_rows(run: Run, count: int) -> list[str]:
    """About ``count`` rows: the first and the last, flagged ones (up to half), the rest evenly spaced."""
    flagged = [row for row in run.rows if any(grew(run, row, r) or imbalanced(run, row, r) for r in run.ranks)]
    keep = set(flagged[: count // 2]) | {run.rows[0], run.rows[-1]}
    stride = -(-len(run.rows) // max(count - len(keep), 1))
    keep |= set(run.rows[::stride])
    return [row for row in run.rows if row in keep]


def _heat(share: float) -> str:
    """Pale yellow (the run's lowest peak) to red (its highest)."""
    share = min(max(share, 0.0), 1.0)
    return f"hsl({round(50 - 50 * share)}, 95%, {round(97 - 37 * share)}%)"


def _stack_html(stack: Stack | None) -> str:
    if not stack:
        return ""
    rest = "".join(f"<li>{escape(frame)}</li>" for frame in stack[1:])
    first = f"<code>{escape(stack[0])}</code>"
    return f'<details class="stack"><summary>{first}</summary><ol>{rest}</ol></details>' if rest else first


# --- charts (SVG) -----------------------------------------------------------------------------

WIDTH, HEIGHT, LEFT, BOTTOM, TOP, RIGHT = 920, 280, 64, 34, 14, 120


def _axes(x_label: str, x_ticks: list[tuple[float, str]], y_max: float) -> str:
    parts = [
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" class="axis"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" class="axis"/>',
        f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 4}" class="label">{escape(x_label)}</text>',
        f'<text x="12" y="{TOP + 4}" class="label" transform="rotate(90 12 {TOP + 4})">GiB allocated</text>',
    ]
    for i in range(5):
        value = y_max * i / 4
        y = _y(value, y_max)
        parts.append(f'<line x1="{LEFT - 4}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" class="grid"/>')
        parts.append(f'<text x="{LEFT - 8}" y="{y + 4:.1f}" class="tick" text-anchor="end">{value / GIB:.1f}</text>')
    for x, text in x_ticks:
        parts.append(
            f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 16}" class="tick" text-anchor="middle">{escape(text)}</text>'
        )
    return "".join(parts)


def _y(value: float, y_max: float) -> float:
    return HEIGHT - BOTTOM - (HEIGHT - BOTTOM - TOP) * (value / y_max if y_max else 0)


def _legend(ranks: Sequence[int]) -> str:
    return "".join(
        f'<g class="legend"><rect x="{WIDTH - RIGHT + 14}" y="{TOP + 16 * i}" width="10" height="10" '
        f'fill="{COLOURS[i % len(COLOURS)]}"/>'
        f'<text x="{WIDTH - RIGHT + 30}" y="{TOP + 16 * i + 9}" class="tick">rank {rank}</text></g>'
        for i, rank in enumerate(ranks)
    )


def _timeline(run: Run, points: int) -> str:
    series: dict[int, list[list[Point]]] = {}
    for rank in run.ranks:
        pieces = [run.cells[(row, rank)].timeline for row in run.rows if (row, rank) in run.cells]
        pieces += [s.timeline for s in run.ooms if s.file.rank == rank]
        pieces = [p for p in pieces if p]
        total = sum(len(p) for p in pieces)
        stride = max(-(-total // points), 1)
        series[rank] = [_thin(p, stride) for p in sorted(pieces)]
    every = [point for pieces in series.values() for p in pieces for point in p]
    if not every:
        return '<p class="note" id="timeline-none">No timeline: these snapshots hold no timed allocator history.</p>'
    t0, t1 = min(p[0] for p in every), max(p[0] for p in every)
    y_max = max(p[1] for p in every) * 1.08 or 1
    span = (t1 - t0) or 1

    def x(t: float) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * (t - t0) / span

    paths = []
    for i, (rank, pieces) in enumerate(series.items()):
        d = " ".join(
            "M" + " L".join(f"{x(t):.1f},{_y(a, y_max):.1f}" for t, a, _ in piece) for piece in pieces if piece
        )
        if d:
            paths.append(
                f'<path class="series" data-rank="{rank}" d="{d}" stroke="{COLOURS[i % len(COLOURS)]}">'
                f"<title>rank {rank}</title></path>"
            )
    marks = []
    for s in run.ooms:
        for oom in s.ooms:
            if oom["time_us"] is not None:
                ox = x(oom["time_us"])
                marks.append(
                    f'<line class="oom-mark" x1="{ox:.1f}" y1="{TOP}" x2="{ox:.1f}" y2="{HEIGHT - BOTTOM}"/>'
                    f'<text class="oom-label" x="{ox - 4:.1f}" y="{TOP + 10}" text-anchor="end">'
                    f"OOM rank {s.file.rank}</text>"
                )
    ticks = [(x(t0 + span * i / 4), f"{span * i / 4 / 1e6:.0f} s") for i in range(5)]
    return (
        f'<svg id="timeline" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        'aria-label="allocated memory over time">'
        f"{_axes('time since the first recorded allocation', ticks, y_max)}{''.join(paths)}{''.join(marks)}"
        f"{_legend(run.ranks)}</svg>"
    )


def _thin(points: list[Point], stride: int) -> list[Point]:
    """Every ``stride``-th point, keeping the highest of each stretch."""
    if stride <= 1:
        return points
    return [max(points[i : i + stride], key=lambda p: p[1]) for i in range(0, len(points), stride)]


def _peaks(run: Run, rows: list[str]) -> str:
    if not rows:
        return ""
    y_max = max(s.peak_allocated for s in run.cells.values()) * 1.08 or 1
    step = (WIDTH - LEFT - RIGHT) / max(len(rows) - 1, 1)

    def x(i: int) -> float:
        return LEFT + step * i if len(rows) > 1 else (LEFT + WIDTH - RIGHT) / 2

    lines = []
    for c, rank in enumerate(run.ranks):
        colour = COLOURS[c % len(COLOURS)]
        points = [(i, run.cells[(row, rank)]) for i, row in enumerate(rows) if (row, rank) in run.cells]
        if not points:
            continue
        d = "M" + " L".join(f"{x(i):.1f},{_y(s.peak_allocated, y_max):.1f}" for i, s in points)
        dots = "".join(
            f'<circle cx="{x(i):.1f}" cy="{_y(s.peak_allocated, y_max):.1f}" r="3" fill="{colour}">'
            f"<title>{escape(rows[i])}, rank {rank}: {format_bytes(s.peak_allocated)}</title></circle>"
            for i, s in points
        )
        lines.append(f'<g class="series" data-rank="{rank}"><path d="{d}" stroke="{colour}"/>{dots}</g>')
    every = max(len(rows) // 10, 1)
    ticks = [(x(i), row.replace("step ", "")) for i, row in enumerate(rows) if i % every == 0]
    return (
        f'<svg id="peaks" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="peak allocated per step">'
        f"{_axes('step', ticks, y_max)}{''.join(lines)}{_legend(run.ranks)}</svg>"
    )
