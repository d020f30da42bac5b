"""migrate's rules: where they come from (each fix's ``migrate_rules`` module, found by name), what
they read, and the edits they ask for one configuration, whatever the file format: its settings,
read by an engine, go to the rules, and their edits come back for the engine to apply.

migrate knows no key of its own. For each fix module of the registry it imports
``<fix module>.migrate_rules`` when the fix has one and takes its ``RULES``: config rules for
scripts, YAML and Markdown, and import rules for ``.py`` files (:mod:`.python_imports`). A broken rules module
is an error, not a skip: a ``--check`` that silently left a fix's keys alone would pass files it
should not.

A configuration is what one launch receives (a command with the bash arrays it expands, one
combination of ``if``/``case`` arms), or one YAML document. Nothing is guessed: a key that the
configuration sets to two values, where a rule is concerned, is refused before the rule is asked for edits.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import importlib.util
import re
import threading
from collections.abc import Iterable
from typing import Any

from .. import registry
from ..migrate_contract import Edit, ImportRule, Options, Refusal, Rule, Setting


def fix_modules() -> tuple[str, ...]:
    """The fix modules of the registry, in its order: the one place migrate reads it."""
    return registry.FIX_MODULES


class RulesError(Exception):
    """A fix's ``migrate_rules`` module cannot be loaded."""


def _rules_of_fixes() -> list[Rule | ImportRule]:
    """Every rule of every fix that has a ``migrate_rules`` module, in the registry's order; raises
    :class:`RulesError`."""
    found: list[Rule | ImportRule] = []
    for module in fix_modules():
        name = f"{module}.migrate_rules"
        try:
            if hasattr(importlib.import_module(module), "__path__") and importlib.util.find_spec(name):
                found += importlib.import_module(name).RULES
        except Exception as error:
            raise RulesError(f"cannot load the migrate rules of {module} ({type(error).__name__}: {error})") from error
    return found


@functools.cache
def rules() -> tuple[Rule, ...]:
    """The config rules (:class:`~verl_compat.migrate_contract.Rule`) of every fix; raises :class:`RulesError`."""
    return tuple(rule for rule in _rules_of_fixes() if not isinstance(rule, ImportRule))


@functools.cache
def import_rules() -> tuple[ImportRule, ...]:
    """The Python import rules (:class:`~verl_compat.migrate_contract.ImportRule`) of every fix; raises
    :class:`RulesError`."""
    return tuple(rule for rule in _rules_of_fixes() if isinstance(rule, ImportRule))


@functools.cache
def defaults() -> dict[str, str]:
    """verl's schema values of the keys the rules read (``Rule.defaults``), all rules together."""
    merged: dict[str, str] = {}
    for rule in rules():
        merged.update(rule.defaults)
    return merged


# ``# verl-compat: ignore`` on a line of a configuration, or right above one, leaves it as it is.
IGNORE = re.compile(r"#[ \t]*verl-compat:[ \t]*ignore\b")


@dataclasses.dataclass
class Found:
    """One key as an engine reads it: the :class:`Setting` a rule sees, and the places to edit."""

    key: str
    value: object
    known: bool  # False when only the shell or an OmegaConf resolver knows the value
    lines: list[int]
    places: list[Any]  # where the engine edits it: a shell word, a YAML node
    others: list[tuple[object, bool, int]] = dataclasses.field(default_factory=list)  # (value, known, line) also set
    shell_values: tuple[tuple[str, int | None], ...] = ()

    def setting(self) -> Setting:
        others = tuple((value, known) for value, known, _ in self.others)
        return Setting(self.key, self.value, self.known, tuple(self.lines), others, self.shell_values)


def add(found: dict[str, Found], key: str, value, known: bool, line: int, place, shell_values=()) -> None:
    """Record that the configuration sets ``key`` at ``place``; verl's schema value is not a setting."""
    schema = defaults()
    if key in schema and schema[key] == value:
        return
    setting = found.get(key)
    if setting is None:
        found[key] = Found(key, value, known, [line], [place], shell_values=tuple(shell_values))
    elif (setting.value, setting.known) == (value, known):
        setting.lines.append(line)
        setting.places.append(place)
    else:
        setting.others.append((value, known, line))


