"""Launch scripts: the configurations they launch, and the edits of their words.

bash's grammar (:mod:`.shell_syntax`) gives the words, each with its command, bash array and
``if``/``case`` arms; each word that names a key of some rule is read with Hydra's own override
grammar (imported only when a script needs it). What cannot be read with certainty is refused,
naming the line: a setting where the grammar failed, in a word Hydra cannot parse, in text fed to a
program, or starting a command of its own. New overrides go where the rules say, one a line where
the command is laid out so.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re

from ..migrate_contract import Delete, Edit, Refusal, Rename
from . import rulebook, shell_syntax
from .text import find, format_value, line_end, line_of, lower_booleans, splice

_ARRAY_REFERENCE = re.compile(r"\$\{(\w+)\[[@*]\]\}")


@dataclasses.dataclass
class _Launch:
    """A configuration of a script: the overrides of the rules' keys one launch receives."""

    overrides: list[tuple[shell_syntax.Word, _Override]]  # in the order Hydra applies them
    line: int  # the line of the command that launches it


def _same_launch(arms: shell_syntax.Arms, fixed: dict[int, int | None]) -> bool:
    return all(fixed.get(block, arm) == arm for block, arm in arms)


def _launches(
    text: str, overrides: list[tuple[shell_syntax.Word, _Override]], words: list[shell_syntax.Word]
) -> list[_Launch]:
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


def _arm_combinations(
    members: list[tuple[shell_syntax.Word, _Override]], fixed: dict[int, int | None], line: int
) -> list[_Launch]:
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
# ``key=value`` that Hydra cannot parse (``key=$(…)``, ``key=$((N*2))``): the shell makes the value.
_KEYED = re.compile(r"\+{0,2}([A-Za-z_][\w.\-/]*)=(.*)", re.DOTALL)
_HERE = "a setting migrate acts on is here"


@dataclasses.dataclass
class _Override:
    """A word read as a Hydra override of a key some rule reads."""

    key: str
    value: object
    known: bool  # False where only the shell (or an interpolation) knows the value


def _shell_values(text: str, words: list[shell_syntax.Word], value_text: str) -> tuple[tuple[str, int | None], ...]:
    """For a value that is one shell variable, the ``(literal, line)`` pairs the script assigns it
    (``NAME=value``) or defaults it to (``${NAME:-value}``)."""
    match = _VARIABLE.fullmatch(value_text)
    if not match:
        return ()
    name = match.group(1) or match.group(2)
    values: list[tuple[str, int | None]] = [(match.group(3), None)] if match.group(3) is not None else []
    for word in words:
        assignment = _ASSIGNMENT.fullmatch(word.text)
        if assignment and assignment.group(1) == name:
            value = _VARIABLE.fullmatch(assignment.group(2))
            if not word.expanded:
                values.append((assignment.group(2), line_of(text, word.start)))
            elif value and value.group(3) is not None:
                values.append((value.group(3), line_of(text, word.start)))
    return tuple(values)


def _sets(text: str, start: int = 0, end: int | None = None):
    """The first rule's setting in ``text[start:end]`` (its ``text_setting``), or None."""
    end = len(text) if end is None else end
    for rule in rulebook.active():
        match = rule.text_setting.search(text, start, end)
        if match:
            return match
    return None


def _refuse_unread(text: str, script: shell_syntax.Script, arrays: set[str]) -> None:
    """A part of the script bash's grammar could not read, where a rule's key or setting is (or an
    array that holds one is expanded): what the launch there receives is not certain."""
    needles = rulebook.needles()
    references = [f"${{{name}[" for name in arrays] + [f"${name}" for name in arrays]
    for start, end in script.unread:
        region = text[start:end]
        found = [region.find(needle) for needle in (*needles, *references) if needle in region]
        setting = _sets(text, start, end)
        found += [setting.start() - start] if setting else []
        if found:
            line = line_of(text, start + min(found))
            if not rulebook.ignored(script.ignored_lines, [line]):
                raise Refusal([line], f"{_HERE}, in a part bash's grammar cannot read: check it, or migrate it by hand")


