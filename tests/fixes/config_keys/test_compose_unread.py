"""The legacy reward keys (``custom_reward_function.*``, ``reward_model.*``, ``sandbox_fusion.*``)
where Hydra composes verl's config, on every release.

verl 0.9.0 still declares them (``trainer/config/legacy_reward_impl.yaml``) but ``main_ppo`` no
longer calls ``migrate_legacy_reward_impl`` (verl#6710): without verl-compat they compose and
nothing reads them. With it they land in ``reward.*``. Where the release migrates them itself
(0.7.1, 0.8.0) or reads them natively (0.6.x, no ``reward`` section), nothing changes.
"""

import argparse
import json
import textwrap

import pytest
import yaml
from hydra.errors import ConfigCompositionException
from omegaconf import OmegaConf
from pyrun import run_argv
from verl_config import verl_compose

from verl_compat import doctor
from verl_compat.fixes.config_keys import readers, translate
from verl_compat.fixes.config_keys.table import LEGACY_REWARD

# What an old DAPO script writes (verl's own recipe/dapo, and v0.9.0's
# examples/grpo_trainer/run_qwen3_30b_a3b_megatron.sh), plus a custom reward function.
LEGACY = [
    "custom_reward_function.path=/my/reward.py",
    "custom_reward_function.name=my_fn",
    "reward_model.reward_manager=dapo",
    "+reward_model.reward_kwargs.max_resp_len=512",
    "+reward_model.reward_kwargs.overlong_buffer_cfg.enable=True",
    "+reward_model.reward_kwargs.overlong_buffer_cfg.len=128",
    "+reward_model.reward_kwargs.overlong_buffer_cfg.penalty_factor=1.0",
    "reward_model.num_workers=2",
    "sandbox_fusion.url=http://sandbox:8080/run_code",
]
LANDED = {
    "reward.custom_reward_function.path": "/my/reward.py",
    "reward.custom_reward_function.name": "my_fn",
    "reward.reward_manager.name": "dapo",
    "reward.reward_kwargs.max_resp_len": 512,
    "reward.reward_kwargs.overlong_buffer_cfg": {"enable": True, "len": 128, "penalty_factor": 1.0},
    "reward.num_workers": 2,
    "reward.sandbox_fusion.url": "http://sandbox:8080/run_code",
}


def migrates_itself() -> bool:
    """The installed release moves the legacy block itself, or reads it natively: its config has no
    ``reward`` section, or its main_ppo calls ``migrate_legacy_reward_impl`` (read in its source)."""
    return "reward" not in verl_compose([]) or readers.calls(LEGACY_REWARD.entry, LEGACY_REWARD.function)


def legacy_for_release() -> list:
    """``LEGACY`` as this release accepts it: 0.6.x declares ``reward_model.reward_kwargs`` (a plain
    key there) and has neither ``reward_model.num_workers`` nor a top-level ``sandbox_fusion``."""
    config = verl_compose([])
    declared = translate.node_at(config, "reward_model.reward_kwargs") is not None
    lines = [line.lstrip("+") if declared and "reward_kwargs" in line else line for line in LEGACY]
    return [line for line in lines if line.startswith("+") or translate.node_at(config, line.split("=")[0])]


def as_dict(config) -> dict:
    return OmegaConf.to_container(config, resolve=False)


def test_the_probe_reads_main_ppo_source():
    """0.7.1 and 0.8.0's main_ppo call the reader; 0.9's does not; 0.6.x has no reward section."""
    import verl

    has_reward = "reward" in verl_compose([])
    calls = readers.calls("trainer/main_ppo.py", "migrate_legacy_reward_impl")
    major_minor = tuple(int(p) for p in verl.__version__.split(".")[:2])
    # The version only labels the expectation here; the fix itself never reads it.
    assert (has_reward, calls) == {(0, 6): (False, False), (0, 7): (True, True), (0, 8): (True, True)}.get(
        major_minor, (True, False)
    )


def test_on_every_release_the_legacy_keys_change_only_where_nothing_reads_them(no_shim):
    """0.6.x (read natively), 0.7.1 and 0.8.0 (main_ppo migrates them): the very config verl alone
    composes. 0.9: without verl-compat the keys compose and nothing reads them (the baseline: the
    trainer gets verl's default reward); with it they are in ``reward``."""
    import verl_compat

    without = verl_compose(legacy_for_release())
    verl_compat.activate()
    try:
        with_ = verl_compose(legacy_for_release())
    finally:
        verl_compat.deactivate()
    if migrates_itself():
        assert as_dict(with_) == as_dict(without)
        return
    assert without.reward.custom_reward_function.path is None
    assert without.reward.reward_manager.name == "naive"
    assert "reward_kwargs" not in without.reward and without.reward.num_workers == 8
    assert without.reward.sandbox_fusion.url is None
    assert without.reward_model.reward_manager == "dapo"  # composed, and read by nothing on main_ppo's path
    assert with_.reward.reward_manager.name == "dapo" and with_.reward.custom_reward_function.path == "/my/reward.py"


@pytest.mark.once
def test_compose_api_moves_each_key_to_reward_with_one_warning_each(shim, shim_warnings):
    config = verl_compose(LEGACY)
    for path, value in LANDED.items():
        assert OmegaConf.to_container(OmegaConf.create({"v": OmegaConf.select(config, path)}))["v"] == value, path
    # The legacy block stays declared, at null: 0.9.1's fully_async_main migrates it itself.
    assert config.custom_reward_function.path is None and config.reward_model.reward_manager is None
    assert "reward_kwargs" not in config.reward_model
    warned = shim_warnings()
    for line in LEGACY:
        key = line.lstrip("+").split("=")[0]
        assert sum(f"verl-compat: {key} is still declared but nothing reads it" in w for w in warned) == 1, key
    assert all("verl#6710 (45632b5fa)" in w for w in warned if "still declared" in w)


