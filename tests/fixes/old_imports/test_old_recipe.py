"""A real old file on the installed verl: verl's own one-step-off-policy entry point at v0.7.1
(``data/one_step_off_main_ppo_v0_7_1.py``, unchanged), which imports ``create_rl_dataset`` and
``create_rl_sampler`` from ``verl.trainer.main_ppo``. Its imports run, and the two functions build a
dataset and a sampler on tiny data, exactly as its TaskRunner does."""

import importlib
import importlib.util
from pathlib import Path

import pytest
from harness import tiny_model_dir
from verl_config import verl_compose

from verl_compat.fixes.old_imports import installed, resolve

OLD_FILE = Path(__file__).resolve().parent / "data" / "one_step_off_main_ppo_v0_7_1.py"
MOVED = ("create_rl_dataset", "create_rl_sampler")


def test_the_old_recipe_imports_and_builds_its_data(shim, shim_warnings, tmp_path):
    if not installed.has("verl.experimental.one_step_off_policy.ray_trainer"):
        pytest.skip("this verl's wheel does not ship verl.experimental.one_step_off_policy")
    spec = importlib.util.spec_from_file_location("old_one_step_off_main_ppo", OLD_FILE)
    recipe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(recipe)

    fates = {name: resolve.fate("verl.trainer.main_ppo", name, installed.has) for name in MOVED}
    main_ppo = importlib.import_module("verl.trainer.main_ppo")
    for name, fate in fates.items():
        if fate is None:  # this verl still has it where the recipe looks
            assert getattr(recipe, name) is vars(main_ppo)[name]
        else:
            assert getattr(recipe, name) is getattr(importlib.import_module("verl.trainer.ppo.utils"), name)
    assert shim_warnings() == [fate.message() for fate in fates.values() if fate is not None]

    config = verl_compose(
        ["data.custom_cls.path=pkg://standins", "data.custom_cls.name=TinyGSM8K", "data.shuffle=False"]
    )
    from verl.utils import hf_tokenizer

    tokenizer = hf_tokenizer(str(tiny_model_dir(tmp_path / "model")))
    dataset = recipe.create_rl_dataset(config.data.train_files, config.data, tokenizer, None, max_samples=-1)
    sampler = recipe.create_rl_sampler(config.data, dataset)
    assert len(dataset) == 8 and list(sampler) == list(range(8))
    assert dataset[0]["raw_prompt"] == [{"role": "user", "content": "what is 1 plus 3 ?"}]
