"""YAML configs: a parser finds the entries (node positions), and only their lines change.

The text is edited rather than re-dumped: a round-trip dump rewrites verl's ``False`` as ``false``
and re-indents sequences. New keys go at the end of their mapping (created if missing); an entry a
new key replaces hands it its value as written and its comments. A document is parsed only when it
is the business of some rule (its ``yaml_setting``), by libyaml (PyYAML's C parser, which OmegaConf
reads configs with: a 35 KB trainer config in about 4 ms, where ruamel.yaml's pure-Python parser
takes about 100 ms) with the values read by ruamel.yaml's YAML 1.1 rules, as before; by ruamel.yaml
alone where libyaml is missing, cannot take the text (bytes that are not UTF-8) or rejects it.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable
from typing import Any

from ..migrate_contract import Edit, Refusal, Rename, Set
from . import rulebook
from .files import Unreadable
from .text import find, format_value, line_end, line_of, lower_booleans, splice

Node = Any  # a ruamel.yaml node (untyped)
Change = tuple[int, int, str]  # (start, end, replacement)
Parents = dict[str, tuple[Node, Node, Node]]  # path -> (key node, mapping, parent mapping)


def migrate_yaml(text: str, options) -> str:
    """``text`` with its edits applied (one document, one configuration); raises :class:`Refusal`."""
    if not any(rule.yaml_setting.search(text) for rule in rulebook.active()):
        return text
    padded = text if text.endswith("\n") else text + "\n"  # every YAML entry ends with a newline
    found, mappings, parents = _read(padded)
    marked = {line_of(padded, match.start()) for match in rulebook.IGNORE.finditer(padded)}
    if rulebook.ignored(marked, [line for setting in found.values() for line in setting.lines]):
        return text
    new = _apply(padded, found, mappings, parents, rulebook.edits(found, options))
    return text if new == padded else new


def _read(text: str) -> tuple[dict[str, rulebook.Found], dict[str, Node], Parents]:
    """The settings of the rules' keys, the mappings on their paths and the entry holding each of
    those mappings (``path -> (key node, mapping, parent mapping)``), with the nodes' positions."""
    root, construct = _compose(text)
    found, mappings, parents = {}, {"": root}, {}
    if root is None or root.id != "mapping":
        return found, mappings, parents
    reads, on_path = rulebook.index().reads, rulebook.index().on_path

    def walk(mapping, prefix):
        for key_node, value_node in mapping.value:
            if key_node.id != "scalar":
                continue
            key = prefix + str(key_node.value)
            where = prefix[:-1]
            if key_node.value == "<<" and (on_path(where) or reads(where)):
                raise Refusal(
                    [key_node.start_mark.line + 1],
                    f"a merge key (<<) in {where or 'the document'}, where migrate reads keys: migrate it by hand",
                )
            if value_node.id == "mapping" and on_path(key):
                mappings[key] = value_node
                parents[key] = (key_node, value_node, mapping)
                walk(value_node, key + ".")
            elif reads(key):
                value = construct(value_node)
                line = key_node.start_mark.line + 1
                rulebook.add(found, key, value, "${" not in str(value), line, (key_node, value_node, mapping))
            elif on_path(key):
                mappings[key] = value_node

    walk(root, "")
    return found, mappings, parents


# The last document composed, by thread: migrate runs one pass per rule on the same text, and a
# pass that changes nothing hands the next the very text it parsed (one parse per file).
_last = threading.local()


def _compose(text: str) -> tuple[object, Callable[[object], object]]:
    """The document's root node and a function that reads a node's value (YAML 1.1, as OmegaConf)."""
    if getattr(_last, "text", None) != text:
        _last.text, _last.composed = text, _compose_anew(text)
    return _last.composed


def _compose_anew(text: str) -> tuple[object, Callable[[object], object]]:
    from ruamel.yaml.error import YAMLError

    ruamel = _ruamel()
    root = _compose_in_c(text)
    if root is None:
        try:
            root = ruamel.compose(text)
        except YAMLError as error:
            raise Unreadable(" ".join(str(error).split())) from None
        return root, lambda node: _construct(ruamel, node)
    return root, lambda node: _read_value(text, node)


@functools.cache
def _ruamel():
    from ruamel.yaml import YAML

    ruamel = YAML(typ="safe", pure=True)
    ruamel.version = (1, 1)  # OmegaConf reads YAML 1.1 (yes/no are booleans)
    return ruamel


def _compose_in_c(text: str):
    """libyaml's node tree of ``text``, or None where libyaml is missing, cannot take the text or
    rejects it (ruamel.yaml then decides, and words the error)."""
    try:
        import yaml

        loader, source = _unresolving_loader(), text.encode("utf-8")
    except (ImportError, AttributeError, UnicodeEncodeError):
        return None
    try:
        return yaml.compose(source, Loader=loader)
    except yaml.YAMLError:
        return None


_UNRESOLVED = "verl-compat:unresolved"  # a plain scalar's tag until ruamel.yaml resolves it


