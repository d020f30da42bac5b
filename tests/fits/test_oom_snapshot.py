"""The ``oom_snapshot`` fix: verl 0.9.1's out-of-memory observer, where verl's torch_memory lacks one.

Two real one-step fits with the legacy key (engine-style actor with ``ranks=[1]``, fsdp-style
actor on every rank) whose actor, in its update, calls the observers attached to its allocator
the way the caching allocator does at an OOM (``oom_standins``): each worker process records them.
Where verl has no observer of its own (up to 0.9.0), exactly one per profiled rank and none on the
others; firing it goes through verl's real ``MemorySnapshotSampler``, which makes
``oom_{timestamp}/`` under the profiler's ``save_path`` (the pickle itself needs CUDA: see
``test_oom_snapshot_gpu``) and logs the OOM context once. Where verl has its own (0.9.1), none.
That a real OOM reaches the trainer as torch's own error is the GPU check's
(``test_oom_snapshot_gpu``).

The cases that need no fit run in this process, on verl's real ``DistProfiler``: another tool,
the fix turned off, and a dump that fails.
"""

import logging
import re

import pytest

import verl_compat
from verl_compat.fixes import oom_snapshot
from verl_compat.fixes.oom_snapshot import probes

pytestmark = pytest.mark.sides

LEGACY = "actor_rollout_ref.actor.profiler.tool=torch_memory"
ONE_STEP = [
    "trainer.total_training_steps=1",
    "trainer.val_before_train=False",
    "trainer.test_freq=-1",
    "trainer.save_freq=-1",
]
OOM_DIR = re.compile(r"^oom_\d{8}-\d{6}-\d{6}$")
# The OOM context, one line each: the request, the stack, the allocator state (on CPU verl's
# get_memory_info() fails, and 0.9.1's warning that says so takes the allocator line's place).
CONTEXT = (
    ("[torch_memory] CUDA OOM on device 0: requested=",),
    ("[torch_memory] Python stack at OOM:",),
    ("[torch_memory] allocator memory at OOM:", "[torch_memory] failed to collect allocator memory at OOM:"),
)


def _verl_has_its_own() -> bool:
    import verl.utils.profiler  # noqa: F401 - the probe reads verl's classes

    return probes.torch_memory_has_oom_observer()


@pytest.mark.parametrize(
    "actor, overrides, profiled",
    [
        pytest.param("oom-engine", ["actor_rollout_ref.actor.profiler.ranks=[1]"], {1}, id="engine-ranks1"),
        pytest.param("oom-fsdp", [], {0, 1}, id="fsdp-all-ranks"),
    ],
)
def test_legacy_key_one_observer_per_profiled_rank(shim, tmp_path, actor, overrides, profiled):
    import harness
    import oom_standins

    harness.ACTORS.update(oom_standins.ACTORS)
    config = harness.compose_config([LEGACY, *ONE_STEP, *overrides], tmp_path)
    result = harness.run_fit(config, actor=actor)

    result.raise_error()  # the observer raised nothing into the update

    own = _verl_has_its_own()
    attaching = set() if own else profiled
    events = result.calls[oom_standins.LOG_NAME]
    assert len(events) == 2, "both actor ranks were built"
    for rank, calls in enumerate(events):
        built, fired = calls  # built at init_workers, fired in the first update_actor
        assert built["method"] == "built" and fired["method"] == "fired"
        assert built["kwargs"]["provider"] == ("verl" if own else "verl-compat")
        expected = 1 if rank in attaching else 0
        assert built["kwargs"]["observers"] == expected, f"rank {rank}"
        lines = [record["line"] for record in fired["kwargs"]["records"]]
        assert len(lines) == 3 * expected, f"rank {rank}: {lines}"
        for prefixes in CONTEXT[: 3 * expected]:
            assert sum(line.startswith(prefixes) for line in lines) == 1, f"rank {rank}: {prefixes} once"

    oom_dirs = sorted(path.name for path in result.profile_dir.glob("oom_*"))
    assert len(oom_dirs) == len(attaching), oom_dirs
    assert all(OOM_DIR.match(name) for name in oom_dirs), oom_dirs


# --- in this process ----------------------------------------------------------------------------


def _profiler(tool, save_path, rank=0, **settings):
    """verl's DistProfiler for one role, built as its workers build it (torch_memory's tool config
    left to its defaults; the torch tool's, which verl requires, at its own)."""
    from verl.utils.profiler import DistProfiler, ProfilerConfig
    from verl.utils.profiler.config import TorchProfilerToolConfig

    tool_config = TorchProfilerToolConfig() if tool == "torch" else None
    config = ProfilerConfig(tool=tool, save_path=str(save_path), tool_config=tool_config, **settings)
    return DistProfiler(rank=rank, config=config, tool_config=tool_config)


@pytest.fixture
def recording(monkeypatch):
    import oom_standins

    allocator = oom_standins.RecordingAllocator()
    monkeypatch.setattr(oom_snapshot, "allocator", allocator)
    return allocator


@pytest.mark.parametrize("tool", [None, "torch"])
def test_other_tools_attach_nothing(shim, recording, tmp_path, tool):
    _profiler(tool, tmp_path, all_ranks=True)

    assert recording.observers == []


def test_disabled_fix_attaches_nothing(monkeypatch, recording, tmp_path):
    monkeypatch.setenv("VERL_COMPAT_DISABLED_FIXES", "oom_snapshot")
    verl_compat.deactivate()
    verl_compat.activate()
    try:
        _profiler("torch_memory", tmp_path, all_ranks=True, enable=True)
        assert "oom_snapshot" not in verl_compat.status()["fixes"]
        assert oom_snapshot.provider()["provider"] == ("verl" if _verl_has_its_own() else "off")
    finally:
        verl_compat.deactivate()

    assert recording.observers == []


def test_at_most_one_observer_per_process(shim, recording, tmp_path):
    first = _profiler("torch_memory", tmp_path, all_ranks=True, enable=True)
    _profiler("torch_memory", tmp_path, all_ranks=True, enable=True)  # e.g. the ref role, same worker

    if _verl_has_its_own():
        assert recording.observers == []
        assert verl_compat.status()["fixes"]["oom_snapshot"]["provider"] == "verl"
    else:
        [observer] = recording.observers
        assert observer.profiler is first._impl
        assert verl_compat.status()["fixes"]["oom_snapshot"]["observer_attached"] is True
        verl_compat.deactivate()  # the allocator keeps the observer: it must do nothing now
        observer(*__import__("oom_standins").REQUEST)
        assert list(tmp_path.iterdir()) == []


@pytest.mark.shim_errors("oom_snapshot:dumping the OOM snapshot")
def test_failed_dump_is_logged_once_and_swallowed(shim, tmp_path, caplog):
    import oom_standins

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    # verl's real TorchMemoryProfiler and sampler, whose save_path lies below a file: mkdir fails.
    profiler = _profiler("torch_memory", blocker / "prof", all_ranks=True, enable=True)._impl
    observer = oom_snapshot.Observer("cuda", profiler)

    with caplog.at_level(logging.INFO, logger="verl_compat"):
        for _ in range(2):
            assert observer(*oom_standins.REQUEST) is None  # raises nothing into the allocator

    failures = [r for r in caplog.records if "failed in dumping the OOM snapshot" in r.getMessage()]
    assert len(failures) == 1
    assert verl_compat.status()["fixes"]["oom_snapshot"]["errors"] == {"dumping the OOM snapshot": 2}
    requests = [r for r in caplog.records if r.getMessage().startswith(CONTEXT[0])]
    assert len(requests) == 2, "each OOM logs its context"
