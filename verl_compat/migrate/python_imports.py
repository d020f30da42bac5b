"""Python files: old import paths rewritten to where the installed release has them, with libcst, so
that formatting and comments stay; what cannot be rewritten is named for the user.

The fixes' import rules (:class:`~verl_compat.migrate_contract.ImportRule`) say what each import comes to.
A moved one is rewritten, keeping every name the file binds:

- ``from old import a, b as c``: the new module, and ``new_name as a`` where the name changed; a
  statement whose names now live in different modules becomes one statement per module, in the
  order of their first names (each line keeps the statement's trailing comment, the first one the
  comments above it and after its opening parenthesis);
- ``import old.module as m``: the new module;
- ``import old.module`` binds the top package and is referred to as ``old.module.x``: it is
  rewritten only where the file never spells ``old.module`` outside its imports; otherwise it is
  named, since rewriting it would change how the module is referred to.

A replaced or removed import is left as it is and named with the rule's message, except under a
``try`` whose ``except`` catches its ``ImportError``: old code that falls back there behaves the same
without the shim.

What keeps a check over a checkout fast: a file that spells no rule's package is not read further;
one whose dotted names of the package no rule may concern (``ImportRule.may_concern``, the rule's
own data) is not parsed; the others are parsed with ``ast``, and only a file with an import to
rewrite imports libcst, which then parses and rewrites the import statements alone (the whole file
only where such a statement shares its line with another).
"""

from __future__ import annotations

import ast
import dataclasses
import io
import re
import tokenize
from typing import Any

from .. import source_imports
from ..migrate_contract import ImportFate, Refusal
from .text import splice

_WORD = re.compile(r"\w+")
_AFTER_IMPORT = re.compile(r"\bimport\b(?:[ \t]*\([^)]*\)|(?:[^\n\\]|\\\n|\\.)*)")
_LINE_END = re.compile(r"[ \t]*(#[^\n]*)?\n?")


class Unmigrated(Refusal):
    """A Python file with imports left for the user: ``text`` is the file with every moved import
    rewritten, ``notes`` the ``(line, message)`` of each import (or setting) left as it is."""

    def __init__(self, text: str, notes: list[tuple[int, str]]):
        super().__init__([line for line, _ in notes], "; ".join(message for _, message in notes))
        self.text = text
        self.notes = sorted(notes)


@dataclasses.dataclass
class _Plan:
    """What to rewrite, by what the import says (the same import is rewritten alike wherever it is):
    ``(module, name)`` -> its fate (``name`` None for ``import module`` and a star import's module)."""

    moved: dict[tuple[str, str | None], ImportFate] = dataclasses.field(default_factory=dict)
    bare_modules: set[str] = dataclasses.field(default_factory=set)  # ``import old.module`` that may be rewritten
    statements: list[source_imports.Statement] = dataclasses.field(default_factory=list)  # those to rewrite
    notes: list[tuple[int, str]] = dataclasses.field(default_factory=list)


class _Rules:
    """The import rules that may concern one file."""

    def __init__(self, rules: tuple, text: str):
        self.rules = tuple(rule for rule in rules if any(package in text for package in rule.packages))

    def rule_for(self, module: str, names):
        top = module.partition(".")[0]
        return next((rule for rule in self.rules if top in rule.packages and rule.may_concern(module, names)), None)

    def fate(self, module: str, name: str | None) -> ImportFate | None:
        rule = self.rule_for(module, () if name is None else (name,))
        return rule.fate(module, name) if rule is not None else None

    def may_concern(self, text: str) -> bool:
        """Whether a dotted name of a rule's package in ``text`` may have a fate, for itself (its
        own row) or for a name the file spells: every import of the package spells its module so."""
        if not self.rules:
            return False
        packages = "|".join(re.escape(package) for rule in self.rules for package in rule.packages)
        modules = set(re.findall(rf"(?<![\w.])(?:{packages})(?:\.\w+)*", text))
        if any(self.rule_for(module, ()) for module in modules):
            return True
        # A name imported from a module is spelled after an ``import``: up to the closing parenthesis,
        # or the end of the line and its backslash continuations.
        words = frozenset(_WORD.findall(" ".join(_AFTER_IMPORT.findall(text))))
        return any(self.rule_for(module, words) for module in modules)


def migrate_python(text: str, rules: tuple) -> tuple[str, list[tuple[int, str]]]:
    """``(text with the moved imports rewritten, notes)``; raises ``SyntaxError`` where the file is
    not Python, ``ValueError`` where libcst cannot read an import to rewrite."""
    found = _Rules(rules, text)
    if not found.may_concern(text):
        return text, []
    plan = _plan(text, ast.parse(text), found)
    if not plan.moved:
        return text, plan.notes
    return _rewrite(text, plan), plan.notes


