"""Translate old trainer-config keys, in Hydra overrides and in a composed config tree. Pure: no
wrapt, no verl; Hydra's own override grammar parses what the user wrote.

omegaconf is imported where a config is read, not with the module: ``verl-compat migrate`` loads
it to check files that mostly hold no old key.

Which rows apply is decided by a :class:`Probe` of the installed release's config, never by its
version string: a row applies only where its old path is absent there (and, for ``moved`` and
``remapped``, its successor present), so one table serves every release. A row with a ``reader`` (a key
still declared that nothing reads) applies where the probe says the release's entry point no longer
calls that reader (:mod:`.readers`, verl's source read, not imported).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable
from typing import Protocol

from . import readers
from .table import ROWS, Row, said

ALLOW_REMOVED = "VERL_COMPAT_ALLOW_REMOVED_KEYS"


class Probe(Protocol):
    """What the installed release's config has."""

    def has_key(self, path: str) -> bool: ...

    def is_free_form(self, path: str) -> bool: ...

    def has_option(self, group: str, option: str) -> bool: ...

    def calls(self, entry: str, function: str) -> bool: ...


def _installed_calls(entry: str, function: str) -> bool:
    return readers.calls(entry, function)


@dataclasses.dataclass(frozen=True)
class ConfigProbe:
    """A probe over a composed config (keys) and a config repository's options (``has_option``)."""

    config: object  # an omegaconf DictConfig
    options: Callable[[str, str], bool] = lambda group, option: True
    entry_calls: Callable[[str, str], bool] = _installed_calls  # the installed verl's source, read

    def has_key(self, path: str) -> bool:
        return node_at(self.config, path) is not None

    def is_free_form(self, path: str) -> bool:
        """An empty dict verl hands on as is (``engine_kwargs.vllm: {}``): any key may go in."""
        from omegaconf import DictConfig

        node = node_at(self.config, path)
        return isinstance(node, DictConfig) and not node._is_none() and not node._is_missing() and not node.keys()

    def has_option(self, group: str, option: str) -> bool:
        return self.options(group, option)

    def calls(self, entry: str, function: str) -> bool:
        return self.entry_calls(entry, function)


@dataclasses.dataclass(frozen=True)
class Finding:
    """One old key the user wrote and what became of it."""

    row: Row
    key: str  # the old key as written (a leaf under the row's subtree, or the row's path)
    value: str  # the value as written ("" for a bare ``~key``)
    new_key: str | None = None
    replacement: str | None = None  # the override to write instead
    conflict: str | None = None  # the value already set at new_key, when it differs

    @property
    def inert(self) -> bool:
        """A removed or remapped key set to a value that asked for nothing the release does not do
        anyway (mostly the old default): dropped with a warning, neither stopping the run nor moved."""
        return is_inert(self.row, self.value)

    @property
    def stops(self) -> bool:
        """Whether this finding stops the run (a removed key, or old and new set differently)."""
        return (self.row.fate == "removed" and not self.inert) or self.conflict is not None

    def warning(self) -> str:
        row = self.row
        if row.fate == "restored":
            return (
                f"verl-compat: {self.key}={self.value} is still declared but nothing reads it since verl "
                f"{row.since} ({row.evidence}: {row.note}). verl-compat gives the workers' process group a "
                f"{self.value} s timeout, as the old workers did ({self.replacement}); keep the line."
            )
        if row.reader is not None and not self.inert and row.fate != "removed":
            return (
                f"verl-compat: {self.key} is still declared but nothing reads it since verl {row.since} "
                f"({row.evidence}: {row.reader.said()}), so verl alone would "
                f"ignore it; verl-compat set {self.new_key} instead. Write instead: {self.replacement}"
            )
        if row.fate == "dropped":
            return (
                f"verl-compat: {self.key} was dropped in verl {row.since} ({row.evidence}) and is ignored: "
                f"{row.note}. Delete it from your launch config."
            )
        if self.inert:
            to = f" to {row.new}" if row.new else ""
            return (
                f"verl-compat: {self.key}={self.value} was {said(row.fate)}{to} in verl "
                f"{row.since} ({row.evidence}) and is ignored: {row.note}; this value asked for what the release "
                "does anyway. Delete it."
            )
        if row.fate == "defaulted":
            return (
                f"verl-compat: {self.key} is not set: {row.note} ({row.evidence}). verl-compat set the old "
                f"default. Write instead: {self.replacement}"
            )
        if row.fate == "converted":
            return (
                f"verl-compat: {self.key}={self.value} is a global size: {row.note} ({row.evidence}). "
                f"verl-compat set {self.replacement} and cleared {self.key}. Write instead: {self.replacement}"
            )
        if row.fate == "added":
            return (
                f"verl-compat: {self.key} is in this verl's config now (verl added it since), and Hydra refuses "
                f"to add it again with +; verl-compat set it. Write instead: {self.replacement}"
            )
        if row.fate == "removed":
            return (
                f"verl-compat: {self.key}={self.value} was removed in verl {row.since} ({row.evidence}): "
                f"{row.note}; it is ignored because {ALLOW_REMOVED}=1 is set."
            )
        return (
            f"verl-compat: {self.key} is {said(row.fate)} to {self.new_key} in verl {row.since} ({row.evidence}); "
            f"verl-compat set it there. Write instead: {self.replacement}"
        )

    def error_line(self) -> str:
        if self.conflict is not None:
            return (
                f"  {self.key}={self.value} conflicts with {self.new_key}={self.conflict} "
                f"({self.key} is {said(self.row.fate)} to {self.new_key} in verl {self.row.since}, "
                f"{self.row.evidence}): keep one of them"
            )
        what = f"{self.key}={self.value}"
        if self.row.reader is not None:
            return (
                f"  {what}: unread since verl {self.row.since} ({self.row.evidence}: {self.row.reader.said()}): "
                f"{self.row.note} (or pin verl < {self.row.since})"
            )
        return (
            f"  {what}: removed in verl {self.row.since} ({self.row.evidence}): {self.row.note} "
            f"(or pin verl < {self.row.since})"
        )


