"""old_imports' migrate rule for ``verl-compat migrate`` on ``.py`` files (the contract:
:class:`verl_compat.migrate_contract.ImportRule`).

The same table and the same rules decide as at run time (:func:`.resolve.fate`), against the
installed verl read from its files (:mod:`.installed`), both loaded at the first ``.py`` file that
imports verl: an import is rewritten only where that verl
lacks the old path and has its new home, so the migrated file imports on that verl, without
verl-compat, exactly what verl-compat gives the old one.
"""

from __future__ import annotations

from ...migrate_contract import ImportFate, ImportRule
from . import fate_on_installed, table_knows


class OldImportPaths(ImportRule):
    """Old verl import paths (the old_imports table): an import of a module or name that moved is
    rewritten to where it lives in the installed verl; a replaced or removed one is named with what
    to do."""

    name = "old_imports"
    packages = ("verl",)

    def may_concern(self, module: str, names) -> bool:
        return table_knows(module, names)

    def fate(self, module: str, name: str | None) -> ImportFate | None:
        found = fate_on_installed(module, name)
        if found is None:
            return None
        if found.kind != "moved":  # a stub is a module that imports only with verl-compat
            return ImportFate("removed" if found.kind == "stub" else found.kind, found.message())
        target = found.target or ""
        if ":" in target:
            new_module, _, new_name = target.partition(":")
            return ImportFate("moved", found.message(), new_module, new_name)
        if name is not None:  # an old name that was a submodule: ``from package import module``
            package, _, submodule = target.rpartition(".")
            return ImportFate("moved", found.message(), package, submodule)
        return ImportFate("moved", found.message(), target)


RULES = (OldImportPaths(),)
