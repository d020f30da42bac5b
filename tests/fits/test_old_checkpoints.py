"""An old run's ``data.pt`` resumed by verl's real ``RayPPOTrainer.fit()`` (CPU stand-ins, real Ray):
the rows each step trains on after the resume (the stand-in rollout logs the rows it is served).

The checkpoint's ``data.pt`` and the rows verl 0.6.1 serves when it resumes from it are verl 0.6.1's
own (``scripts/old_dataloader_state.py``; the same dataset, batch size and seed as the harness's
runs). 0.7.0+ samples with torchdata's ``RandomSampler`` (verl#4156): without verl-compat the resumed
run starts the epoch over. ``sides``: 0.7.1 and the newest release.
"""

import json
import shutil
from pathlib import Path

import pytest
from harness import compose_config, run_fit

pytestmark = pytest.mark.sides

DATA = Path(__file__).resolve().parents[1] / "fixes" / "old_checkpoints" / "data"
EXPECTED = json.loads((DATA / "dataloader_v0_6_1.json").read_text())
OLD = EXPECTED["workers"]["0"]  # the harness's runs load with no loader workers


def resumed_fit(tmp_path):
    """Resume at ``global_step_1`` of an old run whose only file is verl 0.6.1's ``data.pt`` (the
    stand-in workers load no weights); the harness's runs stop after step 3."""
    step = tmp_path / "old_run" / f"global_step_{EXPECTED['steps_done']}"
    step.mkdir(parents=True)
    shutil.copy(DATA / "data_v0_6_1_workers0.pt", step / "data.pt")
    overrides = ["trainer.resume_mode=resume_path", f"trainer.resume_from_path={step}"]
    result = run_fit(compose_config(overrides, tmp_path / "run"))
    result.raise_error()
    return result


def trained_rows(result) -> list[list[int]]:
    """The rows of each training step, in order (validation left out)."""
    calls = result.calls.get("agent_loop_manager", [[]])[0]
    served = [c["kwargs"] for c in calls if c["method"] == "generate_sequences"]
    return [c["indices"] for c in served if not c["validate"]]


def test_baseline_the_resumed_run_trains_the_epoch_over(no_shim, tmp_path):
    trained = trained_rows(resumed_fit(tmp_path))
    assert len(trained) == 2  # steps 2 and 3
    assert trained != OLD["resumed_rest_of_epoch"][:2]


def test_the_resumed_run_trains_on_what_verl_0_6_1_served(shim, shim_warnings, tmp_path):
    trained = trained_rows(resumed_fit(tmp_path))
    assert trained == OLD["resumed_rest_of_epoch"][:2]
    warned = [w for w in shim_warnings() if "data.pt" in w]
    assert len(warned) == 1 and "resumes at sample 2" in warned[0], warned
