"""``verl-compat view``: a run's snapshots found by the shared naming rules, read without running
code, reduced to the numbers the allocator really had, with the leak, the imbalanced rank and the
OOM shown; bad files named in one line each, never a traceback, never a page that passes for
complete. The snapshots come from ``scripts/make_snapshots.py`` (torch's snapshot format, a small
caching-allocator simulation that also says what the viewer must find: ``synthetic_snapshots``).

The page in a real browser: ``tests/browser/test_view_page.py``.
"""

import os
import pickle
import pty
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest
from pyrun import run_argv, run_python
from synthetic_snapshots import ROOT, GiB, write_run

from verl_compat import snapshot_files
from verl_compat.fixes import oom_snapshot
from verl_compat.view import html, read
from verl_compat.view import run as run_model
from verl_compat.view.summary import summarise

pytestmark = pytest.mark.once

STEPS, RANKS = 4, 4


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """4 ranks x 4 steps, 48 MiB kept per step on every rank, rank 3 imbalanced, rank 1's OOM."""
    path = tmp_path_factory.mktemp("prof")
    return path, write_run(path, ranks=RANKS, steps=STEPS)


def view(*args, check=False):
    return run_argv(["-m", "verl_compat", "view", *map(str, args)], check=check)


def no_traceback(proc):
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    return proc


# --- the naming rules ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "relative, layout, step, rank",
    [
        ("step3/torch_memory_rank2_pid77.pickle", "step", 3, 2),
        ("steps3-5/torch_memory_rank0_pid77.pickle", "window", 5, 0),
        ("step4/post_update_step4_rank1_pid9.pickle", "legacy", 3, 1),  # labelled one step late
        ("oom_20261204-093026-123456/torch_memory_oom_rank1_pid9.pickle", "oom", None, 1),
        ("20261204-0930/torch_memory_rank5_pid9.pickle", "untimed", None, 5),
    ],
)
def test_every_layout_verl_and_verl_compat_write_is_named(relative, layout, step, rank):
    parsed = snapshot_files.parse(Path("/save") / relative)
    assert (parsed.layout, parsed.step, parsed.rank) == (layout, step, rank)


@pytest.mark.parametrize(
    "relative",
    [
        "step3/post_update_step4_rank1_pid9.pickle",  # the legacy tag names its own folder
        "oom_20261204/torch_memory_oom_rank1_pid9.pickle",
        "step3/torch_memory_oom_rank1_pid9.pickle",
        "step3/model_rank1.pickle",
        "misc/torch_memory_rank1_pid9.pickle",
    ],
)
def test_names_outside_the_rules_are_not_snapshots(relative):
    assert snapshot_files.parse(Path("/save") / relative) is None


def test_the_oom_fix_writes_names_the_viewer_reads(monkeypatch):
    """The fix's dump is asked for the tag and folder the viewer parses (verl's sampler adds the rank
    and pid to the tag, as ``snapshot_files.file_name`` spells it)."""
    asked = {}

    class Sampler:
        def dump_memory_snapshot(self, out_dir, tag, sub_dir, **kwargs):
            asked.update(out_dir=out_dir, tag=tag, sub_dir=sub_dir)

    profiler = types.SimpleNamespace(config=types.SimpleNamespace(save_path="/save"), sampler=Sampler())
    monkeypatch.setattr(oom_snapshot.probes, "snapshot_dump_can_skip_sync", lambda: False)
    oom_snapshot.Observer._dump(profiler)

    path = Path(asked["out_dir"]) / asked["sub_dir"] / snapshot_files.file_name(asked["tag"], 3, 42)
    parsed = snapshot_files.parse(path)
    assert (parsed.layout, parsed.rank, parsed.pid) == ("oom", 3, 42)


# --- what one snapshot says -------------------------------------------------------------------


