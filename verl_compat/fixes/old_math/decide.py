"""Which rows of the table act on one composed config, and what each does: the trainer first (it
decides whether the V1 rows hold), then the rest. Pure but for the config it edits and the probes
it asks (is the legacy trainer there, is a module importable).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, Literal

from ... import probes
from ...configs import set_key
from . import releases
from .table import ROWS, TRAINER_ROW, V1_ONLY, Ratio, Row

Action = Literal["set", "kept", "stops", "named", "holds"]
_ABSENT = object()


@dataclasses.dataclass(frozen=True)
class Outcome:
    """One row that holds for a launch, and what verl-compat did about it.

    ``set``: its keys were set (``keys``); ``kept``: it would restore, but the launch sets those keys
    itself (``kept``); ``stops``: the launch stops (``keys``: the values that stop it); ``named``:
    named only; ``holds``: the release is not known, and the row holds for every release the launch
    may be from (nothing done).
    """

    row: Row
    action: Action
    keys: tuple[tuple[str, Any], ...] = ()
    kept: tuple[str, ...] = ()

    def written(self) -> str:
        """The overrides that restore it, as a launch writes them."""
        return " ".join(f"{key}={_said(value)}" for key, value in self.keys)


@dataclasses.dataclass(frozen=True)
class Decision:
    launch: releases.Launch
    trainer: str  # "legacy", "V1", or "" where the installed verl has one trainer
    trainer_why: str
    outcomes: tuple[Outcome, ...]

    @property
    def stops(self) -> tuple[Outcome, ...]:
        return tuple(outcome for outcome in self.outcomes if outcome.action == "stops")


def legacy_trainer() -> bool:
    """The installed verl still ships the legacy trainer ``trainer.use_v1=false`` runs."""
    return probes.find_spec("verl.trainer.main_ppo_v0")


def _said(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def value_of(config, key: str):
    from omegaconf import OmegaConf

    try:
        return OmegaConf.select(config, key, default=_ABSENT, throw_on_resolution_failure=False)
    except Exception:
        return _ABSENT


def _holds(cond, config, set_keys: frozenset[str]) -> bool:
    key, op, expected = cond
    if op in ("set", "unset"):
        sets = any(k == key or k.startswith(key + ".") for k in set_keys)
        return sets if op == "set" else not sets
    if op == "missing_module":
        return not probes.find_spec(key)
    if op == "any":
        return True
    value = value_of(config, key)
    value = None if value is _ABSENT else value
    if op == "==":
        return value is expected if isinstance(expected, bool) or expected is None else value == expected
    if op == "!=":
        return not (value is expected if isinstance(expected, bool) or expected is None else value == expected)
    if op == "in":
        return value in expected
    if op == ">":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and value > expected
    if op == "contains":
        return isinstance(value, str) and expected.lower() in value.lower()
    raise ValueError(f"unknown condition {op!r}")


def holds(row: Row, config, set_keys: frozenset[str]) -> bool:
    return all(_holds(cond, config, set_keys) for cond in row.when)


def _value(value, config):
    if isinstance(value, Ratio):
        return value_of(config, value.numerator) / value_of(config, value.denominator)
    return value


def _restore(row: Row, config, set_keys: frozenset[str]) -> Outcome:
    keys, kept = [], []
    for key, value in row.keys:
        if (key in set_keys and key not in row.reads) or value_of(config, key) is _ABSENT:
            kept.append(key)
            continue
        keys.append((key, _value(value, config)))
    for key, value in keys:
        set_key(config, key, value)
    return Outcome(row, "set" if keys else "kept", tuple(keys), tuple(kept))


def _act(row: Row, config, set_keys: frozenset[str]) -> Outcome:
    if row.fate == "restored":
        return _restore(row, config, set_keys)
    if row.fate == "patched":  # the patch's switch: set even where verl's config lacks the key
        keys = tuple((key, _value(value, config)) for key, value in row.keys if key not in set_keys)
        for key, value in keys:
            set_key(config, key, value)
        return Outcome(row, "set" if keys else "kept", keys, tuple(key for key, _ in row.keys if key in set_keys))
    if row.fate == "stopped":  # named by the values that stop it
        read = tuple(
            (key, value_of(config, key)) for key, op, _ in row.when if op in ("==", "!=", "in", ">", "contains")
        )
        return Outcome(row, "stops", read)
    return Outcome(row, "named")


def _reached(row: Row, launch: releases.Launch) -> bool:
    return releases.version(row.since) <= releases.version(launch.installed)


def _for(row: Row, launch: releases.Launch, every: bool) -> bool:
    """The launch is from a release of the row's range: every release it may be from, or any."""
    inside = [releases.in_range(release, row.written_for) for release in launch.candidates]
    return bool(inside) and (all(inside) if every else any(inside))


def decide(config, launch: releases.Launch, set_keys: Iterable[str]) -> Decision:
    """What the table does to ``config`` (edited in place) for this launch."""
    set_keys = frozenset(set_keys)
    if launch.current:
        return Decision(launch, "", "", ())
    outcomes: list[Outcome] = []
    trainer, why = "", ""
    has_switch = value_of(config, "trainer.use_v1") is not _ABSENT
    if has_switch:
        row = TRAINER_ROW
        if _reached(row, launch) and _for(row, launch, every=False) and holds(row, config, set_keys):
            if legacy_trainer():
                outcomes.append(_restore(row, config, set_keys))
                trainer, why = "legacy", f"written for {launch.said()}: the legacy trainer its release ran (verl#6823)"
            else:
                trainer, why = "V1", "this verl no longer ships the legacy trainer (verl.trainer.main_ppo_v0)"
        elif "trainer.use_v1" in set_keys:
            trainer = "V1" if value_of(config, "trainer.use_v1") else "legacy"
            why = "trainer.use_v1 set by the launch"
        elif value_of(config, "trainer.use_v1"):
            trainer, why = "V1", _v1_why(config, set_keys, launch)
        else:
            trainer, why = "legacy", "the installed verl's default"
    # Every row is judged on the config before any of them sets a key (one row's restore must not
    # make another hold: tool_response_truncate_side left -> right -> left).
    acting = [
        row
        for row in ROWS
        if row is not TRAINER_ROW
        and _reached(row, launch)
        and _for(row, launch, every=row.scope == "release")
        and holds(row, config, set_keys)
    ]
    for row in acting:
        known = launch.known or row.scope == "trainer"
        outcomes.append(_act(row, config, set_keys) if known else Outcome(row, "holds"))
    return Decision(launch, trainer, why, tuple(outcomes))


def _v1_why(config, set_keys: frozenset[str], launch: releases.Launch) -> str:
    if value_of(config, "algorithm.filter_groups.enable") is True:
        return "algorithm.filter_groups.enable=true is a V1-only feature"
    for prefix in V1_ONLY:
        if any(k == prefix or k.startswith(prefix + ".") for k in set_keys):
            return f"the launch sets {prefix}, which only the V1 trainer reads"
    return f"written for {launch.said()}, whose default is the V1 trainer"