# The rules of this pass: migrate runs one pass per rule, in the registry's order, each on the text
# the previous passes produced (a rule reads the keys an earlier one wrote, never the old ones).
_pass = threading.local()


@contextlib.contextmanager
def pass_of(rule):
    """Read, ask for edits and edit for ``rule`` alone inside this block."""
    _pass.rules = (rule,)
    try:
        yield
    finally:
        _pass.rules = None


def active() -> tuple[Rule, ...]:
    """The rules of the current pass (every rule outside :func:`pass_of`)."""
    return getattr(_pass, "rules", None) or rules()


@dataclasses.dataclass(frozen=True)
class _Index:
    """What the rules of a pass read, in the shapes the engines ask for it."""

    keys: frozenset[str]  # exact keys
    subtrees: tuple[str, ...]  # subtree paths, each with its trailing dot
    paths: frozenset[str]  # every proper prefix of a key or a subtree path: mappings on the way to one

    def reads(self, key: str) -> bool:
        return key in self.keys or f"{key}.".startswith(self.subtrees)

    def on_path(self, key: str) -> bool:
        return key in self.paths or f"{key}.".startswith(self.subtrees)


@functools.cache
def _index(chosen: tuple[Rule, ...]) -> _Index:
    keys = frozenset(key for rule in chosen for key in rule.keys)
    subtrees = tuple(f"{path}." for rule in chosen for path in rule.subtrees)
    paths = frozenset(
        ".".join(parts[:depth])
        for key in (*keys, *(path[:-1] for path in subtrees))
        for parts in [key.split(".")]
        for depth in range(1, len(parts))
    )
    return _Index(keys, subtrees, paths)


def keys() -> frozenset[str]:
    """Every key the pass's rules read exactly (see :func:`reads` for subtrees)."""
    return _index(active()).keys


def reads(key: str, rule=None) -> bool:
    """Whether ``rule`` (every rule of the pass) reads ``key``: one of its keys, a subtree's path or
    a key under one."""
    return _index((rule,) if rule is not None else active()).reads(key)


def on_path(key: str) -> bool:
    """Whether a mapping at ``key`` can hold a key the pass's rules read (an engine descends into
    it): it is on the way to one, or a subtree's path or under one."""
    return _index(active()).on_path(key)


def index():
    """:func:`reads` and :func:`on_path` of the pass as methods of one object, for an engine that
    asks them of every entry of a document."""
    return _index(active())


def needles() -> tuple[str, ...]:
    """Strings of which a word holding a key the pass's rules read contains one."""
    index = _index(active())
    return (*index.keys, *(path[:-1] for path in index.subtrees))


def mentioned(text: str) -> bool:
    """Whether a script or page can concern a rule (one of its ``mentions`` is in it)."""
    return any(mention in text for rule in active() for mention in rule.mentions)


def edits(found: dict[str, Found], options: Options) -> list[Edit]:
    """The edits of every rule of the pass concerned by the configuration ``found`` (key -> :class:`Found`)."""
    settings = {key: setting.setting() for key, setting in found.items()}
    edits: list[Edit] = []
    for rule in active():
        own = {key: setting for key, setting in settings.items() if reads(key, rule)}
        if not rule.concerns(own):
            continue
        for key in own:
            if found[key].others:
                value, _, line = found[key].others[0]
                raise Refusal(
                    [found[key].lines[0], line],
                    f"{key} is set to {found[key].value!r} and to {value!r} for the same launch (Hydra would "
                    "take the last one): keep one",
                )
        planned = rule.edits(own, options)
        for edit in planned:
            for key in (edit.key, getattr(edit, "new_key", edit.key)):
                if not reads(key, rule):  # the engines read (and know where to put) only these
                    raise RuntimeError(f"migrate rule {rule.name} edits {key}, which is not in its keys")
        edits += planned
    return edits


def ignored(text_lines: set[int], lines: Iterable[int]) -> bool:
    """Whether the marker is on one of ``lines`` or right above it (``text_lines``: the marked lines)."""
    return any(line in text_lines or line - 1 in text_lines for line in lines)