def test_each_summary_has_the_allocators_own_numbers(run_dir):
    _, written = run_dir
    for truth in written:
        file = snapshot_files.parse(truth["path"])
        summary = summarise(read.load(truth["path"]), file)
        assert (summary.peak_allocated, summary.end_allocated) == (truth["peak"], truth["end"]), truth["path"]
        assert sum(size for _, size, _ in summary.at_peak) == truth["peak"]  # every live byte has a stack
        assert summary.reserved_at_peak >= summary.peak_allocated
        assert summary.timeline and max(a for _, a, _ in summary.timeline) == truth["peak"]


def test_a_newer_torchs_extra_fields_are_ignored(run_dir, tmp_path):
    truth = run_dir[1][-1]
    data = read.load(truth["path"])
    data["a_future_field"] = {"anything": [1, 2]}
    for segment in data["segments"]:
        segment["future"] = 1
        for block in segment["blocks"]:
            block["future"] = "x"
    for entry in data["device_traces"][0]:
        entry["future"] = None
    target = tmp_path / truth["path"].parent.name / truth["path"].name
    target.parent.mkdir()
    target.write_bytes(pickle.dumps(data))
    summary = summarise(read.load(target), snapshot_files.parse(target))
    assert (summary.peak_allocated, summary.end_allocated) == (truth["peak"], truth["end"])


# --- the run, in a terminal -------------------------------------------------------------------


def test_text_shows_the_oom_the_leak_and_the_imbalanced_rank(run_dir):
    path, written = run_dir
    out = no_traceback(view(path, "--text", check=True)).stdout
    oom = next(t for t in written if t["step"] is None)
    assert "OUT OF MEMORY (1)" in out
    assert "rank 1 (pid 4001, device 0) at " in out and "asked for 24.00 GiB with 1.25 GiB free" in out
    assert f"live: {run_model.format_bytes(oom['end'])} allocated" in out
    assert "8 x  256.00 MiB  torch/optim/adamw.py:170 _init_group" in out
    assert "leak: memory held after each step grows on ranks 0, 1, 2, 3: 48.00 MiB per step (step 1 to step 4)" in out
    assert "grew most: my_recipe/metrics.py:37 keep_logits" in out
    imbalance = [line for line in out.splitlines() if line.startswith("  imbalance:")]
    assert len(imbalance) == 1 and imbalance[0].startswith("  imbalance: rank 3 peaks"), imbalance
    assert out.index("OUT OF MEMORY") < out.index("FINDINGS") < out.index("PEAK ALLOCATED")
    rows = {line.split()[1]: line for line in out.splitlines() if re.match(r"  step \d ", line)}
    for truth in written:
        if truth["step"] is not None:
            cell = rows[str(truth["step"])].split()[2 + truth["rank"]]
            assert cell.startswith(f"{truth['peak'] / GiB:.2f}/"), (truth, cell)
            assert ("+" in cell) == (truth["step"] > 1), cell  # growth flagged from step 2 on


def test_legacy_files_are_shown_as_the_step_they_describe(tmp_path):
    written = write_run(tmp_path, ranks=2, steps=3, layout="legacy", oom_rank=None, imbalanced_rank=None)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["step2", "step3", "step4"]
    out = view(tmp_path, "--text", check=True).stdout
    rows = [line.split() for line in out.splitlines() if re.match(r"  step \d ", line)]
    assert [row[:2] for row in rows] == [["step", "1"], ["step", "2"], ["step", "3"]]
    for truth in written:
        assert rows[truth["step"] - 1][2 + truth["rank"]].startswith(f"{truth['peak'] / GiB:.2f}/")


def test_progress_bar_on_a_terminal_only(run_dir):
    path, _ = run_dir
    primary, secondary = pty.openpty()
    proc = subprocess.run(
        [sys.executable, "-m", "verl_compat", "view", str(path), "--text"],
        stdout=subprocess.PIPE,
        stderr=secondary,
        timeout=120,
    )
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(primary)
    assert proc.returncode == 0
    assert f"reading snapshots [{'#' * 30}] {RANKS * STEPS + 1}/{RANKS * STEPS + 1}" in b"".join(chunks).decode()
    assert "reading snapshots" not in view(path, "--text").stderr  # a pipe: no bar


