"""Reading and editing a verl config, whatever holds it: an OmegaConf ``DictConfig`` (what Hydra
composes and verl passes around), plain dicts, or objects with attributes.

Core helpers any fix may use; omegaconf is imported only where the config is a DictConfig, so a
fix's config step stays importable (and testable) without it.
"""

from __future__ import annotations

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
