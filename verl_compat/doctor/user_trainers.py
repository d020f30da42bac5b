"""``--trainer MODULE:CLASS``: a trainer class of the user's own, imported as verl would import it.

A recipe's trainer lives in the user's code, which doctor cannot guess: the user names it, and
doctor imports it with verl-compat active, as a launcher or the TaskRunner actor would, so the
fixes' ``describe_trainer`` sees the class the run will build. Anything the user's module raises
is the answer (:class:`BadInput`, exit 2), in one line.
"""

from __future__ import annotations

import contextlib
import importlib
import sys

from .. import registry
from .config import BadInput


def import_trainer(name: str) -> type:
    """The class named ``module:Class`` (or ``module.Class``), imported with verl-compat active, as
    a launcher or the TaskRunner actor would import it."""
    module_name, sep, qualname = name.partition(":")
    if not sep:
        module_name, _, qualname = name.rpartition(".")
    if not module_name or not qualname:
        raise BadInput(f"--trainer {name}: expected MODULE:CLASS")
    try:
        with contextlib.redirect_stdout(sys.stderr):  # verl prints at import: stdout is the report's
            owner = importlib.import_module(module_name)
        for part in qualname.split("."):
            owner = getattr(owner, part)
    except Exception as exc:  # the user's module: anything it raises is the answer
        raise BadInput(f"cannot import {name}: {registry.first_line(exc)}") from None
    if not isinstance(owner, type):
        raise BadInput(f"--trainer {name}: not a class")
    return owner
