"""The vocabulary of migrate rules: how a fix tells ``verl-compat migrate`` what to change in a config.

A fix that has a legacy spelling to rewrite puts its rules in ``<fix>/migrate_rules.py`` as
``RULES = (SomeRule(), …)``; migrate finds that module for each fix it knows. A rule never sees a
file: migrate reads the settings one launch (or one YAML document) receives, hands them to the rule
as :class:`Setting` objects, and applies the edits the rule returns to the shell words, YAML entries
or Markdown blocks they came from. docs/migrate.md ("Rules from fixes") describes the contract.

A fix whose old Python import paths users should rewrite offers an :class:`ImportRule` in the same
``RULES``: migrate asks it what each import of a ``.py`` file comes to (:class:`ImportFate`) and
rewrites the moved ones.

A leaf of the package (standard library only): fixes import it, and so does migrate.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import ClassVar


@dataclasses.dataclass(frozen=True)
class Setting:
    """One key as a configuration sets it.

    ``value`` is what Hydra (a script's override) or OmegaConf (a YAML entry) reads, before
    interpolation; ``known`` is False when only the shell or a resolver knows it (``$STEPS``,
    ``${oc.env:…}``). ``lines`` are the 1-based lines that set it. ``others`` are the other
    ``(value, known)`` pairs the same configuration gives it (Hydra would take the last): migrate
    refuses a configuration a rule concerns while any key it reads has some. ``shell_values`` are,
    for a value that is one shell variable (``$TOOL``, ``${TOOL:-nsys}``), the ``(literal, line)``
    pairs the file assigns it or defaults it to.
    """

    key: str
    value: object
    known: bool
    lines: tuple[int, ...]
    others: tuple[tuple[object, bool], ...] = ()
    shell_values: tuple[tuple[str, int | None], ...] = ()  # line None: a ``${NAME:-value}`` default

    def values(self) -> tuple[tuple[object, bool], ...]:
        """Every ``(value, known)`` pair the configuration gives the key."""
        return ((self.value, self.known), *self.others)


@dataclasses.dataclass(frozen=True)
class Set:
    """Give ``key`` the ``value``: in place where it is set, else as a new override or entry. In a
    script a new override goes next to the override of ``near`` (a key the configuration sets, or
    the key a :class:`Rename` among these edits renames); in YAML a new entry ends its mapping."""

    key: str
    value: object
    near: str | None = None
    added: bool = False  # ``key`` is not in verl's schema (a free-form dict): a script writes ``+key=…``


@dataclasses.dataclass(frozen=True)
class Rename:
    """Move the value of ``key`` to ``new_key``, as written (quoting, and in YAML the comments on
    and right above it). Where ``new_key`` is already set, its value is replaced."""

    key: str
    new_key: str
    added: bool = False  # ``new_key`` is not in verl's schema (a free-form dict): a script writes ``+new_key=…``


@dataclasses.dataclass(frozen=True)
class Delete:
    """Remove ``key``. In a complete trainer config (a mapping with ``_target_``, which verl's
    dataclass needs whole) the key is set back to the rule's ``defaults`` value instead."""

    key: str


@dataclasses.dataclass(frozen=True)
class Options:
    """What the user chose on the command line: ``steps``, the step list of ``--steps`` (or None);
    ``release``, the verl release of ``--release`` the files were written for (or None)."""

    steps: list[int] | None = None
    release: str | None = None


# What a rule's :meth:`Rule.edits` returns a list of.
Edit = Set | Rename | Delete


class Refusal(Exception):
    """Migrating would mean guessing: ``lines`` are where the user has to look, ``message`` says why."""

    def __init__(self, lines, message: str):
        super().__init__(message)
        self.lines = sorted(set(lines))
        self.message = message


class Rule:
    """A migrate rule: subclass it, say what it does in the docstring, and set

    - ``name``: a short name, shown in messages;
    - ``keys``: the dotted keys it reads or writes; migrate parses nothing else, and finds where a
      new YAML entry goes only along these;
    - ``mentions``: plain strings of which every file it can concern contains one (a script or
      page without any is not parsed: that is what keeps a pre-commit check over a checkout fast);
    - ``yaml_setting``: a regular expression (or anything with its ``search(text)``) matching the
      YAML entry that makes a document its business (a YAML file where no rule's matches is not
      parsed);
    - ``text_setting``: a regular expression for a setting of its own in a file that is neither a
      script, YAML nor Markdown (such a file is refused, for the user to migrate by hand);
    - ``subtrees``: dotted paths under which every key is the rule's too (a rule for renamed
      sections reads ``critic.model.fsdp_config.param_offload`` through ``critic.model.fsdp_config``);
    - ``asked_by``: the :class:`Options` field (``"release"``) without which the rule does nothing:
      it rewrites only when the user asks (``--release``);
    - ``defaults``: verl's schema value of a key, as verl's own config files spell it: an entry
      equal to it is not the user's setting, and a :class:`Delete` or :class:`Rename` of the key in
      a complete trainer config writes it back;

    and implement :meth:`concerns` and :meth:`edits`.
    """

    name = ""
    asked_by: str | None = None
    keys: tuple[str, ...] = ()
    subtrees: tuple[str, ...] = ()
    mentions: tuple[str, ...] = ()
    yaml_setting = re.compile(r"(?!)")
    text_setting = re.compile(r"(?!)")
    defaults: ClassVar[Mapping[str, str]] = {}

    def concerns(self, settings: dict[str, Setting]) -> bool:
        """Whether this configuration (key -> :class:`Setting`, only ``keys`` that are set) is the
        rule's business. Only then are its duplicate keys refused and :meth:`edits` called."""
        raise NotImplementedError

    def edits(self, settings: dict[str, Setting], options: Options) -> list[Edit]:
        """The edits (:class:`Set`, :class:`Rename`, :class:`Delete`) that say the configuration in
        verl's own keys; empty when it already does, which makes migrating twice change nothing.
        Raise :class:`Refusal` instead of guessing."""
        raise NotImplementedError


# --- Python imports -----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class ImportFate:
    """What an old import comes to on the installed verl, as an :class:`ImportRule` says it.

    ``kind`` "moved": the very object lives at ``module`` (``import module`` for an old module;
    ``from module import name`` for an old name, ``name`` being a submodule where the old name
    was one), and migrate rewrites the import there, keeping the names the file binds. Any other
    ``kind`` ("replaced", "removed"): nothing can be written in its place, and migrate names the
    import with ``message`` (what happened, the release and the change, what to do).
    """

    kind: str
    message: str
    module: str | None = None
    name: str | None = None


class ImportRule:
    """A migrate rule for the imports of Python files: subclass it, say what it does in the
    docstring, and set

    - ``name``: a short name, shown in messages and ``--help``;
    - ``packages``: the top-level packages whose imports it judges (``("verl",)``); a ``.py`` file
      that spells none of them is not parsed;

    and implement :meth:`fate` (and, to keep a check over a checkout fast, :meth:`may_concern`).
    """

    name = ""
    packages: tuple[str, ...] = ()

    def may_concern(self, module: str, names) -> bool:
        """Whether ``import module``, or ``from module import`` one of ``names`` (a collection of
        identifiers), can have a fate at all, answered from the rule's own data without looking at
        the installed package. migrate asks it for each dotted name of the rule's packages in a
        file, with every identifier the file spells (a file none may concern is not parsed), then
        for each import, with its name (none for ``import module``), before :meth:`fate`. True
        unless the rule knows better."""
        return True

    def fate(self, module: str, name: str | None) -> ImportFate | None:
        """What ``import module`` (``name`` None) or ``from module import name`` comes to on the
        installed release; None where it imports as it is (or the rule knows nothing of it)."""
        raise NotImplementedError
