"""Files: what kind a file is, and its text as the engines see it (written back with
:func:`verl_compat.files.write_atomically`).

The engines work on text with ``\\n`` line ends. A file is read as bytes and decoded as UTF-8 with
``surrogateescape``, so a Latin-1 comment or a stray byte survives untouched; its CRLF line ends are
set aside and given back line by line, so every line the edit does not touch comes back byte for
byte, whatever mix of line ends the file has.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path

_YAML_SUFFIXES = (".yaml", ".yml")
_MARKDOWN_SUFFIXES = (".md", ".markdown")
_SHELL_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh")
_PYTHON_SUFFIXES = (".py",)


def kind_of(path: Path, text: str) -> str:
    """``yaml``, ``markdown``, ``python``, ``shell`` (by suffix, or a shebang naming a shell), or
    ``other``."""
    suffix = path.suffix.lower()
    if suffix in _YAML_SUFFIXES:
        return "yaml"
    if suffix in _MARKDOWN_SUFFIXES:
        return "markdown"
    if suffix in _PYTHON_SUFFIXES:
        return "python"
    first_line = text[: text.find("\n")] if text.startswith("#!") else ""
    if suffix in _SHELL_SUFFIXES or re.search(r"\b(ba|z|k|da)?sh\b", first_line):
        return "shell"
    return "other"


_READ_SUFFIXES = (*_YAML_SUFFIXES, *_MARKDOWN_SUFFIXES, *_SHELL_SUFFIXES, *_PYTHON_SUFFIXES)


def walk(directory: Path) -> list[Path]:
    """The files under ``directory`` that migrate reads as scripts, YAML, Markdown or Python
    (``kind_of``), sorted: by suffix, or by a shebang naming a shell (``job.sbatch``, ``train``).
    Hidden directories (``.git``) are skipped, as are symbolic links to directories."""
    found = []
    for root, directories, names in os.walk(directory):
        directories[:] = sorted(name for name in directories if not name.startswith("."))
        for name in sorted(names):
            path = Path(root, name)
            if path.suffix.lower() in _READ_SUFFIXES or _shebang(path):
                found.append(path)
    return found


def _shebang(path: Path) -> bool:
    try:
        with open(path, "rb") as file:
            first = file.read(128)
    except OSError:
        return False
    line = first.split(b"\n", 1)[0].decode("utf-8", "replace")
    return line.startswith("#!") and kind_of(path, line + "\n") == "shell"


def read(path: Path) -> tuple[str, str]:
    """``(raw, text)``: the file decoded (bytes that are not UTF-8 kept as surrogates), and the same
    with ``\\r\\n`` as ``\\n``, which the engines edit."""
    raw = path.read_bytes().decode("utf-8", "surrogateescape")
    return raw, raw.replace("\r\n", "\n")


def restore(raw: str, text: str, new: str) -> str:
    """``new`` (an edit of ``text``, the ``\\n`` form of ``raw``) with ``raw``'s line ends: a line
    the edit kept keeps its own, a new line takes the one of the line it replaces or follows."""
    if "\r\n" not in raw:
        return new
    raw_lines, old_lines, new_lines = raw.split("\n"), text.split("\n"), new.split("\n")
    endings = ["\r\n" if line.endswith("\r") else "\n" for line in raw_lines[:-1]]
    common = max(set(endings), key=endings.count)
    out = []
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, _i2, j1, j2 in matcher.get_opcodes():
        for offset, j in enumerate(range(j1, j2)):
            i = i1 + offset if tag == "equal" else i1 if i1 < len(endings) else i1 - 1
            ending = endings[i] if 0 <= i < len(endings) else common
            out.append(new_lines[j] + ("" if j == len(new_lines) - 1 else ending))
    return "".join(out)


def diff(path: Path, text: str, new: str) -> list[str]:
    """A unified diff with git's ``a/`` and ``b/`` headers (``a/tmp/x.sh`` for ``/tmp/x.sh``)."""
    name = path.as_posix().lstrip("/")
    return list(difflib.unified_diff(_diff_lines(text), _diff_lines(new), f"a/{name}", f"b/{name}"))


def _diff_lines(text: str) -> list[str]:
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    lines = text.splitlines(True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n\\ No newline at end of file\n"
    return lines


class Unreadable(Exception):
    """The file cannot be parsed as what it claims to be (a YAML syntax error)."""
