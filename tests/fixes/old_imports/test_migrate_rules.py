"""old_imports' import rule for ``verl-compat migrate`` (``migrate_rules.py``), on the installed verl:
the same table and rules as at run time, against verl's files. The paths are ones every release of the
suite (0.6.1 on) lacks in the same way (moved or removed in 0.6.0)."""

import textwrap

from pyrun import run_python

from verl_compat.fixes.old_imports.migrate_rules import RULES
from verl_compat.migrate_contract import ImportRule

(RULE,) = RULES


def test_a_moved_name_and_module_and_a_removed_name():
    assert isinstance(RULE, ImportRule) and RULE.packages == ("verl",)
    moved = RULE.fate("verl.trainer.ppo.ray_trainer", "Worker")
    assert (moved.kind, moved.module, moved.name) == ("moved", "verl.single_controller.base", "Worker")
    module = RULE.fate("verl.utils.reward_score.math", None)
    assert (module.kind, module.module, module.name) == ("moved", "verl.utils.reward_score.math_reward", None)
    submodule = RULE.fate("verl.utils.reward_score", "math")
    assert (submodule.module, submodule.name) == ("verl.utils.reward_score", "math_reward")
    removed = RULE.fate("verl.single_controller.base.decorator", "dispatch_megatron_compute")
    assert removed.kind == "removed" and removed.module is None
    assert removed.message.startswith(
        "verl-compat: verl.single_controller.base.decorator.dispatch_megatron_compute was removed in verl 0.6.0"
    )


def test_what_verl_has_or_the_table_does_not_know_has_no_fate():
    assert RULE.fate("verl.trainer.ppo.ray_trainer", "RayPPOTrainer") is None
    assert RULE.fate("verl.protocol", "DataProto") is None
    assert RULE.fate("verl.no_such_module", None) is None


def test_may_concern_answers_from_the_table_alone():
    assert RULE.may_concern("verl.utils.reward_score.math", ())  # a module row
    assert RULE.may_concern("verl.trainer.ppo.ray_trainer", ("Worker",))  # a name row
    assert not RULE.may_concern("verl.trainer.ppo.ray_trainer", ("RayPPOTrainer",))
    assert not RULE.may_concern("verl.protocol", ("DataProto",))


def test_the_table_is_read_at_the_first_question_only():
    """migrate loads every fix's rules on each run: one over scripts and YAML never reads the table."""
    block = textwrap.dedent("""\
        import sys
        from verl_compat.fixes.old_imports.migrate_rules import RULES
        before = "verl_compat.fixes.old_imports.table" in sys.modules
        RULES[0].may_concern("verl.protocol", ())
        print(before, "verl_compat.fixes.old_imports.table" in sys.modules)
        """)
    assert run_python(block).stdout == "False True\n"
