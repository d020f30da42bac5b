"""config_keys' migrate rule for ``verl-compat migrate`` (the contract: :mod:`verl_compat.migrate_contract`).

The same table and the same probe decide as at run time (:mod:`.translate`), against the installed
verl's own config (:mod:`.installed`): a key is rewritten only where that verl lacks it, to the
successor it has, so the migrated file says in that verl's keys exactly what the shim does.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import re
import tempfile
from pathlib import Path

from ... import _version, probes
from ...migrate_contract import Delete, Edit, Options, Refusal, Rename, Rule, Set, Setting
from . import installed, readers, translate
from .table import ROWS, said

_KEY_ROWS = tuple(row for row in ROWS if not row.group)
_GROUPS = tuple(row.old for row in ROWS if row.group)


@dataclasses.dataclass(frozen=True)
class _InstalledKeys:
    """What the rule asks of the installed verl's config (:class:`.installed.InstalledProbe`), as the
    key paths of its composed trainer configs: every path ``translate.node_at`` reaches, and the
    empty dicts any key may go into."""

    paths: frozenset[str]
    free_form: frozenset[str]
    folder: Path
    declared: dict = dataclasses.field(default_factory=dict)  # a declared-but-unread leaf: verl's own value

    def has_key(self, path: str) -> bool:
        return path in self.paths

    def is_free_form(self, path: str) -> bool:
        return path in self.free_form

    def has_option(self, group: str, option: str) -> bool:
        return (self.folder / group / f"{option}.yaml").is_file()

    def calls(self, entry: str, function: str) -> bool:
        return readers.calls(entry, function)


@functools.cache
def _probe() -> _InstalledKeys | None:
    """The installed verl's keys, kept between runs: composing its trainer configs with Hydra costs
    about half a second of CPU, most of a ``--check`` over a checkout (a pre-commit run pays it on
    every commit). Kept in the user's cache folder under a fingerprint of verl's config folder (each
    file's path, size and time) and verl-compat's version; a cache that cannot be read or written is
    passed over. None where verl is not installed."""
    folder = probes.verl_config_dir()
    if folder is None or not folder.is_dir():
        return None
    fingerprint = hashlib.sha256(f"{_version.__version__}\n{folder.resolve()}".encode())
    for path in sorted(folder.rglob("*.yaml")):
        stat = path.stat()
        fingerprint.update(f"\n{path.relative_to(folder)} {stat.st_size} {stat.st_mtime_ns}".encode())
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "verl-compat")
    kept = cache / f"config-keys-{fingerprint.hexdigest()[:24]}.json"
    try:
        known = json.loads(kept.read_text())
        return _InstalledKeys(frozenset(known["paths"]), frozenset(known["free_form"]), folder, known["declared"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    probe = installed.probe()
    if probe is None:
        return None
    paths, free_form, declared = set(), set(), {}
    for config in probe.configs:
        _walk_keys(config, "", paths, free_form)
        declared.update(_declared_unread(config))
    temporary = None
    try:
        cache.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=cache, suffix=".tmp", delete=False) as file:
            temporary = Path(file.name)
            json.dump({"paths": sorted(paths), "free_form": sorted(free_form), "declared": declared}, file)
        os.replace(temporary, kept)  # whole or not at all: runs in parallel (pre-commit) read it
    except OSError:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
    return _InstalledKeys(frozenset(paths), frozenset(free_form), folder, declared)


def _declared_unread(config) -> dict:
    """verl's own value of each leaf under a declared-but-unread row (``actor.grad_clip``: 1.0): a
    file that sets it so asks for nothing (a copy of verl's own full config)."""
    from omegaconf import DictConfig, OmegaConf

    declared = {}
    for row in _KEY_ROWS:
        node = translate.node_at(config, row.old) if row.reader is not None else None
        if node is None:
            continue
        for path, leaf in translate.leaves(node, row.old):
            if not isinstance(leaf, DictConfig):
                declared[path] = OmegaConf.to_container(OmegaConf.create({"v": leaf._value()}))["v"]
    return declared


def _walk_keys(node, prefix: str, paths: set[str], free_form: set[str]) -> None:
    from omegaconf import DictConfig

    if not isinstance(node, DictConfig) or node._is_missing() or node._is_none():
        return
    if prefix and not node.keys():
        free_form.add(prefix[:-1])
    for key in node:
        paths.add(f"{prefix}{key}")
        _walk_keys(node._get_node(key), f"{prefix}{key}.", paths, free_form)


class _OldPathInYaml:
    """The rule's ``yaml_setting``: a document is parsed only where one of its entries sits at an
    old key's path (or a group's). A regular expression on the last part of the paths alone
    (``fsdp_config:``) matches every copy of verl's own full config, which then costs a YAML parse
    each (about 0.1 s for verl 0.9.1's 35 KB ``_generated_ppo_trainer.yaml``). Paths are read from
    block-style indentation; a document this reading cannot follow (a flow mapping, a merge key, an
    alias as a value) is parsed."""

    _last_parts = re.compile(
        r"^[ \t]*['\"]?(?:{})['\"]?[ \t]*:".format(
            "|".join(sorted({re.escape(row.old.rpartition(".")[2]) for row in ROWS}))
        ),
        re.MULTILINE,
    )
    _flow = re.compile(r"\{(?<!\$\{)[ \t]*[^\s}]")  # ``{a: 1}``, not ``${oc.select:…}``
    _alias = re.compile(r":[ \t]+\*")
    _merge = re.compile(r"<<[ \t]*:")
    _entry = re.compile(
        r"^( *)(?:'([^'\n]+)'|\"([^\"\n]+)\"|([^\s#'\"\-?{}\[\]][^:#\n]*?))[ \t]*:(?=[ \t]|$)", re.MULTILINE
    )
    _old = frozenset((*_GROUPS, *(row.old for row in _KEY_ROWS)))
    _inner = frozenset(path.rsplit(".", n)[0] for path in _old for n in range(1, path.count(".") + 1))
    _unread = frozenset(row.old for row in _KEY_ROWS if row.reader is not None)
    _unread_below = tuple(f"{path}." for path in sorted(_unread))

    def search(self, text: str):
        match = self._last_parts.search(text)
        if match is None or self._unfollowed(text):
            return match
        stack: list = []  # (indent, path, or None where no old path lies below)
        for entry in self._entry.finditer(text):
            indent = len(entry.group(1))
            while stack and stack[-1][0] >= indent:
                stack.pop()
            key = entry.group(2) or entry.group(3) or entry.group(4)
            if stack and stack[-1][1] is None:
                stack.append((indent, None))
                continue
            path = f"{stack[-1][1]}.{key}" if stack else key
            unread = path in self._unread or path.startswith(self._unread_below)
            if unread:
                # Declared but unread (the legacy reward block, actor.grad_clip): verl's own full config
                # lists it at null or at verl's own value, which asks for nothing; only another value
                # set, or a mapping's entries, count.
                end = text.find("\n", entry.end())
                value = text[entry.end() : end if end >= 0 else len(text)].split("#")[0].strip()
                if value and value not in ("null", "~", "Null", "NULL") and not _as_declared(path, value):
                    return entry
                if not value:
                    stack.append((indent, path))
                continue
            if path in self._old or ("." in key and translate.row_for(path, _KEY_ROWS) is not None):
                return entry
            stack.append((indent, path if path in self._inner or "." in key else None))
        return None

    def _unfollowed(self, text: str) -> bool:
        return (
            "\t" in text
            or bool(self._flow.search(text) or self._alias.search(text))
            or ("<<" in text and self._merge.search(text) is not None)
        )


class _OldKeyInText:
    """The rule's ``text_setting``: an old key set with ``=`` (``critic.model.fsdp_config.x=…``, a
    group's old option ``model_engine=mindspeed``) in text migrate cannot read as an override (a
    quoted variable, an ``eval`` string, a here-document fed to a program), where the installed verl
    lacks it: there it is refused, for the user to migrate by hand, never passed over. Every dotted
    key set in the text is looked up in the table's index (one regular expression of 146 old paths
    would cost more than the launch scripts of a checkout)."""

    _dotted = re.compile(r"(?<![\w.$])\+{0,2}([A-Za-z_][\w-]*(?:\.[\w-]+)+)[\"']?[ \t]*=")
    _options = re.compile(
        r"(?<![\w.$])({})=[\"']?({})(?![\w-])".format(
            "|".join(re.escape(group) for group in sorted(set(_GROUPS), key=len, reverse=True)),
            "|".join(re.escape(str(option)) for row in ROWS if row.group for option, _ in row.values) or "(?!)",
        )
    )

    def search(self, text: str, pos: int = 0, endpos: int | None = None):
        return next(self._found(text, pos, len(text) if endpos is None else endpos), None)

    def finditer(self, text: str):
        return self._found(text, 0, len(text))

    def _found(self, text: str, pos: int, endpos: int):
        if "=" not in text:
            return
        for match in self._dotted.finditer(text, pos, endpos):
            row = translate.row_for(match.group(1), _KEY_ROWS)
            probe = _probe() if row is not None else None
            if row is not None and (probe is None or translate.applies(row, probe, ROWS)):
                yield match
        for match in self._options.finditer(text, pos, endpos):
            probe = _probe()
            if probe is None or not probe.has_option(match.group(1), match.group(2)):
                yield match


class OldKeysToInstalledVerl(Rule):
    """Trainer-config keys verl renamed or removed, in the installed verl's own keys: a moved or
    remapped key goes to its successor (values mapped), a dropped one is deleted, a removed one is
    refused with what to do instead. Needs verl installed: which keys it has decides.
    """

    name = "config_keys"
    keys = _GROUPS
    subtrees = tuple(dict.fromkeys(path for row in _KEY_ROWS for path in (row.old, row.new) if path))
    mentions = tuple(dict.fromkeys((*(row.old for row in _KEY_ROWS), *(f"{group}=" for group in _GROUPS))))
    yaml_setting = _OldPathInYaml()
    text_setting = _OldKeyInText()

    def concerns(self, settings: dict) -> bool:
        """An old key is set that the installed verl lacks (or verl is not there to say). A
        ``_target_`` entry is verl's own binding of a mapping to its dataclass, never a user's
        setting: alone it concerns nothing."""
        old = {key: setting for key, setting in _old(settings).items() if not _is_binding(key)}
        if not old:
            return False
        probe = _probe()
        return probe is None or any(_lacks(key, old[key], probe) for key in old)

    def edits(self, settings: dict[str, Setting], options: Options) -> list[Edit]:
        probe = _probe()
        old = _old(settings)
        if probe is None:
            raise Refusal(
                [line for setting in old.values() for line in setting.lines],
                "verl is not installed here, and which of these keys to rewrite depends on the verl "
                "release the launch runs: run migrate with that verl's Python",
            )
        own = {key: [] if _is_binding(key) else _edits(key, setting, settings, probe) for key, setting in old.items()}
        emptied = {edit.key.rpartition(".")[0] for edits in own.values() for edit in edits if not isinstance(edit, Set)}
        edits: list[Edit] = []  # in the file's order: a binding stays first in the mapping it moves with
        for key in old:
            if _is_binding(key) and key.rpartition(".")[0] in emptied:
                edits += _binding_edits(key, settings, probe)
            else:
                edits += own[key]
        return edits


def _is_binding(key: str) -> bool:
    return key.rpartition(".")[2] == "_target_"


def _binding_edits(key: str, settings: dict[str, Setting], probe: _InstalledKeys) -> list[Delete | Rename]:
    """A mapping's ``_target_`` goes where its entries go: along with them to the successor, or
    away where the successor has its own binding (which stays: never a conflict) or the entries are
    dropped."""
    row = translate.row_for(key, _KEY_ROWS)
    if row is None or not translate.applies(row, probe, ROWS):
        return []
    if row.fate in ("dropped", "removed"):
        return [Delete(key)]
    _, new_key = translate.resolve(row, key, probe, ROWS)
    return [Delete(key)] if new_key in settings else [Rename(key, new_key, added=not probe.has_key(new_key))]


def _old(settings: dict[str, Setting]) -> dict[str, Setting]:
    """The settings of keys a row names (an old path, or a key under one) and of config groups."""
    return {key: s for key, s in settings.items() if key in _GROUPS or translate.row_for(key, _KEY_ROWS) is not None}


def _lacks(key: str, setting, probe) -> bool:
    """Whether the installed verl lacks what ``key`` (a key, or a group's option) names."""
    if key in _GROUPS:
        return setting.known and not probe.has_option(key, str(setting.value))
    row = translate.row_for(key, _KEY_ROWS)
    return translate.applies(row, probe, ROWS) and not _unset_declared(row, key, setting, probe)


def _unset_declared(row, key: str, setting: Setting, probe) -> bool:
    """A declared-but-unread key left at null (a copy of verl's own config lists the legacy reward
    block so), at verl's own value or at an inert one: it asks for nothing, and stays where it is."""
    if row.reader is None or not setting.known:
        return False
    text = translate.value_text(setting.value)
    own = probe.declared.get(key, None) if isinstance(probe, _InstalledKeys) else None
    return setting.value is None or translate.is_inert(row, text) or (own is not None and own == setting.value)


def _as_declared(path: str, text: str) -> bool:
    """Whether a YAML value's text is verl's own value at ``path`` (a declared-but-unread leaf)."""
    probe = _probe()
    own = probe.declared.get(path) if probe is not None else None
    return own is not None and translate.same_value(own, text.strip("'\""))


def _edits(key: str, setting: Setting, settings: dict[str, Setting], probe) -> list[Edit]:
    if key in _GROUPS:
        return _group_edits(key, setting, probe)
    row = translate.row_for(key, _KEY_ROWS)
    if not translate.applies(row, probe, ROWS) or _unset_declared(row, key, setting, probe):
        return []
    text = translate.value_text(setting.value)
    if row.fate == "dropped" or (setting.known and translate.is_inert(row, text)):
        return [Delete(key)]
    if row.fate == "removed" or (row.fate == "remapped" and not setting.known):
        why = row.note if row.fate == "removed" else "its value comes from the shell or an interpolation"
        fate = (
            f"is unread since verl {row.since} ({row.evidence}: {row.reader.said()})"
            if row.reader is not None
            else f"was {said(row.fate)} in verl {row.since} ({row.evidence})"
        )
        raise Refusal(setting.lines, f"{key}={text} {fate}: {why}")
    last, new_key = translate.resolve(row, key, probe, ROWS)
    added = not probe.has_key(new_key)
    value = translate.mapped(last, setting.value) if last.fate == "remapped" else setting.value
    if new_key in settings:
        other = settings[new_key]
        if (other.value, other.known) == (value, setting.known):
            return [Delete(key)]
        raise Refusal(
            [*setting.lines, *other.lines],
            f"{key}={text} ({said(row.fate)} to {new_key} in verl {row.since}) and {new_key}="
            f"{translate.value_text(other.value)} differ: keep one",
        )
    if last.fate == "remapped" or row.fate == "remapped":
        return [Set(new_key, value, near=key, added=added), Delete(key)]
    return [Rename(key, new_key, added=added)]


def _group_edits(group: str, setting: Setting, probe) -> list[Edit]:
    for row in ROWS:
        if (
            row.group
            and row.old == group
            and setting.known
            and any(translate.same_value(option, str(setting.value)) for option, _ in row.values)
        ):
            if probe.has_option(group, str(setting.value)):
                return []
            if row.fate == "removed":
                raise Refusal(
                    setting.lines,
                    f"{group}={setting.value} was removed in verl {row.since} ({row.evidence}): {row.note}",
                )
            return [Set(group, translate.mapped_value(row, str(setting.value), setting.value))]
    return []


RULES = (OldKeysToInstalledVerl(),)
