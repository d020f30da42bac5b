"""Launch scripts: words, arms, arrays, the configurations they launch, and the edits of their words.

The words are split the way bash splits them (quotes, ``\\`` continuations, ``#`` comments,
here-documents, bash arrays, ``if``/``case`` arms), and each word that names a key of some rule is
read with Hydra's own override grammar (imported only when a script needs it). New overrides go
where the rules say, one a line where the command is laid out so.
"""

from __future__ import annotations

import dataclasses
import re

from ..rewrite import Delete, Refusal, Rename, Set
from . import planning, rules
from .text import find, format_value, line_end, line_of, lower_booleans, splice


@dataclasses.dataclass
class _Word:
    start: int
    end: int
    text: str  # what the program receives: quotes and line continuations removed
    expanded: bool  # has $ or ` outside single quotes: only the shell knows its value
    command: int  # which command (or bash array definition) it belongs to
    array: str | None = None  # the bash array it is an element of, ``NAME=( … )``
    arms: tuple = ()  # ``(block, arm)`` of each ``if``/``case`` arm it sits in
    lead: str = ""  # the first word of its statement: ``echo`` and ``printf`` print text, not overrides


@dataclasses.dataclass
class _Block:
    """An ``if`` or ``case`` of the script: two of its arms never run in one launch."""

    id: int
    kind: str
    arm: int
    patterns: bool = False  # a case block reading the patterns of its next arm, ``pat|pat)``
    subject: bool = False  # a case block before its ``in``


_BLANKS, _SEPARATORS = " \t\r", "\n;&|()<>"
_ARRAY_REFERENCE = re.compile(r"\$\{(\w+)\[[@*]\]\}")


