"""``verl-compat doctor --trainer module:Class``: whether the torch_memory fix reaches a trainer of the
user's own, and its exit status before a long run."""

import json
import os

import paths
import pytest
from pyrun import run_argv

SUPPORT = str(paths.SUPPORT)
SERVED, UNKNOWN, NO_STEP_END = (
    f"doctor_trainers:{name}" for name in ("OwnStopWithoutSuper", "UnknownStopSignature", "NoStepEnd")
)


def doctor(*argv):
    env = {
        "PYTHONPATH": os.pathsep.join(filter(None, [SUPPORT, os.environ.get("PYTHONPATH")])),
        "VERL_COMPAT_DISABLE": None,
    }
    return run_argv(["-m", "verl_compat", "doctor", *argv], env=env, check=False)


@pytest.fixture(scope="module")
def report():
    run = doctor("--json", "--trainer", SERVED, "--trainer", UNKNOWN, "--trainer", NO_STEP_END)
    return run.returncode, json.loads(run.stdout), run.stderr


def test_a_covered_class_says_how_and_exits_0():
    run = doctor("--trainer", SERVED)
    assert run.returncode == 0, run.stderr
    block = run.stdout.split(f"trainer: {SERVED}\n")[1].split("\n\n")[0]
    section = [" ".join(line.split()) for line in block.splitlines()]
    assert "legacy config served yes" in section
    assert "_stop_profiling wrapped (own)" in section
    assert "__init__ wrapped (inherited from RayPPOTrainer)" in section
    section = "\n".join(section)
    assert "actor_rollout_wg.start_profile(profile_step=N)" in section
    assert "actor_rollout_wg.dump_memory_snapshot" in section  # the legacy call it turns into a no-op


@pytest.mark.parametrize("shape", ["LegacyCallAfterSuper", "LegacyCallWithoutSuper"])
def test_a_legacy_call_inside_the_step_end_is_covered_and_says_why(shape):
    """The legacy call made inside an own ``_stop_profiling`` (after ``super()`` through a helper, or
    without ``super()``) is served: neutralised as the step end starts, driven after it returns."""
    run = doctor("--trainer", f"doctor_trainers:{shape}")
    assert run.returncode == 0, run.stderr
    block = run.stdout.split(f"trainer: doctor_trainers:{shape}\n")[1].split("\n\n")[0]
    section = " ".join(block.split())
    assert "legacy config served yes" in section
    assert "_stop_profiling wrapped (own)" in section
    # verl's own fit() makes the legacy call too up to 0.7.x ("made in _stop_profiling and fit").
    assert "legacy call made in _stop_profiling" in section
    assert "a no-op on the trainer's worker groups from the start of each step end" in section


def test_uncovered_shapes_are_named_with_the_reason_and_a_non_zero_exit(report):
    code, data, stderr = report
    by_name = {trainer["name"]: trainer["fixes"]["torch_memory"] for trainer in data["trainers"]}
    assert by_name[SERVED]["served"] is True
    assert by_name[UNKNOWN]["served"] is False
    assert "a coroutine or a signature verl-compat does not know" in by_name[UNKNOWN]["why"]
    assert by_name[NO_STEP_END]["served"] is False
    assert "never calls _stop_profiling" in by_name[NO_STEP_END]["why"]
    assert "makes the legacy dump_memory_snapshot call" in by_name[NO_STEP_END]["fit"]
    assert code == data["exit_code"] == 7
    reasons = [p["reason"] for p in data["problems"] if p["exit_code"] == 7]
    assert len(reasons) == 2 and all(r.startswith("torch_memory does not serve doctor_trainers:") for r in reasons)
    assert stderr.strip().splitlines()[-1] == f"verl-compat doctor: {reasons[0]}"


def test_a_name_that_does_not_import_exits_2_with_the_error_in_one_line():
    run = doctor("--trainer", "no_such_module_here:Trainer")
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.strip().splitlines() == [
        "verl-compat doctor: cannot import no_such_module_here:Trainer: ModuleNotFoundError: "
        "No module named 'no_such_module_here'"
    ]


def test_an_init_out_of_reach_is_not_served_and_status_says_who_translates(shim):
    """In process: ``coverage`` (doctor's view) and the fix's ``status()`` entry read the same
    structured reach. The step end is driven, so the fix counts the class as patched, with the
    config left to the launcher's ``run_ppo``; doctor, which cannot know the launcher, says no."""
    import doctor_trainers

    from verl_compat.fixes import torch_memory

    coverage = torch_memory.describe_trainer(doctor_trainers.InitFromAMixin)
    assert coverage["served"] is False
    assert coverage["why"] == (
        "its __init__ is not wrapped (inherited from _ConfigHolder): the config is not translated before its"
        " workers are built"
    )
    entry = shim.status()["fixes"]["torch_memory"]["trainers"]["doctor_trainers.InitFromAMixin"]
    assert entry == {
        "patched": True,
        "__init__": "not wrapped (inherited from _ConfigHolder); the config is translated by the launcher's"
        " run_ppo, before the trainer's Ray actor exists",
        "_stop_profiling": "wrapped (inherited from RayPPOTrainer)",
    }