def removed_allowed() -> bool:
    """Whether the user turned the removed-key stop into a warning (``VERL_COMPAT_ALLOW_REMOVED_KEYS=1``)."""
    return os.environ.get(ALLOW_REMOVED, "").strip().lower() not in ("", "0", "false", "no", "off")


def stopping(findings: Iterable[Finding]) -> list[Finding]:
    """The findings that stop the launch: a conflict always, a removed key unless allowed."""
    allow = removed_allowed()
    return [f for f in findings if f.stops and not (allow and f.conflict is None)]


def stop_message(findings: Iterable[Finding]) -> str:
    """The one error that lists every key that stops the run. The switch is named only where it
    would help: it lets removed keys through, never a conflict."""
    stops = [finding for finding in findings if finding.stops]
    removed = [finding for finding in stops if finding.conflict is None]
    header = (
        "verl-compat: this launch config asks for what the installed verl cannot do (nothing was started):"
        if removed
        else "verl-compat: this launch config sets an old key and its successor to different values "
        "(nothing was started):"
    )
    switch = [f"Set {ALLOW_REMOVED}=1 to drop removed keys with a warning and run anyway."] if removed else []
    return "\n".join([header, *(finding.error_line() for finding in stops), *switch])


def row_for(key: str, rows: Iterable[Row] = ROWS) -> Row | None:
    """The row whose path is ``key`` or a parent of it (the longest), among key rows."""
    index = _by_old_path(rows)
    while True:
        row = index.get(key)
        if row is not None:
            return row
        key, dot, _ = key.rpartition(".")
        if not dot:
            return None


# id(rows) -> (rows, {old path: key row}), for the tuples of rows callers keep
_indexes: dict[int, tuple[tuple[Row, ...], dict[str, Row]]] = {}


def _by_old_path(rows: Iterable[Row]) -> dict[str, Row]:
    """Key rows by old path (the table's old paths are unique): every override line of a launch asks."""
    if not isinstance(rows, tuple):
        return {row.old: row for row in rows if not row.group}
    kept = _indexes.get(id(rows))
    if kept is None or kept[0] is not rows:
        if len(_indexes) >= 16:  # tuples made per call would pile up
            _indexes.clear()
        kept = _indexes[id(rows)] = (rows, {row.old: row for row in rows if not row.group})
    return kept[1]


