"""Load one snapshot pickle without running code from it.

Unpickling runs code: a pickle may name any importable callable (``os.system`` included) and have
it called while loading. A memory snapshot is a dict of builtins (``torch.cuda.memory._snapshot``
builds it from dicts, lists, tuples, strings, numbers and booleans), and those are pickled by
opcodes that name no callable. So :class:`SnapshotUnpickler` refuses every global and every
persistent id: a snapshot loads, and anything else stops at its first reference to a callable,
before it is called.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any


class SnapshotError(Exception):
    """A file that is not a readable memory snapshot; the message says why, in one line."""


class SnapshotUnpickler(pickle.Unpickler):
    """A pickle loader for builtin containers and scalars only."""

    def find_class(self, module, name):
        raise SnapshotError(
            f"not a memory snapshot: the pickle asks for {module}.{name}, and view loads builtin types only"
        )

    def persistent_load(self, pid):
        raise SnapshotError("not a memory snapshot: the pickle holds a persistent reference")


def load(path: Path) -> dict[str, Any]:
    """The snapshot dict in ``path``; :class:`SnapshotError` for anything else."""
    try:
        with open(path, "rb") as f:
            if not f.read(1):
                raise SnapshotError("empty file")
            f.seek(0)
            data = SnapshotUnpickler(f).load()
    except SnapshotError:
        raise
    except OSError as exc:
        raise SnapshotError(f"cannot read: {exc.strerror or exc}") from None
    except EOFError:
        raise SnapshotError("truncated: the pickle ends early") from None
    except (pickle.UnpicklingError, ValueError, IndexError, KeyError, TypeError, AttributeError) as exc:
        reason = str(exc).rstrip(".")
        if "truncated" in reason:
            raise SnapshotError("truncated: the pickle ends early") from None
        raise SnapshotError(f"not a pickle, or a corrupt one ({reason})") from None
    except MemoryError:
        raise SnapshotError("corrupt: the pickle asks for more memory than there is") from None
    if not isinstance(data, dict) or not isinstance(data.get("segments"), list):
        raise SnapshotError(f"not a memory snapshot: a pickled {type(data).__name__} without 'segments'")
    return data
