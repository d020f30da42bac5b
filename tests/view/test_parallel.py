"""``verl-compat view --jobs N``: snapshots read in N worker processes give the run that reading them
in one process gives, in the same order, with the same files named as bad; a worker that dies is
named, not a traceback, and the other files are still read.

The snapshots come from ``scripts/make_snapshots.py`` (``synthetic_snapshots``), as in
``test_view.py``.
"""

import pickle

import pytest
from dying_reader import DIES_ON, dies_on_one_file
from pyrun import run_argv
from synthetic_snapshots import write_run

from verl_compat import snapshot_files
from verl_compat.view import parallel, text
from verl_compat.view import run as run_model

pytestmark = pytest.mark.once


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """4 ranks x 3 steps and rank 1's OOM, plus three files that are not snapshots."""
    path = tmp_path_factory.mktemp("prof")
    written = write_run(path, ranks=4, steps=3)
    bad = path / "step9"
    bad.mkdir()
    (bad / "torch_memory_rank0_pid1.pickle").write_bytes(pickle.dumps([1, 2, 3]))
    (bad / "torch_memory_rank1_pid1.pickle").write_bytes(written[0]["path"].read_bytes()[:5000])
    (bad / "torch_memory_rank2_pid1.pickle").write_bytes(b"")
    return path


def test_workers_start_without_fork():
    """view may run where torch or Ray has threads: a forked child could deadlock."""
    assert parallel._context().get_start_method() in ("forkserver", "spawn")


@pytest.mark.parametrize("jobs", [2, 5])
def test_every_job_count_reads_the_same_run(run_dir, jobs):
    alone, pooled = run_model.collect(run_dir, jobs=1), run_model.collect(run_dir, jobs=jobs)
    assert pooled == alone
    assert len(alone.bad) == 3 and alone.snapshot_count == 13
    assert text.render(pooled) == text.render(alone)


def test_progress_counts_every_file_once_and_ends_complete(run_dir):
    files, _ = snapshot_files.find(run_dir)
    calls = []
    parallel.read_all(files, 2, progress=lambda done, total, path: calls.append((done, total, path)))
    assert calls[0] == (0, len(files), None)
    assert [done for done, _, _ in calls] == list(range(len(files)))
    assert {total for _, total, _ in calls} == {len(files)}
    paths = [path for _, _, path in calls[1:]]  # in the order the workers finish
    assert len(set(paths)) == len(paths) and set(paths) <= {file.path for file in files}


def test_a_reader_that_dies_is_named_and_the_others_are_read(run_dir):
    files, _ = snapshot_files.find(run_dir)
    outcomes = parallel.read_all(files, 2, read=dies_on_one_file)
    expected = parallel.read_all(files, 1)
    for file, outcome, alone in zip(files, outcomes, expected, strict=True):
        if (file.step, file.rank) == DIES_ON:
            assert outcome == parallel.DIED
        else:
            assert outcome == alone, file.path


def test_the_cli_names_the_same_bad_files_with_any_job_count(run_dir):
    one = run_argv(["-m", "verl_compat", "view", str(run_dir), "--text", "--jobs", "1"], check=False)
    two = run_argv(["-m", "verl_compat", "view", str(run_dir), "--text", "--jobs", "2"], check=False)
    assert (one.returncode, two.returncode) == (1, 1)
    assert two.stdout == one.stdout and two.stderr == one.stderr
    assert "Traceback" not in two.stderr
    assert f"{run_dir / 'step9' / 'torch_memory_rank1_pid1.pickle'}: truncated" in two.stderr


@pytest.mark.parametrize("value", ["0", "-1", "two"])
def test_jobs_must_be_a_positive_count(run_dir, value):
    proc = run_argv(["-m", "verl_compat", "view", str(run_dir), "--text", "--jobs", value], check=False)
    assert proc.returncode == 2
    assert "argument -j/--jobs: expected a number of processes, 1 or more" in proc.stderr