def applies(row: Row, probe: Probe, rows: Iterable[Row] = ROWS, depth: int = 8) -> bool:
    """Whether the installed release lacks the row's old path and has what it became: the new path,
    the dict it goes into (a free-form dict such as ``engine_kwargs.vllm: {}``), or what a later
    row renamed it to."""
    if row.group:
        return True
    if row.reader is not None:
        # Declared but unread: the old key is still in the schema; what decides is whether the
        # release moves it into its home itself (the entry calls the reader) or has no home for it.
        return probe.has_key(row.reader.home) and not probe.calls(row.reader.entry, row.reader.function)
    if row.fate in ("dropped", "removed"):
        return not probe.has_key(row.old)
    if row.new != row.old and probe.has_key(row.old):
        return False
    if probe.has_key(row.new) or probe.is_free_form(row.new.rpartition(".")[0]):
        return True
    following = row_for(row.new, rows)
    return following is not None and following is not row and depth > 0 and applies(following, probe, rows, depth - 1)


def successor(row: Row, key: str) -> str:
    return row.new + key[len(row.old) :]


def resolve(row: Row, key: str, probe: Probe, rows: tuple[Row, ...]) -> tuple[Row, str]:
    """Follow a chain of renames (``rollout.skip_rollout`` -> ``rollout.skip.enable`` ->
    ``skip.rollout.enable``) as far as the installed config goes: ``(row, new_key)`` of the last."""
    new_key = successor(row, key)
    for _ in range(len(rows)):
        if probe.has_key(new_key):
            break
        following = row_for(new_key, rows)
        if following is None or following is row or following.fate not in ("moved", "remapped"):
            break
        if not applies(following, probe, rows):
            break
        row, new_key = following, successor(following, new_key)
    return row, new_key


def is_inert(row: Row, text: str) -> bool:
    """Whether the value written is one of the row's ``inert`` values."""
    return any(same_value(value, text) for value in row.inert)


def same_value(expected, text: str) -> bool:
    return str(expected).strip().lower() == str(text).strip().lower() or value_text(expected) == text


def mapped_value(row: Row, text: str, value) -> str:
    """The value text at the successor: a remapped row's value map, else the value as written."""
    for old, new in row.values:
        if old == value or str(old) == text:
            return value_text(new)
    return text


def value_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


# --- overrides -----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Translation:
    overrides: tuple[str, ...]  # the override strings to compose with
    findings: tuple[Finding, ...]  # Finding per old key met, in the order written


@dataclasses.dataclass
class _Written:
    prefix: str  # "", "+", "++" or "~"
    key: str
    text: str  # value text after "=", "" for a bare "~key"
    value: object
    line: str


def _parse(overrides: list[str]) -> list[_Written]:
    from hydra.core.override_parser.overrides_parser import OverridesParser

    parsed = OverridesParser.create().parse_overrides(overrides=list(overrides))
    written = []
    for line, override in zip(overrides, parsed, strict=True):
        prefix = "~" if override.is_delete() else "++" if override.is_force_add() else "+" if override.is_add() else ""
        rest = line[len(prefix) :]
        text = rest.split("=", 1)[1] if "=" in rest else ""
        plain = override.package is None and not override.is_hydra_override()
        value = override.value() if text else None
        written.append(_Written(prefix, override.key_or_group if plain else "", text, value, line))
    return written


