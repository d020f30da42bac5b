"""old_math's loss patch on verl 0.9.1: the actor's and the critic's token-mean gradients equal, token
by token, what verl 0.7.1's legacy FSDP workers computed on the same inputs (the data file of
``scripts/make_old_loss_weights.py``; ``test_loss_data.py`` keeps it true), for data-parallel 1 and 2,
micro-batch 1/2/4 and dynamic batch size; without the patch they differ."""

import json
from pathlib import Path

import legacy_loss
import pytest
import torch

from verl_compat.fixes.old_math import loss

pytestmark = pytest.mark.once

DATA = Path(__file__).parent / "data" / "loss_weights_0.7.1.json"
FILE = json.loads(DATA.read_text())
SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "make_old_loss_weights.py"
# 0.9.1 cuts both DP ranks into the larger micro-batch count, the old workers each rank alone: the
# micro-batches differ, so no factor on the loss gives the old weights (old_math's row stays named
# for dynamic batch size with DP > 1 where the ranks' counts differ).
UNEQUAL_COUNTS = ("actor-dp2-dyn16", "critic-dp2-dyn16")
EQUAL = 1e-6  # float32: the same weights, summed in another order


def _flat(steps) -> torch.Tensor:
    return torch.cat([torch.as_tensor(step[name]).flatten() for step in steps for name in sorted(step)])


def relative_difference(new_steps, old_steps) -> float:
    new, old = _flat(new_steps), _flat(old_steps)
    return float((new - old).norm() / old.norm())


@pytest.fixture(scope="module")
def gradients():
    """0.9.1's gradients for every case, the patch applied, its switch off ("0") and on ("1")."""
    return legacy_loss.new_gradients(DATA, patch=True)


@pytest.mark.parametrize("name", [name for name in FILE["cases"] if name not in UNEQUAL_COUNTS])
def test_patched_equals_legacy_workers(gradients, name):
    difference = relative_difference(gradients[("1", name)], FILE["cases"][name]["gradients"])
    assert difference < EQUAL, f"{name}: ‖g_patched − g_0.7.1‖/‖g_0.7.1‖ = {difference:.3g}"


@pytest.mark.parametrize("name", list(FILE["cases"]))
def test_unpatched_differs(gradients, name):
    """The baseline: 0.9.1's own normalisation (the patch's switch off) is not the old one."""
    difference = relative_difference(gradients[("0", name)], FILE["cases"][name]["gradients"])
    assert difference > 0.05, f"{name}: {difference:.3g}"


@pytest.mark.parametrize("name", UNEQUAL_COUNTS)
def test_unequal_micro_batch_counts_stay_different(gradients, name):
    """Where DP ranks would cut a mini-batch into different counts, 0.9.1's micro-batches are not
    the old ones: the patch cannot make the weights equal, and the test says so."""
    assert relative_difference(gradients[("1", name)], FILE["cases"][name]["gradients"]) > 0.05


def test_cases_match_the_script():
    """The data file holds every case the script defines, and only those."""
    import runpy

    script = runpy.run_path(str(SCRIPT))
    assert sorted(FILE["cases"]) == sorted(script["case_name"](case) for case in script["CASES"])
    assert tuple(script["UNEQUAL_COUNTS"]) == UNEQUAL_COUNTS


def test_patches_for_the_losses_module():
    from verl.workers.utils import losses

    assert [patch.path for patch in loss.patches_for(losses)] == ["ppo_loss", "value_loss"]


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({}, True),  # verl's defaults: FSDP, token-mean, vanilla
        ({"actor_rollout_ref.actor.loss_agg_mode": "seq-mean-token-mean"}, False),
        ({"actor_rollout_ref.actor.strategy": "megatron", "critic.strategy": "megatron"}, False),
        ({"actor_rollout_ref.actor.policy_loss.loss_mode": "gspo"}, False),
        (
            {"actor_rollout_ref.actor.loss_agg_mode": "seq-mean-token-mean", "algorithm.adv_estimator": "gae"},
            True,  # the critic's token-mean still applies
        ),
        ({"trainer.use_legacy_worker_impl": "disable"}, False),
    ],
)
def test_applies(overrides, expected):
    config = {
        "actor_rollout_ref": {
            "actor": {"strategy": "fsdp", "loss_agg_mode": "token-mean", "policy_loss": {"loss_mode": "vanilla"}}
        },
        "critic": {"strategy": "fsdp", "loss_agg_mode": "token-mean", "enable": None},
        "algorithm": {"adv_estimator": "grpo"},
        "trainer": {},
    }
    for key, value in overrides.items():
        *parents, last = key.split(".")
        node = config
        for part in parents:
            node = node[part]
        node[last] = value
    assert loss.applies(config) is expected
