"""``verl-compat migrate`` with config_keys' rule, on the newest release: an old launch script and a
recipe's YAML rewritten into the installed verl's keys compose with verl alone (verl-compat
deactivated), every value at its successor; migrating twice changes nothing; a removed key is
refused with what to do.

Baseline: without migrating, and without verl-compat, the script stops at Hydra and the YAML
composes with its values where verl reads none of them.
"""

import re
import textwrap
from pathlib import Path

import pytest
import verl
from hydra.core.override_parser.overrides_parser import OverridesParser
from hydra.errors import ConfigCompositionException
from verl_config import verl_compose

from verl_compat import migrate

pytestmark = pytest.mark.once

VERL_CONFIG = f"{verl.__path__[0]}/trainer/config"

OLD_SCRIPT = textwrap.dedent(
    """\
    #!/bin/bash
    set -x
    # the critic's FSDP offload, as verl 0.7 spelled it
    python3 -m verl.trainer.main_ppo \\
        algorithm.adv_estimator=gae \\
        critic.model.fsdp_config.param_offload=True \\
        critic.model.fsdp_config.optimizer_offload=True \\
        +actor_rollout_ref.actor.megatron.grad_offload=True \\
        actor_rollout_ref.rollout.engine_kwargs.vllm.disable_mm_preprocessor_cache=True \\
        actor_rollout_ref.actor.profiler.tool=torch_memory \\
        trainer.profile_steps=[1,2] \\
        trainer.total_epochs=2 "$@"
    """
)


def overrides_of(script: str) -> list:
    """The Hydra overrides of the script's one launch (its indented continuation lines)."""
    lines = [line.strip().rstrip("\\").strip() for line in script.splitlines() if line.startswith("    ")]
    return [line for line in lines if line != '"$@"' and not line.endswith('"$@"')] + [
        line.split(" ")[0] for line in lines if line.endswith('"$@"')
    ]


def test_baseline_the_old_script_stops_at_hydra_without_verl_compat(no_shim):
    with pytest.raises(ConfigCompositionException, match=re.escape("critic.model.fsdp_config")):
        verl_compose(overrides_of(OLD_SCRIPT))


def test_migrated_script_composes_on_verl_alone_and_migrating_twice_changes_nothing(no_shim):
    new = migrate.migrate(OLD_SCRIPT, "shell")
    assert migrate.migrate(new, "shell") == new
    # Nothing else touched: every line without an old key is there as it was, in order.
    kept = [
        line
        for line in OLD_SCRIPT.splitlines()
        if not any(k in line for k in ("fsdp_config", "grad_offload", "disable_mm", "profiler.tool", "profile_steps"))
    ]
    assert [line for line in new.splitlines() if line in kept] == kept
    overrides = overrides_of(new)
    OverridesParser.create().parse_overrides(overrides)
    config = verl_compose(overrides)
    assert config.critic.fsdp.param_offload is True and config.critic.fsdp.optimizer_offload is True
    assert config.actor_rollout_ref.rollout.engine_kwargs.vllm.mm_processor_cache_gb == 0  # moved, value mapped
    assert "grad_offload" not in new  # dropped
    # config_keys' pass first, then torch_memory's on the renamed keys: the legacy tool in the
    # DistProfiler's keys, with the steps the script asked for.
    assert config.global_profiler.tool == "torch_memory" and list(config.global_profiler.steps) == [1, 2]
    assert config.actor_rollout_ref.actor.profiler.enable is True
    assert config.trainer.total_epochs == 2 and config.algorithm.adv_estimator == "gae"


def test_migrated_recipe_yaml_composes_on_verl_alone(no_shim, tmp_path):
    recipe = textwrap.dedent(
        """\
        hydra:
          searchpath:
            - pkg://verl.trainer.config
        defaults:
          - ppo_trainer
          - _self_
        critic:
          # offload the critic
          model:
            fsdp_config:
              param_offload: true   # saves memory
              optimizer_offload: true
        trainer:
          profile_steps: [1, 2]
          total_epochs: 3
        actor_rollout_ref:
          actor:
            megatron:
              grad_offload: true
        """
    )
    (tmp_path / "recipe.yaml").write_text(recipe)
    silent = verl_compose([], name="recipe", config_dir=tmp_path)  # a YAML may add keys: nothing stops it
    assert silent.critic.model.fsdp_config.param_offload is True and silent.critic.fsdp.param_offload is False
    new = migrate.migrate(recipe, "yaml")
    assert migrate.migrate(new, "yaml") == new
    assert "param_offload: true   # saves memory" in new and "actor_rollout_ref" not in new  # emptied, gone
    (tmp_path / "recipe.yaml").write_text(new)
    config = verl_compose([], name="recipe", config_dir=tmp_path)
    assert config.critic.fsdp.param_offload is True and config.critic.fsdp.optimizer_offload is True
    assert list(config.global_profiler.steps) == [1, 2] and config.trainer.total_epochs == 3


def test_removed_key_and_conflicts_are_refused_naming_the_key():
    script = "python3 -m verl.trainer.main_ppo trainer.use_legacy_worker_impl=enable data.train_batch_size=8\n"
    with pytest.raises(migrate.Refused, match=r"trainer.use_legacy_worker_impl=enable was removed in verl 0.8.0"):
        migrate.migrate(script, "shell")
    script = (
        "python3 -m verl.trainer.main_ppo critic.model.fsdp_config.param_offload=True critic.fsdp.param_offload=False\n"
    )
    with pytest.raises(migrate.Refused, match=re.escape("critic.fsdp.param_offload=false differ: keep one")):
        migrate.migrate(script, "shell")
    agreeing = (
        "python3 -m verl.trainer.main_ppo critic.model.fsdp_config.param_offload=True critic.fsdp.param_offload=True\n"
    )
    assert migrate.migrate(agreeing, "shell") == "python3 -m verl.trainer.main_ppo critic.fsdp.param_offload=True\n"