@functools.cache
def _unresolving_loader():
    """libyaml's loader without PyYAML's resolver for plain scalars: their tags follow ruamel.yaml's
    YAML 1.1 rules (``_read_value``), only for the values the rules read, once each."""
    import yaml

    class Loader(yaml.CSafeLoader):
        def resolve(self, kind, value, implicit):
            if kind is yaml.ScalarNode and implicit[0]:
                return _UNRESOLVED
            return super().resolve(kind, value, implicit)

    return Loader


def _read_value(text: str, node):
    """A libyaml node's value as ruamel.yaml reads it; a scalar's from the values already read."""
    if node.id != "scalar":
        return _construct(_ruamel(), _as_ruamel(text, node, _ruamel().resolver, {}))
    tag = node.tag if node.style or _tagged(text, node) else _UNRESOLVED
    return _scalar(tag, node.value, node.style or None, node.start_mark, node.end_mark)


def _scalar(tag: str, value: str, style, start_mark, end_mark):
    key = (tag, value, style)
    if key not in _scalars:
        from ruamel.yaml import nodes

        resolved = _ruamel().resolver.resolve(nodes.ScalarNode, value, (True, False)) if tag == _UNRESOLVED else tag
        read = _construct(
            _ruamel(), nodes.ScalarNode(resolved, value, style=style, start_mark=start_mark, end_mark=end_mark)
        )
        if not isinstance(read, (str, int, float, bool, type(None))):  # kept only where nothing can change it
            return read
        _scalars[key] = read
    return _scalars[key]


_scalars: dict[tuple[str, str, object], object] = {}  # (tag, text, style) -> the scalar's value


def _construct(ruamel, node):
    from ruamel.yaml.error import YAMLError

    try:
        return ruamel.constructor.construct_object(node, deep=True)
    except YAMLError as error:
        raise Unreadable(" ".join(str(error).split())) from None


def _as_ruamel(text: str, node, resolver, seen: dict[int, object]):
    """A libyaml node as ruamel.yaml's, its plain scalars tagged by ruamel.yaml's YAML 1.1 rules
    (libyaml's differ: ``1e-6`` is a float and ``n`` a boolean there), so values read as before."""
    from ruamel.yaml import nodes

    if id(node) in seen:  # an alias: the same node again
        return seen[id(node)]
    marks = {"start_mark": node.start_mark, "end_mark": node.end_mark}
    if node.id == "scalar":
        tag = node.tag
        if not node.style and not _tagged(text, node):
            tag = resolver.resolve(nodes.ScalarNode, node.value, (True, False))
        new = seen[id(node)] = nodes.ScalarNode(tag, node.value, style=node.style or None, **marks)
    elif node.id == "sequence":
        new = seen[id(node)] = nodes.SequenceNode(node.tag, [], flow_style=node.flow_style, **marks)
        new.value = [_as_ruamel(text, item, resolver, seen) for item in node.value]
    else:
        new = seen[id(node)] = nodes.MappingNode(node.tag, [], flow_style=node.flow_style, **marks)
        new.value = [(_as_ruamel(text, k, resolver, seen), _as_ruamel(text, v, resolver, seen)) for k, v in node.value]
    return new


_TAGGED = re.compile(r"(?:&\S+\s+)*!")


def _tagged(text: str, node) -> bool:
    """Whether the node's properties (``&anchor``, ``!tag``), where its position starts, name a tag."""
    return _TAGGED.match(text, node.start_mark.index) is not None


def _value_edit(text: str, key_node: Node, value_node: Node, new: str, through: str = "") -> Change:
    """The edit that writes ``new`` as the value (and over the ``through`` that follows it)."""
    start, end = value_node.start_mark.index, value_node.end_mark.index
    if end == start:  # `key:` with nothing after it
        colon = text.index(":", key_node.end_mark.index) + 1
        return colon, colon, " " + new
    old = text[start:end]
    if new.lower() in ("true", "false") and old.lower() in ("true", "false") and old.lower() == old:
        new = new.lower()  # the entry's own spelling wins
    return start, end + len(through), new


