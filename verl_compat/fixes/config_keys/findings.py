"""What config_keys met in this process: the old keys and what each became (``state()``), and what
the compositions made only to look found (``describe()``, for doctor).

Standard library only and kept apart from :mod:`.compose`, which imports Hydra: the fix's contract
functions read it without importing Hydra, and without looking for :mod:`.compose` in
``sys.modules``."""

from __future__ import annotations

from typing import Any

# A translate.Finding each: not imported here, so that loading the fix does not load the table.
Findings = tuple[Any, ...]

seen: dict[str, str] = {}  # old key -> its successor, or what became of it ("dropped", "removed")
looked_at: list[tuple[object, Findings]] = []  # (config, findings) of the compositions made only to look


def record(key: str, fate: str) -> None:
    seen[key] = fate


def record_look(config, findings: Findings) -> None:
    """Keep the last eight: doctor asks about the composition it just made."""
    looked_at[:] = [*looked_at[-7:], (config, findings)]


def findings_for(config) -> Findings:
    """What the composition that returned ``config`` (inside :func:`verl_compat.registry.looking`)
    found, without warning or stopping."""
    return next((found for composed, found in reversed(looked_at) if composed is config), ())


def state() -> dict[str, dict[str, str]]:
    return {"keys": dict(sorted(seen.items()))}


def reset() -> None:
    seen.clear()
    looked_at.clear()