_EXPANSION = re.compile(r"\$\{?[!#]?(\w+)(\[[^]]*\])?([^}]*)\}?")


def _refuse_partial_expansions(text: str, script: shell_syntax.Script, arrays: set[str]) -> None:
    """An array that holds a rule's setting, expanded other than whole (``"${ARGS[@]}"``): ``$ARGS``
    and ``${ARGS[0]}`` give one element, ``${ARGS[@]:1}`` a slice. Which settings the launch gets is
    then not what the array says."""
    if not arrays:
        return
    for word in script.words:
        if word.printed == "shown" or "$" not in word.text:
            continue
        for match in _EXPANSION.finditer(word.text):
            whole = match.group(2) in ("[@]", "[*]") and not match.group(3) and match.group(0)[1:2] == "{"
            line = line_of(text, word.start)
            if match.group(1) in arrays and not whole and not rulebook.ignored(script.ignored_lines, [line]):
                raise Refusal(
                    [line],
                    f"{match.group(0)} expands the array {match.group(1)}, which holds a setting migrate acts on, "
                    'other than whole ("${NAME[@]}"): migrate it by hand',
                )


def _refuse_here_documents(text: str, script: shell_syntax.Script) -> None:
    """A rule's setting in a here-document that is not only printed for the user (a job script
    written by ``cat > job.sh``, a script fed to ``bash`` or ``sbatch``)."""
    for start, end, shown in script.here_documents:
        match = None if shown else _sets(text, start, end)
        line = match and line_of(text, match.start())
        if match and not rulebook.ignored(script.ignored_lines, [line]):
            raise Refusal([line], f"{_HERE} in a here-document: migrate it by hand")


@functools.lru_cache(maxsize=4096)
def _parse(text: str):
    """Hydra's override for ``text``, or None where Hydra cannot parse it. Hydra's parser costs about
    a millisecond a word, and the words of a tree's launch scripts repeat: each is parsed once."""
    from hydra.errors import HydraException

    try:
        return _hydra_parser().parse_override(text)
    except HydraException:
        return None


@functools.lru_cache(maxsize=1)
def _hydra_parser():
    from hydra.core.override_parser.overrides_parser import OverridesParser

    return OverridesParser.create()


def _read(word) -> tuple[_Override | None, bool]:
    """The override ``word`` gives a key some rule reads (else None), and whether Hydra could read
    ``word`` at all. ``key=$(…)`` and other values only the shell can make are read as unknown."""
    override = _parse(word.text)
    if override is None:  # not an override: a command, a flag, a shell variable, or ``key=$(…)``
        keyed = _KEYED.fullmatch(word.text)
        if keyed and rulebook.reads(keyed.group(1)):
            return _Override(keyed.group(1), keyed.group(2), False), True
        return None, False
    if override.is_delete() or not rulebook.reads(override.key_or_group):
        return None, True
    value = None if override.is_sweep_override() else override.value()
    known = not (word.expanded or override.is_sweep_override() or "${" in str(value))
    return _Override(override.key_or_group, value, known), True


def _key_of(text: str) -> str:
    """The key a word would set as an override (``+key@package=value``: ``key``)."""
    return text.partition("=")[0].lstrip("+~").partition("@")[0]


_BROKEN_CONTINUATION = re.compile(r"\\[ \t]+\n[ \t]*\Z")


