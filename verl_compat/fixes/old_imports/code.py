"""old_imports, as ``verl-compat doctor --code`` shows a user's code: what each verl import of it comes
to on the installed verl, read from verl's files (:mod:`.installed`) and the table (:func:`.resolve.fate`),
never importing either.

An import resolves, is moved (verl-compat gives the very object, with a warning; the row says the import
to write), is backported (a removed function verl-compat serves as it was: :mod:`.backports`), imports as
a stub (a removed module that still has moved names), fails with verl-compat's
error (replaced or removed: the message says what to do), or is missing and unknown to the table (it
fails as it would without verl-compat). An import that fails is a problem (``cannot``) unless a ``try``
around it catches the error: old code that falls back on purpose.
"""

from __future__ import annotations

import collections
from typing import Any

from ... import registry
from . import backports, installed, resolve

NAME = registry.fix_name(__name__)
FAILS = ("replaced", "removed", "missing")


def describe(imports: list[registry.CodeImport]) -> dict[str, Any]:
    entries = [_entry(found) for found in imports]
    counts = collections.Counter(entry["fate"] for entry in entries)
    kinds = ("resolves", "moved", "backported", "stub", *FAILS)
    summary = ", ".join(f"{counts[fate]} {fate}" for fate in kinds if counts[fate])
    rows: list[tuple[str, Any]] = [(NAME, f"{len(entries)} verl imports: {summary or 'none'}")]
    rows += [(f"{entry['file']}:{entry['line']}", _lines(entry)) for entry in entries]
    cannot = [
        f"{entry['file']}:{entry['line']}: {entry['statement']} fails: {entry['message'].splitlines()[0]}"
        for entry in entries
        if entry["fails"] and not entry["guarded"]
    ]
    return {
        "acts": any(entry["fate"] in ("moved", "backported", "stub") for entry in entries),
        "rows": rows,
        "cannot": cannot,
        "imports": entries,
    }


def _statement(module: str, name: str | None) -> str:
    return f"import {module}" if name is None else f"from {module} import {name}"


def _entry(found: registry.CodeImport) -> dict[str, Any]:
    name = None if found.name == "*" else found.name
    fate = resolve.fate(found.module, name, installed.has)
    path = found.module if name is None else f"{found.module}:{name}"
    entry = {**found._asdict(), "statement": _statement(found.module, found.name)}
    if fate is None:
        kind, message = "resolves", ""
        if not installed.has(path):
            kind = "missing"
            message = (
                f"{resolve.dotted(path)} is not in this verl, and verl-compat's table does not know it: the import "
                "fails as it would without verl-compat"
            )
        entry.update(fate=kind, target=None, instead=None, message=message)
    elif fate.path in backports.BACKPORTS:
        entry.update(
            fate="backported",
            target=None,
            instead=None,
            message=backports.message(fate.dotted, fate.row.since, fate.row.evidence),
        )
    else:
        entry.update(
            fate=fate.kind,
            target=resolve.dotted(fate.target) or None,
            instead=fate.instead() if fate.kind == "moved" else None,
            message=fate.message(),
        )
    entry["fails"] = entry["fate"] in FAILS
    return entry


def _lines(entry: dict[str, Any]) -> list[str]:
    head = f"{entry['statement']}: {entry['fate']}" + (" (in a function)" if entry["scope"] == "function" else "")
    if entry["fate"] == "resolves":
        return [head]
    if entry["fate"] == "moved":
        return [f"{head}: verl-compat gives {entry['target']}, with a warning", f"write instead: {entry['instead']}"]
    if entry["fate"] == "backported":
        return [f"{head}: verl-compat gives the old function, with a warning", *entry["message"].splitlines()]
    if entry["fate"] == "stub":
        return [f"{head}: verl-compat gives an empty module whose moved names resolve", entry["message"]]
    if entry["guarded"]:
        fails = "fails, and its try block's except clause runs"
    else:
        fails = "fails when the function runs" if entry["scope"] == "function" else "fails at import"
    return [f"{head}: {fails}", *entry["message"].splitlines()]
