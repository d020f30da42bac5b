"""The whole doctor report as plain data (what ``--json`` prints): the environment, each fix's
answers, and the problems with the exit status.

doctor knows no fix: it asks every loaded fix the contract's questions (``describe(config)``,
``describe_trainer(cls)``, ``describe_code(imports)``, ``doctor_rows()``; docs/fix_contract.md) and
shows the answers. A fix that fails to answer is shown as failed and counted as a problem, so one broken fix cannot hide
the others or crash doctor.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from .. import patching, probes, registry, status
from . import environment, exits
from . import stack as stack_section


def collect(
    config: Any = None, source: str = "", classes: Sequence[tuple[str, type]] = (), code: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The whole report as plain data (what ``--json`` prints). ``code`` is what ``--code`` read
    (:func:`.code.read`): its imports go to each fix's ``describe_code``."""
    versions = environment.versions()
    probe_values = modules = None
    probe_error = None
    # verl and its dependencies may print at import; keep stdout for the report (--json).
    with contextlib.redirect_stdout(sys.stderr):
        verl = environment.import_verl()
        if verl["importable"]:
            try:
                probe_values = probes.values()
            except Exception as exc:
                probe_error = f"{type(exc).__name__}: {exc}"
            modules = environment.import_targets()
    fixes = patching.loaded()
    report = {
        "versions": versions,
        "python_executable": sys.executable,
        "verl": verl,
        "probes": probe_values,
        "probe_error": probe_error,
        "autoload": environment.autoload(),
        "env": environment.env(),
        "status": status(),
        "target_modules": modules,
        "fix_rows": {fix.NAME: _rows_of(fix) for fix in fixes} if verl["importable"] else {},
        "config": None,
        "code": None,
    }
    with contextlib.redirect_stdout(sys.stderr):
        report["stack"] = stack_section.collect(versions["verl"], config, probes.verl_config_dir())
    if config is not None:
        report["config"] = {"source": source, "fixes": _ask(fixes, "describe", config)}
    if code is not None:
        report["code"] = {
            "source": code["source"],
            "files": code["files"],
            "unreadable": code["unreadable"],
            "fixes": _ask(fixes, "describe_code", code["imports"]),
        }
    if classes:
        report["trainers"] = [{"name": name, "fixes": _ask(fixes, "describe_trainer", cls)} for name, cls in classes]
    report["problems"] = exits.problems(report)
    report["exit_code"] = exits.exit_code(report["problems"])
    return report


def _ask(fixes: list[ModuleType], hook: str, subject: Any) -> dict[str, dict[str, Any]]:
    """Each fix's ``hook(subject)`` (``describe(config)``, ``describe_trainer(cls)``,
    ``describe_code(imports)``: the fix contract), by fix name; a failing one is shown as failed.
    verl prints at import: stdout is kept for the report."""
    answers = {}
    for fix in fixes:
        if callable(getattr(fix, hook, None)):
            with contextlib.redirect_stdout(sys.stderr):
                answer = registry.run_hook(fix, hook, subject)
            answers[fix.NAME] = answer if isinstance(answer, dict) else _failed_entry(fix, hook)
    return answers


def _failed_entry(fix: ModuleType, hook: str) -> dict[str, Any]:
    reason = f"{fix.NAME}.{hook}() failed (see the log above)"
    return {"acts": False, "served": False, "why": reason, "rows": [(fix.NAME, reason)], "cannot": [reason]}


def _rows_of(fix: ModuleType) -> list[tuple[str, Any]]:
    """A fix's own rows for the "patches" section (``doctor_rows``, optional)."""
    rows = registry.run_hook(fix, "doctor_rows") if callable(getattr(fix, "doctor_rows", None)) else None
    return list(rows or [])
