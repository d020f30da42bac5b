"""old_math, as ``verl-compat doctor`` shows it: the release the launch was written for and where
that came from, the trainer and why, and each row of the table that applies (the ``describe`` part
of the fix contract, docs/fix_contract.md).

doctor composes the config inside :func:`verl_compat.registry.looking`: the composition records its
decision (:func:`.findings.decision_for`) instead of warning or stopping, so every stop is listed.
"""

from __future__ import annotations

from typing import Any

from ... import registry
from . import messages

NAME = registry.fix_name(__name__)


def describe(decision) -> dict[str, Any]:
    if decision is None:
        return {"acts": False, "rows": [], "cannot": [], "release": None, "trainer": None, "math": []}
    launch = decision.launch
    math = [
        {
            "row": outcome.row.name,
            "verl_prs": list(outcome.row.prs),
            "evidence": outcome.row.evidence,
            "since": outcome.row.since,
            "fate": outcome.row.fate,
            "done": outcome.action,
            "keys": dict(outcome.keys),
            "what": messages.line(outcome),
        }
        for outcome in decision.outcomes
    ]
    rows: list[registry.DoctorRow] = [(f"{NAME} release", launch.said())]
    if decision.trainer:
        rows.append(
            ("trainer.use_v1", f"{decision.trainer == 'V1'}: the {decision.trainer} trainer, {decision.trainer_why}")
        )
    if math:
        rows.append((NAME, [entry["what"] for entry in math]))
    return {
        "acts": any(outcome.action in ("set", "stops") for outcome in decision.outcomes),
        "rows": rows,
        "cannot": [messages.line(outcome) for outcome in decision.stops],
        "release": {
            "written_for": list(launch.candidates),
            "installed": launch.installed,
            "source": launch.source,
            "declared": launch.declared,
        },
        "trainer": {"trainer": decision.trainer, "why": decision.trainer_why} if decision.trainer else None,
        "math": math,
    }
