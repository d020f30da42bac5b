"""The launch-time check: one line, before Ray starts, where the run will certainly fail.

``propagation`` calls :func:`check` from its ``run_ppo`` wrapper in the launcher, before verl's own
``ray.init``: a missing TransferQueue or a vLLM below verl's own gate otherwise shows as a traceback
inside a Ray actor, after the cluster, the model and the data are loaded. Only errors are said here
(mere differences are doctor's), once per process, and nothing where the workers may run in another
environment. ``VERL_COMPAT_STACK_CHECK=0`` turns it off. It never stops the launch: verl's own error
still comes, this line only comes first.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Any

from . import installed
from .findings import Verdict, judge
from .path import of_config

ENV = "VERL_COMPAT_STACK_CHECK"
_OFF = ("0", "false", "no", "off")

logger = logging.getLogger("verl_compat")
_said: dict[str, bool] = {"done": False}


def enabled() -> bool:
    return os.environ.get(ENV, "1").strip().lower() not in _OFF


def verdict(config: Any, paths: Sequence[str] | None = None) -> Verdict:
    """The stack on ``paths`` (this interpreter's ``sys.path`` by default) judged for the verl
    installed there and ``config``'s path."""
    return judge(installed.versions(["verl"], paths)["verl"], of_config(config), paths)


def check(config: Any, paths: Sequence[str] | None = None) -> str | None:
    """Log the one line for the certain failures of ``config``'s run (once per process); the line,
    or None where there is nothing certain to say, it was said already, or the check is off."""
    if _said["done"] or not enabled():
        return None
    errors = verdict(config, paths).errors
    if not errors:
        return None
    _said["done"] = True
    what = "; ".join(f"{e.package} {e.installed or 'missing'}: {e.says} [{e.source}]" for e in errors)
    line = (
        f"verl-compat: this run will fail on this environment's stack: {what}. "
        f"`verl-compat doctor` shows the whole stack; {ENV}=0 turns this check off"
    )
    logger.error(line)
    return line


def reset() -> None:
    """Forget that the line was said (deactivate, tests)."""
    _said["done"] = False