def translate_overrides(overrides, probe: Probe, rows: Iterable[Row] = ROWS) -> Translation:
    """The override list with every old key the installed release lacks translated (moved, remapped),
    deleted (dropped, removed, and a value already set alike at the successor), and what was done,
    per key. ``+old.key=v`` is the plain key: the successor exists.

    Only the lines a row names that the installed config calls for, and those setting a successor of
    one, are parsed: a launch without such keys costs a string scan."""
    rows = tuple(rows)
    overrides = list(overrides)
    keys = [line.lstrip("~+").split("=", 1)[0] for line in overrides]
    groups = {row.old for row in rows if row.group}
    # A row the installed config does not call for (its old path still there) leaves its line as is.
    hits = [row_for(key, rows) for key in keys]
    hits = [row if row is not None and applies(row, probe, rows) else None for row in hits]
    old = {i for i, (key, row) in enumerate(zip(keys, hits, strict=True)) if row is not None or key in groups}
    if not old:
        return Translation(tuple(overrides), ())
    successors = tuple(row.new for row in hits if row is not None and row.new)
    involved = sorted(old | {i for i, key in enumerate(keys) if successors and key.startswith(successors)})
    parsed = dict(zip(involved, _parse([overrides[i] for i in involved]), strict=True))
    direct = {w.key: w for w in parsed.values() if w.key and w.prefix != "~" and row_for(w.key, rows) is None}
    out, findings = [], []
    for i, line in enumerate(overrides):
        w = parsed.get(i)
        row = None
        if w is not None:
            row = _group_row(w, rows, probe) or (row_for(w.key, rows) if w.key else None)
        if row is None or not applies(row, probe, rows):
            out.append(line)
            continue
        if row.reader is not None and _asks_nothing(row, w, probe):
            out.append(line[1:] if w.prefix == "+" and probe.has_key(w.key) else line)  # as written, quietly
            continue
        if row.group:
            option = mapped_value(row, w.text, w.value)
            findings.append(Finding(row, w.key, w.text, w.key, None if row.fate == "removed" else f"{w.key}={option}"))
            if row.fate != "removed":
                out.append(f"{w.key}={option}")
            continue
        if row.fate in ("dropped", "removed") or (w.prefix != "~" and is_inert(row, w.text)):
            if w.prefix != "~":
                findings.append(Finding(row, w.key, w.text))
            continue
        row, new_key = resolve(row, w.key, probe, rows)
        if w.prefix == "~":
            new_line = f"~{new_key}" + (f"={mapped_value(row, w.text, w.value)}" if w.text else "")
        else:
            prefix = "" if probe.has_key(new_key) else "+"
            new_line = f"{prefix}{new_key}={mapped_value(row, w.text, w.value)}"
        other = direct.get(new_key)
        if other is not None and w.prefix != "~":
            agreed = other.text == mapped_value(row, w.text, w.value) or other.value == mapped(row, w.value)
            findings.append(Finding(row, w.key, w.text, new_key, new_line, None if agreed else other.text))
            continue
        findings.append(Finding(row, w.key, w.text, new_key, new_line))
        out.append(new_line)
    return Translation(tuple(out), tuple(findings))


def _asks_nothing(row: Row, w: _Written, probe: Probe) -> bool:
    """A declared-but-unread key deleted (``~key``), set to null (verl's reader moved only the values
    that are not None), to an inert value (``freeze_vision_tower=False``) or to the value verl declares
    it with (``actor.grad_clip=1.0``; the rule a user's YAML, :func:`_same_as_verls`, and ``verl-compat
    migrate`` follow too): it asks for nothing beyond what the release does; the line stays, quietly."""
    return w.prefix == "~" or w.value is None or is_inert(row, w.text) or _declared_so(probe, w)


def mapped(row: Row, value):
    """The value at the successor: a remapped row's value map, else the value itself."""
    return next((new for old, new in row.values if old == value), value)


def settle_additions(overrides, probe: Probe, rows: Iterable[Row] = ROWS) -> Translation:
    """``+key=v`` where the installed config has ``key``: a key verl added after the script was
    written, which Hydra refuses to add again ("An item is already at …"). It becomes ``key=v``,
    the value the script asked for, with a warning. Only single-``+`` key overrides are looked at.

    Never a key the table says nothing reads (a row with a reader that applies): verl 0.7.1 launched
    QAT with ``+actor_rollout_ref.actor.qat.enable=true``; settled, it would set a key verl 0.8.0+
    declares and ignores, and QAT would be off without a word. Such a line stays as written, and
    Hydra refuses it loudly, as without verl-compat (:func:`translate_overrides` moves it first)."""
    rows = tuple(rows)
    out, findings = [], []
    for line in overrides:
        key, sep, text = line[1:].partition("=")
        plain_add = line.startswith("+") and not line.startswith("++") and sep and "/" not in key and "@" not in key
        if plain_add and probe.has_key(key) and not _unread(key, probe, rows):
            row = Row(key, "added", key, "", "", note="verl has this key now")  # type: ignore[arg-type]  # not a table fate
            findings.append(Finding(row, key, text, key, f"{key}={text}"))
            out.append(f"{key}={text}")
            continue
        out.append(line)
    return Translation(tuple(out), tuple(findings))


def _unread(key: str, probe: Probe, rows: tuple[Row, ...]) -> bool:
    """Whether ``key`` is one the installed verl declares and nothing reads (a reader row applies)."""
    row = row_for(key, rows)
    return row is not None and row.reader is not None and applies(row, probe, rows)


def _declared_so(probe: Probe, w: _Written) -> bool:
    """Whether the installed config declares the written key with the written value."""
    from omegaconf import DictConfig

    config = getattr(probe, "config", None)
    node = node_at(config, w.key) if config is not None else None
    if node is None or isinstance(node, DictConfig):
        return False
    return node._value() == w.value or same_value(node._value(), w.text)