def _overrides(text: str, script: shell_syntax.Script) -> list[tuple[shell_syntax.Word, _Override]]:
    """``(word, override)`` for each word that sets a key some rule reads; raises :class:`Refusal`
    where a rule's setting is in a form migrate cannot read, or in text fed to a program."""
    overrides = []
    for word in script.words:
        if word.printed == "shown":
            continue
        setting = _sets(word.text)
        if not setting and not rulebook.reads(_key_of(word.text)):
            continue  # neither a rule's key nor its setting: Hydra need not read it
        line = line_of(text, word.start)
        marked = rulebook.ignored(script.ignored_lines, [line])
        if word.printed == "fed":
            if setting and not marked:
                where = "text given to a program (a file, a pipe, a command substitution, a here-string)"
                raise Refusal([line], f"{_HERE} in {where}: migrate it by hand")
            continue
        override, readable = _read(word)
        if not readable and setting and not marked:
            raise Refusal([line], f"{_HERE} in a form migrate cannot read: migrate it by hand")
        if override is None:
            continue
        if word.name and not marked and _BROKEN_CONTINUATION.search(text, max(0, word.start - 200), word.start):
            raise Refusal(
                [line - 1, line],
                f"the \\ that ends the line above is followed by a blank, so bash runs {override.key} as a "
                "command of its own and the launch never receives it: remove the blank",
            )
        if not override.known and setting and not marked and not _sets(f"{override.key}=$_"):
            # The literal part of the value is what makes it a rule's setting (``tool=torch_memory$X``).
            raise Refusal([line], f"{override.key}: the shell builds this value; write it literally or migrate by hand")
        overrides.append((word, override))
    return overrides


def _configurations(text: str) -> list[tuple[dict[str, rulebook.Found], int]]:
    """The configurations of a script as ``found`` settings (key -> :class:`rulebook.Found`), each
    with the line of the command that launches it, except those marked ``# verl-compat: ignore``."""
    script = shell_syntax.read(text)
    _refuse_unread(text, script, set())
    _refuse_here_documents(text, script)
    overrides = _overrides(text, script)
    arrays = {word.array for word, _ in overrides if word.array}
    _refuse_unread(text, script, arrays)
    _refuse_partial_expansions(text, script, arrays)
    configs = []
    for launch in _launches(text, overrides, script.words):
        found = {}
        for word, override in launch.overrides:
            shell_values = () if override.known else _shell_values(text, script.words, word.text.partition("=")[2])
            line = line_of(text, word.start)
            rulebook.add(found, override.key, override.value, override.known, line, word, shell_values)
        lines = [launch.line, *(line for setting in found.values() for line in setting.lines)]
        if not rulebook.ignored(script.ignored_lines, lines):
            configs.append((found, launch.line))
    return configs


def _word_edit(text: str, word: shell_syntax.Word, new: list[str]) -> tuple[int, int, str]:
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


def _edits(text: str, found: dict[str, rulebook.Found], edits: list[Edit]) -> list[tuple[int, int, str]]:
    """The text edits that apply the rules' :class:`Set`/:class:`Rename`/:class:`Delete` to the words."""
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
                if edit.key not in overrides(word)[0]:  # ``a."b".c=…``: quotes or escapes inside the key
                    raise Refusal(
                        [line_of(text, word.start)],
                        f"{edit.key} is spelled with quotes or escapes inside it, which migrate does not rewrite: "
                        "write the key plainly or migrate by hand",
                    )
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
    """``text`` with every configuration's edits applied; raises :class:`Refusal`."""
    edits = {}  # (start, end) -> (replacement, the line of the launch that wants it)
    for found, line in _configurations(text):
        for start, end, replacement in _edits(text, found, rulebook.edits(found, options)):
            other = edits.setdefault((start, end), (replacement, line))
            if other[0] != replacement:
                raise Refusal(
                    [line_of(text, start), other[1], line],
                    "these launches expand the same bash array but need different edits: migrate them by hand",
                )
    spans = sorted(edits)
    for (start, end), (next_start, next_end) in itertools.pairwise(spans):
        if next_start < end:
            raise Refusal(
                [line_of(text, start), edits[(start, end)][1], edits[(next_start, next_end)][1]],
                "these launches expand the same bash array but need different edits: migrate them by hand",
            )
    return splice(text, [(start, end, replacement) for (start, end), (replacement, _) in edits.items()])
