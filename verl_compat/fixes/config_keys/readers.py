"""Whether the installed verl's entry point still calls a function that reads declared keys (a
table row's :class:`.table.Reader`), read from verl's source with :mod:`ast`, without importing
verl: ``verl.trainer.main_ppo`` costs seconds to import, and tools (``verl-compat migrate``) ask
without verl loaded. A feature probe, not a version: verl 0.7.1 and 0.8.0's ``main_ppo.py`` call
``migrate_legacy_reward_impl(config)``; 0.9.0 (verl#6710) no longer does.
"""

from __future__ import annotations

import ast
import functools

from ... import probes


@functools.cache
def calls(entry: str, function: str) -> bool:
    """Whether ``entry`` (a path under verl's package, ``trainer/main_ppo.py``) calls ``function``
    by name anywhere (``f(…)`` or ``module.f(…)``). A file verl no longer ships calls nothing (verl
    0.8.0 deleted ``workers/fsdp_workers.py``); one that cannot be read or parsed counts as calling
    it: the keys are then left to verl, as without verl-compat."""
    package = probes.verl_package_dir()
    if package is None:
        return True
    try:
        tree = ast.parse((package / entry).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False
    except (OSError, SyntaxError, ValueError):
        return True
    return function in called_names(tree)


def called_names(tree: ast.AST) -> set[str]:
    """The names called in ``tree``: ``f`` for ``f(…)`` and ``obj.f(…)``."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                names.add(node.func.id)
            elif isinstance(node.func, ast.Attribute):
                names.add(node.func.attr)
    return names