def _group_row(w: _Written, rows, probe: Probe) -> Row | None:
    """A group row naming the option written, where the release no longer ships it."""
    if not w.key or w.prefix == "~":
        return None
    for row in rows:
        if row.group and row.old == w.key and any(same_value(option, w.text) for option, _ in row.values):
            return row if not probe.has_option(w.key, w.text) else None
    return None


# --- a composed config ---------------------------------------------------------------------------


def node_at(config, path: str):
    """The node at ``path`` without resolving interpolations, or None."""
    from omegaconf import DictConfig

    node = config
    for part in path.split("."):
        # keys(), not `in node`: a DictConfig says False there for a '???' (missing) value, a node here.
        if not isinstance(node, DictConfig) or node._is_missing() or node._is_none() or part not in node.keys():  # noqa: SIM118
            return None
        node = node._get_node(part)
    return node


def leaves(node, path: str):
    """``(path, node)`` of every leaf under ``node`` (itself where it is one)."""
    from omegaconf import DictConfig

    if isinstance(node, DictConfig) and not node._is_none() and not node._is_missing():
        for key in node:
            yield from leaves(node._get_node(key), f"{path}.{key}")
    else:
        yield path, node


def translate_config(config, probe: ConfigProbe, rows: Iterable[Row] = ROWS) -> tuple[Finding, ...]:
    """Move every old key found in ``config`` (a user's YAML merged over verl's) to its successor, in
    place; ``probe`` is over verl's own config, without the user's files. Returns the findings; a
    value the user also set differently at the successor is a conflict, left there."""
    from omegaconf import DictConfig, OmegaConf

    rows = tuple(rows)
    findings = []
    for row in rows:
        # new == old: a key left the schema but still goes into a free-form dict; a YAML sets it there.
        if row.group or row.new == row.old or node_at(config, row.old) is None or not applies(row, probe, rows):
            continue
        old = node_at(config, row.old)
        for key, leaf in list(leaves(old, row.old)):
            if row.reader is not None and (leaf._is_none() or _same_as_verls(leaf, key, probe)):
                continue  # declared, and left as verl declares it: nothing asked (verl's reader skips None)
            text = value_text(OmegaConf.to_container(leaf) if isinstance(leaf, DictConfig) else leaf._value())
            if row.fate in ("dropped", "removed") or is_inert(row, text):
                findings.append(Finding(row, key, text))
                continue
            _, new_key = resolve(row, key, probe, rows)
            new_text = mapped_value(row, text, leaf._value())
            default, current = node_at(probe.config, new_key), node_at(config, new_key)
            conflict = None
            if current is not None and default is not None and _text(current) != _text(default):
                conflict = None if _text(current) == new_text else _text(current)
            prefix = "" if probe.has_key(new_key) else "+"
            findings.append(Finding(row, key, text, new_key, f"{prefix}{new_key}={new_text}", conflict))
            if conflict is None:
                OmegaConf.update(config, new_key, mapped(row, leaf._value()), merge=True, force_add=True)
        if row.reader is not None and probe.has_key(row.old):
            _restore(config, row.old, probe)
        else:
            _delete(config, row.old, probe)
    return tuple(findings)


def _same_as_verls(leaf, path: str, probe: ConfigProbe) -> bool:
    own = node_at(probe.config, path)
    return own is not None and _text(own) == _text(leaf)


def _restore(config, path: str, probe: ConfigProbe) -> None:
    """Put back verl's own declaration of a still-declared key (the legacy reward block's nulls):
    other entry points still read it (0.9.1's ``fully_async_main`` calls ``migrate_legacy_reward_impl``
    itself, on a block the translation left at null)."""
    import copy

    from omegaconf import OmegaConf, open_dict

    parent, _, last = path.rpartition(".")
    container = node_at(config, parent) if parent else config
    with open_dict(container):
        container[last] = copy.deepcopy(OmegaConf.select(probe.config, path))


def _delete(config, path: str, probe: ConfigProbe) -> None:
    """Delete ``path``, and each parent it leaves empty that verl's own config does not have."""
    from omegaconf import open_dict

    while path:
        parent, _, last = path.rpartition(".")
        container = node_at(config, parent) if parent else config
        with open_dict(container):
            del container[last]
        if not parent or container.keys() or probe.has_key(parent):
            return
        path = parent


def _text(node) -> str:
    from omegaconf import DictConfig, OmegaConf

    return value_text(node._value()) if not isinstance(node, DictConfig) else str(OmegaConf.to_container(node))
