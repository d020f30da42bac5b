"""Markdown pages: each fenced shell block is migrated as a script of its own; prose and other
blocks (``diff``, ``yaml``, …) are never read, so an apostrophe in "vLLM's" changes nothing."""

from __future__ import annotations

import re

from ..migrate_contract import Refusal
from .text import line_of, splice

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*\n", re.MULTILINE)
_SHELL_FENCES = ("", "bash", "sh", "shell", "zsh", "console", "shell-session")


def migrate_page(text: str, migrate_block) -> str:
    """``text`` with each shell block replaced by ``migrate_block(block)``; a refusal names the
    lines of the page."""
    edits, position = [], 0
    while (opening := _FENCE.search(text, position)) is not None:
        fence = opening.group(2)
        closing = re.compile(rf"^ {{0,3}}{fence[0]}{{{len(fence)},}}[ \t]*$", re.MULTILINE).search(text, opening.end())
        end = closing.start() if closing else len(text)
        position = closing.end() if closing else len(text)
        if opening.group(3).lower() not in _SHELL_FENCES:
            continue
        block = text[opening.end() : end]
        try:
            new = migrate_block(block)
        except Refusal as refusal:
            offset = line_of(text, opening.end()) - 1
            raise Refusal([line + offset for line in refusal.lines], refusal.message) from None
        if new != block:
            edits.append((opening.end(), end, new))
    return splice(text, edits)