# --- the page ---------------------------------------------------------------------------------


def test_page_is_self_contained_and_names_every_file(run_dir, tmp_path):
    path, written = run_dir
    page = tmp_path / "out" / "report.html"
    proc = no_traceback(view(path, "-o", page, check=True))
    assert f"wrote page {page} ({RANKS * STEPS + 1} snapshots)" in proc.stderr
    text = page.read_text()
    for forbidden in ("src=", "<link", "url(", "@import", "http://", "https://"):
        assert forbidden not in text, forbidden
    for truth in written:
        assert str(truth["path"].relative_to(path)) in text
    assert "INCOMPLETE" not in text
    assert oct(page.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_an_oom_alone_is_shown(run_dir, tmp_path):
    oom = next(t for t in run_dir[1] if t["step"] is None)["path"]
    (tmp_path / oom.parent.name).mkdir()
    (tmp_path / oom.parent.name / oom.name).write_bytes(oom.read_bytes())
    page = tmp_path / "page.html"
    proc = no_traceback(view(tmp_path, "-o", page, check=True))
    assert "(1 snapshots)" in proc.stderr
    assert "Rank 1 ran out of memory" in page.read_text() and "No step snapshots" in page.read_text()
    assert "OUT OF MEMORY (1)" in view(tmp_path, "--text", check=True).stdout


def test_page_stays_under_its_limit_by_shedding_detail(tmp_path, monkeypatch):
    write_run(tmp_path, ranks=2, steps=40, events=6, oom_rank=None)
    result = run_model.collect(tmp_path)
    full = html.render(result)
    assert "steps shown" not in full
    monkeypatch.setattr(html, "LIMIT_BYTES", len(full.encode()) // 4)
    small = html.render(result)
    assert len(small.encode()) < html.LIMIT_BYTES
    assert re.search(r"\d+ of 40 steps shown", small)
    assert "step 40" in small and "step 1<" in small  # first and last steps stay


# --- bad input --------------------------------------------------------------------------------


def test_an_empty_folder_writes_nothing(tmp_path):
    page = tmp_path / "page.html"
    proc = no_traceback(view(tmp_path, "-o", page))
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"verl-compat view: {tmp_path}: no memory snapshot found (looked for "
        f"{snapshot_files.STEP_PATTERN}, {snapshot_files.OOM_PATTERN}, {snapshot_files.LEGACY_PATTERN} at any depth); "
        "nothing written"
    ]
    assert not page.exists()


def test_a_missing_folder_is_named(tmp_path):
    proc = no_traceback(view(tmp_path / "nope", "--text"))
    assert (proc.returncode, proc.stderr) == (2, f"verl-compat view: {tmp_path / 'nope'}: not a folder\n")


class Exploit:
    def __reduce__(self):
        return (os.system, (f"touch {MARKER}",))


MARKER = None


def _bad_files(folder: Path, good: Path) -> dict:
    """One file per way to be bad, named as snapshots; returns {path: the reason view must give}."""
    global MARKER
    MARKER = folder / "code-ran"
    step = folder / "step9"
    step.mkdir()
    cases = {}
    cases[step / "torch_memory_rank0_pid1.pickle"] = "not a memory snapshot: the pickle asks for posix.system"
    (step / "torch_memory_rank0_pid1.pickle").write_bytes(pickle.dumps(Exploit()))
    cases[step / "torch_memory_rank1_pid1.pickle"] = "not a memory snapshot: a pickled list without 'segments'"
    (step / "torch_memory_rank1_pid1.pickle").write_bytes(pickle.dumps([1, 2, 3]))
    cases[step / "torch_memory_rank2_pid1.pickle"] = "truncated: the pickle ends early"
    (step / "torch_memory_rank2_pid1.pickle").write_bytes(good.read_bytes()[:5000])
    cases[step / "torch_memory_rank3_pid1.pickle"] = "cannot read: No such file or directory"
    (step / "torch_memory_rank3_pid1.pickle").symlink_to(folder / "gone.pickle")  # a detached mount, say
    cases[step / "torch_memory_rank4_pid1.pickle"] = "cannot read: Is a directory"
    (step / "torch_memory_rank4_pid1.pickle").mkdir()
    cases[step / "torch_memory_rank5_pid1.pickle"] = "empty file"
    (step / "torch_memory_rank5_pid1.pickle").write_bytes(b"")
    cases[step / "torch_memory_rank6_pid1.pickle"] = "not a pickle, or a corrupt one"
    (step / "torch_memory_rank6_pid1.pickle").write_text("segments: []\n")
    cases[step / "torch_memory_rank7_pid1.pickle"] = "not a memory snapshot: segments[0] has no 'blocks'"
    (step / "torch_memory_rank7_pid1.pickle").write_bytes(pickle.dumps({"segments": [{"total_size": 1}]}))
    return cases


def test_each_bad_file_is_named_in_one_line_and_the_page_says_incomplete(tmp_path):
    written = write_run(tmp_path, ranks=1, steps=2, oom_rank=None)
    cases = _bad_files(tmp_path, written[0]["path"])
    page = tmp_path / "page.html"
    proc = no_traceback(view(tmp_path, "-o", page))
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    for path, reason in cases.items():
        (line,) = [line for line in lines if line.startswith(f"verl-compat view: {path}: ")]
        assert reason in line, line
    assert not MARKER.exists(), "the pickle's code ran"
    assert f"wrote INCOMPLETE page {page}" in proc.stderr
    assert lines[-1] == f"verl-compat view: {len(cases)} file(s) left out (named above)"
    text = page.read_text()
    assert "<title>verl-compat view: " in text and "(INCOMPLETE)</title>" in text
    assert f"Incomplete: {len(cases)} file(s) could not be read" in text
    for path in cases:
        assert str(path.relative_to(tmp_path)) in text
    out = view(tmp_path, "--text").stdout
    assert f"INCOMPLETE: {len(cases)} file(s) could not be read and are left out:" in out


def test_nothing_readable_writes_no_page(tmp_path):
    (tmp_path / "step1").mkdir()
    (tmp_path / "step1" / "torch_memory_rank0_pid1.pickle").write_bytes(b"\x80\x04garbage")
    page = tmp_path / "page.html"
    proc = no_traceback(view(tmp_path, "-o", page))
    assert proc.returncode == 2 and not page.exists()
    assert (
        proc.stderr.strip().splitlines()[-1]
        == f"verl-compat view: {tmp_path}: no snapshot could be read; nothing written"
    )


# --- the tool -----------------------------------------------------------------------------------


def test_help_says_reading_a_pickle_runs_code():
    out = run_argv(["-m", "verl_compat", "view", "--help"]).stdout
    assert "Reading a pickle runs code." in out and "restricted unpickler" in out
    assert "exit status:" in out and "examples:\n  verl-compat view" in out


def test_view_imports_neither_verl_nor_torch(run_dir):
    path, _ = run_dir
    proc = run_python(
        """
        import sys
        from verl_compat.cli import main
        status = main(["view", sys.argv[1], "--text"])
        print(status, sorted(m for m in ("verl", "torch", "ray") if m in sys.modules))
        """,
        str(path),
    )
    assert proc.stdout.strip().splitlines()[-1] == "0 []"


def test_docs_show_what_text_prints(tmp_path):
    """docs/view.md's terminal example is this command's output on the generator's default run."""
    docs = (ROOT / "docs" / "view.md").read_text()
    shown = docs.split("## In a terminal", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    write_run(tmp_path / "outputs" / "profile")
    proc = run_argv(["-m", "verl_compat", "view", "outputs/profile", "--text"], cwd=tmp_path)
    assert proc.stdout == shown
