"""The imports of a user's Python source, read with ``ast``: the file is never imported (it may need a
GPU, or start a run). ``verl-compat doctor --code`` lists them for the fixes' ``describe_code``, and
``verl-compat migrate`` reads a ``.py`` file's imports with it before deciding whether to edit it.

An import is found at any depth: in functions (``scope`` "function": it runs when the function is
called), class bodies, ``if`` blocks and ``try`` blocks (``scope`` "module": it runs at import).
``guarded`` says that a ``try`` around it catches the error of a missing import (``ImportError``,
``ModuleNotFoundError``, ``Exception``, ``BaseException`` or a bare ``except``): old code that
falls back when a path is gone. Relative imports (``from .x import y``) are the user's own, never
listed.
"""

from __future__ import annotations

import ast

from .registry import CodeImport

# What a handler must catch for the import it guards to fail quietly.
_GUARDS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_TRY = tuple(getattr(ast, name) for name in ("Try", "TryStar") if hasattr(ast, name))
_MATCH = getattr(ast, "Match", None)

Statement = ast.Import | ast.ImportFrom


def statements(tree: ast.Module) -> list[tuple[Statement, str, bool]]:
    """``(statement, scope, guarded)`` for each absolute ``import``/``from … import`` in ``tree``, in
    source order. Only statement bodies are walked: an import is a statement, never inside an
    expression."""
    found: list[tuple[Statement, str, bool]] = []
    _walk(tree.body, False, False, found)
    return found


def _walk(body: list[ast.stmt], in_function: bool, guarded: bool, found: list[tuple[Statement, str, bool]]) -> None:
    for node in body:
        if isinstance(node, ast.Import) or (isinstance(node, ast.ImportFrom) and not node.level):
            found.append((node, "function" if in_function else "module", guarded))
        elif isinstance(node, _FUNCTIONS):
            _walk(node.body, True, guarded, found)
        elif isinstance(node, _TRY):
            _walk(node.body, in_function, guarded or _catches_import_errors(node.handlers), found)
            for handler in node.handlers:
                _walk(handler.body, in_function, guarded, found)
            _walk(node.orelse, in_function, guarded, found)
            _walk(node.finalbody, in_function, guarded, found)
        elif _MATCH is not None and isinstance(node, _MATCH):
            for case in node.cases:
                _walk(case.body, in_function, guarded, found)
        else:
            for field in ("body", "orelse", "finalbody"):  # class, if, for, while, with
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    _walk(inner, in_function, guarded, found)


def _catches_import_errors(handlers: list[ast.ExceptHandler]) -> bool:
    for handler in handlers:
        if handler.type is None:
            return True
        caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        if any((getattr(kind, "id", None) or getattr(kind, "attr", None)) in _GUARDS for kind in caught):
            return True
    return False


def in_packages(module: str, packages: tuple[str, ...]) -> bool:
    return module.partition(".")[0] in packages


def imports_of(text: str, file: str, packages: tuple[str, ...] = ("verl",)) -> list[CodeImport]:
    """Each import of a module of ``packages`` in ``text`` (the source of ``file``): one
    :class:`~verl_compat.registry.CodeImport` per imported module or name. Raises ``SyntaxError``
    (and ``ValueError`` for a null byte) where ``text`` is not Python."""
    found: list[CodeImport] = []
    for statement, scope, guarded in statements(ast.parse(text, file)):
        modules: list[tuple[str, str | None]]
        if isinstance(statement, ast.Import):
            modules = [(alias.name, None) for alias in statement.names if in_packages(alias.name, packages)]
        elif in_packages(statement.module or "", packages):
            modules = [(statement.module or "", alias.name) for alias in statement.names]
        else:
            modules = []
        found += [CodeImport(file, statement.lineno, module, name, scope, guarded) for module, name in modules]
    return found
