"""``verl-compat migrate`` rewrites the legacy reward keys where the installed verl no longer reads
them (0.9: ``main_ppo`` stopped calling ``migrate_legacy_reward_impl``), into the keys it reads
(``reward.*``): the migrated launch script and YAML compose with verl alone (verl-compat
deactivated) with every value there. Where the release migrates them itself (0.7.1, 0.8.0) or
reads them natively (0.6.x), migrate leaves the files as they are.
"""

import textwrap
from pathlib import Path

import pytest
from verl_config import verl_compose

from verl_compat import migrate
from verl_compat.fixes.config_keys import readers

SCRIPT = textwrap.dedent(
    """\
    #!/bin/bash
    python3 -m verl.trainer.main_ppo \\
        custom_reward_function.path=/my/reward.py \\
        custom_reward_function.name=my_fn \\
        reward_model.reward_manager=dapo \\
        +reward_model.reward_kwargs.max_resp_len=512 \\
        +reward_model.reward_kwargs.overlong_buffer_cfg.enable=True \\
        reward_model.model.trust_remote_code=null \\
        trainer.total_epochs=2
    """
)
RECIPE = textwrap.dedent(
    """\
    hydra:
      searchpath:
        - pkg://verl.trainer.config
    defaults:
      - ppo_trainer
      - _self_
    custom_reward_function:
      path: /my/reward.py   # our scorer
    reward_model:
      reward_manager: dapo
      reward_kwargs:
        max_resp_len: 512
    trainer:
      total_epochs: 3
    """
)


def reads_natively() -> bool:
    return "reward" not in verl_compose([]) or readers.calls("trainer/main_ppo.py", "migrate_legacy_reward_impl")


def overrides_of(script: str) -> list:
    return [line.strip().rstrip("\\").strip() for line in script.splitlines() if line.startswith("    ")]


def test_migrate_rewrites_a_launch_script_only_where_verl_no_longer_reads_the_keys(no_shim):
    new = migrate.migrate(SCRIPT, "shell")
    if reads_natively():
        assert new == SCRIPT
        return
    assert migrate.migrate(new, "shell") == new
    # Every legacy key moved, but the one left at null, which asks for nothing.
    legacy = [line for line in overrides_of(new) if line.lstrip("+").startswith(("reward_model.", "custom_reward"))]
    assert legacy == ["reward_model.model.trust_remote_code=null"]
    config = verl_compose(overrides_of(new))
    assert config.reward.custom_reward_function == {"path": "/my/reward.py", "name": "my_fn"}
    assert config.reward.reward_manager.name == "dapo"
    assert config.reward.reward_kwargs == {"max_resp_len": 512, "overlong_buffer_cfg": {"enable": True}}
    assert config.trainer.total_epochs == 2
    # The legacy block is verl's own again, at null.
    assert config.reward_model.reward_manager is None and config.custom_reward_function.path is None


def test_migrate_rewrites_a_recipe_yaml_only_where_verl_no_longer_reads_the_keys(no_shim, tmp_path):
    new = migrate.migrate(RECIPE, "yaml")
    if reads_natively():
        assert new == RECIPE
        return
    assert migrate.migrate(new, "yaml") == new
    assert "# our scorer" in new and "reward_model:" not in new
    (tmp_path / "recipe.yaml").write_text(new)
    config = verl_compose([], name="recipe", config_dir=tmp_path)
    assert config.reward.custom_reward_function == {"path": "/my/reward.py", "name": "compute_score"}
    assert config.reward.reward_manager.name == "dapo" and config.reward.reward_kwargs == {"max_resp_len": 512}
    assert config.trainer.total_epochs == 3


@pytest.mark.once
def test_migrate_refuses_a_key_this_verl_cannot_honour_and_a_conflict():
    script = "python3 -m verl.trainer.main_ppo reward_model.model.trust_remote_code=True\n"
    with pytest.raises(migrate.Refused, match=r"reward_model.model.trust_remote_code=true is unread since verl 0.9.0"):
        migrate.migrate(script, "shell")
    script = "python3 -m verl.trainer.main_ppo reward_model.reward_manager=dapo reward.reward_manager.name=naive\n"
    with pytest.raises(migrate.Refused, match=r"reward.reward_manager.name=naive differ: keep one"):
        migrate.migrate(script, "shell")


@pytest.mark.once
def test_the_yaml_gate_passes_over_verls_own_nulls_and_finds_a_set_legacy_key():
    """verl's own full config lists the legacy block at null: not a reason to parse each copy."""
    import verl

    from verl_compat.fixes.config_keys.migrate_rules import OldKeysToInstalledVerl

    gate = OldKeysToInstalledVerl.yaml_setting
    generated = (Path(verl.__path__[0]) / "trainer" / "config" / "_generated_ppo_trainer.yaml").read_text()
    assert "custom_reward_function:" in generated and gate.search(generated) is None
    assert gate.search("custom_reward_function:\n  path: null\n  name: null\n") is None
    assert gate.search("custom_reward_function:\n  path: /my/reward.py  # ours\n")
    assert gate.search("reward_model:\n  reward_kwargs:\n    max_resp_len: 512\n")
    assert gate.search("reward_model:\n  reward_manager: dapo\n")
