"""Hydra compositions as fixes see them: one session per composition and thread, and the arguments
of the ``ConfigLoaderImpl`` functions they wrap, by name.

Every way a verl config is composed (``@hydra.main``, ``--cfg job``, the compose API) goes through
``ConfigLoaderImpl._load_configuration_impl``, which calls the other functions a fix wraps
(``_parse_overrides_and_create_caching_repo``, ``_compose_config_from_defaults_list``,
``_apply_overrides_to_config``). A fix opens a session in its wrapper of the first and reads it in
the others: a stack per thread, because a composition may compose again inside (config_keys
composes verl's own files alone to probe them).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

Session = TypeVar("Session")


class Sessions(Generic[Session]):
    """The open sessions of one fix, innermost last, per thread."""

    def __init__(self, new: Callable[[], Session]) -> None:
        self._new = new
        self._local = threading.local()

    def _stack(self) -> list[Session]:
        stack = getattr(self._local, "stack", None)
        if stack is None:
            stack = self._local.stack = []
        return stack

    @contextlib.contextmanager
    def opened(self) -> Iterator[Session]:
        """A new session for the composition this block runs."""
        session = self._new()
        stack = self._stack()
        stack.append(session)
        try:
            yield session
        finally:
            stack.remove(session)

    def current(self) -> Session | None:
        """The session of the innermost composition running in this thread, if any."""
        stack = self._stack()
        return stack[-1] if stack else None


def defaults_and_repo(defaults: Any, repo: Any) -> tuple[Any, Any]:
    """The arguments of ``_compose_config_from_defaults_list(defaults, repo)``, however passed."""
    return defaults, repo


def overrides_and_cfg(overrides: Any, cfg: Any) -> tuple[Any, Any]:
    """The arguments of ``_apply_overrides_to_config(overrides, cfg)``, however passed."""
    return overrides, cfg
