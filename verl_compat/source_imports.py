"""What a Python source imports and binds, read with ``ast``: the file is never imported (it may need
a GPU, or start a run). ``verl-compat doctor --code`` lists a user's imports for the fixes'
``describe_code``, ``verl-compat migrate`` reads a ``.py`` file's imports with it before deciding
whether to edit it, and old_imports reads the names the installed verl's modules bind
(:func:`top_level_bindings`) to tell which table rows apply, without importing verl.

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
    return imports_in(ast.parse(text, file), file, packages)


def imports_in(tree: ast.Module, file: str, packages: tuple[str, ...] = ("verl",)) -> list[CodeImport]:
    """:func:`imports_of` for a source already parsed (``file`` names it in each import)."""
    found: list[CodeImport] = []
    for statement, scope, guarded in statements(tree):
        modules: list[tuple[str, str | None]]
        if isinstance(statement, ast.Import):
            modules = [(alias.name, None) for alias in statement.names if in_packages(alias.name, packages)]
        elif in_packages(statement.module or "", packages):
            modules = [(statement.module or "", alias.name) for alias in statement.names]
        else:
            modules = []
        found += [CodeImport(file, statement.lineno, module, name, scope, guarded) for module, name in modules]
    return found


# --- the names a module binds -------------------------------------------------------------------


Bindings = tuple[dict[str, str], list[str]]  # (name -> how its first binding reads, star-imported modules)


def top_level_bindings(tree: ast.Module, module: str = "", is_package: bool = False) -> Bindings:
    """``(names, stars)``: each name the module's top level binds, with how its first binding
    reads, and the module each ``from … import *`` names (relative ones resolved against
    ``module``; ``is_package`` for an ``__init__.py``).

    A binding is a ``def`` (``"def"``), a ``class`` (``"class"``), an assignment target, also
    annotated, augmented, a ``for`` target or a ``with … as`` (``"assign"``), ``import a.b``
    (``"import a"``: it binds ``a``), ``import a.b as c`` (``"import a.b"``), ``from m import n``
    (``"from m:n"``), a ``type`` alias (``"type"``) or an entry of ``__all__`` (``"all"``: a module
    that lists a name promises it, a PEP 562 ``__getattr__`` gives it), found under ``if``, ``try``
    (``except*`` too), ``with``, ``for``, ``while`` and ``match`` as well, never in a function or
    class body. Only names are bound: ``table[key] = value`` and ``obj.attr = value`` bind none."""
    names: dict[str, str] = {}
    stars: list[str] = []

    def bind(target: ast.AST) -> None:
        if isinstance(target, ast.Name):
            names.setdefault(target.id, "assign")
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                bind(element)
        elif isinstance(target, ast.Starred):
            bind(target.value)

    def listed(value: ast.expr | None) -> None:  # the strings of an __all__ list, tuple or sum
        if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
            for element in value.elts:
                if isinstance(element, ast.Constant) and isinstance(element.value, str):
                    names.setdefault(element.value, "all")
        elif isinstance(value, ast.BinOp):
            listed(value.left)
            listed(value.right)

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
                names.setdefault(node.name, "class" if isinstance(node, ast.ClassDef) else "def")
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    bind(target)
                if any(isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets):
                    listed(node.value)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                bind(node.target)
                if isinstance(node.target, ast.Name) and node.target.id == "__all__":
                    listed(node.value)
            elif isinstance(node, ast.Expr) and _extends_all(node.value):
                for argument in node.value.args:  # type: ignore[attr-defined]
                    listed(ast.List([argument]) if isinstance(argument, ast.Constant) else argument)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        names.setdefault(alias.asname, f"import {alias.name}")
                    else:
                        top = alias.name.partition(".")[0]
                        names.setdefault(top, f"import {top}")
            elif isinstance(node, ast.ImportFrom):
                source = _absolute(module, is_package, node.level, node.module)
                for alias in node.names:
                    if alias.name == "*":
                        stars.append(source)
                    else:
                        names.setdefault(alias.asname or alias.name, f"from {source}:{alias.name}")
            elif _TYPE_ALIAS is not None and isinstance(node, _TYPE_ALIAS):
                names.setdefault(node.name.id, "type")
            elif _MATCH is not None and isinstance(node, _MATCH):
                for case in node.cases:
                    visit(case.body)
            else:
                if isinstance(node, (ast.For, ast.AsyncFor)):
                    bind(node.target)
                elif isinstance(node, (ast.With, ast.AsyncWith)):
                    for item in node.items:
                        if item.optional_vars is not None:
                            bind(item.optional_vars)
                for field in ("body", "orelse", "finalbody"):  # if, try, for, while, with
                    inner = getattr(node, field, None)
                    if isinstance(inner, list) and not isinstance(node, ast.ClassDef):
                        visit(inner)
                for handler in getattr(node, "handlers", ()):  # try, try/except*
                    visit(handler.body)

    visit(tree.body)
    return names, stars


_TYPE_ALIAS = getattr(ast, "TypeAlias", None)  # ``type X = …`` (Python 3.12+)


def _extends_all(value: ast.expr) -> bool:
    """``__all__.extend([...])`` or ``__all__.append("name")``."""
    function = getattr(value, "func", None)
    return (
        isinstance(value, ast.Call)
        and isinstance(function, ast.Attribute)
        and isinstance(function.value, ast.Name)
        and function.value.id == "__all__"
        and function.attr in ("extend", "append")
    )


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The module a ``from`` import of ``level`` dots names, seen from ``module``."""
    if not level:
        return name or ""
    parts = module.split(".") if module else []
    parts = parts if is_package else parts[:-1]
    parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
    return ".".join([*parts, *([name] if name else [])])
