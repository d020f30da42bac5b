"""What old_math decided in this process (``state()``), and what the compositions made only to look
decided (``describe()``, for doctor). Standard library only: the contract functions read it without
importing Hydra."""

from __future__ import annotations

from typing import Any

decided: list[dict[str, Any]] = []  # one summary per launch composition: release, trainer, rows
looked_at: list[tuple[object, Any]] = []  # (config, decide.Decision) of the compositions made only to look


def record(summary: dict[str, Any]) -> None:
    decided[:] = [*decided[-7:], summary]


def record_look(config, decision) -> None:
    """Keep the last eight: doctor asks about the composition it just made."""
    looked_at[:] = [*looked_at[-7:], (config, decision)]


def decision_for(config):
    """The decision of the composition that returned ``config`` inside ``registry.looking()``."""
    return next((decision for composed, decision in reversed(looked_at) if composed is config), None)


def state() -> dict[str, Any]:
    return {"launches": list(decided)}


def reset() -> None:
    decided.clear()
    looked_at.clear()