@pytest.mark.once
def test_verls_own_migration_on_the_translated_config_changes_nothing(shim):
    """fully_async_main still calls migrate_legacy_reward_impl: on the translated config (legacy
    block at null) it must leave ``reward`` as verl-compat set it."""
    from verl.experimental.reward_loop import migrate_legacy_reward_impl

    config = verl_compose(LEGACY)
    before = as_dict(config.reward)
    after = migrate_legacy_reward_impl(config)
    assert as_dict(after.reward) == before


@pytest.mark.once
def test_a_path_without_a_name_keeps_the_old_default_compute_score(shim):
    config = verl_compose(["custom_reward_function.path=/my/reward.py"])
    assert config.reward.custom_reward_function == {"path": "/my/reward.py", "name": "compute_score"}


@pytest.mark.once
def test_cli_cfg_job_shows_the_keys_in_reward(tmp_path):
    argv = ["-m", "verl.trainer.main_ppo", *LEGACY, "--cfg", "job"]
    without = run_argv(argv, env={"VERL_COMPAT_DISABLE": "1"}, cwd=tmp_path, check=False)
    with_ = run_argv(argv, cwd=tmp_path, check=False)
    assert without.returncode == with_.returncode == 0, (without.stderr[-2000:], with_.stderr[-2000:])
    plain, translated = (yaml.safe_load(r.stdout[r.stdout.index("model_engine:") :]) for r in (without, with_))
    assert plain["reward"]["reward_manager"]["name"] == "naive" and "reward_kwargs" not in plain["reward"]
    assert translated["reward"]["reward_manager"]["name"] == "dapo"
    assert translated["reward"]["reward_kwargs"]["overlong_buffer_cfg"]["len"] == 128
    assert translated["reward"]["custom_reward_function"] == {"path": "/my/reward.py", "name": "my_fn"}
    warned = [line for line in with_.stderr.splitlines() if "VerlCompatDeprecationWarning: " in line]
    assert sum("is still declared but nothing reads it" in line for line in warned) == len(LEGACY), warned


@pytest.mark.once
def test_cli_legacy_key_and_successor_set_differently_stop(tmp_path):
    argv = ["-m", "verl.trainer.main_ppo", "reward_model.reward_manager=dapo", "reward.reward_manager.name=naive"]
    result = run_argv([*argv, "--cfg", "job"], cwd=tmp_path, check=False)
    assert result.returncode == 1
    assert "reward_model.reward_manager=dapo conflicts with reward.reward_manager.name=naive" in result.stderr


@pytest.mark.once
@pytest.mark.parametrize("key", ["reward_model.model.trust_remote_code=True", "reward_model.model.external_lib=my_lib"])
def test_a_key_this_verl_cannot_honour_stops_before_workers_start(shim, key):
    with pytest.raises(ConfigCompositionException) as stop:
        verl_compose([key, "reward_model.enable=True", "reward_model.model.path=/rm"])
    assert f"{key}: unread since verl 0.9.0 (verl#6710 (45632b5fa)" in str(stop.value)
    assert "no key of this verl sets it" in str(stop.value)


@pytest.mark.once
def test_a_users_yaml_sets_legacy_keys(shim, shim_warnings, tmp_path):
    (tmp_path / "recipe.yaml").write_text(
        textwrap.dedent(
            """\
            hydra:
              searchpath:
                - pkg://verl.trainer.config
            defaults:
              - ppo_trainer
              - _self_
            custom_reward_function:
              path: /my/reward.py
            reward_model:
              reward_manager: dapo
              reward_kwargs:
                max_resp_len: 512
            """
        )
    )
    config = verl_compose([], name="recipe", config_dir=tmp_path)
    assert config.reward.custom_reward_function == {"path": "/my/reward.py", "name": "compute_score"}
    assert config.reward.reward_manager.name == "dapo" and config.reward.reward_kwargs == {"max_resp_len": 512}
    assert config.custom_reward_function.path is None and config.reward_model.reward_manager is None
    assert len([w for w in shim_warnings() if "still declared but nothing reads it" in w]) == 3


@pytest.mark.once
def test_doctor_shows_where_each_legacy_key_goes(shim, capsys, tmp_path):
    reward = tmp_path / "reward.py"
    reward.write_text("def my_fn(data_source, solution_str, ground_truth, extra_info=None):\n    return 0.0\n")
    parser = argparse.ArgumentParser()
    doctor.add_arguments(parser)
    script = [f"custom_reward_function.path={reward}", *LEGACY[1:3], "reward_model.model.trust_remote_code=True"]
    code = doctor.run(parser.parse_args(["--json", *script]))
    report = json.loads(capsys.readouterr().out)
    keys = {entry["key"]: entry for entry in report["config"]["fixes"]["config_keys"]["keys"]}
    assert keys["reward_model.reward_manager"]["replacement"] == "reward.reward_manager.name=dapo"
    assert keys["custom_reward_function.path"]["new_key"] == "reward.custom_reward_function.path"
    assert keys["reward_model.model.trust_remote_code"]["stops"] and code == 4
