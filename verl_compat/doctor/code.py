"""``--code PATH…``: the verl imports of the user's own code (a recipe trainer, a custom worker, a
reward function), read with ``ast`` and never imported, for the fixes' ``describe_code``.

A path is a ``.py`` file or a folder (every ``.py`` file below it; hidden folders and
``__pycache__`` skipped). The reward function a config names (``custom_reward_function.path``, and
``reward.custom_reward_function.path`` where the release has it) is read too. A path that does not
exist is :class:`BadInput`; a file that is not Python (a syntax error) is listed as unreadable, and
its imports are unknown.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .. import configs, source_imports
from .config import BadInput

# verl's keys for a user's reward function file (reward.… from verl 0.9 on).
REWARD_FUNCTION_KEYS = ("custom_reward_function.path", "reward.custom_reward_function.path")
PACKAGES = ("verl",)


def python_files(path: Path) -> list[Path]:
    """``path`` itself, or every ``.py`` file under it, sorted."""
    if not path.is_dir():
        return [path]
    found = []
    for root, folders, names in os.walk(path):
        folders[:] = sorted(name for name in folders if not name.startswith(".") and name != "__pycache__")
        found += [Path(root, name) for name in sorted(names) if name.endswith(".py")]
    return found


def reward_function_paths(config: Any) -> list[tuple[str, str]]:
    """``(key, path)`` for each reward function file the config names (verl's ``file://`` prefix
    taken off; a ``pkg://`` module is an installed package's, not read)."""
    found: list[tuple[str, str]] = []
    for key in REWARD_FUNCTION_KEYS:
        value = configs.select(config, key) if config is not None else None
        if not isinstance(value, str) or not value or value.startswith("pkg://"):
            continue
        value = value.removeprefix("file://")
        if value not in (path for _, path in found):
            found.append((key, value))
    return found


def _imports(file: Path) -> list | str:
    """The verl imports of ``file``, or why it cannot be read."""
    try:
        return source_imports.imports_of(file.read_text(encoding="utf-8"), str(file), PACKAGES)
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError) as exc:
        return " ".join(f"{type(exc).__name__}: {exc}".split())


def read(paths: list[str], config: Any = None) -> dict[str, Any] | None:
    """The files, their verl imports and the ones that cannot be read; None where nothing is asked."""
    named = [(path, None) for path in paths] + [(path, key) for key, path in reward_function_paths(config)]
    if not named:
        return None
    files: list[Path] = []
    for path, key in named:
        if not Path(path).exists():
            raise BadInput(f"{key + ' ' if key else '--code '}{path}: no such file or folder")
        files += [found for found in python_files(Path(path)) if found not in files]
    imports, unreadable = [], []
    for file in files:
        found = _imports(file)
        if isinstance(found, str):
            unreadable.append({"file": str(file), "error": found})
        else:
            imports += found
    sources = [f"{key} {path}" if key else path for path, key in named]
    return {
        "source": ", ".join(sources),
        "files": [str(file) for file in files],
        "unreadable": unreadable,
        "imports": imports,
    }
