"""The installed stack against the table, for the path a run takes: one finding per fact.

Levels, from what is certain to what is merely different:

- ``error``: the run will fail: a module verl imports on this path is not installed, or a version
  check in verl's own code rejects the installed version. Only from the table's ``needs`` and
  ``floors``, only on the row of the installed release, and only where the workers run in this
  environment.
- ``warning``: outside both the declared range and every version verl's CI ran, or a pair on the
  known-bad list. Never an error: verl's own images run above its declared caps.
- ``info``: inside one of the two but not the other (verl's vLLM image above the declared cap; a
  version inside the range that CI never ran).
- ``ok``: inside both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from . import installed, versions
from .model import Declared, Release, Tags
from .path import BACKEND_DISTRIBUTIONS, BACKENDS, RunPath
from .table import KNOWN_BAD, RELEASES

ERROR, WARNING, INFO, OK = "error", "warning", "info", "ok"
LEVELS = (ERROR, WARNING, INFO, OK)


@dataclass(frozen=True)
class Finding:
    """One line: the package, its installed version, what this verl needs or ran, and where verl says so."""

    package: str
    installed: str | None
    level: str
    says: str
    source: str

    def line(self) -> str:
        return f"{self.package} {self.installed or 'not installed'}: {self.says} [{self.source}]"


@dataclass(frozen=True)
class Verdict:
    """The stack judged for one verl and one path. ``row``: the release row used; ``note``: why
    that row where it is not the installed release's own."""

    verl: str | None
    row: str | None
    note: str
    path: RunPath
    findings: tuple[Finding, ...] = field(default_factory=tuple)

    def at(self, level: str) -> list[Finding]:
        return [finding for finding in self.findings if finding.level == level]

    @property
    def errors(self) -> list[Finding]:
        return self.at(ERROR)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["path"] = {**asdict(self.path), "tags": sorted(self.path.tags), "describe": self.path.describe()}
        data["counts"] = {level: len(self.at(level)) for level in LEVELS}
        return data


def row_for(verl: str | None) -> tuple[Release | None, str]:
    """The table row for an installed verl version, and a note where it is not that release's own
    (a ``.dev`` build of main, a release newer than the table)."""
    parsed = versions.parse(verl)
    if parsed is None:
        return None, "verl is not installed" if verl is None else f"verl {verl} is not a PEP 440 version"
    if parsed.dev is None and parsed.pre is None:
        exact = next((row for row in RELEASES if versions.same_build(str(parsed), row.verl)), None)
        if exact is not None:
            return exact, ""
    below = [row for row in RELEASES if versions.before(row.verl, parsed)]
    if not below:
        return None, f"verl {verl} is older than the table (0.4.0)"
    row = below[-1]
    if parsed.dev is not None or parsed.pre is not None:
        return row, f"verl {verl} is a build of main after {row.verl}: its pins may differ from {row.verl}'s"
    return row, f"verl {verl} is newer than the table: judged by {row.verl}'s row"


def judge(verl: str | None, path: RunPath, paths: Sequence[str] | None = None) -> Verdict:
    """The stack installed on ``paths`` (default ``sys.path``) judged for ``verl`` on ``path``."""
    row, note = row_for(verl)
    if row is None:
        return Verdict(verl, None, note, path)
    judged = _Judge(row, path, certain=not note and not path.elsewhere)
    found = installed.versions(sorted(judged.names()), paths)
    return Verdict(verl, row.verl, note, path, tuple(judged.findings(found, verl or row.verl)))


