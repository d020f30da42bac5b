"""oom_snapshot: verl 0.9.1's out-of-memory snapshot, on releases whose torch_memory tool lacks it.

Memory snapshots exist to explain out-of-memory crashes, but up to 0.9.0 verl's ``torch_memory``
tool dumps only at the end of a step, so the step that dies of OOM leaves none. verl 0.9.1
(``verl/utils/profiler/torch_memory_profile.py``, ``TorchMemoryProfiler._attach_oom_observer`` /
``_on_out_of_memory``) attaches one allocator observer per process on the ranks it profiles; at
the moment of OOM it logs the request, the Python stack and the allocator state, and dumps
``{save_path}/oom_{timestamp}/torch_memory_oom_rank{R}_pid{P}.pickle`` without synchronising.

This fix does the same where verl's ``TorchMemoryProfiler`` has no observer of its own
(:func:`.probes.torch_memory_has_oom_observer`): it wraps
``TorchMemoryProfiler.__init__`` in ``verl.utils.profiler.profile`` and, after verl's own body,
attaches the observer when that profiler profiles its rank. verl builds a ``TorchMemoryProfiler``
only where a role's profiler tool is ``torch_memory``, so processes that build none are never
touched. What decides is the profiler config the worker's ``DistProfiler`` was built with, by
0.9.1's rule (``all_ranks``, else ``ranks``, else rank 0): the legacy key reaches the workers
already translated by the ``torch_memory`` fix (``enable``/``all_ranks``), the #6181 shape with
``enable`` forced, the new style as written; in every case the rank rule on that config is the one
0.9.1 applies to the same config.

The observer is strictly fail-open: the OOM always reaches the caller as torch's own error (the
observer returns nothing and cannot raise: an exception out of it would replace the OOM inside
the allocator), and a failure to log or dump is logged once per process and swallowed.

Reads in three parts: **decide** (pure: which ranks, which names), **observe** (the observer and
the attach point, which takes the allocator as a parameter), **patch** (the wrapt wrapper and
the fix contract).
"""

from __future__ import annotations

import dataclasses
import logging
import sys
import threading
import traceback
from collections.abc import Callable
from datetime import datetime

from ... import registry, snapshot_files, wrapping
from ...configs import DEFAULT_SAVE_PATH
from . import probes

NAME = registry.fix_name(__name__)
PROFILER_MODULE = "verl.utils.profiler.profile"  # where 0.6.x-0.8.x define TorchMemoryProfiler
TARGETS = (PROFILER_MODULE,)
PROBES = probes.PROBES  # what doctor shows of verl's memory profiler (verl probes)


logger = logging.getLogger("verl_compat")


# --- decide -----------------------------------------------------------------------------------


def profiles_rank(config, rank: int) -> bool:
    """0.9.1's ``TorchMemoryProfiler._should_profile_this_rank``: ``all_ranks``, else ``ranks``,
    else rank 0. ``enable`` is not read: verl's TorchMemoryProfiler ignores it too."""
    if getattr(config, "all_ranks", False):
        return True
    ranks = getattr(config, "ranks", None)
    if ranks:
        return rank in ranks
    return rank == 0


def save_path(config) -> str:
    return getattr(config, "save_path", None) or DEFAULT_SAVE_PATH


# --- observe ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Allocator:
    """An allocator that takes out-of-memory observers: ``attach(observer)`` registers
    ``observer(device, alloc, device_total, device_free)``, called at the moment of OOM."""

    device: str  # "cuda" or "npu": names the log lines as verl's do
    attach: Callable


def accelerator_allocator() -> Allocator | None:
    """This process's CUDA or NPU caching allocator, found as 0.9.1 finds it; None, with 0.9.1's
    warning, where there is none (CPU, no device visible, a torch build without observers)."""
    import torch
    from verl.utils.device import get_device_name, get_torch_device

    device = get_device_name()
    if device not in ("cuda", "npu"):
        logger.warning("verl-compat: [torch_memory] automatic OOM snapshots are only available on CUDA/NPU devices")
        return None
    if not get_torch_device().is_available():
        logger.warning("verl-compat: [torch_memory] automatic OOM snapshots require an available accelerator")
        return None
    if device == "npu":
        import torch_npu

        backend = torch_npu._C
    else:
        backend = torch._C
    attach = getattr(backend, f"_{device}_attach_out_of_memory_observer", None)
    if attach is None:
        logger.warning("verl-compat: [torch_memory] this build does not support %s OOM observers", device.upper())
        return None
    return Allocator(device, attach)


# The allocator observers are attached to; None: this process's accelerator (accelerator_allocator).
# A test sets a recording Allocator here, in the worker process, before its profiler is built.
allocator: Allocator | None = None


