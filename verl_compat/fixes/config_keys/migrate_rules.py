"""config_keys' rewrite rule for ``verl-compat migrate`` (the contract: :mod:`verl_compat.rewrite`).

The same table and the same probe decide as at run time (:mod:`.translate`), against the installed
verl's own config (:mod:`.installed`): a key is rewritten only where that verl lacks it, to the
successor it has, so the migrated file says in that verl's keys exactly what the shim does.
"""

from __future__ import annotations

import re

from ...rewrite import Delete, Refusal, Rename, Rule, Set
from . import installed, translate
from .table import ROWS

_KEY_ROWS = tuple(row for row in ROWS if not row.group)
_GROUPS = tuple(row.old for row in ROWS if row.group)


class _OldPathInYaml:
    """The rule's ``yaml_setting``: a document is parsed only where one of its entries sits at an
    old key's path (or a group's). A regular expression on the last part of the paths alone
    (``fsdp_config:``) matches every copy of verl's own full config, which then costs a YAML parse
    each (about 0.1 s for verl 0.9.1's 35 KB ``_generated_ppo_trainer.yaml``). Paths are read from
    block-style indentation; a document this reading cannot follow (a flow mapping, a merge key, an
    alias as a value) is parsed."""

    _last_parts = re.compile(
        r"^[ \t]*['\"]?(?:%s)['\"]?[ \t]*:" % "|".join(sorted({re.escape(row.old.rpartition(".")[2]) for row in ROWS})),
        re.MULTILINE,
    )
    _flow = re.compile(r"\{(?<!\$\{)[ \t]*[^\s}]")  # ``{a: 1}``, not ``${oc.select:…}``
    _alias = re.compile(r":[ \t]+\*")
    _merge = re.compile(r"<<[ \t]*:")
    _entry = re.compile(r"^( *)(?:'([^'\n]+)'|\"([^\"\n]+)\"|([^\s#'\"\-?{}\[\]][^:#\n]*?))[ \t]*:(?=[ \t]|$)", re.MULTILINE)
    _old = frozenset((*_GROUPS, *(row.old for row in _KEY_ROWS)))
    _inner = frozenset(path.rsplit(".", n)[0] for path in _old for n in range(1, path.count(".") + 1))

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
            if path in self._old or ("." in key and translate.row_for(path, _KEY_ROWS) is not None):
                return entry
            stack.append((indent, path if path in self._inner or "." in key else None))
        return None

    def _unfollowed(self, text: str) -> bool:
        return "\t" in text or bool(self._flow.search(text) or self._alias.search(text)) or (
            "<<" in text and self._merge.search(text) is not None
        )


class OldKeysToInstalledVerl(Rule):
    """Trainer-config keys verl renamed or removed, in the installed verl's own keys: a renamed or
    moved key goes to its successor (values mapped), a dropped one is deleted, a removed one is
    refused with what to do instead. Needs verl installed: which keys it has decides.
    """

    name = "config_keys"
    keys = _GROUPS
    subtrees = tuple(dict.fromkeys(path for row in _KEY_ROWS for path in (row.old, row.new) if path))
    mentions = tuple(dict.fromkeys((*(row.old for row in _KEY_ROWS), *(f"{group}=" for group in _GROUPS))))
    yaml_setting = _OldPathInYaml()

    def concerns(self, settings: dict) -> bool:
        """An old key is set that the installed verl lacks (or verl is not there to say)."""
        old = _old(settings)
        if not old:
            return False
        probe = installed.probe()
        return probe is None or any(_lacks(key, old[key], probe) for key in old)

    def plan(self, settings: dict, options) -> list:
        probe = installed.probe()
        old = _old(settings)
        if probe is None:
            raise Refusal(
                [line for setting in old.values() for line in setting.lines],
                "verl is not installed here, and which of these keys to rewrite depends on the verl "
                "release the launch runs: run migrate with that verl's Python",
            )
        edits = []
        for key, setting in old.items():
            edits += _edits(key, setting, settings, probe)
        return edits


def _old(settings: dict) -> dict:
    """The settings of keys a row names (an old path, or a key under one) and of config groups."""
    return {key: s for key, s in settings.items() if key in _GROUPS or translate.row_for(key, _KEY_ROWS) is not None}


def _lacks(key: str, setting, probe) -> bool:
    """Whether the installed verl lacks what ``key`` (a key, or a group's option) names."""
    if key in _GROUPS:
        return setting.known and not probe.has_option(key, str(setting.value))
    return translate.applies(translate.row_for(key, _KEY_ROWS), probe, ROWS)


def _edits(key: str, setting, settings: dict, probe) -> list:
    if key in _GROUPS:
        return _group_edits(key, setting, probe)
    row = translate.row_for(key, _KEY_ROWS)
    if not translate.applies(row, probe, ROWS):
        return []
    text = translate.value_text(setting.value)
    if row.kind == "dropped" or (setting.known and translate.is_inert(row, text)):
        return [Delete(key)]
    if row.kind == "removed" or (row.kind == "moved" and not setting.known):
        why = row.why if row.kind == "removed" else "its value comes from the shell or an interpolation"
        raise Refusal(
            setting.lines,
            f"{key}={text} was {row.kind} in verl {row.since} ({row.evidence}): {why}",
        )
    last, new_key = translate.resolve(row, key, probe, ROWS)
    added = not probe.has_key(new_key)
    value = translate.mapped(last, setting.value) if last.kind == "moved" else setting.value
    if new_key in settings:
        other = settings[new_key]
        if (other.value, other.known) == (value, setting.known):
            return [Delete(key)]
        raise Refusal(
            [*setting.lines, *other.lines],
            f"{key}={text} ({row.kind} to {new_key} in verl {row.since}) and {new_key}="
            f"{translate.value_text(other.value)} differ: keep one",
        )
    if last.kind == "moved" or row.kind == "moved":
        return [Set(new_key, value, near=key, added=added), Delete(key)]
    return [Rename(key, new_key, added=added)]


def _group_edits(group: str, setting, probe) -> list:
    for row in ROWS:
        if row.group and row.old == group and setting.known:
            if any(translate.same_value(option, str(setting.value)) for option, _ in row.values):
                if probe.has_option(group, str(setting.value)):
                    return []
                if row.kind == "removed":
                    raise Refusal(
                        setting.lines,
                        f"{group}={setting.value} was removed in verl {row.since} ({row.evidence}): {row.why}",
                    )
                return [Set(group, translate.mapped_value(row, str(setting.value), setting.value))]
    return []


RULES = (OldKeysToInstalledVerl(),)
