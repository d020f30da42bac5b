"""What the installed verl's profiler can do, as the torch_memory fix asks it (feature probes, never
``verl.__version__``: tags lie). verl is imported lazily, so importing this module costs nothing
before verl is in use.

:data:`PROBES` are the ones doctor shows (``verl probes``): what a legacy torch_memory config comes
to on this verl. ``profiler_gated_by_enable`` and ``memory_history_cleared_per_dump`` decide nothing
in the fix; they are shown because they say what a user's dumps are (whether ``profiler.enable``
gates them, whether each snapshot covers one step or everything so far), and the fit tests read the
first for verl's own verdict.
"""

from __future__ import annotations

import functools
import inspect


@functools.cache
def stop_profile_takes_run_command() -> bool:
    """Workers' ``stop_profile`` accepts ``run_command=`` (0.9.1+); passing it earlier is a
    worker-side TypeError, and leaving it at its default there runs the finish hook every step."""
    from verl.utils.profiler import DistProfilerExtension

    return "run_command" in inspect.signature(DistProfilerExtension.stop_profile).parameters


@functools.cache
def profiler_gated_by_enable() -> bool:
    """``DistProfiler.start/stop`` act only where ``profiler.enable`` is true (0.7.1+)."""
    from verl.utils.profiler import DistProfiler

    return hasattr(DistProfiler, "check_enable")


@functools.cache
def memory_history_cleared_per_dump() -> bool:
    """Each snapshot covers about one step (history cleared after each dump, 0.8.0+); before,
    snapshots were cumulative."""
    from verl.utils import memory_utils

    return hasattr(memory_utils, "clear_memory_history")


def has_legacy_fit_torch_memory(module) -> bool:
    """The separation trainers' second legacy call site, ``SeparateRayPPOTrainer._fit_torch_memory``
    (0.7.x only; verl #6075 removed it)."""
    return hasattr(getattr(module, "SeparateRayPPOTrainer", None), "_fit_torch_memory")


def trainer_class_for(config):
    """The trainer class ``python -m verl.trainer.main_ppo`` builds for ``config``: a v1 trainer
    chosen by ``trainer.v1.trainer_mode`` where the config selects ``trainer.use_v1`` (verl >= 0.9),
    else ``RayPPOTrainer``."""
    from omegaconf import OmegaConf

    if OmegaConf.select(config, "trainer.use_v1"):
        from verl.trainer.ppo.v1 import get_trainer_cls

        return get_trainer_cls(OmegaConf.select(config, "trainer.v1.trainer_mode"))
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    return RayPPOTrainer


PROBES = (stop_profile_takes_run_command, profiler_gated_by_enable, memory_history_cleared_per_dump)
