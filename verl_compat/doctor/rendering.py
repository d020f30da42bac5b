"""The report for a person (a compact table, one section per concern) or for a program (``--json``).

Rendering only reads the report :func:`~verl_compat.doctor.report.collect` built: every fact is
in the JSON too, and a fix's own sections are the rows it returned (``rows``), shown as they are,
so a new fix appears here without a line of doctor's own.
"""

from __future__ import annotations

import json
from typing import Any

from .. import _toggles, registry
from .environment import PACKAGES, PLUGIN_GROUP
from .stack import rows as stack_rows

Row = registry.DoctorRow  # (label, a value or a list of values, one per line)


def render_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=2, default=str)


def render(report: dict[str, Any]) -> str:
    """The report as a compact table for a person."""
    versions, verl, autoload = report["versions"], report["verl"], report["autoload"]
    verl_line = versions["verl"] or "not installed"
    if verl["importable"]:
        verl_line += f"  (importable, {verl['path']})"
    elif versions["verl"]:
        verl_line += f"  (fails to import: {verl['error']})"
    lines = _section(
        f"verl-compat {versions['verl-compat']} doctor",
        [
            ("python", f"{versions['python']}  ({report['python_executable']})"),
            ("verl", verl_line),
            *((name, versions[name] or "not installed") for name in PACKAGES[1:]),
        ],
    )
    if report["probes"] is not None:
        lines += _section("verl probes", sorted(report["probes"].items()))
    elif report["probe_error"]:
        lines += _section("verl probes", [("error", report["probe_error"])])

    pth = "not installed"
    if autoload["pth"]:
        pth = f"{autoload['pth']}, active in this interpreter: {_yes(autoload['pth_active'])}"
    eps = [
        f"{ep['name']} = {ep['value']}, loaded by this verl: {_yes(ep['usable'])}" for ep in autoload["entry_points"]
    ]
    loader = " (this verl loads no plugins)" if versions["verl"] and not autoload["verl_loads_plugins"] else ""
    lines += _section(
        "auto-load",
        [
            (".pth", pth),
            (PLUGIN_GROUP, eps or f"not installed{loader}"),
            *((name, "(unset)" if value is None else value) for name, value in report["env"].items()),
            ("routes", ", ".join(autoload["routes"]) or "none"),
        ],
    )
    lines += _render_patches(report)
    if report["config"]:
        lines += _render_plan(report["config"])
    if report.get("code"):
        lines += _render_code(report["code"])
    for trainer in report.get("trainers", ()):
        lines += _render_trainer(trainer)
    if report.get("stack"):
        lines += _section("stack", stack_rows(report["stack"]))
    if report["problems"]:
        lines += _section("problems", [(f"exit {p['exit_code']}", p["reason"]) for p in report["problems"]])
    else:
        lines.append("healthy")
    return "\n".join(lines).rstrip()


def _section(title: str, rows: list[Row]) -> list[str]:
    width = max((len(key) for key, _ in rows), default=0)
    lines = [title]
    for key, value in rows:
        values = value if isinstance(value, list) else [value]
        for i, text in enumerate(values or ["-"]):
            lines.append(f"  {(key if i == 0 else ''):<{width}}  {text}")
    return [*lines, ""]


def _yes(flag: object) -> str:
    return "yes" if flag else "no"


def _render_patches(report: dict[str, Any]) -> list[str]:
    shim = report["status"]
    if shim["disabled"]:
        return _section("patches", [("disabled", f"{_toggles.DISABLE} is set: nothing is patched")])
    if report["target_modules"] is None:
        return _section("patches", [("none", "verl is not importable")])
    rows = []
    for fix, state in shim["fixes"].items():
        if "failed" in state:
            rows.append((fix, f"FAILED to load: {state['failed']}"))
            continue
        skipped = [f"skipped {target}: {reason}" for target, reason in state["skipped"].items()]
        rows.append((fix, [f"patched {target}" for target in state["patched"]] + skipped))
    rows += [(name, f"disabled by {_toggles.DISABLED_FIXES}") for name in shim["disabled_fixes"]]
    for module, state in report["target_modules"].items():
        if state == "absent":
            rows.append(("absent", f"{module} (not in this verl)"))
        elif state != "imported":
            rows.append(("import failed", f"{module}: {state}"))
    for fix_rows in report["fix_rows"].values():
        rows += [tuple(row) for row in fix_rows]
    return _section("patches", rows)


def _render_plan(config: dict[str, Any]) -> list[str]:
    rows = [tuple(row) for entry in config["fixes"].values() for row in entry["rows"]]
    return _section(f"config: {config['source']}", rows)


def _render_code(code: dict[str, Any]) -> list[str]:
    rows = [tuple(row) for entry in code["fixes"].values() for row in entry["rows"]]
    if not code["fixes"]:
        rows.append(("imports", "no fix of this verl-compat reads code"))
    rows += [(entry["file"], f"unreadable, its imports unknown: {entry['error']}") for entry in code["unreadable"]]
    files = len(code["files"])
    return _section(f"code: {code['source']} ({files} file{'s' * (files != 1)})", rows)


def _render_trainer(trainer: dict[str, Any]) -> list[str]:
    rows = [tuple(row) for verdict in trainer["fixes"].values() for row in verdict["rows"]]
    return _section(f"trainer: {trainer['name']}", rows)
