"""The one deprecation warning each fix emits per process (per activation)."""

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
_warned: set = set()


def warn_once(key: str, message: str) -> bool:
    """Warn (and log) ``message`` the first time ``key`` is seen; return whether it warned."""
    with _lock:
        if key in _warned:
            return False
        _warned.add(key)
    logger.warning(message)
    warnings.warn(message, VerlCompatDeprecationWarning, stacklevel=3)
    return True


def reset() -> None:
    """Forget what was warned: a new activation warns afresh."""
    with _lock:
        _warned.clear()
