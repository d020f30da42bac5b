"""A ``data.pt`` of verl <= 0.6.x on verl 0.7.0+ (verl#4156: torch's ``RandomSampler`` → torchdata's).

The files and the batches verl 0.6.1 serves when it resumes from them are verl 0.6.1's own
(``scripts/old_dataloader_state.py``, checked against 0.6.1 in its environment). The loaders here are
the installed verl's own (``_create_dataloader``, ``tests/support/trainer_loaders.py``); the fit in
``tests/fits/test_old_checkpoints.py`` resumes through verl's ``_load_checkpoint``.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from paths import REPO
from trainer_loaders import indices, train_loader

from verl_compat.fixes.old_checkpoints import dataloader_state

DATA = Path(__file__).parent / "data"
EXPECTED = json.loads((DATA / "dataloader_v0_6_1.json").read_text())
WORKERS = sorted(int(w) for w in EXPECTED["workers"])


def old_state(workers: int):
    return torch.load(DATA / f"data_v0_6_1_workers{workers}.pt", weights_only=False)


def rest_of_epoch(loader) -> list[list[int]]:
    return [indices(batch) for batch in loader]


def new_sampler() -> bool:
    return dataloader_state.new_sampler_generator(train_loader()) is not None


torchdata_sampler = pytest.mark.skipif(not new_sampler(), reason="this verl samples with torch's RandomSampler")


@pytest.mark.skipif(new_sampler(), reason="needs verl 0.6.x's own sampler (the 0.6.1 environment)")
def test_the_files_are_what_verl_0_6_1_saves_and_serves():
    import verl

    if verl.__version__ != EXPECTED["verl"]:
        pytest.skip(f"the data are verl {EXPECTED['verl']}'s")
    script = REPO / "scripts" / "old_dataloader_state.py"
    env = {**os.environ, "VERL_COMPAT_DISABLE": "1"}  # verl alone
    result = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=300, env=env
    )
    assert result.returncode == 0, result.stdout + result.stderr


@torchdata_sampler
@pytest.mark.parametrize("workers", WORKERS)
def test_baseline_the_new_sampler_starts_the_epoch_over(workers):
    loader = train_loader(EXPECTED["batch_size"], workers)
    loader.load_state_dict(old_state(workers))
    rest = rest_of_epoch(loader)
    case = EXPECTED["workers"][str(workers)]
    assert len(rest) == len(loader)  # the whole epoch again: the rows of the step already trained too
    assert set(case["served_before"][0]) <= {row for batch in rest for row in batch}
    assert rest != case["resumed_rest_of_epoch"]


@torchdata_sampler
@pytest.mark.parametrize("workers", WORKERS)
def test_the_completed_state_serves_what_verl_0_6_1_served(workers):
    loader = train_loader(EXPECTED["batch_size"], workers)
    state = old_state(workers)
    assert dataloader_state.old_position(state) == EXPECTED["batch_size"] * EXPECTED["steps_done"]
    loader.load_state_dict(dataloader_state.upgraded(state, dataloader_state.new_sampler_generator(loader)))
    assert rest_of_epoch(loader) == EXPECTED["workers"][str(workers)]["resumed_rest_of_epoch"]


@torchdata_sampler
def test_a_state_of_the_new_kind_is_left_alone():
    loader = train_loader(EXPECTED["batch_size"])
    served = iter(loader)
    next(served)
    assert dataloader_state.old_position(loader.state_dict()) is None