def _apply(
    text: str, found: dict[str, rulebook.Found], mappings: dict[str, Node], parents: Parents, edits: list[Edit]
) -> str:
    # fresh: a new key -> (comment lines, value text, inline comment)
    changes, fresh, lower, defaults = [], {}, lower_booleans(text), rulebook.defaults()
    removed = {}  # the path of a mapping -> the changes that remove its entries
    for edit in edits:
        if isinstance(edit, Set):
            value = format_value(edit.value, ", ", lower)
            if edit.key in found:
                key_node, value_node, _ = _place(found, edit.key)
                changes.append(_value_edit(text, key_node, value_node, value))
            else:
                fresh[edit.key] = ([], value, "")
            continue
        key_node, value_node, mapping = _place(found, edit.key)
        new_key = edit.new_key if isinstance(edit, Rename) else None
        value_text, comments = text[value_node.start_mark.index : value_node.end_mark.index], []
        inline_comment = _inline_comment(text, value_node)
        if any(node.value == "_target_" for node, _ in mapping.value) and edit.key in defaults:
            # A complete trainer config (verl's schema, as in _generated_ppo_trainer.yaml): the key
            # must stay, so it goes back to verl's default; its comment was about the old value.
            changes.append(_value_edit(text, key_node, value_node, defaults[edit.key], inline_comment))
        else:
            _block_mapping(mapping, edit.key.rpartition(".")[0])
            start = text.rfind("\n", 0, key_node.start_mark.index) + 1
            if new_key and new_key not in found:  # the comments on and right above it go along
                start, comments = _comments_above(text, start)
            change = (start, _yaml_entry_end(text, key_node, value_node), "")
            removed.setdefault(edit.key.rpartition(".")[0], []).append(change)
            changes.append(change)
        if new_key in found:  # the value as written, so its quoting stays
            target_key, target_value, _ = _place(found, new_key)
            kept = "" if _inline_comment(text, target_value) else inline_comment
            changes.append(_value_edit(text, target_key, target_value, value_text + kept))
        elif new_key:
            fresh[new_key] = (comments, value_text, inline_comment)
    receiving = {_insertion_path(key, mappings) for key in fresh}  # not emptied: a new key goes there
    changes = _without_emptied(text, changes, mappings, parents, removed, receiving)
    return splice(text, changes + _yaml_inserts(text, mappings, fresh))


def _place(found: dict[str, rulebook.Found], key: str) -> tuple[object, object, object]:
    """Where ``key`` is set, to edit: ``(key node, value node, mapping)``. A value that is an alias
    (``tool: *memory``) is the anchor's node, elsewhere in the file: editing it would edit the
    anchor's key too."""
    key_node, value_node, mapping = found[key].places[0]
    if value_node.start_mark.index < key_node.end_mark.index:
        line = key_node.start_mark.line + 1
        raise Refusal([line], f"{key} takes its value from an alias (*name): migrate it by hand")
    return key_node, value_node, mapping


def _insertion_path(key: str, mappings: dict[str, Node]) -> str:
    """The deepest mapping on the path of a new ``key`` that exists: it goes there."""
    parts = key.split(".")
    return ".".join(parts[: max(d for d in range(len(parts)) if ".".join(parts[:d]) in mappings)])


def _without_emptied(
    text: str,
    changes: list[Change],
    mappings: dict[str, Node],
    parents: Parents,
    removed: dict[str, list[Change]],
    receiving: set[str],
) -> list[Change]:
    """``changes`` where a mapping that loses every entry goes whole (its own entry removed, up the
    path while the parent empties too): ``critic: {model: {fsdp_config: {}}}`` left behind would
    set keys verl no longer has."""
    for depth in range(max((path.count(".") for path in removed), default=0), -1, -1):
        for path in [path for path in removed if path.count(".") == depth]:
            if path in parents and path not in receiving and len(removed[path]) >= len(mappings[path].value):
                changes = _remove_whole(text, changes, path, parents, removed)
    return changes


def _remove_whole(
    text: str, changes: list[Change], path: str, parents: Parents, removed: dict[str, list[Change]]
) -> list[Change]:
    key_node, value_node, _ = parents[path]
    start = text.rfind("\n", 0, key_node.start_mark.index) + 1
    whole = (start, _yaml_entry_end(text, key_node, value_node), "")
    removed.setdefault(path.rpartition(".")[0], []).append(whole)
    return [change for change in changes if not start <= change[0] < whole[1]] + [whole]


def _yaml_entry_end(text: str, key_node, value_node) -> int:
    """Just past the newline that ends the entry ``key_node: value_node``."""
    while value_node.id != "scalar" and not value_node.flow_style and value_node.value:
        last = value_node.value[-1]
        key_node, value_node = last if isinstance(last, tuple) else (key_node, last)
    start, end = value_node.start_mark.index, value_node.end_mark.index
    # An empty value "ends" at the next token; a block scalar's end is past its last newline.
    return line_end(text, max(end - 1, key_node.end_mark.index) if end > start else key_node.end_mark.index)


def _block_mapping(node, path: str):
    if node.id != "mapping" or node.flow_style or not node.value:
        raise Refusal(
            [node.start_mark.line + 1],
            f"{path or 'the document'} is not a block-style mapping, the only kind migrate edits: migrate it by hand",
        )
    return node


def _comments_above(text: str, start: int) -> tuple[int, list[str]]:
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
    rest = text[end : find(text, "\n", end)]
    return rest.rstrip() if rest.lstrip().startswith("#") else ""


def _yaml_inserts(text: str, mappings: dict[str, Node], fresh: dict[str, tuple[list[str], str, str]]) -> list[Change]:
    """Edits that add the new keys after the last entry of the deepest mapping on their path that
    exists, creating the rest as nested block mappings (the deeper first where two meet)."""
    trees = {}
    for key, value in fresh.items():
        parts, path = key.split("."), _insertion_path(key, mappings)
        node = trees.setdefault(path, {})
        for part in parts[len(path.split(".")) if path else 0 : -1]:
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
