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
Tools read code with the same table before it runs: :mod:`.code` (``verl-compat doctor --code``) and
:mod:`.migrate_rules` (``verl-compat migrate`` on ``.py`` files).
"""

from __future__ import annotations

import sys

from ... import registry
from .errors import RemovedFromVerlError, RemovedKeywordError, RemovedModuleError

__all__ = ["RemovedFromVerlError", "RemovedKeywordError", "RemovedModuleError"]

NAME = registry.fix_name(__name__)
# The modules of the keyword rows (keywords.MODULES, spelled out: importing this module stays cheap).
TARGETS = (
    "verl.trainer.ppo.reward",
    "verl.checkpoint_engine.base",
    "verl.utils.transferqueue_utils",
)
IMPORT_PACKAGES = ("verl",)
_RUNTIME = f"{__name__}.runtime"


def __getattr__(name: str):
    # NAME_TARGETS comes from the table, read when the core first asks (at the first lookup of a
    # verl module), not when verl_compat is imported.
    if name == "NAME_TARGETS":
        from . import resolve

        return resolve.name_modules()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _runtime():
    """:mod:`.runtime`, imported at the first question. The hooks below run for every import no other
    finder found: a dict lookup costs a fraction of an import statement there."""
    found = sys.modules.get(_RUNTIME)
    if found is None:
        from . import runtime as found
    return found


def resolve_module(fullname: str):
    return _runtime().resolve_module(fullname)


def resolve_name(module: str, name: str):
    return _runtime().resolve_name(module, name)


def patches(module):
    from . import keywords

    return keywords.plan(module)


def state() -> dict[str, dict[str, str] | dict[str, int]]:
    """The old paths met in this process and what each came to."""
    runtime = sys.modules.get(_RUNTIME)
    return runtime.state() if runtime is not None else {"imports": {}, "import_counts": {}}


def reset() -> None:
    runtime = sys.modules.get(_RUNTIME)
    if runtime is not None:
        runtime.reset()


def describe_code(imports) -> dict:
    """What each verl import of a user's code comes to on the installed verl (``doctor --code``)."""
    from . import code

    return code.describe(imports)


# For migrate's rule (migrate_rules.py), which is loaded on every migrate run: the table is read at the
# first question, so that a run over shell scripts and YAML never pays for it (~9 ms).


def table_knows(module: str, names) -> bool:
    """Whether the table can say anything of an import of ``module``, or of one of ``names`` from it
    (no probe)."""
    from . import resolve

    return resolve.may_concern(module, names)


def fate_on_installed(module: str, name: str | None):
    """:func:`.resolve.fate` against the installed verl read from its files, never imported."""
    from . import installed, resolve

    return resolve.fate(module, name, installed.has)


def doctor_rows() -> list[tuple[str, list[str]]]:
    """The table's size and how much of it applies to the installed verl (read from its files)."""
    from . import report

    return report.rows()
