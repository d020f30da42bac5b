"""config_keys where Hydra composes verl's config, on the newest release: verl's real CLI
(``python -m verl.trainer.main_ppo … --cfg job``, also with ``--config-path/--config-name``), the
compose API, and another Hydra application in the same process left untouched.

The old keys are a 0.7-era script's; on the installed release each is checked first to be gone
(so the baseline fails as a user sees it), then translated.
"""

import re
import textwrap

import pytest
from cfg_job import cli, composed
from cfg_job import warning_lines as shim_warnings
from doctor_run import doctor_json
from hydra.errors import ConfigCompositionException
from verl_config import verl_compose

from verl_compat.fixes.config_keys import translate

pytestmark = pytest.mark.once

RENAMED = "critic.model.fsdp_config.param_offload"
DROPPED = "actor_rollout_ref.actor.megatron.grad_offload"
REMOVED = "trainer.use_legacy_worker_impl"
ADDED_SINCE = "actor_rollout_ref.actor.fsdp_config.model_dtype"  # a 0.4-era `+` addition verl has since added
OLD_SCRIPT = [
    f"{RENAMED}=True",
    f"+{DROPPED}=True",
    "trainer.profile_steps=[1,2]",
    "data.train_batch_size=16",
    f"+{ADDED_SINCE}=bfloat16",
]


def test_the_old_keys_are_gone_from_this_release(no_shim):
    probe = translate.ConfigProbe(verl_compose([]))
    assert not probe.has_key(RENAMED) and probe.has_key("critic.fsdp.param_offload")
    assert not probe.has_key(DROPPED) and not probe.has_key(REMOVED)


def test_cli_without_verl_compat_stops_at_the_first_old_key(tmp_path):
    result = cli(*OLD_SCRIPT, env={"VERL_COMPAT_DISABLE": "1"}, cwd=tmp_path)
    assert result.returncode == 1
    assert f"Could not override '{RENAMED}'" in result.stderr