class _Lexer:
    """Splits a shell script into words the way bash does (quotes, backslash-newline continuations,
    ``#`` comments), and says for each the command or array it is in and the ``if``/``case`` arms
    it sits in: enough of bash's grammar to group the overrides of one launch, not a shell.

    A here-document's body is text, not words (an apostrophe in it opens no quote); the bodies are
    kept in ``here_documents`` as ``(start, end, lead, writes)``: the statement's first word and
    whether it redirects its output. Lines with a ``# verl-compat: ignore`` comment are in
    ``ignored_lines``."""

    def __init__(self, text: str):
        self.text, self.words, self.blocks, self.block_ids = text, [], [], 0
        self.command, self.command_start, self.array = 0, True, None
        self.last_end, self.last_text = -1, ""
        self.lead, self.writes, self.pending, self.here_documents, self.ignored_lines = "", False, [], [], set()

    def _next_command(self, statement: bool = True) -> None:
        """A new command; ``statement`` False where only a redirection splits it (``<``, ``>``)."""
        self.command += 1
        self.command_start = True
        if statement:
            self.lead, self.writes = "", False

    def _reserved(self, word: str, plain: bool) -> bool:
        """Handles ``word`` if it opens, splits or closes an arm, or is a case subject or pattern."""
        top = self.blocks[-1] if self.blocks else None
        if top and top.kind == "case" and top.subject:
            is_in = plain and word == "in"
            top.subject, top.patterns = not is_in, is_in
            return True
        if top and top.kind == "case" and top.patterns:
            if plain and word == "esac":
                self.blocks.pop()
                self._next_command()
            return True
        if not (plain and self.command_start and self.array is None):
            return False
        if word in ("if", "case"):
            self.block_ids += 1
            self.blocks.append(_Block(self.block_ids, word, arm=0 if word == "if" else -1, subject=word == "case"))
        elif word in ("elif", "else") and top and top.kind == "if":
            top.arm += 1
        elif (word, top and top.kind) in (("fi", "if"), ("esac", "case")):
            self.blocks.pop()
        elif word not in ("then", "do", "done", "{", "}", "!"):
            return False
        self._next_command()
        return True

    def _here_document(self, i: int) -> int:
        """Reads the delimiter of the ``<<`` or ``<<-`` at ``i``; its body is skipped at the next newline."""
        i += 2
        strip_tabs = self.text.startswith("-", i)
        i += strip_tabs
        while i < len(self.text) and self.text[i] in " \t":
            i += 1
        end = i
        while end < len(self.text) and self.text[end] not in _BLANKS and self.text[end] not in _SEPARATORS:
            end += 1
        delimiter = re.sub(r"[\\'\"]", "", self.text[i:end])
        self.pending.append((delimiter, strip_tabs, self.lead, self.writes))
        return end

    def _in_arithmetic(self, i: int) -> bool:
        """``<<`` inside ``$(( … ))`` or ``(( … ))`` on the same line is a shift, not a here-document."""
        before = self.text[self.text.rfind("\n", 0, i) + 1 : i]
        return before.count("((") > before.count("))")

    def _skip_bodies(self, i: int) -> int:
        """Skips the bodies of the here-documents opened on the line that ends before ``i``."""
        text = self.text
        for delimiter, strip_tabs, lead, writes in self.pending:
            start = i
            while i < len(text):
                end = line_end(text, i)
                line = text[i:end].rstrip("\r\n")
                i = end
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    break
            self.here_documents.append((start, i, lead, writes))
        self.pending = []
        return i

    def _separator(self, i: int) -> int:
        """Handles the separator at ``i``; answers where to go on."""
        text, char, top = self.text, self.text[i], self.blocks[-1] if self.blocks else None
        if text.startswith("<<", i) and not text.startswith("<<<", i) and not self._in_arithmetic(i):
            return self._here_document(i)
        if char in "<>":
            self.writes |= char == ">"
            self._next_command(statement=False)
            return i + 1
        if char == "(" and self.array is None and self.last_end == i and self.last_text.endswith("="):
            self.array = self.last_text[:-1].removesuffix("+")  # NAME=( or NAME+=(
            return i + 1
        if self.array is not None and char == "\n":
            return i + 1
        self.array = None
        if top and top.kind == "case" and top.patterns and char == ")":
            top.patterns, top.arm = False, top.arm + 1
        elif top and top.kind == "case" and text.startswith((";;", ";&"), i):
            top.patterns = True  # the end of an arm: the patterns of the next one follow
            i += 2 if text.startswith(";;&", i) else 1
        self._next_command()
        return i + 1

    def _word(self, i: int) -> int:
        text, n = self.text, len(self.text)
        start, chars, expanded = i, [], False
        while i < n and text[i] not in _BLANKS and text[i] not in _SEPARATORS:
            char = text[i]
            if char == "\\":
                chars.append(text[i + 1 : i + 2].replace("\n", ""))
                i += 2
            elif char == "'":
                end = find(text, "'", i + 1)
                chars.append(text[i + 1 : end])
                i = end + 1
            elif char == '"':
                i += 1
                while i < n and text[i] != '"':
                    if text[i] == "\\" and text[i + 1 : i + 2] in ('"', "\\", "$", "`", "\n"):
                        chars.append(text[i + 1].replace("\n", ""))
                        i += 2
                    else:
                        expanded |= text[i] in "$`"
                        chars.append(text[i])
                        i += 1
                i += 1
            else:
                expanded |= char in "$`"
                chars.append(char)
                i += 1
        end, word = min(i, n), "".join(chars)
        self.last_end, self.last_text = end, word
        if not self._reserved(word, text[start:end] == word):
            arms = tuple((block.id, block.arm) for block in self.blocks if block.arm >= 0)
            self.lead = self.lead or word
            self.words.append(_Word(start, end, word, expanded, self.command, self.array, arms, self.lead))
            self.command_start = False
        return end

    def split(self) -> list:
        text, i, n = self.text, 0, len(self.text)
        while i < n:
            if text.startswith("\\\n", i):
                i += 2
            elif text[i] in _BLANKS:
                i += 1
            elif text[i] == "#":  # a comment runs up to the newline, which still ends the command
                end = find(text, "\n", i)
                if planning.IGNORE.match(text, i, end):
                    self.ignored_lines.add(line_of(text, i))
                i = end
            elif text[i] in _SEPARATORS:
                newline = text[i] == "\n"
                i = self._separator(i)
                if newline and self.pending:
                    i = self._skip_bodies(i)
            else:
                i = self._word(i)
        return self.words


