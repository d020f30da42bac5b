"""The example outputs of README.md and docs/ (``<!-- generated: NAME -->`` blocks), read with the
functions of ``scripts/update_docs.py``, which writes them: the docs tests and the package tests
compare a tool's output with what the docs show."""

import importlib.util
import re
import sys

from paths import REPO


def _load_update_docs():
    spec = importlib.util.spec_from_file_location("update_docs", REPO / "scripts" / "update_docs.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


update_docs = _load_update_docs()
PYTHON_VERSION = re.compile(r"(?m)^(  python  )\d+\.\d+\.\d+")


def documented(name: str) -> str:
    """The body of block ``name``, from the one file that holds it."""
    found = [update_docs.blocks_in((REPO / file).read_text(encoding="utf-8")).get(name) for file in update_docs.FILES]
    (body,) = [body for body in found if body is not None]
    return body


def comparable(text: str) -> str:
    """The Python patch release differs between machines that build the same environments."""
    return PYTHON_VERSION.sub(r"\g<1>3.x", text)
