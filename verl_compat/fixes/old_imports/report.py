"""old_imports, as ``verl-compat doctor`` shows it: the table's size, and how much of it applies to
the installed verl (paths this verl lacks, read from its files without importing them)."""

from __future__ import annotations

import collections

from ... import registry
from . import installed, resolve
from .table import KEYWORD_ROWS, ROWS

NAME = registry.fix_name(__name__)


def rows() -> list[tuple[str, list[str]]]:
    fates: collections.Counter[str] = collections.Counter()
    for row in ROWS:
        module, _, name = row.old.partition(":")
        fate = resolve.fate(module, name or None, installed.has)
        if fate is not None:
            fates[fate.kind] += 1
    applying = sum(fates.values())
    counts = ", ".join(f"{fates[kind]} {kind}" for kind in ("moved", "stub", "replaced", "removed") if fates[kind])
    return [
        (
            NAME,
            [
                f"table: {len(ROWS)} old module paths and names, {len(KEYWORD_ROWS)} old keywords (verl 0.4-0.8)",
                f"{applying} of those paths are missing from this verl ({counts or 'none'}): "
                "an import of one gets the new object or an error naming the change",
            ],
        )
    ]