def split_words(text: str) -> list:
    """The words of a shell script with their spans, commands, arrays and arms (see ``_Lexer``)."""
    return _Lexer(text).split()


@dataclasses.dataclass
class _Launch:
    """A configuration of a script: the overrides of the rules' keys one launch receives."""

    overrides: list  # (word, Hydra override), in the order Hydra applies them
    line: int  # the line of the command that launches it


def _same_launch(arms: tuple, fixed: dict) -> bool:
    return all(fixed.get(block, arm) == arm for block, arm in arms)


def _launches(text: str, overrides: list, words: list) -> list:
    """One launch per command with overrides of the rules' keys, its own or in the bash arrays it expands
    (``"${NAME[@]}"``, through arrays of arrays); where those arrays are set in several arms of an
    ``if`` or ``case``, one launch per combination of arms. Arrays no command expands form one
    launch of their own."""
    arrays, commands, references = {}, {}, {}
    for word, override in overrides:
        (arrays.setdefault(word.array, []) if word.array else commands.setdefault(word.command, [])).append(
            (word, override)
        )
    first_word = {}
    for word in words:
        first_word.setdefault(word.command, word)
        for name in _ARRAY_REFERENCE.findall(word.text):
            key = ("array", word.array) if word.array else ("command", word.command)
            references.setdefault(key, []).append(name)

    def expand(key, seen):
        for name in references.get(key, []):
            if name in arrays and name not in seen:
                seen.add(name)
                yield from arrays[name]
                yield from expand(("array", name), seen)

    launches, used = [], set()
    command_ids = sorted(set(commands) | {c for kind, c in references if kind == "command"})
    for command in command_ids:
        seen = set()
        members = list(expand(("command", command), seen)) + commands.get(command, [])
        used |= seen
        if members:
            anchor = first_word[command]
            launches += _arm_combinations(members, dict(anchor.arms), line_of(text, anchor.start))
    loose = [item for name, items in arrays.items() if name not in used for item in items]
    if loose:
        launches += _arm_combinations(loose, {}, line_of(text, loose[0][0].start))
    return launches


_MAX_COMBINATIONS = 256


def _arm_combinations(members: list, fixed: dict, line: int) -> list:
    members = [item for item in members if _same_launch(item[0].arms, fixed)]
    choices = {}
    for word, _ in members:
        for block, arm in word.arms:
            if block not in fixed:
                choices.setdefault(block, {None}).add(arm)
    combinations = [{}]
    for block, arms in choices.items():
        combinations = [{**combination, block: arm} for combination in combinations for arm in arms]
        if len(combinations) > _MAX_COMBINATIONS:
            raise Refusal([line], "overrides are set in too many if/case arms: migrate it by hand")
    launches, seen = [], set()
    for combination in combinations:
        chosen = [item for item in members if _same_launch(item[0].arms, {**fixed, **combination})]
        identity = tuple(id(item) for item in chosen)
        if chosen and identity not in seen:
            seen.add(identity)
            launches.append(_Launch(chosen, line))
    return launches


_VARIABLE = re.compile(r"\$(?:(\w+)|\{(\w+)(?::?[-=]([^}$`]*))?\})")
_ASSIGNMENT = re.compile(r"([A-Za-z_]\w*)=(.*)", re.DOTALL)
_PRINTERS = ("echo", "printf")