def test_cli_translates_cli_and_user_yaml_keys_with_one_warning_each(tmp_path):
    """A recipe-style user config (``defaults: [ppo_trainer, _self_]``, verl's config on the search
    path) whose own body sets old keys, launched with old CLI overrides."""
    (tmp_path / "recipe.yaml").write_text(
        textwrap.dedent(
            """\
            hydra:
              searchpath:
                - pkg://verl.trainer.config
            defaults:
              - ppo_trainer
              - _self_
            critic:
              model:
                fsdp_config:
                  optimizer_offload: true
            trainer:
              profile_steps: [1, 2]
            algorithm:
              rollout_is_threshold: 2.0
            ray_init:
              num_cpus: 3
            """
        )
    )
    overrides = [line for line in OLD_SCRIPT if not line.startswith("trainer.profile_steps")]  # in the YAML here
    result = cli("--config-path", tmp_path, "--config-name", "recipe", *overrides, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    config = composed(result.stdout)
    assert config["critic"]["fsdp"]["param_offload"] is True
    assert config["critic"]["fsdp"]["optimizer_offload"] is True
    assert "fsdp_config" not in config["critic"]["model"]
    assert config["global_profiler"]["steps"] == [1, 2]
    assert "megatron" not in config["actor_rollout_ref"]["actor"]
    assert config["actor_rollout_ref"]["actor"]["fsdp_config"]["model_dtype"] == "bfloat16"
    # trainer.profile_steps and algorithm.*: keys under nodes of ppo_trainer.yaml's own body (Hydra
    # merges its nodes uncopied: the probe must not see the user's keys in them); ray_init.num_cpus:
    # its old parent is left empty, and goes.
    assert config["algorithm"]["rollout_correction"]["rollout_is_threshold"] == 2.0
    assert "rollout_is_threshold" not in config["algorithm"]
    assert config["ray_kwargs"]["ray_init"]["num_cpus"] == 3 and "ray_init" not in config
    warned = shim_warnings(result.stderr)
    for key in (
        RENAMED,
        DROPPED,
        "trainer.profile_steps",
        "critic.model.fsdp_config.optimizer_offload",
        ADDED_SINCE,
        "ray_init.num_cpus",
        "algorithm.rollout_is_threshold",
    ):
        assert sum(f" {key} " in line for line in warned) == 1, (key, warned)


def test_cli_removed_key_stops_with_one_clear_error(tmp_path):
    result = cli(f"{REMOVED}=enable", f"{RENAMED}=True", "model_engine=mindspeed", cwd=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "verl-compat: this launch config asks for what the installed verl cannot do" in result.stderr
    assert f"{REMOVED}=enable: removed in verl" in result.stderr
    assert "model_engine=mindspeed: removed in verl" in result.stderr
    assert "VERL_COMPAT_ALLOW_REMOVED_KEYS=1" in result.stderr


def test_compose_api_translates_and_the_switch_turns_the_stop_into_a_warning(shim, shim_warnings, monkeypatch):
    config = verl_compose([f"{RENAMED}=True"])
    assert config.critic.fsdp.param_offload is True
    # `--config-name ppo_trainer.yaml`, as many of verl's own scripts write it
    assert verl_compose([f"{RENAMED}=True"], name="ppo_trainer.yaml").critic.fsdp.param_offload is True
    with pytest.raises(ConfigCompositionException, match=f"{REMOVED}=enable: removed in verl"):
        verl_compose([f"{REMOVED}=enable"])
    monkeypatch.setenv(translate.ALLOW_REMOVED, "1")
    config = verl_compose([f"{REMOVED}=enable"])
    assert REMOVED.split(".")[-1] not in config.trainer
    assert any(f"{REMOVED}=enable was removed" in text for text in shim_warnings())


def test_compose_api_conflicting_old_and_new_is_an_error(shim):
    with pytest.raises(ConfigCompositionException, match=re.escape("conflicts with critic.fsdp.param_offload=False")):
        verl_compose([f"{RENAMED}=True", "critic.fsdp.param_offload=False"])
    assert verl_compose([f"{RENAMED}=True", "critic.fsdp.param_offload=True"]).critic.fsdp.param_offload


def test_another_hydra_app_is_untouched(shim, shim_warnings, tmp_path):
    """Same keys, same process, verl-compat active: not verl's config, so Hydra decides alone."""
    (tmp_path / "app.yaml").write_text(
        "critic:\n  fsdp:\n    param_offload: false\n  model:\n    fsdp_config:\n      param_offload: false\n"
        "trainer:\n  profile_steps: null\n"
    )
    config = verl_compose([f"{RENAMED}=True", "trainer.profile_steps=[1]"], name="app", config_dir=str(tmp_path))
    assert config.critic.model.fsdp_config.param_offload is True and config.critic.fsdp.param_offload is False
    assert config.trainer.profile_steps == [1]
    with pytest.raises(ConfigCompositionException, match=f"Could not override '{DROPPED}'"):
        verl_compose([f"{DROPPED}=True"], name="app", config_dir=str(tmp_path))
    assert shim_warnings() == []
    assert (
        "hydra._internal.config_loader_impl:ConfigLoaderImpl._apply_overrides_to_config"
        in (shim.status()["fixes"]["config_keys"]["patched"])
    )


def test_doctor_lists_each_old_key_and_its_fate(shim, shim_warnings, capsys, monkeypatch):
    script = [f"{RENAMED}=True", f"+{DROPPED}=True", f"{REMOVED}=enable", "model_engine=mindspeed"]
    code, report = doctor_json(*script, capsys=capsys)
    keys = {entry["key"]: entry for entry in report["config"]["fixes"]["config_keys"]["keys"]}
    assert keys[RENAMED]["replacement"] == "critic.fsdp.param_offload=True" and not keys[RENAMED]["stops"]
    assert keys[DROPPED]["kind"] == "dropped" and "never had an effect" in keys[DROPPED]["fate"]
    assert keys[REMOVED]["stops"] and keys["model_engine"]["stops"]
    # Every stop is listed (not only the first, where a launch stops) and doctor exits 4 on them.
    stops = {keys[REMOVED]["fate"], keys["model_engine"]["fate"]}
    assert code == 4 and {problem["reason"] for problem in report["problems"]} == stops
    assert shim_warnings() == []  # doctor only looks

    monkeypatch.setenv(translate.ALLOW_REMOVED, "1")
    code, report = doctor_json(*script, capsys=capsys)
    entries = report["config"]["fixes"]["config_keys"]["keys"]
    assert code == 0 and not any(entry["stops"] for entry in entries)
    assert all("ignored, VERL_COMPAT_ALLOW_REMOVED_KEYS=1" in e["fate"] for e in entries if e["kind"] == "removed")


def test_freeze_moe_router_lands_where_the_megatron_engine_reads_it(shim):
    """Since verl 0.8.0 the Megatron engine builds the model with ``override_model_config`` =
    ``engine_config.override_mcore_model_config`` (``actor.megatron.…``), and reads
    ``moe_config.freeze_moe_router`` from it alone: under ``model.override_config`` it is ignored."""
    import importlib.util
    from pathlib import Path

    old = "actor_rollout_ref.model.override_config.moe_config.freeze_moe_router"
    config = verl_compose(
        [f"+{old}=True", "+critic.model.override_config.moe_config.freeze_moe_router=True"], name="ppo_megatron_trainer"
    )
    assert config.actor_rollout_ref.actor.megatron.override_mcore_model_config.moe_config.freeze_moe_router is True
    assert config.critic.megatron.override_mcore_model_config.moe_config.freeze_moe_router is True
    assert "moe_config" not in config.actor_rollout_ref.model.override_config
    verl = Path(importlib.util.find_spec("verl").submodule_search_locations[0])  # read, not imported (megatron)
    source = (verl / "utils" / "megatron_utils.py").read_text()
    assert 'override_model_config.get("moe_config", {}).get("freeze_moe_router", False)' in source
    engine = (verl / "workers" / "engine" / "megatron" / "transformer_impl.py").read_text()
    assert "override_model_config=self.engine_config.override_mcore_model_config" in engine
    assert "override_config" not in engine.replace("override_mcore_model_config", "").replace(
        "override_transformer_config", ""
    )
