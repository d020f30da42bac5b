"""The fate of an old import path, from the table alone.

Pure: :func:`fate` gets the path and a ``has(path)`` probe of the installed verl and returns what an
import of the path comes to, and the words for it. The runtime hook asks it with a probe that imports
(only where Python's own import failed), tools that read code before it runs ask it with a static one
(:mod:`.installed`). Paths are ``"verl.a.b"`` (a module) or ``"verl.a.b:Name"`` (a top-level name).

The rules, in order:

- a path the installed verl has resolves as it is (no fate);
- a name row decides for its name, a module row for its module;
- a module without a row of its own falls under the nearest module row above it: a moved package
  forwards each submodule the new package has, a removed or replaced one takes its submodules along;
- a name without a row of its own is a submodule (``from verl.utils.reward_score import math``) where
  that submodule has a row, else it follows its module's row: a moved module forwards each name the
  new module has, a removed or replaced one takes its names along;
- a moved path applies only where its new home exists (``has``);
- a removed module that still has a moved name (in it or its submodules) is a stub: it imports, and
  its names resolve one by one. A replaced module (an entry point whose job another module does,
  ``verl.trainer.main_ppo_sync``) never pretends to exist: it raises, and its message lists where its
  names went.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Collection

from .table import ROWS, Row

Has = Callable[[str], bool]


@dataclasses.dataclass(frozen=True)
class Fate:
    """What an old ``path`` comes to: ``kind`` "moved" (``target`` is where it is now), "replaced"
    (``target`` is its successor), "removed", or "stub" (a removed module that imports, emptied),
    decided by ``row`` (the path's own row, or the module row it falls under)."""

    path: str
    kind: str
    row: Row
    target: str | None = None
    second_line: str = ""  # for a module: what became of its names (see _names_line)

    @property
    def dotted(self) -> str:
        """The path as Python code spells it: ``verl.trainer.main_ppo.create_rl_sampler``."""
        return self.path.replace(":", ".")

    @property
    def own_row(self) -> bool:
        return self.row.old == self.path

    def message(self) -> str:
        """One or two lines for the user: what happened to the path, in which release and verl
        change, and what to write or do instead."""
        row, where = self.row, f"verl {self.row.since} ({self.row.evidence})"
        if self.kind == "moved":
            first = f"verl-compat: {self.dotted} moved to {dotted(self.target)} in {where}. Write instead: "
            first += self.instead()
        elif self.kind == "replaced":
            first = (
                f"verl-compat: {self.dotted} was replaced{self._along()} in {where} by {dotted(row.new)}, which has "
                f"another contract: {row.note}"
            )
        else:
            first = f"verl-compat: {self.dotted} was removed{self._along()} in {where}: {row.note}"
        return f"{first}\n{self.second_line}" if self.second_line else first

    def _along(self) -> str:
        return "" if self.own_row else f" with {dotted(self.row.old)}"

    def instead(self) -> str:
        """The import line to write for a moved path."""
        target = self.target or ""
        if ":" in target:
            module, name = target.split(":")
            return f"from {module} import {name}"
        if ":" in self.path:  # an old name that was a submodule: ``from package import module``
            package, _, module = target.rpartition(".")
            return f"from {package} import {module}"
        return f"import {target}"


def dotted(path: str | None) -> str:
    return (path or "").replace(":", ".")


@dataclasses.dataclass(frozen=True)
class _Index:
    by_old: dict[str, Row]
    stubs: frozenset[str]  # removed modules that still have a moved name below them


@functools.cache
def _index() -> _Index:
    by_old = {row.old: row for row in ROWS}
    moved = [row.old for row in ROWS if row.fate == "moved"]
    stubs = frozenset(
        row.old
        for row in ROWS
        if ":" not in row.old
        and row.fate == "removed"
        and any(old.startswith((f"{row.old}:", f"{row.old}.")) for old in moved)
    )
    return _Index(by_old, stubs)


def row(path: str) -> Row | None:
    """The table's own row for ``path``, if any."""
    return _index().by_old.get(path)


def _module_row(module: str) -> Row | None:
    """The row of ``module`` or of the nearest module above it."""
    by_old = _index().by_old
    while module:
        found = by_old.get(module)
        if found is not None:
            return found
        module = module.rpartition(".")[0]
    return None


def fate(module: str, name: str | None, has: Has) -> Fate | None:
    """What ``import module`` (``name`` None) or ``module.name`` comes to on the verl that ``has``
    describes; None where it resolves as it is, or where the table knows nothing of it (then ``has``
    is never asked: an import outside the table costs a lookup or two)."""
    if not may_concern(module, () if name is None else (name,)):
        return None
    return _fate_of_module(module, has) if name is None else _fate_of_name(module, name, has)


def _fate_of_module(module: str, has: Has) -> Fate | None:
    if has(module):
        return None
    found = _module_row(module)
    if found is None:
        return None
    if found.fate == "moved":
        target = found.new + module[len(found.old) :]
        if not has(target):
            return None
        return Fate(module, "moved", found, target, _shadowed_line(module, target, has))
    if found.old == module and module in _index().stubs:
        return Fate(module, "stub", found, found.new)
    return Fate(module, found.fate, found, found.new, _names_line(module) if found.old == module else "")


def _name_rows(module: str) -> list[Row]:
    return [found for old, found in _index().by_old.items() if old.partition(":")[0] == module and ":" in old]


def _names_line(module: str) -> str:
    """A removed module raises at import, before any of its names is asked: where they went."""
    rows = [found for found in _name_rows(module) if found.new]
    went = [f"{found.old.partition(':')[2]} -> {dotted(found.new)} ({found.fate})" for found in rows]
    if not went:
        return ""
    return "Its names: " + ", ".join(went[:6]) + (", ..." if len(went) > 6 else "")


def _shadowed_line(module: str, target: str, has: Has) -> str:
    """A moved module is the new module itself: where the new module has a same-named successor of
    another contract, the old name gives that successor, and the module's warning says so."""
    shadowed = [
        found
        for found in _name_rows(module)
        if found.fate == "replaced" and has(f"{target}:{found.old.partition(':')[2]}")
    ]
    return " ".join(
        f"Careful: {found.old.partition(':')[2]} there is {dotted(found.new)}, which has another contract: {found.note}"
        for found in shadowed
    )


def _fate_of_name(module: str, name: str, has: Has) -> Fate | None:
    path = f"{module}:{name}"
    if has(path):
        return None
    own = row(path)
    if own is not None:
        if own.fate == "moved":
            return Fate(path, "moved", own, own.new) if has(own.new) else None
        return Fate(path, own.fate, own, own.new)
    submodule = f"{module}.{name}"
    if row(submodule) is not None:
        return _fate_of_module(submodule, has)
    owner = _module_row(module)
    if owner is None:
        return None
    if owner.fate == "moved":
        target = f"{owner.new}{module[len(owner.old) :]}:{name}"
        return Fate(path, "moved", owner, target) if has(target) else None
    return Fate(path, owner.fate, owner, owner.new)


@functools.cache
def name_modules() -> tuple[str, ...]:
    """The modules some old name may be missing from: each module with a name row, and each package
    above a module row (``from verl.workers import fsdp_workers``). Where they exist, the hook gives
    them a module ``__getattr__``."""
    modules = {row.old.partition(":")[0] for row in ROWS if ":" in row.old}
    modules |= {row.old.rpartition(".")[0] for row in ROWS if ":" not in row.old}
    return tuple(sorted(modules))


@functools.cache
def _names_below() -> dict[str, frozenset[str]]:
    """module -> the names the table has rows for in it: its name rows, and its submodules that have
    module rows (``from verl.workers import fsdp_workers``)."""
    below: dict[str, set[str]] = {}
    for found in ROWS:
        module, sep, name = found.old.partition(":")
        if not sep:
            module, _, name = module.rpartition(".")
        below.setdefault(module, set()).add(name)
    return {module: frozenset(names) for module, names in below.items()}


def may_concern(module: str, names: Collection[str]) -> bool:
    """Whether the table can say anything of ``import module``, or of ``from module import`` one of
    ``names``: the module or one above it has a row, or a row names one of them in it. The table
    alone answers (no probe), so that tools reading code pass over the imports it clears."""
    return _module_row(module) is not None or not _names_below().get(module, frozenset()).isdisjoint(names)
