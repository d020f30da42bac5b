"""The shapes of the stack table: what one verl release says about its dependencies, and where.

A release row keeps apart what verl *declares* (its wheel's ``Requires-Dist``: ``setup.py``
``install_requires`` and extras), what its *CI ran* (the images and install steps of its workflows
at the tag: most install verl itself with ``pip install --no-deps``, so the two differ), what its
*code enforces* (a version check that raises) and what its code *imports* on a path. Only the last
two can make a run certainly fail; they are errors. The first two are not: verl's own images run
outside its declared ranges in most releases.

Each entry names its source in verl's own files (``v0.9.0 setup.py:55``), and applies on a path:
``when`` holds tags of the run's path (:class:`~verl_compat.stack.path.RunPath`: the rollout
backend ``vllm``/``sglang``/``trtllm``, the strategy ``fsdp``/``megatron``, the trainer ``v1``),
all of which must hold; an empty ``when`` is every path.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Tags = tuple[str, ...]


@dataclass(frozen=True)
class Declared:
    """A requirement in the release's wheel metadata (``spec`` empty: named but unpinned)."""

    package: str
    spec: str
    source: str
    when: Tags = ()


@dataclass(frozen=True)
class Stack:
    """One stack verl's CI ran for the release: an image (its Dockerfile at the tag) plus the
    workflow's own install steps. ``versions``: distribution -> version as pinned there."""

    name: str
    source: str
    backend: str
    versions: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Tested:
    """Versions verl's CI ran besides its images (a test matrix), as versions or ranges."""

    package: str
    versions: Tags
    source: str


@dataclass(frozen=True)
class Floor:
    """A version check in verl's own code that fails the run: ``installed >= minimum`` compared as
    verl compares (``packaging.version.parse``). ``unless``: a distribution whose presence lets the
    check pass anyway (verl's vLLM gate accepts any vLLM when SGLang is importable)."""

    package: str
    minimum: str
    source: str
    fails: str
    when: Tags = ()
    unless: str = ""


@dataclass(frozen=True)
class Needs:
    """A module verl imports unconditionally on a path, from ``distribution``; ``provided``: the
    versions of it that still ship the module (``setuptools<82`` for ``pkg_resources``)."""

    module: str
    distribution: str
    source: str
    fails: str
    when: Tags = ()
    provided: str = ""


@dataclass(frozen=True)
class KnownBad:
    """A pair reported broken that no range of verl's expresses, with the report."""

    package: str
    spec: str
    verl: str
    issue: str
    what: str
    when: Tags = ()
    other: str = ""
    other_spec: str = ""


@dataclass(frozen=True)
class Release:
    """What one verl release says about its stack (``ref``: the tag, or the wheel)."""

    verl: str
    ref: str
    declared: tuple[Declared, ...]
    stacks: tuple[Stack, ...] = ()
    tested: tuple[Tested, ...] = ()
    floors: tuple[Floor, ...] = ()
    needs: tuple[Needs, ...] = ()

    def tested_versions(self, package: str) -> list[tuple[str, str]]:
        """``(version or range, source)`` for each stack and test matrix entry that ran ``package``."""
        found = [(s.versions[package], s.name) for s in self.stacks if package in s.versions]
        found += [(v, t.source) for t in self.tested if t.package == package for v in t.versions]
        return found
