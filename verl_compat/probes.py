"""The one place that knows what each verl release can do.

Fixes ask these probes; nothing in verl-compat compares ``verl.__version__`` strings (tags lie:
the v0.8.0 tag says ``0.8.0.dev``). Each probe looks at the installed verl's real objects, and
imports verl lazily, so importing this module costs nothing before verl is in use.
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
import sys

# verl imports the comma-separated modules named here at `import verl`, in every process (every release).
EXTERNAL_MODULES = "VERL_USE_EXTERNAL_MODULES"


def _find_spec(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


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


def stop_profiling_shape(function) -> str | None:
    """How a trainer's ``_stop_profiling`` is called, once at the end of each step.

    ``"do_profile"``: ``(self, do_profile, ...)``, the RayPPOTrainer family (and its subclasses'
    overrides); ``"no_args"``: ``(self)``, the v1 trainers (0.9+) and 0.8's
    ``main_ppo_sync.PPOTrainer``, which keep the profiling state on the trainer; ``None``: anything
    else, coroutines included (``FullyAsyncRollouter``'s ``async def _stop_profiling(self)`` drives
    rollout servers only): a wrapper that runs after it would run before its body does.
    """
    if function is None or inspect.iscoroutinefunction(function):
        return None
    try:
        parameters = list(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return None
    if parameters[1:2] == ["do_profile"]:
        return "do_profile"
    if parameters == ["self"]:
        return "no_args"
    return None


def defines(cls, name: str) -> bool:
    """``cls`` has its own ``name`` rather than inheriting it: an ``__init__`` that does not call
    ``super().__init__`` (0.7.1+'s ``OneStepOffRayTrainer``) is not reached by the base's wrapper."""
    return isinstance(cls, type) and name in vars(cls)


def init_calls_super(cls) -> bool:
    """``cls``'s own ``__init__`` calls ``super().__init__`` (so a wrapped base ``__init__`` runs),
    read from the names its code uses: ``SeparateRayPPOTrainer``'s does, ``FullyAsyncTrainer``'s
    and ``OneStepOffRayTrainer``'s do not."""
    code = getattr(vars(cls).get("__init__"), "__code__", None)
    return code is not None and {"super", "__init__"} <= set(code.co_names)


def has_legacy_fit_torch_memory(module) -> bool:
    """The separation trainers' second legacy call site, ``SeparateRayPPOTrainer._fit_torch_memory``
    (0.7.x only; verl #6075 removed it)."""
    return hasattr(getattr(module, "SeparateRayPPOTrainer", None), "_fit_torch_memory")


def has_v1_trainer() -> bool:
    """verl ships the v1 trainer package (0.9.0+), the default of ``main_ppo``."""
    return _find_spec("verl.trainer.ppo.v1")


def has_sync_trainer() -> bool:
    """verl ships ``verl.trainer.main_ppo_sync`` (0.8.0), a TransferQueue trainer of its own."""
    return _find_spec("verl.trainer.main_ppo_sync")


def values() -> dict[str, bool]:
    """Every probe of the installed verl that takes no argument, by name (``verl-compat doctor``)."""
    return {
        "stop_profile_takes_run_command": stop_profile_takes_run_command(),
        "profiler_gated_by_enable": profiler_gated_by_enable(),
        "memory_history_cleared_per_dump": memory_history_cleared_per_dump(),
        "has_v1_trainer": has_v1_trainer(),
        "has_sync_trainer": has_sync_trainer(),
        "torch_memory_has_oom_observer": torch_memory_has_oom_observer(),
        "snapshot_dump_can_skip_sync": snapshot_dump_can_skip_sync(),
    }


def verl_importable() -> bool:
    """Whether verl is imported already, or imports now (doctor imports it before asking)."""
    if "verl" in sys.modules:
        return True
    try:
        importlib.import_module("verl")
    except Exception:
        return False
    return True


def verl_config_dir():
    """verl's own Hydra configs (``verl/trainer/config``), found without importing verl (that costs
    seconds, and may fail); None without verl."""
    from pathlib import Path

    try:
        spec = importlib.util.find_spec("verl")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)), "trainer", "config")


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


_TORCH_MEMORY_MODULES = ("verl.utils.profiler.torch_memory_profile", "verl.utils.profiler.profile")


def torch_memory_profiler_class():
    """verl's ``TorchMemoryProfiler``: in ``profile.py`` up to 0.8.x, in its own
    ``torch_memory_profile.py`` from 0.9; None where neither holds it."""
    for name in _TORCH_MEMORY_MODULES:
        if _find_spec(name):
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