def _shell_values(text: str, words: list, value_text: str) -> tuple:
    """For a value that is one shell variable, the ``(literal, line)`` pairs the script assigns it
    (``NAME=value``) or defaults it to (``${NAME:-value}``)."""
    match = _VARIABLE.fullmatch(value_text)
    if not match:
        return ()
    name = match.group(1) or match.group(2)
    values = [(match.group(3), None)] if match.group(3) is not None else []
    for word in words:
        assignment = _ASSIGNMENT.fullmatch(word.text)
        if assignment and assignment.group(1) == name:
            value = _VARIABLE.fullmatch(assignment.group(2))
            if not word.expanded:
                values.append((assignment.group(2), line_of(text, word.start)))
            elif value and value.group(3) is not None:
                values.append((value.group(3), line_of(text, word.start)))
    return tuple(values)


def _refuse_hidden(text: str, lexer: _Lexer, words: list, where: str) -> None:
    """A rule's setting where no override can be read: in a word Hydra cannot parse, or in a
    here-document that is not only printed; ``echo``/``printf`` text is left alone."""
    for rule in planning.active():
        for start, end, lead, writes in lexer.here_documents:
            match = rule.text_setting.search(text, start, end)
            line = match and line_of(text, match.start())
            if match and not (lead in (*_PRINTERS, "cat") and not writes) and not _marked(lexer, line):
                raise Refusal([line], f"{where} in a here-document: migrate it by hand")
        for word in words:
            line = line_of(text, word.start)
            if rule.text_setting.search(word.text) and not _marked(lexer, line):
                raise Refusal([line], f"{where} in a form migrate cannot read: migrate it by hand")


def _marked(lexer: _Lexer, line: int) -> bool:
    return planning.ignored(lexer.ignored_lines, [line])


def _configurations(text: str) -> list:
    """The configurations of a script as ``found`` settings (key -> :class:`planning.Found`), each
    with the line of the command that launches it, except those marked ``# verl-compat: ignore``."""
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    needles = planning.needles()
    lexer = _Lexer(text)
    parser, overrides, words, unreadable = OverridesParser.create(), [], lexer.split(), []
    for word in words:
        if word.lead in _PRINTERS or not any(needle in word.text for needle in needles):
            continue  # Hydra's parser costs milliseconds a word; a launch script has dozens
        try:
            override = parser.parse_override(word.text)
        except HydraException:  # not an override: a command, a flag, a shell variable
            unreadable.append(word)
            continue
        if planning.reads(override.key_or_group) and not override.is_delete():
            overrides.append((word, override))
    _refuse_hidden(text, lexer, unreadable, "a setting migrate acts on is here")
    configs = []
    for launch in _launches(text, overrides, words):
        found = {}
        for word, override in launch.overrides:
            value = None if override.is_sweep_override() else override.value()
            known = not (word.expanded or override.is_sweep_override() or "${" in str(value))
            shell_values = () if known else _shell_values(text, words, word.text.partition("=")[2])
            planning.add(found, override.key_or_group, value, known, line_of(text, word.start), word, shell_values)
        lines = [launch.line, *(line for setting in found.values() for line in setting.lines)]
        if not planning.ignored(lexer.ignored_lines, lines):
            configs.append((found, launch.line))
    return configs


def _word_edit(text: str, word: _Word, new: list) -> tuple:
    """The edit that puts the overrides ``new`` where ``word`` is, keeping the one-override-a-line
    layout of launch scripts (``\\`` continuations) and bash arrays."""
    line_start = text.rfind("\n", 0, word.start) + 1
    end_of_line = line_end(text, word.end)
    before, after = text[line_start : word.start], text[word.end : end_of_line].strip()
    continues, joins_previous = after == "\\", text[: max(line_start - 1, 0)].endswith("\\")
    if before.strip() or after not in ("", "\\"):  # shares its line with other words
        if new:
            return word.start, word.end, " ".join(new)
        rest = text[word.end : end_of_line].rstrip("\n")
        if rest.strip():  # take the blanks after it, else those before it
            return word.start, word.end + len(rest) - len(rest.lstrip(" \t")), ""
        return line_start + len(before.rstrip(" \t")), word.end, ""
    if new:
        return word.start, word.end, ((" \\\n" if continues or joins_previous else "\n") + before).join(new)
    if continues or not joins_previous:
        return line_start, end_of_line, ""
    # The last line of a continued command goes: the line before it now ends the command.
    backslash = len(text[: line_start - 1].rstrip()) - 1
    return len(text[:backslash].rstrip()), find(text, "\n", word.end), ""


