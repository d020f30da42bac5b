"""A launch script read with bash's own grammar (tree-sitter-bash): its words, and for each the
command, bash array and ``if``/``case`` arms it sits in; here-documents; ``# verl-compat: ignore``
lines; and the parts the grammar could not read.

A hand-written lexer that meets a form it does not know loses its place, and what follows is read
wrong without anyone noticing: for a codemod the worst outcome, a launch left unmigrated with a
clean ``--check``. tree-sitter-bash is the grammar editors use for bash; where it cannot read a
part of a script it says so (ERROR and MISSING nodes), and migrate refuses to guess there
(:mod:`.shell`). tree-sitter is imported only when a script needs reading.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import TYPE_CHECKING

from . import rulebook
from .text import line_end, line_of

if TYPE_CHECKING:
    from tree_sitter import Node

Arms = tuple[tuple[int, int], ...]  # ``(block, arm)`` of each ``if``/``case`` arm a word sits in
PRINTERS = ("echo", "printf")
_TESTS = ("[", "[[", "test")
# What is in a command substitution runs as a command of its own; in the word around it, it is this.
SUBSTITUTION = "$(…)"
_SUBSTITUTIONS = ("command_substitution", "process_substitution")
# Nodes that are one word of a command (an argument, a value, an operand of a test).
_WORDS = frozenset(
    (
        "word",
        "string",
        "raw_string",
        "ansi_c_string",
        "translated_string",
        "concatenation",
        "number",
        "simple_expansion",
        "expansion",
        "arithmetic_expansion",
        "brace_expression",
        "extglob_pattern",
        "regex",
        *_SUBSTITUTIONS,
    )
)


@dataclasses.dataclass
class Word:
    start: int
    end: int
    text: str  # what the program receives: quotes removed, a command substitution as SUBSTITUTION
    expanded: bool  # has an expansion outside single quotes: only the shell knows its value
    command: int  # which command (or bash array definition) it belongs to
    array: str | None = None  # the bash array it is an element of, ``NAME=( … )`` or ``NAME+=( … )``
    arms: Arms = ()
    lead: str = ""  # the name of its command
    # None: an argument of a command. "shown": text for the user (echo/printf to the terminal), a
    # file name or a test's operand, never a setting. "fed": text a program reads (echo/printf into
    # a file, a pipe or a command substitution, a here-string): refused where it holds a setting.
    printed: str | None = None
    name: bool = False  # the command's name (its first word)


@dataclasses.dataclass
class Script:
    words: list[Word]
    here_documents: list[tuple[int, int, bool]]  # (start, end, shown): shown only when printed for the user
    ignored_lines: set[int]
    unread: list[tuple[int, int]]  # whole lines around what the grammar could not read


@functools.lru_cache(maxsize=1)
def _parser():
    import tree_sitter
    import tree_sitter_bash

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))


def read(text: str) -> Script:
    """The words, here-documents, marked lines and unreadable parts of ``text``."""
    return _Reader(text).read()


class _Reader:
    """Walks the syntax tree once. Offsets are the text's characters (tree-sitter counts UTF-8
    bytes; a file's bytes that are not UTF-8 are one surrogate character each, one byte each)."""

    def __init__(self, text: str):
        self.text = text
        self.source = text.encode("utf-8", "surrogateescape")
        self.chars = None if len(self.source) == len(text) else _char_offsets(text)
        self.words: list[Word] = []
        self.here_documents: list[tuple[int, int, bool]] = []
        self.ignored_lines: set[int] = set()
        self.commands = self.blocks = 0

    def read(self) -> Script:
        root = _parser().parse(self.source).root_node
        self._visit(root, (), False)
        unread = self._unread(root) if root.has_error else []
        return Script(self.words, self.here_documents, self.ignored_lines, unread)

    def _span(self, node) -> tuple[int, int]:
        if self.chars is None:
            return node.start_byte, node.end_byte
        return self.chars[node.start_byte], self.chars[node.end_byte]

    def _raw(self, node) -> str:
        start, end = self._span(node)
        return self.text[start:end]

    def _next_command(self) -> int:
        self.commands += 1
        return self.commands

    # Statements ----------------------------------------------------------------------------------

    def _visit(self, node, arms: Arms, captured: bool) -> None:
        """``captured``: what the statement prints goes to a file, a pipe or a command substitution."""
        kind = node.type
        if kind == "comment":
            self._comment(node)
        elif kind == "command":
            self._command(node, arms, captured, [])
        elif kind == "redirected_statement":
            self._redirected(node, arms, captured)
        elif kind in ("variable_assignment", "variable_assignments", "declaration_command", "unset_command"):
            self._declaration(node, arms, captured)
        elif kind == "test_command":
            self._test(node, self._next_command(), arms, captured)
        elif kind == "pipeline":  # each command but the last prints into the next one
            last = max((index for index, child in enumerate(node.children) if child.is_named), default=-1)
            for index, child in enumerate(node.children):
                self._visit(child, arms, captured or (child.is_named and index < last))
        elif kind in _SUBSTITUTIONS:
            for child in node.children:
                self._visit(child, arms, True)
        elif kind == "if_statement":
            self._if(node, arms, captured)
        elif kind == "case_statement":
            self._case(node, arms, captured)
        elif kind == "for_statement":
            self._for(node, arms, captured)
        elif kind == "heredoc_redirect":
            self._here_document(node, "", arms, captured, False)
        elif kind in ("file_redirect", "herestring_redirect"):
            self._redirect(node, "", arms, captured)
        else:
            for child in node.children:
                self._visit(child, arms, captured)

    def _comment(self, node) -> None:
        if rulebook.IGNORE.match(self._raw(node)):
            self.ignored_lines.add(line_of(self.text, self._span(node)[0]))

    def _command(self, node: Node, arms: Arms, captured: bool, redirects: list[Node]) -> None:
        """A simple command: its name, its arguments, the assignments before its name."""
        command, name, redirects = self._next_command(), node.child_by_field_name("name"), list(redirects)
        lead = _unquote(self._raw(name))[0] if name is not None else ""
        printed = None
        if lead in PRINTERS:
            printed = "fed" if captured else "shown"
        elif lead in _TESTS:
            printed = "shown"
        for child in node.children:
            kind = child.type
            if kind == "comment":
                self._comment(child)
            elif kind in ("file_redirect", "herestring_redirect", "heredoc_redirect"):
                redirects.append(child)
            elif kind == "variable_assignment":
                self._assignment(child, command, arms, captured, lead)
            elif kind == "command_name":
                self._word(child, command, arms, captured, lead, printed, name=True)
            elif child.is_named:
                self._word(child, command, arms, captured, lead, printed)
        for redirect in redirects:
            self._redirect(redirect, lead, arms, captured)

    def _redirected(self, node, arms: Arms, captured: bool) -> None:
        """A statement with redirections: what it prints into a file is not for the user."""
        body = node.child_by_field_name("body")
        redirects = [child for child in node.children if child.type.endswith("_redirect")]
        writes = captured or any(self._writes(redirect) for redirect in redirects)
        for child in node.children:
            if child.type == "comment":
                self._comment(child)
        if body is None:
            for redirect in redirects:
                self._redirect(redirect, "", arms, writes)
        elif body.type == "command":
            self._command(body, arms, writes, redirects)
        else:
            self._visit(body, arms, writes)
            for redirect in redirects:
                self._redirect(redirect, "", arms, writes)

    def _writes(self, redirect) -> bool:
        """Whether ``redirect`` sends the standard output somewhere other than the terminal."""
        if redirect.type == "heredoc_redirect":
            return any(self._writes(child) for child in redirect.children if child.type == "file_redirect")
        if redirect.type != "file_redirect":
            return False
        operator = "".join(self._raw(child) for child in redirect.children if not child.is_named)
        descriptor = redirect.child_by_field_name("descriptor")
        destination = redirect.child_by_field_name("destination")
        if ">" not in operator or (descriptor is not None and self._raw(descriptor) != "1"):
            return False
        target = self._raw(destination) if destination is not None else ""
        return not (operator.endswith("&") and (target.isdigit() or target == "-"))

    def _redirect(self, node, lead: str, arms: Arms, captured: bool) -> None:
        kind = node.type
        if kind == "heredoc_redirect":
            self._here_document(node, lead, arms, captured, self._writes(node))
            return
        shown = lead in (*PRINTERS, "cat") and not captured
        printed = "fed" if kind == "herestring_redirect" and not shown else "shown"
        command = self._next_command()
        for child in node.children:
            if child.type == "comment":
                self._comment(child)
            elif child.is_named and child.type != "file_descriptor":
                self._word(child, command, arms, captured, lead, printed)

    def _here_document(self, node, lead: str, arms: Arms, captured: bool, writes: bool) -> None:
        """A here-document's body is text, not words; it is only shown where ``cat``, ``echo`` or
        ``printf`` prints it to the terminal (not into a file, a pipe or a command substitution)."""
        body, end, onward = None, None, False
        for child in node.children:
            if child.type == "heredoc_body":
                body = child
            elif child.type == "heredoc_end":
                end = child
            elif child.type not in ("heredoc_start", "file_redirect") and child.is_named:
                onward = True  # ``cat <<EOF | bash``: the grammar keeps the rest of the line here
                self._visit(child, arms, captured)
        if body is None:
            return
        start, stop = self._span(body)
        stop = self._span(end)[1] if end is not None else stop
        shown = lead in (*PRINTERS, "cat") and not (captured or writes or onward)
        self.here_documents.append((start, stop, shown))
        for child in body.children:
            if child.type in _SUBSTITUTIONS:
                self._visit(child, arms, True)

    def _declaration(self, node, arms: Arms, captured: bool) -> None:
        """Assignments (``NAME=value``, ``NAME=( … )``), alone or after ``export``, ``local``, ``declare``."""
        command = self._next_command()
        if node.type == "variable_assignment":
            self._assignment(node, command, arms, captured, "")
            return
        lead = self._raw(node.children[0]) if node.type in ("declaration_command", "unset_command") else ""
        for child in node.children:
            if child.type == "comment":
                self._comment(child)
            elif child.type == "variable_assignment":
                self._assignment(child, command, arms, captured, lead)
            elif child.is_named:
                self._word(child, command, arms, captured, lead, None)

    def _assignment(self, node, command: int, arms: Arms, captured: bool, lead: str) -> None:
        value = node.child_by_field_name("value")
        if value is None or value.type != "array":
            self._word(node, command, arms, captured, lead, None)
            return
        name = self._raw(node.child_by_field_name("name"))
        for element in value.children:
            if element.type == "comment":
                self._comment(element)
            elif element.is_named:
                self._word(element, command, arms, captured, lead, None, array=name)

    def _test(self, node, command: int, arms: Arms, captured: bool) -> None:
        """``[ … ]`` and ``[[ … ]]``: operands compared, never settings given to a launch."""
        for child in node.children:
            if child.type in _WORDS:
                self._word(child, command, arms, captured, "[", "shown")
            elif child.type == "comment":
                self._comment(child)
            else:
                self._test(child, command, arms, captured)

    def _if(self, node, arms: Arms, captured: bool) -> None:
        """Each arm of an ``if`` (its condition with it): two arms never run in one launch."""
        self.blocks += 1
        block, arm = self.blocks, 0
        for child in node.children:
            if child.type in ("elif_clause", "else_clause"):
                arm += 1
            self._visit(child, (*arms, (block, arm)), captured)

    def _case(self, node, arms: Arms, captured: bool) -> None:
        """Each item of a ``case`` is an arm; the subject and the patterns are not words of a command."""
        self.blocks += 1
        block, arm = self.blocks, -1
        for index, child in enumerate(node.children):
            if child.type == "case_item":
                arm += 1
                for inner, grandchild in enumerate(child.children):
                    if child.field_name_for_child(inner) != "value":
                        self._visit(grandchild, (*arms, (block, arm)), captured)
            elif child.type == "comment":
                self._comment(child)
            elif node.field_name_for_child(index) == "value":
                for substitution in self._substitutions(child):
                    self._visit(substitution, arms, True)

    def _for(self, node, arms: Arms, captured: bool) -> None:
        """``for NAME in WORDS``: the words are a command of their own (an array expanded there is read)."""
        command = self._next_command()
        for index, child in enumerate(node.children):
            if node.field_name_for_child(index) in ("variable", "value"):
                self._word(child, command, arms, captured, "for", None)
            else:
                self._visit(child, arms, captured)

    # Words -----------------------------------------------------------------------------------------

    def _word(
        self,
        node: Node,
        command: int,
        arms: Arms,
        captured: bool,
        lead: str,
        printed: str | None,
        array: str | None = None,
        name: bool = False,
    ) -> None:
        start, end = self._span(node)
        substitutions = self._substitutions(node)
        raw, at = [], start
        for substitution in substitutions:
            first, last = self._span(substitution)
            raw += [self.text[at:first], SUBSTITUTION]
            at = last
        text, expanded = _unquote("".join([*raw, self.text[at:end]]))
        self.words.append(Word(start, end, text, expanded, command, array, arms, lead, printed, name))
        for substitution in substitutions:
            for child in substitution.children:
                self._visit(child, arms, True)

    def _substitutions(self, node: Node) -> list[Node]:
        """The command substitutions in a word, outermost only: their commands are read as commands."""
        if node.type in _SUBSTITUTIONS:
            return [node]
        found = []
        for child in node.children:
            found += self._substitutions(child)
        return found

    # What the grammar could not read ----------------------------------------------------------------

    def _unread(self, root) -> list[tuple[int, int]]:
        """The whole lines around each ERROR node, and around the statement a MISSING node ends. A
        backslash at the very end of the file (a continuation into nothing) is harmless."""
        spans, pending = [], [root]
        while pending:
            node = pending.pop()
            if node.is_error or node.is_missing:
                start, end = self._span(node.parent if node.is_missing and node.parent is not None else node)
                if self.text[start:].strip() in ("", "\\"):
                    continue
                start = self.text.rfind("\n", 0, start) + 1
                spans.append((start, line_end(self.text, max(end - 1, start))))
            elif node.has_error:
                pending += node.children
        return sorted(spans)


