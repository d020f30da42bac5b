"""Old reward setups on today's verl with verl-compat give what old verl itself gave.

The expectations are not computed here: verl 0.6.1, the last release that builds and calls old
managers and ``reward_fn`` itself, ran each setup of ``old_reward_oracle.SETUPS`` natively, and
``scripts/old_reward_fits_expected.py`` kept what it gave in ``tests/fits/data/old_reward_fits_v0_6_1.json``:
each step's scores and ``reward_extra_info`` (verl's own rollout dump), the validation metrics it
logged, and the columns (names, values) the old code received. The same setups' fits on the newest
release are compared with that file: unlike a fresh old manager called on the batch verl-compat
produced (``test_old_rewards.py``), it sees a reward model's scores stripped, a ``compute_score``
built otherwise, a dataset column missing, ``data.reward_fn_key`` ignored.

On 0.6.1 a setup runs again and must give the file exactly, so the data stays what old verl gives.
"""

import pytest
from old_reward_oracle import NATIVE, RM_LAYOUTS, SETUPS, Setup, differences, load, reward_model_serving, run_setup

CASES = [
    pytest.param(name, layout, id=f"{name}-{layout}" if layout else name)
    for name, setup in SETUPS.items()
    for layout in (RM_LAYOUTS if setup.reward_model and not NATIVE else (None,))
]


@pytest.mark.once
@pytest.mark.parametrize(("name", "rm_layout"), CASES)
def test_an_old_reward_setup_gives_what_old_verl_gave(shim, tmp_path, name, rm_layout):
    expected = load()["setups"][name]
    result, found = run_setup(name, tmp_path, rm_layout)
    result.raise_error()
    departures = differences(found, expected)
    if departures:
        pytest.fail(f"{name} departs from what verl {load()['verl']} gave:\n" + "\n".join(departures), pytrace=False)


@pytest.mark.skipif(not NATIVE, reason="verl 0.7.1+ no longer calls old reward code itself")
def test_the_data_file_is_what_old_verl_gives_now(shim, tmp_path):
    """A reward model's scores combined with a rule score by an old manager: the RM worker, the
    recorded columns and the validation all taken again, on the release that wrote the file (with
    verl-compat active, which leaves 0.6.1's rewards alone)."""
    result, found = run_setup("rm_plus_rule", tmp_path)
    result.raise_error()
    assert found == load()["setups"]["rm_plus_rule"]


@pytest.mark.once
@pytest.mark.skipif(NATIVE, reason="verl 0.9's reward loop")
@pytest.mark.parametrize("rm_layout", RM_LAYOUTS)
def test_the_reward_model_stand_in_serves_verls_own_reward_loop(no_shim, tmp_path, rm_layout):
    """No old code and no verl-compat: verl's own naive manager with a reward model, in today's keys.
    verl's RewardModelManager, router and RewardLoopWorker.compute_score_disrm reach the /classify
    stand-in, and each training step is scored with what 0.6.1's reward model worker gave."""
    own = Setup(
        "rm_verl_own",
        lambda workdir, layout: [
            "reward.reward_model.enable=True",
            f"reward.reward_model.model_path={workdir / 'model'}",
            f"reward.reward_model.enable_resource_pool={layout == 'standalone'}",
            *reward_model_serving(),
        ],
        reward_model=True,
    )
    result, found = run_setup(own, tmp_path, rm_layout)
    result.raise_error()
    assert found["steps"] == load()["setups"]["rm_naive"]["steps"]
