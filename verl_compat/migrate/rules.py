"""Where migrate's rules come from: each fix's ``migrate_rules`` module, found by name.

migrate knows no key of its own. For each fix module of the registry it imports
``<fix module>.migrate_rules`` when the fix has one and takes its ``RULES``. A broken rules module
is an error, not a skip: a ``--check`` that silently left a fix's keys alone would pass files it
should not.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util

from .. import registry


def fix_modules() -> tuple:
    """The fix modules of the registry, in its order: the one place migrate reads it."""
    return registry.FIX_MODULES


class RulesError(Exception):
    """A fix's ``migrate_rules`` module cannot be loaded."""


@functools.lru_cache(maxsize=None)
def rules() -> tuple:
    """Every rule of every fix that has a ``migrate_rules`` module; raises :class:`RulesError`."""
    found = []
    for module in fix_modules():
        name = f"{module}.migrate_rules"
        try:
            if hasattr(importlib.import_module(module), "__path__") and importlib.util.find_spec(name):
                found += importlib.import_module(name).RULES
        except Exception as error:
            raise RulesError(f"cannot load the migrate rules of {module} ({type(error).__name__}: {error})") from error
    return tuple(found)


@functools.lru_cache(maxsize=None)
def defaults() -> dict:
    """verl's schema values of the keys the rules read (``Rule.defaults``), all rules together."""
    merged = {}
    for rule in rules():
        merged.update(rule.defaults)
    return merged