def _char_offsets(text: str) -> list[int]:
    """The character offset of each UTF-8 byte offset of ``text`` (surrogate escapes: one byte)."""
    offsets = []
    for index, char in enumerate(text):
        offsets += [index] * (1 if 0xDC80 <= ord(char) <= 0xDCFF else len(char.encode("utf-8", "surrogatepass")))
    offsets.append(len(text))
    return offsets


_QUOTING = re.compile(r"[\\'\"$`]")  # a word without any of these is its own text
_ANSI_C = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


def _unquote(raw: str) -> tuple[str, bool]:
    """What bash makes of one word's text (quote removal), and whether it has an expansion outside
    single quotes. The grammar has found where the word starts and ends; this only removes quotes:
    '…' literally, "…" and $"…" with their four escapes, $'…' with C escapes, \\x outside quotes."""
    out, expanded, i, n = [], False, 0, len(raw)
    while i < n:
        special = _QUOTING.search(raw, i)
        if special is None:
            out.append(raw[i:])
            break
        out.append(raw[i : special.start()])
        i, char = special.start(), special.group()
        if char == "\\":
            out.append(raw[i + 1 : i + 2].replace("\n", ""))
            i += 2
        elif char == "'":
            end = raw.find("'", i + 1)
            end = n if end < 0 else end
            out.append(raw[i + 1 : end])
            i = end + 1
        elif raw.startswith("$'", i):
            text, i = _ansi_c(raw, i + 2)
            out.append(text)
        elif char == '"' or raw.startswith('$"', i):
            text, quoted_expansion, i = _double_quoted(raw, i + (1 if char == '"' else 2))
            out.append(text)
            expanded |= quoted_expansion
        else:  # $ or `
            expanded = True
            out.append(char)
            i += 1
    return "".join(out), expanded


