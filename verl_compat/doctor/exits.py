"""doctor's exit policy: each problem found in a report, and the exit status it gives.

doctor is a CI check, so its exit status must say what kind of problem stops the shim, and one
code must win when several apply: the lowest (docs/doctor.md lists them). Among problems of one
code, the first found is the one-line reason printed last on stderr, so a config's own problems
are looked at before the environment's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .. import _toggles
from ..probes import EXTERNAL_MODULES
from .environment import PLUGIN_GROUP, PTH_FILE

HEALTHY = 0
BAD_INPUT = 2  # argparse's own usage errors exit 2 too
NO_VERL = 3
VERL_LACKS = 4
SHIM_OFF = 5
NOT_REACHED = 6
TRAINER_NOT_SERVED = 7
STACK_FAILS = 8


def problems(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Each thing in ``report`` that would stop the shim from working, lowest exit code first."""
    return sorted(_found(report), key=lambda problem: problem["exit_code"])


def exit_code(found: list[dict[str, Any]]) -> int:
    """The exit status for ``problems(report)``: the lowest code, or 0."""
    return found[0]["exit_code"] if found else HEALTHY


def _found(report: dict[str, Any]) -> Iterator[dict[str, Any]]:
    verl = report["verl"]
    if report["versions"]["verl"] is None and not verl["importable"]:
        yield _problem(NO_VERL, f"verl is not installed for {report['python_executable']}")
    elif not verl["importable"]:
        yield _problem(NO_VERL, f"verl fails to import: {verl['error']}")
    if report["probe_error"]:
        yield _problem(VERL_LACKS, f"a verl feature probe fails: {report['probe_error']}")
    shim = report["status"]
    for subject in ("config", "code"):
        for name, entry in (report.get(subject) or {}).get("fixes", {}).items():
            if entry["acts"] and shim["disabled"]:
                yield _problem(SHIM_OFF, f"the {subject} needs verl-compat, but {_toggles.DISABLE} turns it off")
            elif entry["acts"] and name in shim["disabled_fixes"]:
                yield _problem(SHIM_OFF, f"the {subject} needs {name}, but {_toggles.DISABLED_FIXES} turns it off")
            else:
                for reason in entry["cannot"]:
                    yield _problem(VERL_LACKS, reason)
    for reason in report["answer_errors"]:
        yield _problem(VERL_LACKS, reason)
    for module, state in (report["target_modules"] or {}).items():
        if state.startswith("import failed"):
            yield _problem(VERL_LACKS, f"cannot patch {module}: {state}")
    for fix, state in shim["fixes"].items():
        if "failed" in state:
            reason = f"the {fix} fix cannot be loaded, verl-compat runs without it: {state['failed']}"
            yield _problem(VERL_LACKS, reason)
        for target, reason in state["skipped"].items():
            yield _problem(VERL_LACKS, f"{fix} cannot patch {target}: {reason}")
        for where, count in state["errors"].items():
            yield _problem(VERL_LACKS, f"{fix} failed {count}x in {where} (see the log above)")
    for trainer in report.get("trainers", ()):
        for fix, verdict in trainer["fixes"].items():
            if fix in shim["disabled_fixes"] or shim["disabled"]:
                yield _problem(SHIM_OFF, f"{trainer['name']}: {fix} is turned off in this environment")
            elif not verdict["served"]:
                yield _problem(TRAINER_NOT_SERVED, f"{fix} does not serve {trainer['name']}: {verdict['why']}")
    for finding in (report.get("stack") or {}).get("findings", ()):
        if finding["level"] == "error":
            what = f"{finding['package']} {finding['installed'] or 'not installed'}: {finding['says']}"
            yield _problem(STACK_FAILS, f"the run will fail on this stack: {what} [{finding['source']}]")
    if not report["autoload"]["routes"]:
        yield _problem(
            NOT_REACHED,
            f"verl-compat will not reach verl's trainer process: no active {PTH_FILE}, no usable "
            f"{PLUGIN_GROUP} entry point, and {EXTERNAL_MODULES} does not name verl_compat",
        )


def _problem(code: int, reason: str) -> dict[str, Any]:
    return {"exit_code": code, "reason": reason}
