"""What verl-compat tells the user once per process (per activation): each fix's one deprecation
warning, and each log line about the config it read."""

import logging
import threading
import warnings

logger = logging.getLogger("verl_compat")


class VerlCompatDeprecationWarning(FutureWarning):
    """A legacy verl setting was translated by verl-compat.

    A ``FutureWarning`` rather than a ``DeprecationWarning``: the trainer runs in a Ray actor,
    not in ``__main__``, where Python's default filters hide ``DeprecationWarning`` (PEP 565).
    verl's own ``deprecated()`` helper uses ``FutureWarning`` for the same reason.
    """


_lock = threading.Lock()
_said: set = set()


def _first_time(key) -> bool:
    with _lock:
        if key in _said:
            return False
        _said.add(key)
        return True


def warn_once(key: str, message: str) -> bool:
    """Warn (and log) ``message`` the first time ``key`` is seen; return whether it warned."""
    if not _first_time(("warning", key)):
        return False
    logger.warning(message)
    warnings.warn(message, VerlCompatDeprecationWarning, stacklevel=3)
    return True


def log_once(message: str) -> None:
    """Log ``message`` (a WARNING, no ``warnings`` entry) the first time it is seen."""
    if _first_time(("log", message)):
        logger.warning("%s", message)


def reset() -> None:
    """Forget what was said: a new activation says it afresh."""
    with _lock:
        _said.clear()
