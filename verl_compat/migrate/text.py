"""Text helpers every engine shares: splicing edits into a text, lines, and writing values."""

from __future__ import annotations

import re

_BOOLEAN = re.compile(r"[=:][ \t]*(true|false|True|False)\b")


def splice(text: str, edits: list) -> str:
    """Apply ``(start, end, replacement)`` edits; equal starts keep their order in ``edits``."""
    out, position = [], 0
    for start, end, replacement in sorted(edits, key=lambda edit: edit[:2]):
        assert start >= position, "overlapping edits"
        out += [text[position:start], replacement]
        position = end
    return "".join([*out, text[position:]])


def line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def find(text: str, sub: str, start: int) -> int:
    """``str.find`` that answers the end of the text when ``sub`` is not there."""
    index = text.find(sub, start)
    return len(text) if index < 0 else index


def line_end(text: str, index: int) -> int:
    """Just past the newline that ends the line holding ``index`` (the end of a last line)."""
    return min(find(text, "\n", index) + 1, len(text))


def lower_booleans(text: str) -> bool:
    """Whether the file spells its booleans ``true``/``false`` (its first one decides; else ``True``)."""
    match = _BOOLEAN.search(text)
    return bool(match) and match.group(1).islower()


def format_value(value, separator: str, lower: bool = False) -> str:
    """``value`` as an override or a YAML scalar writes it: lists in brackets, booleans in the
    file's spelling."""
    if isinstance(value, bool):
        return str(value).lower() if lower else str(value)
    if isinstance(value, list):
        return "[" + separator.join(format_value(item, separator, lower) for item in value) + "]"
    return str(value)
