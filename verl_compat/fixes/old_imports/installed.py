"""The installed verl read as files, for what must not import it: a static ``has(path)`` for
:func:`.resolve.fate` (doctor's count of the rows that apply here; tools that read user code).

A module is there when its file or package folder is; a name when its module's top level binds it
(:func:`verl_compat.source_imports.top_level_bindings`: ``def``, ``class``, assignment, import,
``__all__``, also under ``if``/``try``/``for``/``with``) or it is a submodule. A module with a star
import is taken to have every name.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
from pathlib import Path

from ... import source_imports


@functools.cache
def _root() -> Path | None:
    try:
        spec = importlib.util.find_spec("verl")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _location(module: str) -> Path | None:
    """The file (or namespace folder) of ``module``, or None."""
    root = _root()
    head, _, rest = module.partition(".")
    if root is None or head != "verl":
        return None
    if not rest:
        return root / "__init__.py"
    base = root.joinpath(*rest.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return base if base.is_dir() else None


@functools.cache
def _names(file: Path) -> frozenset[str] | None:
    """The names ``file`` binds at its top level; None where it star-imports (any name may be there)."""
    try:
        tree = ast.parse(file.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return None
    names, stars = source_imports.top_level_bindings(tree)
    return None if stars else frozenset(names)


def has(path: str) -> bool:
    """Whether the installed verl has ``path`` ("verl.a.b" or "verl.a.b:Name"), read from its files."""
    module, _, name = path.partition(":")
    location = _location(module)
    if location is None:
        return False
    if not name:
        return True
    if _location(f"{module}.{name}") is not None:
        return True
    if location.is_dir():
        return False
    names = _names(location)
    return names is None or name in names
