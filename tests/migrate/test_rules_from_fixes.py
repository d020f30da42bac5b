"""migrate's rules come from the fixes: a fix adds its rules with one registry line and no line of
migrate's own, one whose rules cannot load stops migrate with one line, and the rules run in the
registry's order, each on the text the previous ones wrote."""

import textwrap

import pytest
from migrate_cases import LEGACY_LINE, run_migrate, write

pytestmark = pytest.mark.once


@pytest.fixture
def fix_modules(monkeypatch):
    """Registers extra fix modules (from tests/support) the way a contributor would: one more name
    in the registry. migrate's rule discovery reads the registry through ``rulebook.fix_modules``."""
    from verl_compat.migrate import rulebook

    def register(*names):
        registered = (*rulebook.fix_modules(), *names)
        monkeypatch.setattr(rulebook, "fix_modules", lambda: registered)
        rulebook.rules.cache_clear()
        rulebook.defaults.cache_clear()

    yield register
    rulebook.rules.cache_clear()
    rulebook.defaults.cache_clear()


def test_a_fix_adds_its_rules_without_touching_migrate(tmp_path, fix_modules):
    """tests/support/renamed_key_fix has only a migrate_rules module (a renamed and a removed key):
    registered, its rule runs next to torch_memory's on the same launch and YAML file."""
    fix_modules("renamed_key_fix")
    script = write(
        tmp_path,
        "run.sh",
        f"""\
        python3 -m verl.trainer.main_ppo \\
            trainer.old_total_steps=3 \\
            trainer.obsolete_flag=True \\
            {LEGACY_LINE}
        """,
    )
    overlay = write(
        tmp_path,
        "overlay.yaml",
        """\
        trainer:
          old_total_steps: 3  # three steps
          obsolete_flag: true
        """,
    )
    assert run_migrate("--steps", "1,3", script, overlay) == 0
    assert script.read_text() == textwrap.dedent("""\
        python3 -m verl.trainer.main_ppo \\
            trainer.total_training_steps=3 \\
            global_profiler.tool=torch_memory \\
            global_profiler.steps=[1,3] \\
            actor_rollout_ref.actor.profiler.enable=True \\
            actor_rollout_ref.actor.profiler.all_ranks=True
        """)
    assert overlay.read_text() == "trainer:\n  total_training_steps: 3  # three steps\n"
    assert run_migrate("--check", script, overlay) == 0


def test_a_fix_whose_rules_cannot_load_stops_migrate_with_one_line(tmp_path, capsys, fix_modules):
    fix_modules("broken_rules_fix")
    script = write(tmp_path, "run.sh", "python3 -m verl.trainer.main_ppo trainer.total_epochs=1\n")

    assert run_migrate("--check", script) == 2
    assert capsys.readouterr().err == (
        "verl-compat migrate: cannot load the migrate rules of broken_rules_fix (RuntimeError: broken on purpose)\n"
    )


ORDER_LAUNCH = (
    "python3 -m verl.trainer.main_ppo trainer.profile_steps=[2] "
    "actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=3\n"
)


def test_the_rules_run_in_the_registry_order_each_on_the_text_the_previous_wrote(monkeypatch):
    """config_keys comes first in FIX_MODULES on purpose: it writes trainer.profile_steps as
    global_profiler.steps, which torch_memory's rule then reads (the steps asked for, not every step
    up to the total). In the other order torch_memory's rule sees no steps, writes every step, and
    config_keys' rename then meets a second global_profiler.steps: migrate refuses."""
    from verl_compat import migrate, registry
    from verl_compat.migrate import rulebook

    def rules_in(order):
        monkeypatch.setattr(rulebook, "fix_modules", lambda: order)
        rulebook.rules.cache_clear()
        rulebook.defaults.cache_clear()

    try:
        rules_in(registry.FIX_MODULES)
        migrated = migrate.migrate(ORDER_LAUNCH, "shell")
        assert "global_profiler.steps=[2] global_profiler.tool=torch_memory" in migrated
        assert "profile_steps" not in migrated

        rules_in(tuple(reversed(registry.FIX_MODULES)))
        with pytest.raises(migrate.Refused, match=r"trainer.profile_steps=\[2\].*global_profiler.steps=\[1, 2, 3\]"):
            migrate.migrate(ORDER_LAUNCH, "shell")
    finally:
        rulebook.rules.cache_clear()
        rulebook.defaults.cache_clear()
