"""verl's own trainer config, composed with Hydra's compose API (what ``main_ppo`` composes before
its ``main()`` runs), for tests that read or translate it."""

import functools
import re

from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from verl_compat import probes


def verl_compose(overrides=(), name="ppo_trainer", config_dir=None):
    """``name`` from ``config_dir`` (verl's ``verl/trainer/config`` unless given) with ``overrides``."""
    with initialize_config_dir(config_dir=str(config_dir or probes.verl_config_dir()), version_base=None):
        return compose(config_name=name, overrides=list(overrides))


def node_paths(node, prefix: str = "", out: dict | None = None) -> dict:
    """Every node path of a config as plain containers (``OmegaConf.to_container``) to its value,
    each dict's own path included: ``{"a": {"b": 1}}`` gives ``{"a": {"b": 1}, "a.b": 1}``. Also
    what ``scripts/follow_release.py`` and ``scripts/key_table_coverage.py`` read a config with."""
    out = {} if out is None else out
    if isinstance(node, dict):
        if prefix:
            out[prefix] = node
        for key, value in node.items():
            node_paths(value, f"{prefix}.{key}" if prefix else str(key), out)
    else:
        out[prefix] = node
    return out


@functools.cache
def release_paths() -> dict:
    """Every node path of the installed release's PPO configs (all engines), to its unresolved value."""
    config_dir = probes.verl_config_dir()
    # The engines the two trainer configs already select (``model_engine: dp`` / ``megatron`` in
    # their defaults lists) are composed once, not twice.
    chosen = {
        m.group(1)
        for name in ("ppo_trainer", "ppo_megatron_trainer")
        for m in re.finditer(r"model_engine: *(\w+)", (config_dir / f"{name}.yaml").read_text())
    }
    engines = sorted(p.stem for p in (config_dir / "model_engine").glob("*.yaml") if p.stem not in chosen)
    variants = [("ppo_trainer", []), ("ppo_megatron_trainer", [])]
    variants += [("ppo_trainer", [f"model_engine={engine}"]) for engine in engines]
    out: dict = {}
    for name, overrides in variants:
        node_paths(OmegaConf.to_container(verl_compose(overrides, name), resolve=False), "", out)
    return out


def free_form_parent(path: str) -> bool:
    """The key's parent is an open dict verl hands on as is (``engine_kwargs.vllm: {}``)."""
    return release_paths().get(path.rpartition(".")[0]) == {}
