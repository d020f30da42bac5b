"""The core's questions to the installed verl: where verl is, its trainer families, and how a trainer
class is shaped (what :mod:`verl_compat.trainers` and :mod:`verl_compat.reach` decide by).

Nothing in verl-compat compares ``verl.__version__`` strings (tags lie: the v0.8.0 tag says
``0.8.0.dev``): each probe looks at the installed verl's real objects, and imports verl lazily, so
importing this module costs nothing before verl is in use. A probe only one fix asks lives in that
fix (``fixes/<fix>/probes.py``); what doctor shows (``verl probes``) is :data:`PROBES` here and each
fix's ``PROBES`` (docs/fix_contract.md).
"""

from __future__ import annotations

import importlib.util
import inspect
import sys

# verl imports the comma-separated modules named here at `import verl`, in every process (every release).
EXTERNAL_MODULES = "VERL_USE_EXTERNAL_MODULES"


def find_spec(name: str) -> bool:
    """Whether the module ``name`` can be imported (found, not imported); False for a parent that
    is missing or not a package."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


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


# What doctor shows as the core's probes (``verl probes``), beside each fix's own ``PROBES``:
# the trainer families the installed verl ships, i.e. which rows of trainers.TRAINERS can apply.
# No code decides by them (trainers.py finds classes by module); they are shown because a user
# asking why a v1 or main_ppo_sync trainer is (not) listed needs them, and the tests that pick the
# trainers a release has read them.


def has_v1_trainer() -> bool:
    """verl ships the v1 trainer package (0.9.0+), the default of ``main_ppo``."""
    return find_spec("verl.trainer.ppo.v1")


def has_sync_trainer() -> bool:
    """verl ships ``verl.trainer.main_ppo_sync`` (0.8.0), a TransferQueue trainer of its own."""
    return find_spec("verl.trainer.main_ppo_sync")


def verl_importable() -> bool:
    """Whether verl is imported already, or imports now (doctor imports it before asking)."""
    if "verl" in sys.modules:
        return True
    try:
        importlib.import_module("verl")
    except Exception:
        return False
    return True


def verl_package_dir():
    """verl's package folder, found without importing verl (that costs seconds, and may fail); None
    without verl. Fixes read verl's source files from here (feature probes, not versions)."""
    from pathlib import Path

    try:
        spec = importlib.util.find_spec("verl")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def verl_config_dir():
    """verl's own Hydra configs (``verl/trainer/config``), found without importing verl; None without verl."""
    package = verl_package_dir()
    return package / "trainer" / "config" if package is not None else None


PROBES = (has_v1_trainer, has_sync_trainer)
