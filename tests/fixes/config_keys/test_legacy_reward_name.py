"""An old launch that set only ``custom_reward_function.path`` (verl <= 0.6 defaulted the name to
``compute_score``) finds its function through verl's own loader, on every release: natively on 0.6.x,
through config_keys' translation on 0.9.x, and, on 0.7.1/0.8.0, which migrate the legacy block
themselves (``migrate_legacy_reward_impl`` in ``main_ppo``) from a block whose name defaults to null,
through the old default set at composition. verl's own migration and ``get_custom_reward_fn`` run on
the composed config (no Ray)."""

import sys
import textwrap

import pytest
from pyrun import run_argv
from verl_config import verl_compose

from verl_compat.fixes.config_keys import legacy_defaults, readers, translate
from verl_compat.fixes.config_keys.table import LEGACY_REWARD

MAIN_PPO = "verl.trainer.main_ppo"
NAME = legacy_defaults.NAME_KEY


@pytest.fixture
def reward_file(tmp_path, monkeypatch):
    # verl 0.6.1's get_custom_reward_fn reuses any file already imported as "custom_module" (another
    # test's in this process): this test's file must be the one it loads.
    monkeypatch.delitem(sys.modules, "custom_module", raising=False)
    path = tmp_path / "my_reward.py"
    path.write_text(
        textwrap.dedent(
            """\
            def compute_score(data_source, solution_str, ground_truth, extra_info=None):
                return float(solution_str.split()[-1] == ground_truth)


            def other_score(data_source, solution_str, ground_truth, extra_info=None):
                return 0.25
            """
        )
    )
    return path


def migrates_itself() -> bool:
    """Whether this release's ``main_ppo`` moves the legacy block into ``reward.*`` itself (0.7.1,
    0.8.0; read in its source)."""
    return readers.calls(LEGACY_REWARD.entry, LEGACY_REWARD.function)


def as_verl_reads_it(config):
    """The config the reward workers get: after verl's own migration where ``main_ppo`` runs it."""
    if migrates_itself():
        from verl.experimental.reward_loop import migrate_legacy_reward_impl

        return migrate_legacy_reward_impl(config)
    return config


def legacy_name_defaults_to_null() -> bool:
    """Whether this release declares the legacy block with ``name: null`` and migrates it itself."""
    from omegaconf import OmegaConf

    if not migrates_itself():
        return False
    declared = OmegaConf.select(verl_compose([]), NAME, default="absent")
    return declared is None


def test_the_old_default_holds_where_verl_migrates_the_legacy_block(shim, shim_warnings, reward_file):
    from verl.trainer.ppo.reward import get_custom_reward_fn

    config = verl_compose([f"custom_reward_function.path={reward_file}"])
    function = get_custom_reward_fn(as_verl_reads_it(config))
    assert function("openai/gsm8k", "the answer is 7", "7") == 1.0  # compute_score, not other_score
    said = translate.Finding(legacy_defaults.ROW, NAME, "", NAME, f"{NAME}={legacy_defaults.OLD_DEFAULT}").warning()
    assert [w for w in shim_warnings() if NAME in w] == ([said] if legacy_name_defaults_to_null() else [])


def test_a_name_that_was_set_is_left_as_it_is(shim, shim_warnings, reward_file):
    from verl.trainer.ppo.reward import get_custom_reward_fn

    config = verl_compose([f"custom_reward_function.path={reward_file}", "custom_reward_function.name=other_score"])
    assert get_custom_reward_fn(as_verl_reads_it(config))("openai/gsm8k", "7", "7") == 0.25
    assert not [w for w in shim_warnings() if "is not set" in w]


def test_baseline_without_verl_compat_verls_own_loader_asserts_a_name(no_shim, reward_file):
    from verl.trainer.ppo.reward import get_custom_reward_fn

    if not legacy_name_defaults_to_null():
        pytest.skip("this release's legacy custom_reward_function.name is not null, or verl does not migrate it")
    config = verl_compose([f"custom_reward_function.path={reward_file}"])
    with pytest.raises(AssertionError):
        get_custom_reward_fn(as_verl_reads_it(config))


def test_cfg_job_shows_the_old_default(reward_file, tmp_path):
    if not legacy_name_defaults_to_null():
        pytest.skip("this release's legacy custom_reward_function.name is not null, or verl does not migrate it")
    argv = ["-m", MAIN_PPO, f"custom_reward_function.path={reward_file}", "--cfg", "job"]
    result = run_argv(argv, cwd=tmp_path)
    block = result.stdout[result.stdout.index("\ncustom_reward_function:") :].split("\n", 4)[:4]
    assert f"  name: {legacy_defaults.OLD_DEFAULT}" in block, result.stdout
    assert f"{NAME} is not set" in result.stderr
