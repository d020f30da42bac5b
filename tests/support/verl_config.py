"""verl's own trainer config, composed with Hydra's compose API (what ``main_ppo`` composes before
its ``main()`` runs), for tests that read or translate it."""

from hydra import compose, initialize_config_dir

from verl_compat import probes


def verl_compose(overrides=(), name="ppo_trainer", config_dir=None):
    """``name`` from ``config_dir`` (verl's ``verl/trainer/config`` unless given) with ``overrides``."""
    with initialize_config_dir(config_dir=str(config_dir or probes.verl_config_dir()), version_base=None):
        return compose(config_name=name, overrides=list(overrides))