def test_yaml_is_parsed_only_where_an_entry_sits_at_an_old_path():
    """The rule's YAML gate reads paths, not last parts: verl's own full config names
    ``fsdp_config:`` (an old path's last part) under keys it still has, and parsing every copy of
    it cost a checkout's pre-commit run a YAML parse per file."""
    from verl_compat.fixes.config_keys.migrate_rules import OldKeysToInstalledVerl

    gate = OldKeysToInstalledVerl.yaml_setting
    generated = Path(f"{VERL_CONFIG}/_generated_ppo_trainer.yaml").read_text()
    assert "fsdp_config:" in generated and gate.search(generated) is None
    assert gate.search("critic:\n  model:\n    fsdp_config:\n      param_offload: true\n")
    assert gate.search("'critic':\n  \"model\":\n    fsdp_config: {}\n")  # quoted keys
    assert gate.search("defaults:\n  - ppo_trainer\n  - _self_\nmodel_engine: mindspeed\n")  # a group
    assert gate.search("actor_rollout_ref:\n  actor:\n    fsdp_config:\n      param_offload: true\n") is None
    # what indentation cannot follow is parsed
    assert gate.search("critic: {model: {fsdp_config: {param_offload: true}}}\nx:\n  fsdp_config: 1\n")


def test_an_old_key_in_a_form_migrate_cannot_read_is_refused_not_passed_over():
    """An old key inside a quoted variable (verl's own ``ACTOR_MEGATRON_CONFIG="…grad_offload=True …"``,
    v0.7.1 ``examples/dppo_trainer/run_qwen30b_dppo.sh``), an ``eval`` string or a here-document fed to
    a program cannot be rewritten in place: refused naming the line, never a clean exit."""
    for script, line in [
        ('CONFIG="\n    actor_rollout_ref.actor.megatron.grad_offload=True \\\n    x=1"\npython3 -m m $CONFIG\n', 1),
        ('eval "python3 -m verl.trainer.main_ppo critic.model.fsdp_config.param_offload=True"\n', 1),
        ("sbatch <<EOF\npython3 -m verl.trainer.main_ppo model_engine=mindspeed\nEOF\n", 2),
    ]:
        with pytest.raises(migrate.Refused) as refusal:
            migrate.migrate(script, "shell")
        assert refusal.value.lines == [line], script
    # keys the installed verl still has, and the new keys, in the same forms: nothing to say
    for script in ['CONFIG="critic.fsdp.param_offload=True"\n', 'eval "python3 -m x trainer.total_epochs=1"\n']:
        assert migrate.migrate(script, "shell") == script


def test_target_entries_never_cause_a_refusal_or_an_edit():
    """``_target_`` is verl's binding of a mapping to its dataclass, not a user's setting: it moves
    with its mapping, and where the successor has its own binding (verl 0.7.1's generated megatron
    config: ``actor.router_replay`` and ``actor.megatron.router_replay``) the old mapping goes whole,
    with no conflict. A ``_target_`` alone concerns nothing."""
    both = textwrap.dedent(
        """\
        actor_rollout_ref:
          actor:
            megatron:
              router_replay:
                _target_: verl.workers.config.EngineRouterReplayConfig
                mode: disabled
            router_replay:
              _target_: verl.workers.config.RouterReplayConfig
              mode: disabled
        """
    )
    assert migrate.migrate(both, "yaml") == both.replace(
        "    router_replay:\n      _target_: verl.workers.config.RouterReplayConfig\n      mode: disabled\n", ""
    )
    binding = "_target_: verl.workers.config.FSDPEngineConfig\n"
    moved = f"critic:\n  model:\n    fsdp_config:\n      {binding}      param_offload: true\n"
    assert migrate.migrate(moved, "yaml") == f"critic:\n  fsdp:\n    {binding}    param_offload: true\n"
    alone = f"critic:\n  model:\n    fsdp_config:\n      {binding}"
    assert migrate.migrate(alone, "yaml") == alone
    script = "python3 -m verl.trainer.main_ppo critic.model.fsdp_config._target_=x.Y\n"
    assert migrate.migrate(script, "shell") == script


def test_the_installed_keys_are_kept_between_runs_and_answer_as_the_composition(tmp_path, monkeypatch):
    """The keys of verl's composed configs are cached under a fingerprint of its config folder; what
    the cache answers is what the composition answers, for every row of the table."""
    from verl_compat.fixes.config_keys import installed, migrate_rules, translate
    from verl_compat.fixes.config_keys.table import ROWS

    composed = installed.probe()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    migrate_rules._probe.cache_clear()
    try:
        written = migrate_rules._probe()
        assert [path.name[:12] for path in (tmp_path / "verl-compat").iterdir()] == ["config-keys-"]
        migrate_rules._probe.cache_clear()
        monkeypatch.setattr(installed, "probe", lambda: pytest.fail("verl's configs composed again"))
        kept = migrate_rules._probe()
    finally:
        migrate_rules._probe.cache_clear()
    assert kept == written
    paths = {*kept.paths, *(part for row in ROWS for part in (row.old, row.new) if part), "no.such.key"}
    assert all(kept.has_key(path) == composed.has_key(path) for path in paths)
    assert all(kept.is_free_form(path) == composed.is_free_form(path) for path in paths)
    assert all(translate.applies(row, kept, ROWS) == translate.applies(row, composed, ROWS) for row in ROWS)
