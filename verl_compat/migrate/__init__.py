"""``verl-compat migrate``: rewrite legacy configs into verl's own keys, so they work without the shim.

The shim keeps a legacy config working only while it is installed; migrating is how a user stops
needing it. migrate knows no key itself: each fix supplies rewrite rules (its ``migrate_rules``
module, :mod:`verl_compat.migrate_contract` has the contract, :mod:`.rulebook` finds them), and migrate's
engines read launch scripts (:mod:`.shell`, with :mod:`.shell_syntax`), YAML configs
(:mod:`.yaml_config`) and Markdown pages (:mod:`.markdown`) into configurations, ask the rules for
edits (:mod:`.rulebook`) and apply them.

A configuration is what one launch can receive: a command of a launch script with the bash arrays
it expands (one configuration per combination of the ``if``/``case`` arms those arrays are set in),
a whole YAML file, or a fenced shell block of a Markdown page. Only a configuration some rule is
concerned by is read closely; the others are left as they are, without complaint, and a file that
mentions no rule's setting is not parsed at all (most of a checkout: that is what makes a pre-commit
check over it fast). Nothing is guessed: a rule refuses, naming the lines, and the file is left as
it was. Only the overrides or YAML entries that change are rewritten; every other byte stays.
Python files (:mod:`.python_imports`) get the fixes' import rules instead: moved imports rewritten
with libcst, the others named.

Hydra (the override grammar), tree-sitter-bash (bash's grammar), libyaml, ruamel.yaml and libcst are
imported only when a file needs them.
"""

from __future__ import annotations

from ..migrate_contract import Options, Refusal
from . import markdown, python_imports, rulebook, shell, yaml_config
from .files import Unreadable, kind_of
from .python_imports import Unmigrated

Refused = Refusal  # what migrate raises when migrating would mean guessing

__all__ = ["Refused", "Unmigrated", "kind_of", "migrate"]


def migrate(text: str, kind: str = "shell", steps=None, *, named: bool = True, release: str | None = None) -> str:
    """``text`` in the new form (unchanged when there is nothing to migrate); raises ``Refused``.

    ``kind`` is what the file is (``kind_of``): ``shell``, ``yaml``, ``markdown``, ``python`` or
    ``other``. A Python file with imports (or settings) left for the user raises :class:`Unmigrated`,
    a ``Refused`` that carries the file with its moved imports rewritten. ``named``: the user named
    the file (it was not found under a directory), so a Python file's strings are read for settings too.
    ``release``: the verl release the file was written for (``--release``): the rules asked by it act.
    """
    if kind == "python":
        return _migrate_python(text, named)
    options = Options(steps, release)
    for rule in rulebook.rules():
        if rule.asked_by is not None and getattr(options, rule.asked_by) is None:
            continue  # a rule the user did not ask for: its file is not even parsed
        with rulebook.pass_of(rule):
            text = _migrate_pass(text, kind, options)
    return text


def _migrate_python(text: str, named: bool) -> str:
    """The fixes' import rules on the imports. In a file the user named, a config rule's setting in
    a string (a launcher in Python that builds overrides) is named too, for the user to migrate by
    hand, as in any file that is not a script, YAML or Markdown; comments and code are not settings.
    Under a directory only the imports are read, as only scripts, YAML and Markdown were before."""
    try:
        new, notes = python_imports.migrate_python(text, rulebook.import_rules())
    except (SyntaxError, ValueError) as error:
        raise Unreadable(f"not Python: {error}") from None
    strings = None
    for rule in rulebook.rules() if named else ():
        if not any(mention in text for mention in rule.mentions):
            continue
        for match in rule.text_setting.finditer(text):
            strings = python_imports.string_spans(text) if strings is None else strings
            if any(start <= match.start() < end for start, end in strings):
                line = text.count("\n", 0, match.start()) + 1
                notes.append((line, f"sets {rule.name} in a Python file: migrate it by hand"))
    if notes:
        raise Unmigrated(new, notes)
    return new


def _migrate_pass(text: str, kind: str, options: Options) -> str:
    if kind == "yaml":
        return yaml_config.migrate_yaml(text, options)
    if not rulebook.mentioned(text):
        return text
    if kind == "markdown":
        return markdown.migrate_page(text, lambda block: _migrate_pass(block, "shell", options))
    if kind == "other":
        for rule in rulebook.active():
            lines = [text.count("\n", 0, match.start()) + 1 for match in rule.text_setting.finditer(text)]
            if lines:
                where = "a file that is not a shell script, YAML or Markdown"
                raise Refused(lines, f"sets {rule.name} in {where}: migrate it by hand")
        return text
    return shell.migrate_script(text, options)
