"""Keys verl still declares that only its legacy FSDP workers read, where Hydra composes verl's config.

verl 0.7.1's ``workers/fsdp_workers.py`` read ``actor.qat`` (QAT) and ``actor.freeze_vision_tower``,
its ``workers/actor/dp_actor.py`` and ``workers/critic/dp_critic.py`` read ``grad_clip``. verl 0.8.0
deleted those files (verl#6067); the keys are still declared, so an old launch composes and the
engines read other keys: QAT off, the vision tower trained, gradients clipped at ``optim.clip_grad``.
Where the release still ships the legacy workers (0.6.1, 0.7.1), nothing changes.
"""

import pytest
from hydra.errors import ConfigCompositionException
from omegaconf import OmegaConf
from verl_config import verl_compose

from verl_compat.fixes.config_keys import readers, translate
from verl_compat.fixes.config_keys.table import LEGACY_FSDP_WORKERS

QAT = "actor_rollout_ref.actor.qat.enable"
ENGINE_QAT = "actor_rollout_ref.actor.fsdp_config.qat.enable"
OLD = [f"{QAT}=true", "actor_rollout_ref.actor.grad_clip=0.5", "critic.grad_clip=0.25"]
LANDED = {ENGINE_QAT: True, "actor_rollout_ref.actor.optim.clip_grad": 0.5, "critic.optim.clip_grad": 0.25}

legacy_workers = readers.calls(LEGACY_FSDP_WORKERS.entry, LEGACY_FSDP_WORKERS.function)
engines_only = pytest.mark.skipif(legacy_workers, reason="this verl ships the legacy FSDP workers: they read the keys")


def composes(overrides) -> bool:
    return all(translate.node_at(verl_compose([]), line.lstrip("+").split("=")[0]) for line in overrides)


def test_where_the_legacy_workers_read_the_keys_the_config_is_verls_own(no_shim):
    """0.6.1 / 0.7.1: verl-compat changes nothing (0.6.1 has no qat key: Hydra refuses it alike)."""
    import verl_compat

    lines = [line for line in OLD if composes([line])]
    without = OmegaConf.to_container(verl_compose(lines), resolve=False)
    verl_compat.activate()
    try:
        with_ = OmegaConf.to_container(verl_compose(lines), resolve=False)
    finally:
        verl_compat.deactivate()
    if legacy_workers:
        assert with_ == without
    else:
        assert with_ != without


@engines_only
def test_baseline_the_old_keys_compose_and_the_engine_keys_keep_verls_values(no_shim):
    config = verl_compose(OLD)
    for path in LANDED:
        assert OmegaConf.select(config, path) != LANDED[path], path
    assert OmegaConf.select(config, QAT) is True  # composed, and read by nothing
    # verl 0.7.1 launched QAT with a "+": plain verl 0.8.0+ refuses it, loudly.
    with pytest.raises(ConfigCompositionException, match="already at"):
        verl_compose([f"+{QAT}=true"])


@engines_only
@pytest.mark.parametrize("plus", ["", "+"], ids=["plain", "added"])
def test_each_key_lands_where_the_engine_reads_it_with_one_warning(shim, shim_warnings, plus):
    config = verl_compose([plus + OLD[0], *OLD[1:]])
    for path, value in LANDED.items():
        assert OmegaConf.select(config, path) == value, path
    warned = shim_warnings()
    for line in OLD:
        key = line.split("=")[0]
        assert sum(f"verl-compat: {key} is still declared but nothing reads it" in w for w in warned) == 1, key
    assert all("verl 0.8.0 deleted the legacy FSDP workers" in w for w in warned if "still declared" in w)
    assert not any("Hydra refuses to add it again" in w for w in warned)  # never settled onto the unread key


@engines_only
def test_verls_own_config_classes_see_the_old_values(shim):
    """What the engines are built from: the actor's FSDP engine config (its ``qat``, read by the FSDP
    engine) and the optimizer configs whose ``clip_grad`` the engine clips at."""
    from verl.utils.config import omega_conf_to_dataclass

    config = verl_compose(OLD)
    actor = config.actor_rollout_ref.actor
    assert omega_conf_to_dataclass(actor.fsdp_config).qat.enable is True
    assert omega_conf_to_dataclass(actor.optim).clip_grad == 0.5
    assert omega_conf_to_dataclass(config.critic.optim).clip_grad == 0.25


@engines_only
def test_a_value_verl_runs_with_anyway_stays_quiet(shim, shim_warnings):
    config = verl_compose(["actor_rollout_ref.actor.grad_clip=1.0", f"+{QAT}=false"])
    assert config.actor_rollout_ref.actor.optim.clip_grad == 1.0 and OmegaConf.select(config, ENGINE_QAT) is False
    assert shim_warnings() == []


