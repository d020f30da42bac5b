"""The torch_memory fix in verl-omni 0.2.0's trainers (verl's diffusion trainer moved there, and the
legacy call with it was deleted: the legacy key alone dumps nothing).

Per family, what runs for real (``omni_trainers``): verl-omni's own config, the trainer's own
``__init__``, and its own ``_start_profiling``/``_stop_profiling`` called per step as its ``fit()``
calls them, on a recording actor worker group. No ``fit()`` runs: every step of the diffusion and
omni-DPO trainers begins with a vllm-omni rollout (GPU), and ``OmniPPOTrainerSync`` (verl's v1
``PPOTrainerSync``, inherited ``__init__`` and step-end methods) loads its tokenizer through an omni
model adapter that verl-omni 0.2.0 registers for Qwen3-Omni only, which the CPU stand-in model is not.
``diffusion/v1`` (``PolicyGradientDiffusionTrainerV1`` and subclasses) has no profiling call at all
in 0.2.0, so there is nothing there to drive; it is not imported here (it imports verl's vLLM rollout).
"""

import logging

import omni_trainers
import pytest
from omni_trainers import FAMILIES, LEGACY
from pyrun import last_json, run_python

import verl_compat
from verl_compat.fixes import torch_memory

pytestmark = pytest.mark.omni


@pytest.mark.parametrize("family", FAMILIES)
def test_baseline_legacy_key_drives_nothing(family, no_shim, shim_warnings, tmp_path):
    config = omni_trainers.compose(family, LEGACY, tmp_path)
    trainer = omni_trainers.build(family, config)

    assert omni_trainers.run_step_ends(trainer) == []
    profiler = config.actor_rollout_ref.actor.profiler  # what init_workers() would hand the workers
    assert (profiler.enable, profiler.all_ranks) == (False, False)
    assert shim_warnings() == []


@pytest.mark.parametrize("family", FAMILIES)
def test_legacy_key_one_pair_per_step(family, shim, shim_warnings, tmp_path):
    config = omni_trainers.compose(family, LEGACY, tmp_path)
    trainer = omni_trainers.build(family, config)

    assert omni_trainers.run_step_ends(trainer) == omni_trainers.one_pair_per_step()
    profiler = config.actor_rollout_ref.actor.profiler
    assert (profiler.enable, profiler.all_ranks) == (True, True)
    [message] = shim_warnings()
    assert "(legacy per-step snapshots)" in message and f"{tmp_path / 'prof'}" in message
    cls = omni_trainers.trainer_class(family)
    entry = shim.status()["fixes"]["torch_memory"]["trainers"][f"{cls.__module__}.{cls.__qualname__}"]
    assert entry["patched"] is True


def test_new_style_config_is_left_alone(shim, shim_warnings, tmp_path):
    """The documented form: the trainer's own start/stop at the configured steps, nothing added.
    verl-omni's diffusion config sets the actor's tool to ``torch`` itself (verl's interpolates
    ``global_profiler.tool``), so the actor's key is given too."""
    overrides = [
        "global_profiler.tool=torch_memory",
        "actor_rollout_ref.actor.profiler.tool=torch_memory",
        "global_profiler.steps=[1,2]",
        "actor_rollout_ref.actor.profiler.enable=True",
        "actor_rollout_ref.actor.profiler.all_ranks=True",
    ]
    trainer = omni_trainers.build("policy_gradient", omni_trainers.compose("policy_gradient", overrides, tmp_path))

    calls = omni_trainers.run_step_ends(trainer)

    # Its own calls only, at the configured steps, exactly as it makes them (no reference policy here).
    assert calls == [
        ("start_profile", {"role": "e2e", "profile_step": 1}), ("stop_profile", {}),
        ("start_profile", {"role": "e2e", "profile_step": 2}), ("stop_profile", {}),
    ]  # fmt: skip
    assert shim_warnings() == [] and shim.status()["fixes"]["torch_memory"]["case"] == torch_memory.Case.NEW_STYLE


def test_a_missing_class_is_one_log_line_and_the_rest_is_patched(monkeypatch, caplog):
    """verl-omni present but a listed class renamed: one line naming it, the others patched."""
    from verl_omni.trainer.diffusion import ray_diffusion_trainer  # noqa: F401  (the rest, to be patched)
    from verl_omni.trainer.omni import ray_omni_trainer

    verl_compat.deactivate()
    monkeypatch.delattr(ray_omni_trainer, "OmniDirectPreferenceRayTrainer")
    try:
        with caplog.at_level(logging.DEBUG, logger="verl_compat"):
            verl_compat.activate()
        patched = verl_compat.status()["fixes"]["torch_memory"]["patched"]
    finally:
        verl_compat.deactivate()

    lines = [r for r in caplog.records if "OmniDirectPreferenceRayTrainer" in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelno == logging.INFO and "class not found" in lines[0].getMessage()
    assert "verl_omni.trainer.diffusion.ray_diffusion_trainer:BaseRayDiffusionTrainer._stop_profiling" in patched


ABSENT = """
import importlib, json, logging, os, sys
sys.modules["verl_omni"] = None  # as where verl-omni is not installed: every import of it fails
records = []
handler = logging.Handler()
handler.emit = records.append
logging.getLogger("verl_compat").addHandler(handler)
logging.getLogger("verl_compat").setLevel(logging.DEBUG)
del os.environ["VERL_COMPAT_DISABLE"]  # set for the interpreter start: no auto-load before this
import verl_compat
from verl_compat.fixes import propagation
from verl_compat.fixes import torch_memory
assert verl_compat.activate()
for name in verl_compat.patching.targets(torch_memory) + propagation.TARGETS:
    try:
        importlib.import_module(name)
    except ImportError:
        pass
status = verl_compat.status()["fixes"]
print(json.dumps({
    "above_debug": [r.getMessage() for r in records if r.levelno > logging.DEBUG],
    "patched": status["torch_memory"]["patched"],
    "errors": [status[fix]["errors"] for fix in status],
}))
"""


def test_verl_omni_absent_logs_nothing_above_debug():
    """Where verl-omni is not installed the fix says nothing about it; verl is patched as ever."""
    seen = last_json(run_python(ABSENT, env={"VERL_COMPAT_DISABLE": "1"}))

    assert seen["above_debug"] == []
    assert "verl.trainer.ppo.v1.trainer_base:PPOTrainer._stop_profiling" in seen["patched"]
    assert not any(target.startswith("verl_omni") for target in seen["patched"])
    assert seen["errors"] == [{}] * len(seen["errors"])
