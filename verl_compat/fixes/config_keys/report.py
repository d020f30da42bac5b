"""config_keys, as ``verl-compat doctor`` shows it: each old key of a launch config and what will
happen to it on this verl (the ``describe`` part of the fix contract, docs/fix_contract.md).

doctor composes the config inside :func:`verl_compat.registry.looking`, so the composition records
its findings (:func:`.findings.findings_for`) instead of warning or stopping: every old key is
listed, those that would stop the launch among them.
"""

from __future__ import annotations

from typing import Any

from ... import registry
from . import translate
from .table import said

NAME = registry.fix_name(__name__)


def fate(finding: translate.Finding, stops: bool) -> str:
    """One line: the key as written and what the launch does with it."""
    row, written = finding.row, f"{finding.key}={finding.value}" if finding.value else finding.key
    change = f"{said(row.fate)} in verl {row.since}, {row.evidence}"
    if finding.conflict is not None:
        return f"{written}: conflicts with {finding.new_key}={finding.conflict} ({change}): stops the launch"
    if row.fate == "defaulted":
        return f"{written} not set -> {finding.replacement} (the old default; {row.evidence})"
    if row.fate == "converted":
        divided = "a global size, divided per GPU as verl 0.7.1's FSDP workers did"
        return f"{written} -> {finding.replacement} ({divided}; {row.evidence})"
    if row.fate == "restored":
        return (
            f"{written} -> the workers' process-group timeout, {finding.replacement} (read by nothing since {change})"
        )
    if row.fate == "added":
        return f"+{written} -> {finding.replacement} (verl has this key now; Hydra refuses to add it again)"
    if row.fate == "dropped" or finding.inert:
        return f"{written}: ignored ({change}): {row.note or 'it has no effect any more'}"
    if row.fate == "removed" and stops:
        return f"{written}: stops the launch ({change}): {row.note}"
    if row.fate == "removed":
        return f"{written}: ignored, {translate.ALLOW_REMOVED}=1 ({change}): {row.note}"
    return f"{written} -> {finding.replacement} ({change})"


def describe(findings: tuple[translate.Finding, ...]) -> dict[str, Any]:
    stops = translate.stopping(findings)
    keys = [
        {
            "key": finding.key,
            "value": finding.value,
            "kind": said(finding.row.fate),  # the word doctor has always shown
            "new_key": finding.new_key,
            "replacement": finding.replacement,
            "since": finding.row.since,
            "evidence": finding.row.evidence,
            "stops": finding in stops,
            "fate": fate(finding, finding in stops),
        }
        for finding in findings
    ]
    return {
        "acts": bool(findings),
        "rows": [(NAME, [key["fate"] for key in keys])] if keys else [],
        "cannot": [key["fate"] for key in keys if key["stops"]],
        "keys": keys,
    }
