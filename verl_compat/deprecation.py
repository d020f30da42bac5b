"""What verl-compat tells the user once per process (per activation): each fix's one deprecation
warning, and each log line about the config it read."""

import logging
import sys
import threading
import types
import warnings

logger = logging.getLogger("verl_compat")


class VerlCompatDeprecationWarning(FutureWarning):
    """A legacy verl setting was translated by verl-compat.

    A ``FutureWarning`` rather than a ``DeprecationWarning``: the trainer runs in a Ray actor,
    not in ``__main__``, where Python's default filters hide ``DeprecationWarning`` (PEP 565).
    verl's own ``deprecated()`` helper uses ``FutureWarning`` for the same reason.
    """


_lock = threading.Lock()
_said: set[tuple[str, str]] = set()  # ("warning" | "log", key)


def _first_time(key: tuple[str, str]) -> bool:
    with _lock:
        if key in _said:
            return False
        _said.add(key)
        return True


def warn_once(key: str, message: str, *, at_user_code: bool = False) -> bool:
    """Warn (and log) ``message`` the first time ``key`` is seen; return whether it warned.

    ``at_user_code`` points the warning at the first frame outside verl-compat, wrapt and importlib
    (the user's import line or call) rather than at the caller's caller."""
    if not _first_time(("warning", key)):
        return False
    logger.warning(message)
    warnings.warn(message, VerlCompatDeprecationWarning, stacklevel=_user_level() if at_user_code else 3)
    return True


def _user_level() -> int:
    """The ``stacklevel`` of the first frame above ``warn_once`` outside verl-compat, wrapt and
    importlib. ``warnings`` skips importlib's bootstrap frames as it counts: they are not counted."""
    level = 2
    frame: types.FrameType | None = sys._getframe(2)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not ("importlib" in filename and "_bootstrap" in filename):
            if frame.f_globals.get("__name__", "").partition(".")[0] not in ("verl_compat", "wrapt", "importlib"):
                return level
            level += 1
        frame = frame.f_back
    return 3


def log_once(message: str) -> None:
    """Log ``message`` (a WARNING, no ``warnings`` entry) the first time it is seen."""
    if _first_time(("log", message)):
        logger.warning("%s", message)


def reset() -> None:
    """Forget what was said: a new activation says it afresh."""
    with _lock:
        _said.clear()
