"""Actor stand-ins that run out of memory the way the caching allocator does, on CPU.

A CPU has no allocator that takes out-of-memory observers, so each stand-in, in its own worker
process and before verl builds its profiler, gives verl-compat a :class:`RecordingAllocator`
(``verl_compat.fixes.oom_snapshot.allocator``): whatever observer the process attaches is
recorded instead. Nothing of verl is replaced: its ``DistProfiler``, ``TorchMemoryProfiler`` and
``MemorySnapshotSampler`` are the real ones.

``update_actor`` then does what the allocator does at an out-of-memory: it calls every attached
observer with the request and the device's totals. It does not raise ``torch.OutOfMemoryError``
afterwards: Ray hands the trainer the first rank's error without waiting for the other ranks,
which are then torn down mid-call, so what they saw would be lost (the GPU check raises a real
one). What the worker saw is appended to the call log (``standins.log_call``, log name ``oom``):

* ``built``: ``{"observers": n, "provider": ...}`` once the profiler is built;
* ``fired``: ``{"observers": n, "records": [...]}``, the ``verl_compat`` log records (level,
  first line) emitted while the observers ran.
"""

import logging

import standins
from verl.single_controller.base.decorator import make_nd_compute_dataproto_dispatch_fn, register

from verl_compat.fixes import oom_snapshot

LOG_NAME = "oom"
# What the allocator is asked for and reports at the OOM: (device, alloc, device_total, device_free).
REQUEST = (0, 2 * 1024**3, 80 * 1024**3, 512 * 1024**2)


class RecordingAllocator(oom_snapshot.Allocator):
    """An allocator that records the observers attached to it."""

    def __init__(self):
        observers = []
        super().__init__(device="cuda", attach=observers.append)
        object.__setattr__(self, "observers", observers)


class _Capture(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append({"level": record.levelname, "line": record.getMessage().splitlines()[0]})


class _RunsOutOfMemory:
    """Mixed into an actor stand-in ahead of it: records observers, fires them in its update."""

    def __init__(self, *args, **kwargs):
        self.allocator = oom_snapshot.allocator = RecordingAllocator()
        super().__init__(*args, **kwargs)
        provider = oom_snapshot.provider()["provider"]
        built = {"observers": len(self.allocator.observers), "provider": provider}
        standins.log_call(LOG_NAME, self.rank, "built", built)

    @register(dispatch_mode=make_nd_compute_dataproto_dispatch_fn(mesh_name="actor"))
    def update_actor(self, data):
        capture = _Capture()
        logger = logging.getLogger("verl_compat")
        logger.addHandler(capture)
        try:
            for observer in self.allocator.observers:
                observer(*REQUEST)
        finally:
            logger.removeHandler(capture)
        fired = {"observers": len(self.allocator.observers), "records": capture.records}
        standins.log_call(LOG_NAME, self.rank, "fired", fired)
        return super().update_actor(data)


class OomEngineActor(_RunsOutOfMemory, standins.EngineStyleActor):
    pass


class OomFsdpActor(_RunsOutOfMemory, standins.FsdpStyleActor):
    pass


ACTORS = {"oom-engine": OomEngineActor, "oom-fsdp": OomFsdpActor}
