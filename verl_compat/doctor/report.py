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
    fixes = patching.loaded()
    # verl and its dependencies may print at import; keep stdout for the report (--json).
    with contextlib.redirect_stdout(sys.stderr):
        verl = environment.import_verl()
        if verl["importable"]:
            try:
                probe_values = probe_answers(fixes)
            except Exception as exc:
                probe_error = f"{type(exc).__name__}: {exc}"
            modules = environment.import_targets()
    answer_errors: list[str] = []  # each answer of a fix that does not fit the contract
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
        "fix_rows": {fix.NAME: _rows_of(fix, answer_errors) for fix in fixes} if verl["importable"] else {},
        "config": None,
        "code": None,
    }
    with contextlib.redirect_stdout(sys.stderr):
        report["stack"] = stack_section.collect(versions["verl"], config, probes.verl_config_dir())
    if config is not None:
        report["config"] = {"source": source, "fixes": _ask(fixes, "describe", config, answer_errors)}
    if code is not None:
        report["code"] = {
            "source": code["source"],
            "files": code["files"],
            "unreadable": code["unreadable"],
            "fixes": _ask(fixes, "describe_code", code["imports"], answer_errors),
        }
    if classes:
        report["trainers"] = [
            {"name": name, "fixes": _ask(fixes, "describe_trainer", cls, answer_errors)} for name, cls in classes
        ]
    report["answer_errors"] = answer_errors
    report["problems"] = exits.problems(report)
    report["exit_code"] = exits.exit_code(report["problems"])
    return report


def probe_answers(fixes: list[ModuleType]) -> dict[str, bool]:
    """The core's probes (``probes.PROBES``) and each fix's own (its ``PROBES``), by name: what the
    installed verl can do, as the ``verl probes`` section shows it."""
    asked = [*probes.PROBES, *(probe for fix in fixes for probe in getattr(fix, "PROBES", ()))]
    return {probe.__name__: probe() for probe in asked}


def _ask(fixes: list[ModuleType], hook: str, subject: Any, answer_errors: list[str]) -> dict[str, dict[str, Any]]:
    """Each fix's ``hook(subject)`` (``describe(config)``, ``describe_trainer(cls)``,
    ``describe_code(imports)``: the fix contract), by fix name; a failing one, or one whose answer
    does not fit the contract (:func:`registry.report_errors`: a key missing or misspelled), is
    shown as failed. verl prints at import: stdout is kept for the report."""
    answers = {}
    for fix in fixes:
        if callable(getattr(fix, hook, None)):
            with contextlib.redirect_stdout(sys.stderr):
                answer = registry.run_hook(fix, hook, subject)
            if answer is None:  # the guard logged what it raised
                answer = _failed_entry(f"{fix.NAME}.{hook}() failed (see the log above)")
            elif wrong := _wrong_answer(fix, hook, answer):
                answer_errors.append(wrong)
                answer = _failed_entry(wrong, cannot=False)
            answers[fix.NAME] = answer
    return answers


def _wrong_answer(fix: ModuleType, hook: str, answer: Any) -> str | None:
    """Why ``answer`` does not fit the contract, in one line; None where it does."""
    errors = registry.report_errors(hook, answer)
    return f"{fix.NAME}.{hook}() answers outside the fix contract: {'; '.join(errors)}" if errors else None


def _failed_entry(reason: str, cannot: bool = True) -> dict[str, Any]:
    """The entry of a fix that failed to answer: every key doctor reads, saying so."""
    name = reason.partition(".")[0]
    return {"acts": False, "served": False, "why": reason, "rows": [(name, reason)], "cannot": [reason] * cannot}


def _rows_of(fix: ModuleType, answer_errors: list[str]) -> list[registry.DoctorRow]:
    """A fix's own rows for the "patches" section (``doctor_rows``, optional)."""
    if not callable(getattr(fix, "doctor_rows", None)):
        return []
    rows = registry.run_hook(fix, "doctor_rows")
    if rows is None:  # failed: the guard logged it, and status() counts it
        return []
    if wrong := _wrong_answer(fix, "doctor_rows", rows):
        answer_errors.append(wrong)
        return [(fix.NAME, wrong)]
    return list(rows)
