"""verl 0.6.1's ``recipe/dapo`` trainer, its own ``fit()`` and reward calls included, gives on verl
0.9.1 with verl-compat, step by step, what it gives natively on verl 0.6.1.

The trainer is ``recipe_dapo_trainer.RayDAPOTrainer`` (the recipe's ``fit()``: ``self.reward_fn``,
``compute_reward(new_batch, self.reward_fn)``, ``algorithm.filter_groups``), launched as the recipe's
``main_dapo`` launched it (``recipe_dapo.main_dapo_fit``: the positional ``load_reward_manager``).
The expectation is verl 0.6.1's own run: ``scripts/recipe_dapo_expected.py``, run with the 0.6.1
environment, writes it to ``tests/fits/data/recipe_dapo_v0_6_1.json``; on 0.6.1 this file checks
that the data file is still what 0.6.1 gives, and on the newest release that the recipe gives the
same: the validation metrics, and for each step the generation batches filter_groups used, the uid
groups the actor trained on with each sample's score, the score metrics and verl's own rollout dump.
"""

import inspect
import json
from pathlib import Path

import pyrun
import pytest
from verl.trainer.ppo.ray_trainer import RayPPOTrainer

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "recipe_dapo_expected.py"
EXPECTED = Path(__file__).resolve().parent / "data" / "recipe_dapo_v0_6_1.json"
NATIVE = "reward_fn" in inspect.signature(RayPPOTrainer.__init__).parameters  # verl <= 0.6 runs the recipe itself


def expected() -> dict:
    return json.loads(EXPECTED.read_text())


@pytest.mark.skipif(not NATIVE, reason="verl 0.7.1+ no longer runs old reward code itself")
def test_the_data_file_is_what_verl_0_6_1_gives():
    """The script's own run, in a fresh process with verl-compat off, as it wrote the file."""
    run = pyrun.run_argv([SCRIPT, "--stdout"], timeout=480)
    assert pyrun.last_json(run) == expected()


@pytest.mark.once
def test_the_recipe_fit_gives_what_it_gave_on_verl_0_6_1(shim, tmp_path):
    import recipe_dapo

    got, want = recipe_dapo.run(tmp_path), expected()
    assert got["validation"] == want["validation"]
    assert sorted(got["steps"]) == sorted(want["steps"])
    for step, expected_step in want["steps"].items():
        step_got = got["steps"][step]
        assert step_got["num_gen_batches"] == expected_step["num_gen_batches"], f"step {step}"
        assert step_got["groups"] == expected_step["groups"], f"step {step}: the kept groups and their scores"
        assert step_got["metrics"] == expected_step["metrics"], f"step {step}"
        assert step_got["dump"] == expected_step["dump"], f"step {step}: verl's rollout dump"
