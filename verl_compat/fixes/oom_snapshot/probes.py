"""What the installed verl's memory profiler can do, as the oom_snapshot fix asks it (feature
probes, never ``verl.__version__``). verl is imported lazily. :data:`PROBES` are the ones doctor
shows (``verl probes``): they decide whether the fix attaches an observer and how it dumps.
"""

from __future__ import annotations

import functools
import importlib
import inspect

from ... import probes

_TORCH_MEMORY_MODULES = ("verl.utils.profiler.torch_memory_profile", "verl.utils.profiler.profile")


def torch_memory_profiler_class():
    """verl's ``TorchMemoryProfiler``: in ``profile.py`` up to 0.8.x, in its own
    ``torch_memory_profile.py`` from 0.9; None where neither holds it."""
    for name in _TORCH_MEMORY_MODULES:
        if probes.find_spec(name):
            cls = getattr(importlib.import_module(name), "TorchMemoryProfiler", None)
            if cls is not None:
                return cls
    return None


@functools.cache
def torch_memory_has_oom_observer() -> bool:
    """verl's own ``TorchMemoryProfiler`` attaches an allocator out-of-memory observer on the
    ranks it profiles (0.9.1+): then verl-compat must attach none (never two observers)."""
    return hasattr(torch_memory_profiler_class(), "_attach_oom_observer")


@functools.cache
def snapshot_dump_can_skip_sync() -> bool:
    """``MemorySnapshotSampler.dump_memory_snapshot`` takes ``synchronize=`` (0.9.1+), which an
    out-of-memory dump turns off; before, it always synchronises the device first."""
    from verl.utils.memory_utils import MemorySnapshotSampler

    return "synchronize" in inspect.signature(MemorySnapshotSampler.dump_memory_snapshot).parameters


PROBES = (torch_memory_has_oom_observer, snapshot_dump_can_skip_sync)
