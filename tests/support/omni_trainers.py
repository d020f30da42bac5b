"""verl-omni 0.2.0's trainers built for real on CPU, and their step-end profiling run as their
``fit()`` runs it, on a recording actor worker group.

Their ``fit()`` cannot run here: every step starts with a diffusion (or omni) rollout served by
vllm-omni, a GPU engine. What does run is verl-omni's own code up to and around that: the trainer's
``__init__`` (config, dataloaders, ``total_training_steps``) from verl-omni's own Hydra config, and
per step the ``_start_profiling``/``_stop_profiling`` calls its ``fit()`` makes, with the argument it
computes from ``global_profiler``. verl-omni is importable here thanks to ``tests/support/omni_standin``.
"""

import json
import os
import warnings
from pathlib import Path

from omegaconf import OmegaConf
from recording import RecordingWorkerGroup

STEPS = 3
LEGACY = ["actor_rollout_ref.actor.profiler.tool=torch_memory"]
_SMALL = ["data.train_batch_size=2", "data.val_batch_size=2", f"trainer.total_training_steps={STEPS}"]
_DPO_OFFLINE = ["algorithm.sample_source=offline", "algorithm.trainer_type=direct_preference"]

# family -> (verl-omni config name, trainer module, class, overrides that select it)
FAMILIES = {
    "policy_gradient": ("diffusion_trainer", "diffusion.ray_diffusion_trainer", "PolicyGradientRayTrainer", []),
    "direct_preference": (
        "diffusion_trainer",
        "diffusion.ray_diffusion_trainer",
        "DirectPreferenceRayTrainer",
        [*_DPO_OFFLINE, "actor_rollout_ref.actor.diffusion_loss.loss_mode=dpo"],
    ),
    "omni_direct_preference": (
        "omni_trainer",
        "omni.ray_omni_trainer",
        "OmniDirectPreferenceRayTrainer",
        [
            *_DPO_OFFLINE,
            "actor_rollout_ref.model.model_type=omni_model",
            "actor_rollout_ref.actor.omni_loss.loss_mode=dpo",
        ],
    ),
    # verl's v1 PPOTrainerSync with verl-omni's tokenizer loading; run_omni's default (v1) path.
    "omni_ppo_sync": ("omni_trainer", "omni.ray_omni_trainer", "OmniPPOTrainerSync", ["trainer.use_v1=True"]),
}


def trainer_class(family: str) -> type:
    import importlib

    _, module, name, _ = FAMILIES[family]
    return getattr(importlib.import_module(f"verl_omni.trainer.{module}"), name)


def compose(family: str, overrides=(), workdir=None):
    """verl-omni's own config for ``family``, small, with ``overrides`` and the profiler's
    ``save_path`` under ``workdir``."""
    import verl_omni
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    config_name, _, _, selects = FAMILIES[family]
    where = [f"global_profiler.save_path={Path(workdir) / 'prof'}"] if workdir else []
    config_dir = os.path.join(os.path.dirname(verl_omni.__file__), "trainer", "config")
    with initialize_config_dir(config_dir=config_dir, version_base=None):
        return hydra_compose(config_name, overrides=[*selects, *_SMALL, *where, *overrides])


def build(family: str, config):
    """The trainer, through its real ``__init__``, as verl-omni's task runners build it before
    ``init_workers()`` (a placeholder role mapping; the datasets in memory)."""
    from verl.trainer.ppo.utils import Role

    if family == "omni_ppo_sync":  # verl's v1 PPOTrainer.__init__(config); init() builds the rest
        trainer = trainer_class(family)(config)
        trainer.total_training_steps = STEPS  # set by init() from the dataloader
        return trainer
    data = [{"prompt": str(i)} for i in range(4)]
    role = Role.Actor if config.algorithm.get("sample_source") == "offline" else Role.ActorRollout
    return trainer_class(family)(
        config, None, {role: object}, None, train_dataset=data, val_dataset=data, collate_fn=list
    )


def run_step_ends(trainer, steps=STEPS) -> list:
    """Each step's profiling calls as verl-omni's ``fit()`` makes them (``_start_profiling`` at the
    step's start, ``_stop_profiling`` at its end, with ``global_steps`` N during step N), on a
    recording actor worker group; returns the calls it recorded."""
    trainer.actor_rollout_wg = RecordingWorkerGroup()
    trainer.ref_policy_wg = trainer.actor_rollout_wg
    configured = trainer.config.global_profiler.steps
    v1 = not _takes_do_profile(trainer)
    if v1:  # verl's v1 fit() keeps the flags on the trainer (PPOTrainer.fit, before its loop)
        trainer.prev_step_profile, trainer.next_step_profile = False, False
        trainer.curr_step_profile = configured is not None and 1 in configured
        trainer.critic_wg = trainer.actor_rollout_wg
        trainer._start_rollout_profiling = trainer._stop_rollout_profiling = lambda *a, **k: None  # GPU servers
    for step in range(1, steps + 1):
        trainer.global_steps = step
        profile = configured is not None and step in configured
        if v1:
            trainer._start_profiling()
            trainer._stop_profiling()
        else:
            trainer._start_profiling(profile)
            trainer._stop_profiling(profile)
    return trainer.actor_rollout_wg.calls


def _takes_do_profile(trainer) -> bool:
    import inspect

    return "do_profile" in inspect.signature(trainer._stop_profiling).parameters


def one_pair_per_step(steps=STEPS) -> list:
    """What the shim drives on the actor worker group after each step (``run_command``, 0.9.1+, on
    the last step only)."""
    from verl_compat.fixes.torch_memory import probes

    calls = []
    for step in range(1, steps + 1):
        stop = {"run_command": step == steps} if probes.stop_profile_takes_run_command() else {}
        calls += [("start_profile", {"profile_step": step}), ("stop_profile", stop)]
    return calls


class OmniTrainerProbe:
    """Takes the place of ``main_diffusion.TaskRunner`` (which builds GPU workers) in its Ray actor:
    receives the config the launcher shipped, resolves it as that runner does, builds verl-omni's
    real ``PolicyGradientRayTrainer`` from it, runs its step-end profiling, and writes what it saw
    to ``probe.json`` beside the profiler's ``save_path``."""

    def run(self, config):
        received = OmegaConf.to_container(config.actor_rollout_ref.actor.profiler, resolve=True)
        OmegaConf.resolve(config)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            trainer = build("policy_gradient", config)
            calls = run_step_ends(trainer)
        profiler = OmegaConf.to_container(trainer.config.actor_rollout_ref.actor.profiler)
        seen = {
            "received": received,
            "profiler": profiler,
            "calls": calls,
            # By name: this module imports nothing of verl-compat (the launchers that use it must not).
            "warnings": sum(w.category.__name__ == "VerlCompatDeprecationWarning" for w in caught),
            "pid": os.getpid(),
        }
        out = Path(config.global_profiler.save_path).parent / "probe.json"
        out.write_text(json.dumps(seen))
