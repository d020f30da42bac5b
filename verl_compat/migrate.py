"""``verl-compat migrate``: rewrite the legacy torch_memory profiler config into verl's own form.

The shim keeps ``actor_rollout_ref.actor.profiler.tool=torch_memory`` working only while it is
installed; migrating is how a user stops needing it. The legacy key meant "a snapshot after every
step on every actor rank"; verl says the same with the unified DistProfiler keys::

    global_profiler.tool=torch_memory global_profiler.steps=[1,2,...,N]
    actor_rollout_ref.actor.profiler.enable=True actor_rollout_ref.actor.profiler.all_ranks=True

Which keys a file needs is decided by the fix itself (``torch_memory.detect`` and ``translate``),
so the migrated file asks verl for exactly what the shim would have done at run time.

A configuration is what one launch can receive: a command of a launch script with the bash arrays
it expands (one configuration per combination of the ``if``/``case`` arms those arrays are set in),
a whole YAML file, or a fenced shell block of a Markdown page. Only a configuration that can set
the tool to torch_memory is read closely; the others are left as they are, without complaint, and
a file that nowhere spells a torch_memory setting is not parsed at all (most of a checkout: that is
what makes a pre-commit check over it fast). Nothing is guessed: a value only the shell or a
resolver knows, a step list that is nowhere in the configuration, or legacy and new keys that
disagree make migrate refuse the file, naming the lines, and leave it as it was.

Only the overrides or YAML entries that change are rewritten; every other byte stays. That is why
YAML is parsed with ruamel.yaml for node positions and edited in the text rather than re-dumped
(a round-trip dump rewrites verl's ``False`` as ``false`` and re-indents sequences).
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import os
import re
import stat
import sys
import tempfile
from pathlib import Path

from .fixes import torch_memory
from .fixes.torch_memory import Case

LEGACY_KEY = torch_memory.LEGACY_KEY
ENABLE, ALL_RANKS, RANKS, ACTOR_SAVE_PATH = (
    f"actor_rollout_ref.actor.profiler.{leaf}" for leaf in ("enable", "all_ranks", "ranks", "save_path")
)
TOOL, STEPS, SAVE_PATH = (f"global_profiler.{leaf}" for leaf in ("tool", "steps", "save_path"))
TOTAL_STEPS = "trainer.total_training_steps"
KEYS = (LEGACY_KEY, ENABLE, ALL_RANKS, RANKS, ACTOR_SAVE_PATH, TOOL, STEPS, SAVE_PATH, TOTAL_STEPS)

# verl's actor.yaml defaults for the two actor keys that follow global_profiler: the schema, found
# in full trainer configs, not a user's setting.
_SCHEMA_DEFAULTS = {
    LEGACY_KEY: "${oc.select:global_profiler.tool,null}",
    ACTOR_SAVE_PATH: "${oc.select:global_profiler.save_path,null}",
}
_YAML_SUFFIXES = (".yaml", ".yml")
_MARKDOWN_SUFFIXES = (".md", ".markdown")
_SHELL_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh")
# A YAML entry that sets a tool to torch_memory (``tool: torch_memory``, quoted, tagged or anchored,
# block or flow style). verl's generated configs name torch_memory only as a key of their tool
# configs, so they never match, and skip a parse that costs ~100 ms for 35 KB.
_YAML_TORCH_MEMORY = re.compile(r"""\btool["']?[ \t]*:[ \t]*(?:!!str[ \t]+)?(?:&\S+[ \t]+)?["']?torch_memory\b""")
_OTHER_TORCH_MEMORY = re.compile(r"profiler\.tool[\"']?\s*[=:]\s*[\"']?torch_memory\b")


class Refused(Exception):
    """Migrating this file would mean guessing; ``lines`` are where the user has to look."""

    def __init__(self, lines, message):
        super().__init__(message)
        self.lines = sorted(set(lines))
        self.message = message


@dataclasses.dataclass
class Setting:
    """One key as a file sets it: the value, where (1-based lines), and the places to edit."""

    value: object
    known: bool  # False when only the shell or an OmegaConf resolver knows the value
    lines: list
    places: list

    def agrees(self, value, known: bool) -> bool:
        return (self.value, self.known) == (value, known)


def _add(found: dict, key: str, value, known: bool, line: int, place) -> None:
    if key in _SCHEMA_DEFAULTS and value == _SCHEMA_DEFAULTS[key]:
        return
    setting = found.get(key)
    if setting is None:
        found[key] = Setting(value, known, [line], [place])
    elif setting.agrees(value, known):
        setting.lines.append(line)
        setting.places.append(place)
    else:
        raise Refused(
            [setting.lines[0], line],
            f"{key} is set to {setting.value!r} and to {value!r} for the same launch (Hydra would take the "
            "last one): keep one",
        )


# --- plan: what the new form needs, whatever the file format -----------------------------------


def plan(found: dict, steps=None) -> list:
    """The edits, as ``(op, key, value)``, that say in verl's keys what the shim does at run time.

    ``op`` is ``set`` (value), ``remove`` or ``move`` (value: the new key). Empty when the file is
    not legacy or already in the new form, which is what makes migrating twice change nothing.
    """
    actor_tool = found.get(LEGACY_KEY)
    tool = actor_tool or found.get(TOOL)  # the actor's tool follows global_profiler.tool unless set
    if tool is None or not tool.known or tool.value != "torch_memory":
        return []
    for key in (STEPS, ENABLE, ALL_RANKS, RANKS):
        if key in found and not found[key].known:
            raise Refused(
                found[key].lines, f"{key} comes from the shell or an interpolation: set it literally or migrate by hand"
            )
    global_tool = found.get(TOOL)
    if actor_tool and global_tool and global_tool.value not in (None, "torch_memory"):
        raise Refused(
            actor_tool.lines + global_tool.lines,
            f"{LEGACY_KEY}=torch_memory and {TOOL}={global_tool.value} disagree: "
            f"the new form sets {TOOL}=torch_memory, which would replace {global_tool.value}",
        )

    def value(key):
        return found[key].value if key in found else None

    profiler = {"tool": "torch_memory", "enable": value(ENABLE), "all_ranks": value(ALL_RANKS), "ranks": value(RANKS)}
    view = {"actor_rollout_ref": {"actor": {"profiler": profiler}}, "global_profiler": {"steps": value(STEPS)}}
    detection = torch_memory.detect(view)
    if detection.case == Case.MIXED and ENABLE in found:
        raise Refused(
            found[STEPS].lines + found[ENABLE].lines,
            f"{STEPS} asks for snapshots but {ENABLE}={found[ENABLE].value} turns the actor's profiler off "
            "(the shim forces it on): say which you mean",
        )

    edits = []
    if actor_tool:
        edits.append(("remove", LEGACY_KEY, None))
        if value(TOOL) != "torch_memory":
            edits.append(("set", TOOL, "torch_memory"))
    if detection.case == Case.LEGACY:
        edits.append(("set", STEPS, steps or _every_step(found, tool)))
    for key, _ in torch_memory.translate(view, detection):
        edits.append(("set", key, profiler[key.rpartition(".")[2]]))
    actor_save_path = found.get(ACTOR_SAVE_PATH)
    if edits and actor_save_path:
        # The actor's save_path follows global_profiler.save_path (actor.yaml), so moving the value
        # there keeps the actor's dumps where they were, unless the file already says otherwise.
        global_save_path = found.get(SAVE_PATH)
        if global_save_path and not global_save_path.agrees(actor_save_path.value, actor_save_path.known):
            raise Refused(
                actor_save_path.lines + global_save_path.lines,
                f"{ACTOR_SAVE_PATH}={actor_save_path.value} and {SAVE_PATH}={global_save_path.value} differ: "
                "keep one save_path",
            )
        edits.append(("move", ACTOR_SAVE_PATH, SAVE_PATH))
    return edits


def _every_step(found: dict, tool: Setting) -> list:
    """The legacy "after every step" as a step list: 1..trainer.total_training_steps."""
    total = found.get(TOTAL_STEPS)
    if total and total.known and type(total.value) is int and total.value > 0:
        return list(range(1, total.value + 1))
    key = LEGACY_KEY if LEGACY_KEY in found else TOOL
    raise Refused(
        tool.lines + (total.lines if total else []),
        f"{key}=torch_memory without {STEPS} means a snapshot after every step with verl-compat "
        f"(verl alone dumps nothing), and the number of steps is not in this file: choose the steps with "
        f"--steps, e.g. `verl-compat migrate --steps 1,2,3 FILE`, or set {TOTAL_STEPS} to a number",
    )


def _format(value, separator: str) -> str:
    if isinstance(value, list):
        return "[" + separator.join(map(str, value)) + "]"
    return str(value)


def _splice(text: str, edits: list) -> str:
    """Apply ``(start, end, replacement)`` edits; equal starts keep their order in ``edits``."""
    out, position = [], 0
    for start, end, replacement in sorted(edits, key=lambda edit: edit[:2]):
        assert start >= position, "overlapping edits"
        out += [text[position:start], replacement]
        position = end
    return "".join([*out, text[position:]])


def _line(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def _find(text: str, sub: str, start: int) -> int:
    """``str.find`` that answers the end of the text when ``sub`` is not there."""
    index = text.find(sub, start)
    return len(text) if index < 0 else index


def _line_end(text: str, index: int) -> int:
    """Just past the newline that ends the line holding ``index`` (the end of a last line)."""
    return min(_find(text, "\n", index) + 1, len(text))


# --- launch scripts: words, arms, arrays, configurations ---------------------------------------


@dataclasses.dataclass
class _Word:
    start: int
    end: int
    text: str  # what the program receives: quotes and line continuations removed
    expanded: bool  # has $ or ` outside single quotes: only the shell knows its value
    command: int  # which command (or bash array definition) it belongs to
    array: str | None = None  # the bash array it is an element of, ``NAME=( … )``
    arms: tuple = ()  # ``(block, arm)`` of each ``if``/``case`` arm it sits in


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
    it sits in: enough of bash's grammar to group the overrides of one launch, not a shell."""

    def __init__(self, text: str):
        self.text, self.words, self.blocks, self.block_ids = text, [], [], 0
        self.command, self.command_start, self.array = 0, True, None
        self.last_end, self.last_text = -1, ""

    def _next_command(self) -> None:
        self.command += 1
        self.command_start = True

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

    def _separator(self, i: int) -> int:
        """Handles the separator at ``i``; answers where to go on."""
        text, char, top = self.text, self.text[i], self.blocks[-1] if self.blocks else None
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
                end = _find(text, "'", i + 1)
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
            self.words.append(_Word(start, end, word, expanded, self.command, self.array, arms))
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
                i = _find(text, "\n", i)
            elif text[i] in _SEPARATORS:
                i = self._separator(i)
            else:
                i = self._word(i)
        return self.words


def _shell_words(text: str) -> list:
    """The words of a shell script with their spans, commands, arrays and arms (see ``_Lexer``)."""
    return _Lexer(text).split()


@dataclasses.dataclass
class _Launch:
    """A configuration of a script: the profiler overrides one launch receives."""

    overrides: list  # (word, Hydra override), in the order Hydra applies them
    line: int  # the line of the command that launches it


def _same_launch(arms: tuple, fixed: dict) -> bool:
    return all(fixed.get(block, arm) == arm for block, arm in arms)


def _launches(text: str, overrides: list, words: list) -> list:
    """One launch per command with profiler overrides, its own or in the bash arrays it expands
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
            launches += _arm_combinations(members, dict(anchor.arms), _line(text, anchor.start))
    loose = [item for name, items in arrays.items() if name not in used for item in items]
    if loose:
        launches += _arm_combinations(loose, {}, _line(text, loose[0][0].start))
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
            raise Refused([line], "profiler overrides are set in too many if/case arms: migrate it by hand")
    launches, seen = [], set()
    for combination in combinations:
        chosen = [item for item in members if _same_launch(item[0].arms, {**fixed, **combination})]
        identity = tuple(id(item) for item in chosen)
        if chosen and identity not in seen:
            seen.add(identity)
            launches.append(_Launch(chosen, line))
    return launches


def _sets_torch_memory(launch: _Launch) -> bool:
    return any(
        override.key_or_group in (LEGACY_KEY, TOOL) and not word.expanded and override.value() == "torch_memory"
        for word, override in launch.overrides
        if not override.is_sweep_override()
    )


def _read_shell(text: str) -> list:
    """The configurations of a script that can set the tool to torch_memory, as ``found`` settings,
    each with the line of the command that launches it."""
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    parser, overrides, words = OverridesParser.create(), [], _shell_words(text)
    for word in words:
        if not any(key in word.text for key in KEYS):
            continue  # Hydra's parser costs milliseconds a word; a launch script has dozens
        try:
            override = parser.parse_override(word.text)
        except HydraException:  # not an override: a command, a flag, a shell variable
            if f"{LEGACY_KEY}=" in word.text and "torch_memory" in word.text:
                message = f"{LEGACY_KEY} is here in a form migrate cannot read: migrate it by hand"
                raise Refused([_line(text, word.start)], message) from None
            continue
        if override.key_or_group in KEYS and not override.is_delete():
            overrides.append((word, override))
    configs = []
    for launch in _launches(text, overrides, words):
        if not _sets_torch_memory(launch):
            continue  # nsys, npu, torch or a tool only the shell knows: not migrate's business
        found = {}
        for word, override in launch.overrides:
            value = None if override.is_sweep_override() else override.value()
            known = not (word.expanded or override.is_sweep_override() or "${" in str(value))
            _add(found, override.key_or_group, value, known, _line(text, word.start), word)
        configs.append((found, launch.line))
    return configs


def _word_edit(text: str, word: _Word, new: list) -> tuple:
    """The edit that puts the overrides ``new`` where ``word`` is, keeping the one-override-a-line
    layout of launch scripts (``\\`` continuations) and bash arrays."""
    line_start = text.rfind("\n", 0, word.start) + 1
    line_end = _line_end(text, word.end)
    before, after = text[line_start : word.start], text[word.end : line_end].strip()
    continues, joins_previous = after == "\\", text[: max(line_start - 1, 0)].endswith("\\")
    if before.strip() or after not in ("", "\\"):  # shares its line with other words
        if new:
            return word.start, word.end, " ".join(new)
        rest = text[word.end : line_end].rstrip("\n")
        if rest.strip():  # take the blanks after it, else those before it
            return word.start, word.end + len(rest) - len(rest.lstrip(" \t")), ""
        return line_start + len(before.rstrip(" \t")), word.end, ""
    if new:
        return word.start, word.end, ((" \\\n" if continues or joins_previous else "\n") + before).join(new)
    if continues or not joins_previous:
        return line_start, line_end, ""
    # The last line of a continued command goes: the line before it now ends the command.
    backslash = len(text[: line_start - 1].rstrip()) - 1
    return len(text[:backslash].rstrip()), _find(text, "\n", word.end), ""


def _moved(override: str, key: str, new_key: str) -> str:
    """``override`` with ``key`` renamed ``new_key``. A single ``+`` goes: it adds a key, and
    ``new_key`` is one of verl's own, which Hydra refuses to add again (``++`` stays, it works either
    way); the keys migrate adds are written without prefix too."""
    at = override.index(key)
    if override[at - 1 : at] == "+" and override[at - 2 : at - 1] != "+":
        at -= 1
    return override[:at] + new_key + override[override.index(key) + len(key) :]


def _shell_edits(text: str, found: dict, edits: list) -> list:
    new = {}  # word start -> (word, the overrides that replace it)

    def overrides(word):
        return new.setdefault(word.start, (word, [text[word.start : word.end]]))[1]

    fresh = []
    for op, key, value in edits:
        places = found[key].places if key in found else []
        for word in places:
            if op == "remove" or (op == "move" and value in found):
                overrides(word).clear()
            elif op == "move":
                overrides(word)[:] = [_moved(overrides(word)[0], key, value)]
            else:
                plus = word.text[: len(word.text) - len(word.text.lstrip("+"))]
                overrides(word)[:] = [f"{plus}{key}={_format(value, ',')}"]
        if not places:
            fresh.append(f"{key}={_format(value, ',')}")
    if fresh:  # where the legacy key was, else after the global_profiler.tool that implies it
        for word in (found.get(LEGACY_KEY) or found[TOOL]).places:
            overrides(word).extend(fresh)
    return [_word_edit(text, word, words) for word, words in new.values() if words != [text[word.start : word.end]]]


# --- YAML configs ------------------------------------------------------------------------------


def _read_yaml(text: str) -> tuple:
    """The relevant settings and the mappings on their paths, with ruamel.yaml's node positions."""
    from ruamel.yaml import YAML
    from ruamel.yaml.nodes import MappingNode, ScalarNode

    yaml = YAML(typ="safe", pure=True)
    yaml.version = (1, 1)  # OmegaConf reads YAML 1.1 (yes/no are booleans)
    root = yaml.compose(text)
    found, mappings = {}, {"": root}
    if not isinstance(root, MappingNode):
        return found, mappings

    def walk(mapping, prefix):
        for key_node, value_node in mapping.value:
            if not isinstance(key_node, ScalarNode):
                continue
            key = prefix + str(key_node.value)
            if key in KEYS:
                value = yaml.constructor.construct_object(value_node, deep=True)
                line = key_node.start_mark.line + 1
                _add(found, key, value, "${" not in str(value), line, (key_node, value_node, mapping))
            elif any(k.startswith(key + ".") for k in KEYS):
                mappings[key] = value_node
                if isinstance(value_node, MappingNode):
                    walk(value_node, key + ".")

    walk(root, "")
    return found, mappings


def _yaml_entry_end(text: str, key_node, value_node) -> int:
    """Just past the newline that ends the entry ``key_node: value_node``."""
    from ruamel.yaml.nodes import CollectionNode

    while isinstance(value_node, CollectionNode) and not value_node.flow_style and value_node.value:
        last = value_node.value[-1]
        key_node, value_node = last if isinstance(last, tuple) else (key_node, last)
    start, end = value_node.start_mark.index, value_node.end_mark.index
    # An empty value "ends" at the next token; a block scalar's end is past its last newline.
    return _line_end(text, max(end - 1, key_node.end_mark.index) if end > start else key_node.end_mark.index)


def _block_mapping(node, path: str):
    from ruamel.yaml.nodes import MappingNode

    if not isinstance(node, MappingNode) or node.flow_style or not node.value:
        raise Refused(
            [node.start_mark.line + 1],
            f"{path or 'the document'} is not a block-style mapping, the only kind migrate edits: migrate it by hand",
        )
    return node


def _yaml_value_edit(text: str, key_node, value_node, new: str) -> tuple:
    start, end = value_node.start_mark.index, value_node.end_mark.index
    if end == start:  # `key:` with nothing after it
        colon = text.index(":", key_node.end_mark.index) + 1
        return colon, colon, " " + new
    if new in ("True", "False") and text[start:end] in ("true", "false"):
        new = new.lower()  # generated configs spell booleans `false`
    return start, end, new


def _comments_above(text: str, start: int) -> tuple:
    """Where the full-line comments right above the line at ``start`` begin, and their texts."""
    comments = []
    while start:
        previous = text.rfind("\n", 0, start - 1) + 1
        if not text[previous:start].lstrip().startswith("#"):
            break
        comments.insert(0, text[previous:start].strip())
        start = previous
    return start, comments


def _inline_comment(text: str, value_node) -> str:
    """The ``  # comment`` after a value on its line, with the blanks before it; else ``""``."""
    end = value_node.end_mark.index
    rest = text[end : _find(text, "\n", end)]
    return rest.rstrip() if rest.lstrip().startswith("#") else ""


def _apply_yaml(text: str, found: dict, mappings: dict, edits: list) -> str:
    # fresh: key -> (comment lines, value text, inline comment); carried: the same, taken from the
    # entry a new key replaces (the legacy tool for global_profiler.tool, a moved save_path).
    changes, fresh, carried = [], {}, {}
    for op, key, value in edits:
        if op == "set":
            if key in found:
                key_node, value_node, _ = found[key].places[0]
                changes.append(_yaml_value_edit(text, key_node, value_node, _format(value, ", ")))
            else:
                fresh[key] = carried.get(key) or ([], _format(value, ", "), "")
            continue
        key_node, value_node, mapping = found[key].places[0]
        replaced_by = value if op == "move" else TOOL if key == LEGACY_KEY else None
        replaced_by = None if replaced_by in found else replaced_by
        value_text, comments, inline_comment = text[value_node.start_mark.index : value_node.end_mark.index], [], ""
        if any(node.value == "_target_" for node, _ in mapping.value):
            # A complete trainer config (verl's schema, as in _generated_ppo_trainer.yaml): the key
            # must stay, so it goes back to verl's default, which follows global_profiler.
            changes.append(_yaml_value_edit(text, key_node, value_node, _SCHEMA_DEFAULTS[key]))
        else:
            _block_mapping(mapping, key.rpartition(".")[0])
            start = text.rfind("\n", 0, key_node.start_mark.index) + 1
            if replaced_by:  # the comments on and right above a replaced entry are about it: they go along
                start, comments = _comments_above(text, start)
                inline_comment = _inline_comment(text, value_node)
            changes.append((start, _yaml_entry_end(text, key_node, value_node), ""))
        if replaced_by:  # the value as written, so its quoting stays
            (fresh if op == "move" else carried)[replaced_by] = (comments, value_text, inline_comment)
    return _splice(text, changes + _yaml_inserts(text, mappings, fresh))


def _yaml_inserts(text: str, mappings: dict, fresh: dict) -> list:
    """Edits that add the new keys after the last entry of the deepest mapping on their path that
    exists, creating the rest as nested block mappings (the deeper first where two meet)."""
    trees = {}
    for key, value in fresh.items():
        parts = key.split(".")
        depth = max(d for d in range(len(parts)) if ".".join(parts[:d]) in mappings)
        node = trees.setdefault(".".join(parts[:depth]), {})
        for part in parts[depth:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    edits = []
    for path in sorted(trees, key=lambda path: -len(path.split(".")) if path else 0):
        mapping = _block_mapping(mappings[path], path)
        last_key = mapping.value[-1][0]
        end = _yaml_entry_end(text, last_key, mapping.value[-1][1])
        block = "".join(f"{row}\n" for row in _render(trees[path], " " * mapping.value[0][0].start_mark.column))
        if not path and text[: text.rfind("\n", 0, last_key.start_mark.index) + 1].endswith("\n\n"):
            block = "\n" + block  # top-level blocks here are set apart by a blank line
        edits.append((end, end, block))
    return edits


def _render(tree: dict, indent: str):
    """Block YAML rows for ``tree``, whose leaves are ``(comment lines, value text, inline comment)``."""
    for key, value in tree.items():
        if isinstance(value, dict):
            yield f"{indent}{key}:"
            yield from _render(value, indent + "  ")
        else:
            comments, value_text, inline_comment = value
            yield from (indent + comment for comment in comments)
            yield f"{indent}{key}: {value_text}{inline_comment}"


# --- files and the command ---------------------------------------------------------------------


def migrate(text: str, kind: str = "shell", steps=None) -> str:
    """``text`` in the new form (unchanged when there is nothing to migrate); raises ``Refused``.

    ``kind`` is what the file is (``kind_of``): ``shell``, ``yaml``, ``markdown`` or ``other``.
    """
    if kind == "yaml":
        if not _YAML_TORCH_MEMORY.search(text):
            return text
        padded = text if text.endswith("\n") else text + "\n"  # every YAML entry ends with a newline
        found, mappings = _read_yaml(padded)
        new = _apply_yaml(padded, found, mappings, plan(found, steps))
        return text if new == padded else new
    if "torch_memory" not in text:
        return text
    if kind == "markdown":
        return _migrate_markdown(text, steps)
    if kind == "other":
        lines = [_line(text, match.start()) for match in _OTHER_TORCH_MEMORY.finditer(text)]
        if lines:
            message = "sets torch_memory in a file that is not a shell script, YAML or Markdown: migrate it by hand"
            raise Refused(lines, message)
        return text
    return _migrate_shell(text, steps)


def _migrate_shell(text: str, steps) -> str:
    edits = {}  # (start, end) -> (replacement, the line of the launch that wants it)
    for found, line in _read_shell(text):
        for start, end, replacement in _shell_edits(text, found, plan(found, steps)):
            other = edits.setdefault((start, end), (replacement, line))
            if other[0] != replacement:
                raise Refused(
                    [_line(text, start), other[1], line],
                    "these launches expand the same bash array but need different edits: migrate them by hand",
                )
    spans = sorted(edits)
    for (start, end), (next_start, _) in zip(spans, spans[1:]):
        if next_start < end:
            raise Refused(
                [_line(text, start), edits[(start, end)][1], edits[(next_start, _)][1]],
                "these launches expand the same bash array but need different edits: migrate them by hand",
            )
    return _splice(text, [(start, end, replacement) for (start, end), (replacement, _) in edits.items()])


_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*\n", re.MULTILINE)
_SHELL_FENCES = ("", "bash", "sh", "shell", "zsh", "console", "shell-session")


def _migrate_markdown(text: str, steps) -> str:
    """Migrates each fenced shell block as a script of its own; prose and other blocks are never read."""
    edits, position = [], 0
    while (opening := _FENCE.search(text, position)) is not None:
        fence = opening.group(2)
        closing = re.compile(rf"^ {{0,3}}{fence[0]}{{{len(fence)},}}[ \t]*$", re.MULTILINE).search(text, opening.end())
        end = closing.start() if closing else len(text)
        position = closing.end() if closing else len(text)
        if opening.group(3).lower() not in _SHELL_FENCES:
            continue
        block = text[opening.end() : end]
        try:
            new = migrate(block, "shell", steps)
        except Refused as refusal:
            offset = _line(text, opening.end()) - 1
            raise Refused([line + offset for line in refusal.lines], refusal.message) from None
        if new != block:
            edits.append((opening.end(), end, new))
    return _splice(text, edits)


def kind_of(path: Path, text: str) -> str:
    """``yaml``, ``markdown``, ``shell`` (by suffix, or a shebang naming a shell), or ``other``."""
    suffix = path.suffix.lower()
    if suffix in _YAML_SUFFIXES:
        return "yaml"
    if suffix in _MARKDOWN_SUFFIXES:
        return "markdown"
    first_line = text[: text.find("\n")] if text.startswith("#!") else ""
    if suffix in _SHELL_SUFFIXES or re.search(r"\b(ba|z|k|da)?sh\b", first_line):
        return "shell"
    return "other"


def _write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` in one step (same directory, then ``os.replace``), keeping its mode, so a
    crash or a full disk never leaves a half-written launch script."""
    path = Path(os.path.realpath(path))
    mode = stat.S_IMODE(path.stat().st_mode)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as file:
            file.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _diff_lines(text: str) -> list:
    lines = text.splitlines(True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n\\ No newline at end of file\n"
    return lines


def _step_list(text: str) -> list:
    try:
        steps = [int(step) for step in text.strip().removeprefix("[").removesuffix("]").split(",")]
    except ValueError:
        steps = []
    if not steps or min(steps) < 1:
        raise argparse.ArgumentTypeError(f"expected positive step numbers like 1,2,3 or [1,2,3], got {text!r}")
    return steps


DESCRIPTION = """\
Rewrite the legacy actor_rollout_ref.actor.profiler.tool=torch_memory config (and verl's own
global_profiler.tool=torch_memory without steps or without the actor's enable) into verl's
DistProfiler keys, so launch scripts and YAML configs work without verl-compat.

Reads shell scripts (.sh, .bash or a shell shebang), YAML configs (.yaml, .yml) and the fenced
shell blocks of Markdown pages (.md). A file is refused, named with the lines to look at and left
as it was, when migrating it would mean guessing (for example no step count: pass --steps)."""

EPILOG = """\
exit status:
  0  nothing left to migrate (or everything migrated)
  1  --check: at least one file would change
  2  a file was refused or could not be read, or ruamel.yaml / hydra-core is missing

examples:
  verl-compat migrate run_grpo.sh config/overlay.yaml    rewrite in place
  verl-compat migrate --diff run_grpo.sh                 show the change, write nothing
  verl-compat migrate --check examples/*.sh              exit 1 if anything would change
  verl-compat migrate --steps 1,5,10 run_profile.sh      snapshot these steps

Each run ends with one line on stderr: N migrated, M unchanged, K refused."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description, parser.epilog = DESCRIPTION, EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "paths",
        nargs="+",
        type=Path,
        metavar="PATH",
        help="shell scripts, YAML configs (.yaml, .yml), Markdown pages (.md)",
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file would change")
    parser.add_argument("--diff", action="store_true", help="write nothing; print a unified diff of the changes")
    parser.add_argument(
        "--steps",
        type=_step_list,
        help="steps to snapshot where the config means every step: 1,2,3 or [1,2,3] "
        f"(default: 1..N, N = {TOTAL_STEPS} of the same command or YAML file)",
    )


def run(args) -> int:
    """0: nothing left to migrate; 1: ``--check`` found files to migrate; 2: a file was refused
    or unreadable (the others are still processed)."""
    try:
        import hydra.core.override_parser.overrides_parser  # noqa: F401
        import ruamel.yaml  # noqa: F401
    except ImportError as error:
        print(
            f"verl-compat migrate needs ruamel.yaml and hydra-core ({error}): pip install 'verl-compat[migrate]'",
            file=sys.stderr,
        )
        return 2
    from ruamel.yaml.error import YAMLError

    status, counts = 0, {"migrated": 0, "unchanged": 0, "refused": 0}
    for path in args.paths:
        try:
            raw = path.read_bytes().decode("utf-8")
            newline = "\r\n" if "\r\n" in raw else "\n"
            old = raw.replace("\r\n", "\n")
            new = migrate(old, kind_of(path, old), args.steps)
        except Refused as refusal:
            where = ", ".join(f"{path}:{line}" for line in refusal.lines)
            print(f"{where}: {refusal.message}; not migrated", file=sys.stderr)
            status, counts["refused"] = 2, counts["refused"] + 1
            continue
        except (OSError, UnicodeDecodeError, YAMLError) as error:
            print(f"{path}: cannot read: {' '.join(str(error).split())}; not migrated", file=sys.stderr)
            status, counts["refused"] = 2, counts["refused"] + 1
            continue
        if new == old:
            counts["unchanged"] += 1
            continue
        counts["migrated"] += 1
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(_diff_lines(old), _diff_lines(new), f"a/{path}", f"b/{path}"))
        if args.check:
            print(f"would migrate {path}", file=sys.stderr)
            status = max(status, 1)
        elif not args.diff:
            _write_atomically(path, new.replace("\n", newline))
            print(f"migrated {path}", file=sys.stderr)
    done = "to migrate" if args.check or args.diff else "migrated"
    print(f"{counts['migrated']} {done}, {counts['unchanged']} unchanged, {counts['refused']} refused", file=sys.stderr)
    return status
