"""Reading and editing a verl config, whatever holds it: an OmegaConf ``DictConfig`` (what Hydra
composes and verl passes around), plain dicts, or objects with attributes.

Core helpers any fix may use; omegaconf is imported only where the config is a DictConfig, so a
fix's config step stays importable (and testable) without it.
"""

from __future__ import annotations

import os
import sysconfig

DEFAULT_SAVE_PATH = "outputs/profile"  # verl's profiler save_path (global and per role) when unset


def select(config, key: str):
    """``OmegaConf.select`` for DictConfigs; a plain nested lookup for dicts and objects."""
    try:
        from omegaconf import DictConfig, OmegaConf

        if isinstance(config, DictConfig):
            return OmegaConf.select(config, key, default=None)
    except ImportError:
        pass
    node = config
    for part in key.split("."):
        node = node.get(part) if isinstance(node, dict) else getattr(node, part, None)
        if node is None:
            return None
    return node


def needs_critic(config) -> bool:
    """verl's ``need_critic`` (``verl/trainer/ppo/utils.py``): ``critic.enable``, else GAE."""
    enable = select(config, "critic.enable")
    if enable is not None:
        return bool(enable)
    return select(config, "algorithm.adv_estimator") == "gae"


def set_key(config, key: str, value) -> None:
    """Set ``key`` (dotted) to ``value``, adding it where the config is in struct mode."""
    from omegaconf import DictConfig, OmegaConf, open_dict, read_write

    if isinstance(config, DictConfig):
        with read_write(config), open_dict(config):
            OmegaConf.update(config, key, value, merge=False)
        return
    *parents, leaf = key.split(".")
    node = config
    for part in parents:
        node = node[part] if isinstance(node, dict) else getattr(node, part)
    if isinstance(node, dict):
        node[leaf] = value
    else:
        setattr(node, leaf, value)


# --- where Hydra found a config file ---------------------------------------------------------------

_HYDRA_SOURCES = ("pkg://hydra.conf", "structured://")


def is_verl_source(path: str) -> bool:
    """Whether a config source (``pkg://…``, ``file://…``) is verl's trainer config directory."""
    if path.startswith("pkg://"):
        return path[len("pkg://") :].strip("/") == "verl.trainer.config"
    if path.startswith("file://"):
        return os.path.normpath(path[len("file://") :]).replace(os.sep, "/").endswith("verl/trainer/config")
    return False


def is_users_source(source: str) -> bool:
    """A config file of the user's own: not verl's, not Hydra's, and not shipped inside an installed
    package (verl-omni's config still sets keys verl removed, to null: its users cannot edit it, and
    it composes as it does without verl-compat)."""
    if is_verl_source(source) or source.startswith(_HYDRA_SOURCES) or source.startswith("pkg://"):
        return False
    path = os.path.normpath(source[len("file://") :]) if source.startswith("file://") else ""
    return not any(path.startswith(os.path.normpath(site) + os.sep) for site in _installed_package_dirs())


def _installed_package_dirs() -> tuple[str, ...]:
    return tuple({sysconfig.get_paths()[key] for key in ("purelib", "platlib")})