_DOUBLE_QUOTED = re.compile(r'["\\$`]')


def _double_quoted(raw: str, i: int) -> tuple[str, bool, int]:
    """The text of a "…" string whose body starts at ``i``, whether it expands, and where it ends."""
    out, expanded, n = [], False, len(raw)
    while i < n:
        special = _DOUBLE_QUOTED.search(raw, i)
        if special is None:
            out.append(raw[i:])
            return "".join(out), expanded, n
        out.append(raw[i : special.start()])
        i, char = special.start(), special.group()
        if char == '"':
            return "".join(out), expanded, i + 1
        if char == "\\" and raw[i + 1 : i + 2] in ('"', "\\", "$", "`", "\n"):
            out.append(raw[i + 1].replace("\n", ""))
            i += 2
        else:
            expanded |= char in "$`"
            out.append(char)
            i += 1
    return "".join(out), expanded, n


def _ansi_c(raw: str, i: int) -> tuple[str, int]:
    """The text of a ``$'…'`` string whose body starts at ``i``, and where it ends."""
    out, n = [], len(raw)
    while i < n and raw[i] != "'":
        if raw[i] != "\\" or i + 1 >= n:
            out.append(raw[i])
            i += 1
            continue
        escape = raw[i + 1]
        i += 2
        if escape in _ANSI_C:
            out.append(_ANSI_C[escape])
        elif escape in "xuU":
            digits = {"x": 2, "u": 4, "U": 8}[escape]
            hexa = ""
            while len(hexa) < digits and i < n and raw[i] in "0123456789abcdefABCDEF":
                hexa += raw[i]
                i += 1
            out.append(chr(int(hexa, 16)) if hexa else "\\" + escape)
        elif escape in "01234567":
            octal = escape
            while len(octal) < 3 and i < n and raw[i] in "01234567":
                octal += raw[i]
                i += 1
            out.append(chr(int(octal, 8) & 0xFF))
        elif escape == "c" and i < n:
            out.append(chr(ord(raw[i]) & 0x1F))
            i += 1
        else:
            out.append(escape if escape in "\\'\"?" else "\\" + escape)
    return "".join(out), i + 1
