"""A worker group that records the profiling calls a trainer makes on it, for the trainers whose
own loop cannot run on CPU (``OneStepOffRayTrainer``'s and ``FullyAsyncTrainer``'s async loops need
GPU rollout servers): the real trainer object is built, and its real step-end code drives this."""

import json
import os
from pathlib import Path


class RecordingWorkerGroup:
    """Stands in for ``trainer.actor_rollout_wg``: ``calls`` holds ``(method, kwargs)`` in order."""

    def __init__(self):
        self.calls = []

    def start_profile(self, **kwargs):
        self.calls.append(("start_profile", kwargs))

    def stop_profile(self, **kwargs):
        self.calls.append(("stop_profile", kwargs))


def run_step_ends(trainer, steps=(1, 2, 3)) -> list:
    """Run the separation trainers' step-end profiling (``_fit_stop_profile``, which ``fit_step``
    calls) for each of ``steps``, on a recording actor worker group; return its calls."""
    trainer.actor_rollout_wg = RecordingWorkerGroup()
    trainer.total_training_steps = max(steps)
    for step in steps:
        trainer.global_steps = step
        trainer._fit_stop_profile()
    return trainer.actor_rollout_wg.calls


class FullyAsyncTrainerProbe:
    """Takes the place of ``fully_async_main.FullyAsyncTaskRunner`` (which builds GPU workers): in
    its Ray actor it receives the config ``run_ppo`` shipped, builds verl's real ``FullyAsyncTrainer``
    class (undecorated) from it as that runner does, runs the trainer's step-end profiling, and
    writes what it saw to ``probe.json`` beside the profiler's ``save_path``."""

    def run(self, config):
        from omegaconf import OmegaConf
        from verl.experimental.fully_async_policy.fully_async_trainer import FullyAsyncTrainer
        from verl.utils import hf_tokenizer

        import verl_compat

        received = OmegaConf.to_container(config.actor_rollout_ref.actor.profiler, resolve=True)
        OmegaConf.resolve(config)
        trainer_cls = FullyAsyncTrainer.__ray_metadata__.modified_class.__ray_actor_class__
        trainer = trainer_cls(config, hf_tokenizer(config.actor_rollout_ref.model.path), {}, None)
        calls = run_step_ends(trainer)
        trainers = verl_compat.status()["fixes"]["torch_memory"]["trainers"]
        name = f"{trainer_cls.__module__}.{trainer_cls.__qualname__}"
        seen = {"profiler": received, "calls": calls, "status": trainers.get(name), "pid": os.getpid()}
        out = Path(config.global_profiler.save_path).parent / "probe.json"
        out.write_text(json.dumps(seen))
