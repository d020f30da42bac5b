"""old_imports: old Python code (recipe trainers, custom workers, reward functions written for verl
0.4-0.8) keeps importing on the installed verl.

The fix reads top to bottom: :mod:`.table` is the data (every module path and top-level name old
releases had and verl 0.9.1 lacks, what became of it, the release and the verl change);
:mod:`.resolve` works out a path's fate from the table and a probe of the installed verl;
:mod:`.runtime` answers the core's import hook (``verl_compat.importing``), which asks only where
Python's own import found nothing: a moved path gives the very same object, with one warning naming
the import to write; a removed or replaced one raises :class:`RemovedFromVerlError` (a
:class:`RemovedModuleError` for a module) naming the release, the change and what to do.
:mod:`.keywords` translates old keyword arguments of verl callables, :mod:`.entry_points` the old
``python -m`` entry points ``verl.trainer.main_generation`` and ``verl.trainer.fsdp_sft_trainer``.
"""

from __future__ import annotations

from ... import registry
from .errors import RemovedFromVerlError, RemovedKeywordError, RemovedModuleError

__all__ = ["RemovedFromVerlError", "RemovedKeywordError", "RemovedModuleError"]

NAME = registry.fix_name(__name__)
# The modules of the keyword rows (keywords.MODULES, spelled out: importing this module stays cheap).
TARGETS = (
    "verl.trainer.ppo.ray_trainer",
    "verl.trainer.ppo.reward",
    "verl.checkpoint_engine.base",
    "verl.utils.transferqueue_utils",
)
IMPORT_PACKAGES = ("verl",)


def __getattr__(name: str):
    # NAME_TARGETS comes from the table, read when the core first asks (at the first lookup of a
    # verl module), not when verl_compat is imported.
    if name == "NAME_TARGETS":
        from . import resolve

        return resolve.name_modules()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def resolve_module(fullname: str):
    from . import runtime

    return runtime.resolve_module(fullname)


def resolve_name(module: str, name: str):
    from . import runtime

    return runtime.resolve_name(module, name)


def patches(module):
    from . import keywords

    return keywords.plan(module)


def state() -> dict[str, dict[str, str] | dict[str, int]]:
    """The old paths met in this process and what each came to."""
    import sys

    runtime = sys.modules.get(f"{__name__}.runtime")
    return runtime.state() if runtime is not None else {"imports": {}, "import_counts": {}}


def reset() -> None:
    import sys

    runtime = sys.modules.get(f"{__name__}.runtime")
    if runtime is not None:
        runtime.reset()


def doctor_rows() -> list[tuple[str, list[str]]]:
    """The table's size and how much of it applies to the installed verl (read from its files)."""
    from . import report

    return report.rows()
