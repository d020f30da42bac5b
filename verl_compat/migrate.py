"""``verl-compat migrate``: rewrite the legacy torch_memory profiler config into verl's own form.

The shim keeps ``actor_rollout_ref.actor.profiler.tool=torch_memory`` working only while it is
installed; migrating is how a user stops needing it. The legacy key meant "a snapshot after every
step on every actor rank"; verl says the same with the unified DistProfiler keys::

    global_profiler.tool=torch_memory global_profiler.steps=[1,2,...,N]
    actor_rollout_ref.actor.profiler.enable=True actor_rollout_ref.actor.profiler.all_ranks=True

Which keys a file needs is decided by the fix itself (``torch_memory.detect`` and ``translate``),
so the migrated file asks verl for exactly what the shim would have done at run time.

A configuration is a command of a launch script (with the bash arrays that hold its overrides) or
a whole YAML file. Nothing is guessed: a value only the shell or a resolver knows, a step list that
is nowhere in the configuration, or legacy and new keys that disagree make migrate refuse the
file, naming the lines, and leave it as it was.

Only the overrides or YAML entries that change are rewritten; every other byte stays. That is why
YAML is parsed with ruamel.yaml for node positions and edited in the text rather than re-dumped
(a round-trip dump rewrites verl's ``False`` as ``false`` and re-indents sequences).
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import os
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
            [setting.lines[0], line], f"{key} is set to {setting.value!r} and to {value!r} in one configuration"
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
    raise Refused(
        tool.lines + (total.lines if total else []),
        "torch_memory without global_profiler.steps means a snapshot after every step, and the step "
        f"count is not here: pass --steps (e.g. --steps 1,2,3) or set {TOTAL_STEPS} to a number",
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


# --- launch scripts and other text with Hydra overrides ----------------------------------------


@dataclasses.dataclass
class _Word:
    start: int
    end: int
    text: str  # what the program receives: quotes and line continuations removed
    expanded: bool  # has $ or ` outside single quotes: only the shell knows its value
    command: int  # which command it belongs to; -1 inside a bash array, ``NAME=( … )``


_BLANKS, _SEPARATORS = " \t\r", "\n;&|()<>"


def _shell_words(text: str) -> list:
    """The words of a shell script with their spans, split the way bash splits them (quotes,
    backslash-newline continuations, ``#`` comments), and the command or array each is in."""
    words, i, n, command, in_array = [], 0, len(text), 0, False
    while i < n:
        if text.startswith("\\\n", i):
            i += 2
        elif text[i] in _BLANKS:
            i += 1
        elif text[i] == "#":  # a comment runs up to the newline, which still ends the command
            i = _find(text, "\n", i)
        elif text[i] in _SEPARATORS:
            if text[i] == "(" and words and words[-1].end == i and words[-1].text.endswith("="):
                in_array = True
            elif not (in_array and text[i] == "\n"):
                in_array = False
                command += 1
            i += 1
        else:
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
            words.append(_Word(start, min(i, n), "".join(chars), expanded, -1 if in_array else command))
    return words


def _read_shell(text: str) -> list:
    """The configurations of a script, as ``found`` settings: one per command that sets profiler
    keys; or, where bash arrays hold overrides, one for the arrays and the command that uses them."""
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    parser, by_command = OverridesParser.create(), {}
    for word in _shell_words(text):
        if not any(key in word.text for key in KEYS):
            continue  # Hydra's parser costs milliseconds a word; a launch script has dozens
        try:
            override = parser.parse_override(word.text)
        except HydraException:  # not an override: a command, a flag, a shell variable
            if f"{LEGACY_KEY}=" in word.text:
                message = f"{LEGACY_KEY} is here in a form migrate cannot read: migrate it by hand"
                raise Refused([_line(text, word.start)], message) from None
            continue
        if override.key_or_group in KEYS and not override.is_delete():
            by_command.setdefault(word.command, []).append((word, override))
    if -1 in by_command:  # which command an array reaches is the shell's business: there must be one
        if len(by_command) > 2:
            lines = [_line(text, words[0][0].start) for command, words in by_command.items() if command >= 0]
            raise Refused(lines, "bash arrays and several commands set profiler keys: migrate them by hand")
        by_command = {0: [item for words in by_command.values() for item in words]}
    configs = []
    for overrides in by_command.values():
        found = {}
        for word, override in overrides:
            value = None if override.is_sweep_override() else override.value()
            known = not (word.expanded or override.is_sweep_override() or "${" in str(value))
            _add(found, override.key_or_group, value, known, _line(text, word.start), word)
        configs.append(found)
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
                overrides(word)[:] = [overrides(word)[0].replace(key, value, 1)]
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


def _apply_yaml(text: str, found: dict, mappings: dict, edits: list) -> str:
    changes, fresh = [], {}  # fresh: key -> (comment lines, value text)
    for op, key, value in edits:
        if op == "set":
            if key in found:
                key_node, value_node, _ = found[key].places[0]
                changes.append(_yaml_value_edit(text, key_node, value_node, _format(value, ", ")))
            else:
                fresh[key] = ([], _format(value, ", "))
            continue
        key_node, value_node, mapping = found[key].places[0]
        comments = []
        if any(node.value == "_target_" for node, _ in mapping.value):
            # A complete trainer config (verl's schema, as in _generated_ppo_trainer.yaml): the key
            # must stay, so it goes back to verl's default, which follows global_profiler.
            changes.append(_yaml_value_edit(text, key_node, value_node, _SCHEMA_DEFAULTS[key]))
        else:
            _block_mapping(mapping, key.rpartition(".")[0])
            start = text.rfind("\n", 0, key_node.start_mark.index) + 1
            if op == "move":  # the comment lines right above a moved entry are about it: they go along
                start, comments = _comments_above(text, start)
            changes.append((start, _yaml_entry_end(text, key_node, value_node), ""))
        if op == "move" and value not in found:
            fresh[value] = (comments, text[value_node.start_mark.index : value_node.end_mark.index])
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
    """Block YAML rows for ``tree``, whose leaves are ``(comment lines, value text)``."""
    for key, value in tree.items():
        if isinstance(value, dict):
            yield f"{indent}{key}:"
            yield from _render(value, indent + "  ")
        else:
            comments, value_text = value
            yield from (indent + comment for comment in comments)
            yield f"{indent}{key}: {value_text}"


# --- files and the command ---------------------------------------------------------------------


def migrate(text: str, yaml: bool, steps=None) -> str:
    """``text`` in the new form (unchanged when there is nothing to migrate); raises ``Refused``."""
    if yaml:
        padded = text if text.endswith("\n") else text + "\n"  # every YAML entry ends with a newline
        found, mappings = _read_yaml(padded)
        new = _apply_yaml(padded, found, mappings, plan(found, steps))
        return text if new == padded else new
    return _splice(
        text, [edit for found in _read_shell(text) for edit in _shell_edits(text, found, plan(found, steps))]
    )


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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="+",
        type=Path,
        metavar="PATH",
        help="launch scripts or other text with Hydra overrides; YAML configs (.yaml, .yml)",
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file would change")
    parser.add_argument("--diff", action="store_true", help="write nothing; print a unified diff of the changes")
    parser.add_argument(
        "--steps",
        type=_step_list,
        help="steps to snapshot where the legacy config meant every step: 1,2,3 or [1,2,3] "
        f"(default: 1..{TOTAL_STEPS}, read from the same command or YAML file)",
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

    status = 0
    for path in args.paths:
        try:
            raw = path.read_bytes().decode("utf-8")
            newline = "\r\n" if "\r\n" in raw else "\n"
            old = raw.replace("\r\n", "\n")
            new = migrate(old, path.suffix.lower() in _YAML_SUFFIXES, args.steps)
        except Refused as refusal:
            where = ", ".join(f"{path}:{line}" for line in refusal.lines)
            print(f"{where}: {refusal.message}; not migrated", file=sys.stderr)
            status = 2
            continue
        except (OSError, UnicodeDecodeError, YAMLError) as error:
            print(f"{path}: cannot read: {' '.join(str(error).split())}", file=sys.stderr)
            status = 2
            continue
        if new == old:
            continue
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(_diff_lines(old), _diff_lines(new), str(path), str(path)))
        if args.check:
            print(f"would migrate {path}", file=sys.stderr)
            status = max(status, 1)
        elif not args.diff:
            _write_atomically(path, new.replace("\n", newline))
            print(f"migrated {path}", file=sys.stderr)
    return status