def _plan(text: str, tree: ast.Module, rules: _Rules) -> _Plan:
    plan = _Plan()
    statements = source_imports.statements(tree)
    import_lines = {
        line for statement, _, _ in statements for line in range(statement.lineno, statement.end_lineno + 1)
    }
    for statement, _, guarded in statements:
        if isinstance(statement, ast.Import):
            asked = [(alias.name, None, alias.asname is None) for alias in statement.names]
        else:
            asked = [(statement.module, None if a.name == "*" else a.name, False) for a in statement.names]
        rewritten = False
        for module, name, bare in asked:
            fate = rules.fate(module, name)
            if fate is None:
                continue
            if fate.kind != "moved":
                if not guarded:
                    plan.notes.append((statement.lineno, _one_line(fate.message)))
            elif bare and _referred_to(text, module, import_lines):
                plan.notes.append((statement.lineno, _bare_note(module, fate)))
            else:
                plan.moved[(module, name)] = fate
                plan.bare_modules.update([module] if bare else [])
                rewritten = True
        if rewritten:
            plan.statements.append(statement)
    return plan


def string_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each string literal of ``text`` (Python source), as offsets in it."""
    starts = _line_starts(text)
    strings = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    try:
        tokens = [token for token in tokenize.generate_tokens(io.StringIO(text).readline) if token.type in strings]
    except (tokenize.TokenError, SyntaxError):
        return []
    return [(starts[t.start[0] - 1] + t.start[1], starts[t.end[0] - 1] + t.end[1]) for t in tokens]


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _referred_to(text: str, module: str, import_lines: set[int]) -> bool:
    """Whether ``text`` spells ``module`` outside its import statements (``verl.a.b.f()``)."""
    for match in re.finditer(rf"(?<![\w.]){re.escape(module)}(?!\w)", text):
        if text.count("\n", 0, match.start()) + 1 not in import_lines:
            return True
    return False


def _bare_note(module: str, fate: ImportFate) -> str:
    return (
        f"{_one_line(fate.message)}; not rewritten: this file refers to {module} by that name, so write "
        f"import {fate.module} and refer to {fate.module} there"
    )


# --- the rewrite (libcst) -----------------------------------------------------------------------


def _rewrite(text: str, plan: _Plan) -> str:
    import libcst

    rewriter = type("ImportRewriter", (_Rewriter, libcst.CSTTransformer), {})(plan, libcst)
    starts = _line_starts(text)
    edits = []
    for statement in plan.statements:
        span = _own_lines(text, starts, statement)
        if span is None:  # it shares a line with another statement: the whole file, once
            return _parse(libcst, text).visit(rewriter).code
        start, end = span
        indent = text[start : start + _chars(text, start, statement.col_offset)]
        snippet = _parse(libcst, text[start + len(indent) : end])
        new = snippet.visit(rewriter)
        code = "".join(indent + new.code_for_node(line) for line in new.body)
        edits.append((start, end, code if text[start:end].endswith("\n") else code.removesuffix("\n")))
    return splice(text, edits)


def _parse(libcst: Any, text: str) -> Any:
    try:
        return libcst.parse_module(text)
    except libcst.ParserSyntaxError as error:
        raise ValueError(" ".join(str(error).split())) from None


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts += [match.end() for match in re.finditer("\n", text)]
    return starts


def _chars(text: str, start: int, byte_offset: int) -> int:
    """The characters of ``text`` from ``start`` that ``byte_offset`` UTF-8 bytes hold (ast counts bytes)."""
    end = text.find("\n", start)
    line = text[start : end if end >= 0 else len(text)]
    return len(line.encode("utf-8", "surrogateescape")[:byte_offset].decode("utf-8", "surrogateescape"))


def _own_lines(text: str, starts: list[int], statement: source_imports.Statement) -> tuple[int, int] | None:
    """``(start, end)`` of the whole lines ``statement`` spans, where nothing else is on them but
    its indentation and a trailing comment; None otherwise (``x = 1; import y``, ``if a: import y``)."""
    start = starts[statement.lineno - 1]
    if text[start : start + _chars(text, start, statement.col_offset)].strip():
        return None
    last = starts[statement.end_lineno - 1]
    tail = last + _chars(text, last, statement.end_col_offset)
    match = _LINE_END.match(text, tail)
    if match is None or match.end() < (text.find("\n", tail) + 1 or len(text)):
        return None
    return start, match.end()


def _dotted(node: Any) -> str:
    """``a.b.c`` of a libcst Name/Attribute chain."""
    parts = []
    while hasattr(node, "attr"):
        parts.append(node.attr.value)
        node = node.value
    parts.append(node.value)
    return ".".join(reversed(parts))


class _Rewriter:
    """The methods of a libcst transformer: :func:`_rewrite` mixes them into libcst's
    ``CSTTransformer`` once libcst is imported. Only statements are visited (an import is never
    inside an expression), which keeps a whole-file pass cheap."""

    def __init__(self, plan: _Plan, cst: Any):
        super().__init__()
        self.plan, self.cst = plan, cst
        self.containers = tuple(
            getattr(cst, name)
            for name in (
                "Module",
                "BaseCompoundStatement",
                "BaseSuite",
                "SimpleStatementLine",
                "Else",
                "ExceptHandler",
                "ExceptStarHandler",
                "Finally",
                "MatchCase",
            )
            if hasattr(cst, name)
        )

    def on_visit(self, node: Any) -> bool:
        return isinstance(node, self.containers)

    def _node(self, dotted: str) -> Any:
        return self.cst.parse_expression(dotted)

    def leave_Import(self, original: Any, updated: Any) -> Any:
        names = []
        for alias in updated.names:
            module = _dotted(alias.name)
            fate = self.plan.moved.get((module, None))
            if fate is not None and (alias.asname is not None or module in self.plan.bare_modules):
                alias = alias.with_changes(name=self._node(fate.module))
            names.append(alias)
        return updated.with_changes(names=names)

    def leave_ImportFrom(self, original: Any, updated: Any) -> Any:
        if updated.relative or updated.module is None:
            return updated
        module = _dotted(updated.module)
        if isinstance(updated.names, self.cst.ImportStar):
            fate = self.plan.moved.get((module, None))
            return updated.with_changes(module=self._node(fate.module)) if fate is not None else updated
        groups: dict[str, list] = {}
        for alias in updated.names:
            name = _dotted(alias.name)
            fate = self.plan.moved.get((module, name))
            if fate is None:
                groups.setdefault(module, []).append(alias)
                continue
            bound = alias.asname.name.value if alias.asname is not None else name
            asname = None if bound == fate.name else self.cst.AsName(name=self.cst.Name(bound))
            groups.setdefault(fate.module, []).append(alias.with_changes(name=self.cst.Name(fate.name), asname=asname))
        if list(groups) == [module] and all(a is b for a, b in zip(groups[module], updated.names, strict=True)):
            return updated
        statements = []
        for new_module, aliases in groups.items():
            aliases[-1] = self._last(aliases[-1], updated)
            lpar = updated.lpar if not statements else self._without_comment(updated.lpar)
            statements.append(updated.with_changes(module=self._node(new_module), names=aliases, lpar=lpar))
        statements[-1] = statements[-1].with_changes(semicolon=updated.semicolon)
        if len(statements) == 1:
            return statements[0]
        for i in range(len(statements) - 1):
            statements[i] = statements[i].with_changes(semicolon=self.cst.MaybeSentinel.DEFAULT)
        return self.cst.FlattenSentinel(statements)

    def _last(self, alias: Any, statement: Any) -> Any:
        """``alias`` as the last name of a statement split off ``statement``: without parentheses, no
        trailing comma; within them, its own comma and comment, followed by what came before the
        closing parenthesis in ``statement`` (a newline, no indentation)."""
        original = statement.names[-1]
        if alias.comma is original.comma:  # the original last name, as it was
            return alias
        if statement.lpar is None:
            return alias.with_changes(comma=self.cst.MaybeSentinel.DEFAULT)
        closing = original.comma.whitespace_after if isinstance(original.comma, self.cst.Comma) else None
        after = alias.comma.whitespace_after
        if isinstance(after, self.cst.ParenthesizedWhitespace):
            last_line = closing.last_line if isinstance(closing, self.cst.ParenthesizedWhitespace) else ""
            comma = alias.comma.with_changes(whitespace_after=after.with_changes(last_line=last_line))
            return alias.with_changes(comma=comma)
        return alias.with_changes(comma=original.comma)

    def _without_comment(self, lpar: Any) -> Any:
        """An opening parenthesis for a statement split off another: the comment after the first
        one's stays with the first."""
        after = getattr(lpar, "whitespace_after", None)
        if not isinstance(after, self.cst.ParenthesizedWhitespace):
            return lpar
        return lpar.with_changes(
            whitespace_after=after.with_changes(
                first_line=self.cst.TrailingWhitespace(newline=after.first_line.newline)
            )
        )

    def leave_SimpleStatementLine(self, original: Any, updated: Any) -> Any:
        """A ``from`` import split in several, alone on its line: one line each."""
        if len(original.body) != 1 or len(updated.body) == 1:
            return updated
        lines = []
        for i, statement in enumerate(updated.body):
            statement = statement.with_changes(semicolon=self.cst.MaybeSentinel.DEFAULT)
            lines.append(updated.with_changes(body=[statement], leading_lines=updated.leading_lines if i == 0 else []))
        return self.cst.FlattenSentinel(lines)