class Observer:
    """The process's one OOM observer, bound to the first profiled ``TorchMemoryProfiler`` (as
    0.9.1's bound ``_on_out_of_memory`` is); inert once unbound (the allocator cannot detach it)."""

    def __init__(self, device: str, profiler):
        self.device = device
        self.profiler = profiler

    def __call__(self, device: int, alloc: int, device_total: int, device_free: int) -> None:
        try:
            profiler = self.profiler
            if profiler is None:
                return
            with registry.guard(NAME, "logging the OOM context"):
                self._log_context(device, alloc, device_total, device_free)
            with registry.guard(NAME, "dumping the OOM snapshot"):
                self._dump(profiler)
        except BaseException:
            pass

    def _log_context(self, device: int, alloc: int, device_total: int, device_free: int) -> None:
        from verl.utils.memory_utils import get_memory_info

        # NPU reports the configured process memory limit, or device total if no limit is set.
        total_label = "total_or_limit" if self.device == "npu" else "total"
        logger.error(
            "[torch_memory] %s OOM on device %s: requested=%s %s=%s free=%s; dumping allocator snapshot",
            self.device.upper(),
            device,
            alloc,
            total_label,
            device_total,
            device_free,
        )
        logger.error("[torch_memory] Python stack at OOM:\n%s", "".join(traceback.format_stack()))
        try:
            logger.error("[torch_memory] allocator memory at OOM: %s", get_memory_info())
        except Exception as exc:  # as verl 0.9.1: the request and stack are already out
            logger.warning("[torch_memory] failed to collect allocator memory at OOM: %s", exc)

    @staticmethod
    def _dump(profiler) -> None:
        # Do not synchronise where verl lets us: an OOM may have left the device stream in an
        # error state. verl < 0.9.1's sampler always synchronises first (and logs a failure).
        extra = {"synchronize": False} if probes.snapshot_dump_can_skip_sync() else {}
        profiler.sampler.dump_memory_snapshot(
            out_dir=save_path(profiler.config),
            tag=snapshot_files.OOM_TAG,
            sub_dir=snapshot_files.oom_sub_dir(datetime.now()),
            **extra,
        )


_lock = threading.Lock()
_observer: Observer | None = None  # attached in this process; kept across reset (cannot detach)
_attached_to: Allocator | None = None


def attach(profiler, to: Allocator | None) -> bool:
    """Attach the process's one observer to ``to`` for ``profiler``; return whether this call
    attached it. A process never gets two: a later profiler (another role in the same worker,
    a re-activation) leaves the attached observer as it is, only re-binding an inert one."""
    global _observer, _attached_to
    if to is None:
        return False
    with _lock:
        if _observer is not None and _attached_to == to:
            if _observer.profiler is None:
                _observer.profiler = profiler
            return False
        observer = Observer(to.device, profiler)
        to.attach(observer)
        _observer, _attached_to = observer, to
    logger.info("verl-compat: [torch_memory] %s OOM snapshot observer attached", to.device.upper())
    return True


# --- patch ------------------------------------------------------------------------------------


def _after_profiler_init(wrapped, instance, args, kwargs):
    result = wrapped(*args, **kwargs)
    with registry.guard(NAME, "attaching the OOM observer"):
        if profiles_rank(instance.config, instance.rank):
            attach(instance, allocator or accelerator_allocator())
    return result


def patches(module) -> registry.Plan:
    """Wrap ``TorchMemoryProfiler.__init__`` where verl's has no OOM observer of its own. Nothing
    config-side: each worker decides from the profiler config it was built with."""
    if probes.torch_memory_has_oom_observer() or not isinstance(getattr(module, "TorchMemoryProfiler", None), type):
        return registry.Plan()
    return registry.Plan(
        (registry.Patch("TorchMemoryProfiler.__init__", _after_profiler_init, "attach the OOM snapshot observer"),)
    )


def provider() -> dict[str, str | None]:
    """Who provides the OOM snapshot in this process: ``verl`` (its own observer), ``verl-compat``
    (this fix wraps verl's TorchMemoryProfiler) or ``off``, and why; ``None`` before verl's
    profiler is imported (the probe would import verl)."""
    if PROFILER_MODULE not in sys.modules:
        return {"provider": None, "why": "verl's profiler is not imported in this process yet"}
    if probes.torch_memory_has_oom_observer():
        return {"provider": "verl", "why": "verl's TorchMemoryProfiler attaches its own OOM observer"}
    cls = getattr(sys.modules.get(PROFILER_MODULE), "TorchMemoryProfiler", None)
    if cls is not None and wrapping.wrapped_by(vars(cls).get("__init__"), NAME) is not None:
        return {"provider": "verl-compat", "why": "TorchMemoryProfiler.__init__ attaches 0.9.1's OOM observer"}
    if cls is None:
        return {"provider": "off", "why": f"{PROFILER_MODULE}.TorchMemoryProfiler is not loaded or not in this verl"}
    return {"provider": "off", "why": "verl-compat does not patch TorchMemoryProfiler in this process"}


def doctor_rows() -> list[tuple[str, str]]:
    """Who provides the OOM snapshot in this environment, as a doctor row."""
    found = provider()
    return [("OOM snapshot", f"{found['provider']}: {found['why']}")] if found["provider"] else []


def state() -> dict[str, str | bool | None]:
    """Who provides the OOM snapshot, and whether this process has attached an observer."""
    return {**provider(), "observer_attached": _observer is not None and _observer.profiler is not None}


def reset() -> None:
    """Make the attached observer inert: the allocator keeps it (there is no detach), but it
    dumps nothing until a profiler built under a new activation binds it again."""
    with _lock:
        if _observer is not None:
            _observer.profiler = None
