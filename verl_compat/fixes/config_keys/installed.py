"""The installed verl's own trainer configs, as a :class:`.translate.Probe`, for tools that have no
composition at hand (``verl-compat migrate``): composed by Hydra from verl's config folder, found
without importing verl, once per process."""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

from ... import probes
from . import readers, translate
from .table import TRAINER_CONFIGS


@dataclasses.dataclass(frozen=True)
class InstalledProbe:
    """verl's ``ppo_trainer`` and ``ppo_megatron_trainer`` (a key is verl's where either has it), and
    the config-group options its config folder ships."""

    configs: tuple
    folder: Path

    def has_key(self, path: str) -> bool:
        return any(translate.ConfigProbe(config).has_key(path) for config in self.configs)

    def is_free_form(self, path: str) -> bool:
        return any(translate.ConfigProbe(config).is_free_form(path) for config in self.configs)

    def has_option(self, group: str, option: str) -> bool:
        return (self.folder / group / f"{option}.yaml").is_file()

    def calls(self, entry: str, function: str) -> bool:
        return readers.calls(entry, function)


@functools.cache
def probe() -> InstalledProbe | None:
    """None where verl is not installed."""
    folder = probes.verl_config_dir()
    if folder is None or not folder.is_dir():
        return None
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    configs = []
    for name in TRAINER_CONFIGS:
        if (folder / f"{name}.yaml").is_file():
            with initialize_config_dir(config_dir=str(folder), version_base=None):
                configs.append(hydra_compose(name))
    return InstalledProbe(tuple(configs), folder)