def _renamed(override: str, key: str, new_key: str, added: bool = False) -> str:
    """``override`` with ``key`` renamed ``new_key``. A single ``+`` goes: it adds a key, and
    ``new_key`` is one of verl's own, which Hydra refuses to add again (``++`` stays, it works either
    way); the keys migrate adds are written without prefix too. A key ``added`` to a free-form dict
    is written with a ``+``."""
    at = override.index(key)
    if override[at - 1 : at] == "+" and override[at - 2 : at - 1] != "+":
        at -= 1
    plus = "+" if added and override[at - 1 : at] != "+" else ""
    return override[:at] + plus + new_key + override[override.index(key) + len(key) :]


def _edits(text: str, found: dict, edits: list) -> list:
    """The text edits that apply a plan's :class:`Set`/:class:`Rename`/:class:`Delete` to the words."""
    new, lower = {}, lower_booleans(text)  # new: word start -> (word, the overrides that replace it)

    def overrides(word):
        return new.setdefault(word.start, (word, [text[word.start : word.end]]))[1]

    def write(word, key, value):
        plus = word.text[: len(word.text) - len(word.text.lstrip("+"))]
        overrides(word)[:] = [f"{plus}{key}={format_value(value, ',', lower)}"]

    fresh, renamed = {}, {}  # fresh: the key a new override goes next to -> overrides
    for edit in edits:
        places = found[edit.key].places if edit.key in found else []
        if isinstance(edit, Delete):
            for word in places:
                overrides(word).clear()
        elif isinstance(edit, Rename) and edit.new_key in found:
            for word in places:
                overrides(word).clear()
            for word in found[edit.new_key].places:
                write(word, edit.new_key, found[edit.key].value)
        elif isinstance(edit, Rename):
            for word in places:
                overrides(word)[:] = [_renamed(overrides(word)[0], edit.key, edit.new_key, edit.added)]
            renamed[edit.new_key] = edit.key
        elif places:
            for word in places:
                write(word, edit.key, edit.value)
        else:
            fresh.setdefault(renamed.get(edit.near, edit.near), []).append(
                f"{'+' * edit.added}{edit.key}={format_value(edit.value, ',', lower)}"
            )
    for near, words in fresh.items():
        if near not in found:
            raise Refusal([], f"a new override has no place next to {near}: migrate it by hand")
        for word in found[near].places:
            overrides(word).extend(words)
    return [_word_edit(text, word, words) for word, words in new.values() if words != [text[word.start : word.end]]]


def migrate_script(text: str, options) -> str:
    """``text`` with every configuration's plan applied; raises :class:`Refusal`."""
    edits = {}  # (start, end) -> (replacement, the line of the launch that wants it)
    for found, line in _configurations(text):
        for start, end, replacement in _edits(text, found, planning.plan(found, options)):
            other = edits.setdefault((start, end), (replacement, line))
            if other[0] != replacement:
                raise Refusal(
                    [line_of(text, start), other[1], line],
                    "these launches expand the same bash array but need different edits: migrate them by hand",
                )
    spans = sorted(edits)
    for (start, end), (next_start, _) in zip(spans, spans[1:]):
        if next_start < end:
            raise Refusal(
                [line_of(text, start), edits[(start, end)][1], edits[(next_start, _)][1]],
                "these launches expand the same bash array but need different edits: migrate them by hand",
            )
    return splice(text, [(start, end, replacement) for (start, end), (replacement, _) in edits.items()])
