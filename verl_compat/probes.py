"""The one place that knows what each verl release can do.

Fixes ask these probes; nothing in verl-compat compares ``verl.__version__`` strings (tags lie:
the v0.8.0 tag says ``0.8.0.dev``). Each probe looks at the installed verl's real objects, and
imports verl lazily, so importing this module costs nothing before verl is in use.
"""

from __future__ import annotations

import functools
import importlib.util
import inspect


def _find_spec(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


@functools.lru_cache(maxsize=None)
def stop_profile_takes_run_command() -> bool:
    """Workers' ``stop_profile`` accepts ``run_command=`` (0.9.1+); passing it earlier is a
    worker-side TypeError, and leaving it at its default there runs the finish hook every step."""
    from verl.utils.profiler import DistProfilerExtension

    return "run_command" in inspect.signature(DistProfilerExtension.stop_profile).parameters


@functools.lru_cache(maxsize=None)
def profiler_gated_by_enable() -> bool:
    """``DistProfiler.start/stop`` act only where ``profiler.enable`` is true (0.7.1+)."""
    from verl.utils.profiler import DistProfiler

    return hasattr(DistProfiler, "check_enable")


@functools.lru_cache(maxsize=None)
def memory_history_cleared_per_dump() -> bool:
    """Each snapshot covers about one step (history cleared after each dump, 0.8.0+); before,
    snapshots were cumulative."""
    from verl.utils import memory_utils

    return hasattr(memory_utils, "clear_memory_history")


def stop_profiling_takes_do_profile(function) -> bool:
    """The trainer's ``_stop_profiling`` has the ``(self, do_profile, ...)`` shape of the
    RayPPOTrainer family, and is a plain (not coroutine) function."""
    if inspect.iscoroutinefunction(function):
        return False
    try:
        return "do_profile" in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def has_v1_trainer() -> bool:
    """verl ships the v1 trainer package (0.9.0+), the default of ``main_ppo``."""
    return _find_spec("verl.trainer.ppo.v1")


def values() -> dict:
    """Every probe's value for this verl (for ``status()`` and ``verl-compat doctor``)."""
    return {
        "stop_profile_takes_run_command": stop_profile_takes_run_command(),
        "profiler_gated_by_enable": profiler_gated_by_enable(),
        "memory_history_cleared_per_dump": memory_history_cleared_per_dump(),
        "has_v1_trainer": has_v1_trainer(),
    }