class _Judge:
    def __init__(self, row: Release, path: RunPath, certain: bool) -> None:
        self.row, self.path, self.certain = row, path, certain
        # Where the config names no backend, every backend's ranges are read, none is required.
        self.tags = path.tags | (frozenset(BACKENDS) if path.rollout is None else frozenset())

    def _on_path(self, when: Tags) -> bool:
        return set(when) <= self.tags

    def _required(self, when: Tags) -> bool:
        return set(when) <= self.path.tags

    def _level(self, when: Tags) -> str:
        return ERROR if self.certain and self._required(when) else WARNING

    def _declared(self, package: str) -> list[Declared]:
        """The declared entries for ``package`` on this path; where the config names no backend,
        a backend's extra counts for the backend itself only (not for the torch it pins)."""
        return [
            d
            for d in self.row.declared
            if d.package == package
            and (self._required(d.when) or (self._on_path(d.when) and package in BACKEND_DISTRIBUTIONS))
        ]

    def packages(self) -> list[str]:
        names = [d.package for d in self.row.declared if self._declared(d.package)]
        names += [n.distribution for n in self.row.needs if self._on_path(n.when)]
        names += [f.package for f in self.row.floors if self._on_path(f.when)]
        return list(dict.fromkeys(names))

    def names(self) -> set[str]:
        found = set(self.packages())
        found |= {f.unless for f in self.row.floors if f.unless}
        found |= {kb.package for kb in KNOWN_BAD} | {kb.other for kb in KNOWN_BAD if kb.other}
        return found

    def findings(self, found: dict[str, str | None], verl: str) -> list[Finding]:
        results: list[Finding] = []
        failed: set[str] = set()
        for need in self.row.needs:
            if not self._on_path(need.when) or not self._required(need.when):
                continue
            version = found.get(need.distribution)
            if version is None or (need.provided and not versions.allows(need.provided, version)):
                gone = "not installed" if version is None else f"no longer ships {need.module} (needs {need.provided})"
                says = f"verl {self.row.verl} imports {need.module} on this path, {gone}: {need.fails}"
                results.append(Finding(need.distribution, version, self._level(need.when), says, need.source))
                failed.add(need.distribution)
        for floor in self.row.floors:
            version = found.get(floor.package)
            if not self._on_path(floor.when) or version is None or versions.at_least(version, floor.minimum):
                continue
            says = f"verl {self.row.verl}'s own check needs {floor.package} >= {floor.minimum}: {floor.fails}"
            level = self._level(floor.when)
            if floor.unless and found.get(floor.unless):
                level = WARNING
                says += (
                    f" (verl lets it pass because {floor.unless} is installed; the {floor.package} path still fails)"
                )
            results.append(Finding(floor.package, version, level, says, floor.source))
            failed.add(floor.package)
        for package in self.packages():
            version = found.get(package)
            if version is not None and package not in failed:
                results.append(self._range(package, version))
        results += self._known_bad(found, verl)
        return results

    def _range(self, package: str, version: str) -> Finding:
        declared = [d for d in self._declared(package) if d.spec]
        tested = self.row.tested_versions(package)
        outside = [d for d in declared if not versions.allows(d.spec, version)]
        ran = [
            name
            for value, name in tested
            if (
                versions.allows(value, version) if versions.is_specifier(value) else versions.same_build(version, value)
            )
        ]
        spec = ",".join(dict.fromkeys(d.spec for d in declared)) or "unpinned"
        ci = ", ".join(sorted({value for value, _ in tested}))
        sources = [d.source for d in (outside or declared)] or [d.source for d in self._declared(package)]
        if ran:
            sources.append(f"CI: {ran[0]}")
        elif tested:
            sources.append(f"CI: {tested[0][1]}")
        source = "; ".join(sources) or next(
            (n.source for n in self.row.needs if n.distribution == package), f"verl {self.row.verl}"
        )
        if outside and not ran:
            says = f"outside verl {self.row.verl}'s declared {spec} and not what its CI ran ({ci or 'none recorded'})"
            level = WARNING
        elif outside:
            says = f"outside verl {self.row.verl}'s declared {spec}, but what its CI ran"
            level = INFO
        elif tested and not ran and not declared:
            says = f"not what verl {self.row.verl}'s CI ran ({ci}); verl pins none"
            level = INFO
        elif tested and not ran:
            says = f"inside verl {self.row.verl}'s declared {spec}, but its CI ran {ci}"
            level = INFO
        else:
            if not self._declared(package):
                says = f"imported by verl {self.row.verl}, which pins no version of it"
            else:
                says = f"verl {self.row.verl} declares {spec}"
            says += f"; its CI ran {ci}" if ci else "; no CI version recorded"
            level = OK
        return Finding(package, version, level, says, source)

    def _known_bad(self, found: dict[str, str | None], verl: str) -> list[Finding]:
        results = []
        for bad in KNOWN_BAD:
            version = found.get(bad.package)
            other = found.get(bad.other) if bad.other else None
            if (
                version is None
                or not self._on_path(bad.when)
                or not versions.allows(bad.verl, verl)
                or not versions.allows(bad.spec, version)
                or (bad.other and (other is None or not versions.allows(bad.other_spec, other)))
            ):
                continue
            with_other = f" with {bad.other} {other}" if bad.other else ""
            results.append(Finding(bad.package, version, WARNING, f"known bad{with_other}: {bad.what}", bad.issue))
        return results
