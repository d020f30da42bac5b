"""The release a launch was written for: declared, or inferred from the keys it sets.

Declared: ``VERL_COMPAT_LAUNCH_RELEASE=<version>`` in the environment (a pinned image sets it once),
or ``verl_compat.launch_release=<version>`` among the launch's overrides (``+`` or not), which the
composition consumes: verl never sees it. The override wins over the environment.

Inferred: the releases older than the installed verl on whose schema every key the launch
overrides composes as written (``key=`` needs the key, ``+key=`` its absence, ``~key`` the key),
from ``release_keys.json``: each release's composed ``ppo_trainer`` and ``ppo_megatron_trainer``
key sets, generated from verl's history by ``scripts/old_math_release_keys.py``.

Where the installed verl stands among those releases is a probe, never its version string: the
release whose key set is closest to the config the installed verl just composed.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
from collections.abc import Iterable
from pathlib import Path

DECLARE_ENV = "VERL_COMPAT_LAUNCH_RELEASE"
DECLARE_KEY = "verl_compat.launch_release"
_DATA = Path(__file__).with_name("release_keys.json")
_CONFIGS = ("ppo_trainer", "ppo_megatron_trainer")


@functools.cache
def _data() -> dict:
    return json.loads(_DATA.read_text(encoding="utf-8"))


def releases() -> tuple[str, ...]:
    """The releases of the data, oldest first."""
    return tuple(_data()["releases"])


def version(release: str) -> tuple[int, ...]:
    """``"0.6.1"`` -> ``(0, 6, 1)``: the order of the data's releases and of a declared one."""
    return tuple(int(part) for part in release.split(".") if part.isdigit())


def in_range(release: str, written_for: str) -> bool:
    """Whether ``release`` is in ``"first..last"``."""
    first, _, last = written_for.partition("..")
    return version(first) <= version(release) <= version(last or first)


def _config(name: str) -> dict:
    return _data()["configs"][name if name in _CONFIGS else "ppo_trainer"]


def _has(config: dict, key: str, index: int) -> bool:
    flags = config["keys"].get(key)
    return flags is not None and flags[index] == "1"


@functools.cache
def _installed_index(config_name: str, composed: frozenset[str]) -> int:
    config = _config(config_name)
    best, best_score = 0, -1.0
    for index in range(len(releases())):
        keys = {key for key, flags in config["keys"].items() if flags[index] == "1"}
        score = len(keys & composed) / len(keys | composed)
        if score >= best_score:
            best, best_score = index, score
    return best


def installed(config_name: str, composed_keys: Iterable[str]) -> str:
    """The release the installed verl is: the one whose key set is closest to ``composed_keys``,
    the paths of a config the installed verl composed."""
    return releases()[_installed_index(config_name, frozenset(composed_keys))]


def composes_on(override: str, config_name: str, release: str) -> bool:
    """Whether one override line composes as written on ``release``'s schema."""
    key, prefix = parse_key(override)
    if not key or prefix == "++" or key == "hydra" or key.startswith("hydra."):
        return True  # Hydra's own settings (doctor's search path for a config file) are no release's keys
    config, index = _config(config_name), releases().index(release)
    has = _has(config, key, index)
    return not has if prefix == "+" else has


def parse_key(override: str) -> tuple[str, str]:
    """``(key, prefix)`` of an override line: ``"+a.b=1"`` -> ``("a.b", "+")``."""
    line = override.strip()
    prefix = "++" if line.startswith("++") else line[:1] if line[:1] in "+~" else ""
    key = line[len(prefix) :].split("=", 1)[0].strip()
    return key, prefix


def is_declaration(override: str) -> bool:
    return parse_key(override)[0] == DECLARE_KEY


def declared_value(override: str) -> str:
    return override.split("=", 1)[1].strip().strip("'\"") if "=" in override else ""


@dataclasses.dataclass(frozen=True)
class Launch:
    """What verl-compat knows of the release a launch was written for."""

    installed: str  # the release the installed verl is (probed)
    candidates: tuple[str, ...]  # the releases it may be from; one when known; empty when the installed one
    source: str  # where it came from: the declaration, or "inferred from the keys it sets"
    declared: str | None = None

    @property
    def known(self) -> bool:
        return len(self.candidates) == 1

    @property
    def current(self) -> bool:
        """Written for the installed release (or a later one): nothing is touched."""
        return not self.candidates

    def said(self) -> str:
        if self.current:
            return f"{self.declared or self.installed}, the installed release ({self.source})"
        if self.known:
            return f"{self.candidates[0]} ({self.source})"
        return f"{self.candidates[0]}–{self.candidates[-1]} ({self.source})"


def launch(config_name: str, composed_keys: Iterable[str], overrides: list[str], declared: str | None) -> Launch:
    """The release of a launch that overrides ``overrides``, declared by the override (``declared``)
    or the environment, else inferred."""
    here = installed(config_name, composed_keys)
    source = f"declared by {DECLARE_KEY}"
    if declared is None and os.environ.get(DECLARE_ENV):
        declared, source = os.environ[DECLARE_ENV].strip(), f"declared by {DECLARE_ENV}"
    older = [release for release in releases() if version(release) < version(here)]
    if declared is not None:
        if version(declared) >= version(here):
            return Launch(here, (), source, declared)
        # a patch release the data lacks is its line's nearest earlier release
        return Launch(
            here,
            (max((r for r in older if version(r) <= version(declared)), key=version, default=older[0]),),
            source,
            declared,
        )
    fits = tuple(r for r in older if all(composes_on(line, config_name, r) for line in overrides))
    if not fits:
        return Launch(here, (), "no older release composes every key it sets")
    return Launch(here, fits, "inferred from the keys it sets")
