"""The user's config as verl would compose it: Hydra's own compose API over verl's ``ppo_trainer``.

doctor must judge the config the launch will get, not an approximation of it, so the override
grammar and the merge rules are Hydra's and the base is the installed release's
``verl/trainer/config/ppo_trainer.yaml``. It composes inside ``registry.looking()``: a fix that
would stop the launch (a removed key) records why, for its ``describe``, instead of raising. An
input that cannot be composed is :class:`BadInput`, reported before verl is imported, as Hydra's
own command line would.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from .. import registry

_USER_GROUP = "verl_compat_user"  # the config group a --config overlay is composed under


class BadInput(Exception):
    """The overrides or ``--config`` file cannot be composed into a verl config."""


def compose(config_dir: Path, overrides: list[str], config_file: str | None = None) -> Any:
    """verl's ``ppo_trainer`` config with ``config_file`` merged over it and ``overrides`` applied,
    composed by Hydra itself so that override grammar and merge rules are exactly verl's.

    An overlay (or a full config) becomes a config group option appended after verl's own
    defaults, so it wins over them while the command-line overrides still win over it. A file
    with its own ``defaults`` list (a recipe built on ``ppo_trainer``) is composed as the primary
    config, with verl's config folder added to its search path.
    """
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.errors import HydraException
    from omegaconf import DictConfig, OmegaConf
    from omegaconf.errors import OmegaConfBaseException
    from yaml import YAMLError

    def _compose(primary_dir: Path, name: str, extra: list[str]) -> Any:
        with initialize_config_dir(config_dir=str(primary_dir), version_base=None):
            return hydra_compose(name, overrides=[*extra, *overrides])

    try:
        if config_file is None:
            return _compose(config_dir, "ppo_trainer", [])
        path = Path(config_file).resolve()
        user = OmegaConf.load(path)
        if not isinstance(user, DictConfig):
            raise BadInput(f"{config_file}: not a YAML mapping")
        if "defaults" in user:
            search = [*(OmegaConf.select(user, "hydra.searchpath") or []), f"file://{config_dir}"]
            quoted = ",".join(f"'{entry}'" for entry in search)
            return _compose(path.parent, path.stem, [f"hydra.searchpath=[{quoted}]"])
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, _USER_GROUP).mkdir()
            shutil.copyfile(path, Path(tmp, _USER_GROUP, "config.yaml"))
            overlay = [f"hydra.searchpath=['file://{tmp}']", f"+{_USER_GROUP}@_global_=config"]
            return _compose(config_dir, "ppo_trainer", overlay)
    except (HydraException, OmegaConfBaseException, YAMLError, OSError) as exc:
        raise BadInput(f"cannot compose the config: {_message(exc)}") from exc


def _message(exc: Exception) -> str:
    """The first line of a Hydra or OmegaConf error's message (their type names tell a user nothing)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def read_config(config_dir: Path, overrides: list[str], config_file: str | None) -> Any:
    """The composed config, checked to resolve, before verl is imported."""
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    with registry.looking():  # a fix that would stop the launch records why, for its describe()
        config = compose(config_dir, overrides, config_file)
    try:
        OmegaConf.to_container(config, resolve=True)
    except OmegaConfBaseException as exc:
        raise BadInput(f"the config does not resolve: {_message(exc)}") from exc
    return config


def describe_source(overrides: list[str], config_file: str | None) -> str:
    """Where the config came from, as the report's ``config: …`` heading says it."""
    parts = ["verl's ppo_trainer.yaml"]
    if config_file:
        parts.append(config_file)
    if overrides:
        parts.append(f"{len(overrides)} override{'s' * (len(overrides) != 1)}")
    return " + ".join(parts)
