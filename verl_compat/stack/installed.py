"""Installed versions, from distribution metadata only.

Importing vLLM, SGLang, torch or Megatron to ask their version costs seconds and can itself crash
(a CUDA build on a CPU node, an ABI mismatch); their ``*.dist-info/METADATA`` says the same for a
file read. Only the named distributions are looked up (``importlib.metadata`` finds each by its
normalised folder name: ``flash-attn`` is ``flash_attn-…``, ``TransferQueue`` is
``transferqueue-…``), never every distribution of the environment. ``paths`` replaces
``sys.path`` (tests write made-up ``*.dist-info`` folders; doctor could read another environment's
site-packages); the first distribution found wins, as Python's import would.
"""

from __future__ import annotations

import importlib.metadata
import sys
from collections.abc import Iterable, Sequence


def versions(names: Iterable[str], paths: Sequence[str] | None = None) -> dict[str, str | None]:
    """Each distribution name -> its installed version, or None where it is not installed."""
    search = list(sys.path if paths is None else paths)
    return {name: _version(name, search) for name in names}


def _version(name: str, search: list[str]) -> str | None:
    for dist in importlib.metadata.distributions(name=name, path=search):
        version = dist.version
        if version:
            return str(version)
    return None
