"""Writing a file the tools produce or rewrite (a migrated launch script, a ``view`` page) in one
step: a crash, a full disk or Ctrl-C leaves the old file or the new one, never half of either.

Standard library only.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8; surrogate escapes written back as the bytes they
    stand for) in one step: a temporary file in the same folder, then ``os.replace``. A symbolic
    link is written through, so the link stays a link; an existing file keeps its mode, a new one
    gets the mode ``open()`` would give it (not ``mkstemp``'s 0600); missing folders are made."""
    path = Path(os.path.realpath(path))
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
        path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(text.encode("utf-8", "surrogateescape"))
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _umask() -> int:
    """The process's umask (read by setting it, then putting it back)."""
    umask = os.umask(0)
    os.umask(umask)
    return umask