@engines_only
def test_freezing_the_vision_tower_stops_the_launch_naming_the_key(shim, shim_warnings):
    """No key of verl 0.8.0+ freezes it on FSDP: training it would not be what the launch asked."""
    with pytest.raises(ConfigCompositionException) as stop:
        verl_compose(["actor_rollout_ref.actor.freeze_vision_tower=True"])
    message = str(stop.value)
    assert "actor_rollout_ref.actor.freeze_vision_tower=True" in message and "verl#6067" in message
    assert "the vision tower would train" in message
    verl_compose(["actor_rollout_ref.actor.freeze_vision_tower=False"])  # what verl does anyway
    assert not any("freeze_vision_tower" in w for w in shim_warnings())


@pytest.mark.parametrize("kind", ["shell", "yaml"])
def test_migrate_moves_only_what_asks_for_something_and_verl_alone_then_reads_it(no_shim, kind):
    """A launch script and a recipe YAML: set values move where the engines read them (left alone
    where the legacy workers still read the keys); verl's own values stay where they are."""
    from verl_compat import migrate

    if kind == "shell":
        text = (
            f"python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.grad_clip=0.5 +{QAT}=true critic.grad_clip=1.0\n"
        )
        moved, kept = ["actor_rollout_ref.actor.optim.clip_grad=0.5", f"{ENGINE_QAT}=true"], ["critic.grad_clip=1.0"]
    else:
        text = "actor_rollout_ref:\n  actor:\n    grad_clip: 0.5\n    qat:\n      enable: true\n"
        text += "critic:\n  grad_clip: 1.0\n"
        moved, kept = ["clip_grad: 0.5", "fsdp_config:\n      qat:\n        enable: true"], ["grad_clip: 1.0"]
    new = migrate.migrate(text, kind)
    if legacy_workers:
        assert new == text
        return
    assert all(line in new for line in moved + kept), new
    assert (
        "grad_clip: 0.5" not in new
        and "grad_clip=0.5" not in new
        and "qat.enable=true" not in new.replace(ENGINE_QAT, "")
    )


@engines_only
def test_a_plus_on_a_key_nothing_reads_is_never_settled_onto_it():
    """The rule for a ``+`` on a key verl added since leaves a declared-but-unread key alone: Hydra
    then refuses the line loudly, as without verl-compat (the translation moves it before)."""
    probe = translate.ConfigProbe(verl_compose([]))
    lines = [f"+{QAT}=true", "+trainer.n_gpus_per_node=4"]
    assert translate.settle_additions(lines, probe).overrides == (lines[0], "trainer.n_gpus_per_node=4")


COMPILE = (
    "actor_rollout_ref.actor.fsdp_config.use_torch_compile",
    "actor_rollout_ref.ref.fsdp_config.use_torch_compile",
)


@engines_only
def test_baseline_compiling_turned_off_is_compiled_anyway(no_shim):
    config = verl_compose(["actor_rollout_ref.actor.use_torch_compile=False"])
    assert config.actor_rollout_ref.ref.use_torch_compile is False  # the reference's key follows the actor's
    assert [OmegaConf.select(config, key) for key in COMPILE] == [True, True]


@engines_only
def test_compiling_turned_off_reaches_both_roles_engines(shim, shim_warnings):
    """verl 0.7.1's legacy actor read the role's key (the reference's follows the actor's); the FSDP
    engine reads ``engine_config.use_torch_compile``, from the role's ``fsdp_config``."""
    from verl.utils.config import omega_conf_to_dataclass

    config = verl_compose(["actor_rollout_ref.actor.use_torch_compile=False"])
    assert [OmegaConf.select(config, key) for key in COMPILE] == [False, False]
    for role in ("actor", "ref"):
        assert omega_conf_to_dataclass(config.actor_rollout_ref[role].fsdp_config).use_torch_compile is False
    warned = [w for w in shim_warnings() if "use_torch_compile is still declared" in w]
    assert len(warned) == 2 and "the reference's key follows the actor's" in warned[1]
    # true asks for nothing: what the engines do.
    verl_compose(["actor_rollout_ref.actor.use_torch_compile=True"])
    assert len([w for w in shim_warnings() if "use_torch_compile is still declared" in w]) == 2


def test_megatron_launches_and_legacy_actors_keep_the_key_as_verl_reads_it(shim):
    """Megatron never read it (no FSDP engine config to set); 0.6.1/0.7.1's legacy actor reads it."""
    config = verl_compose(["actor_rollout_ref.actor.use_torch_compile=False"], "ppo_megatron_trainer")
    assert OmegaConf.select(config, COMPILE[0]) is None
    if legacy_workers:
        config = verl_compose(["actor_rollout_ref.actor.use_torch_compile=False"])
        assert OmegaConf.select(config, COMPILE[0]) in (None, True)
