"""A user's launcher for verl's fully-async trainer: ``import verl_compat`` at the top, then verl's
own ``fully_async_main.main(config)`` (config composed from its real yaml, legacy key given).

Its ``FullyAsyncTaskRunner`` needs GPUs to build the rollouter and trainer workers, so the launcher
swaps in ``recording.FullyAsyncTrainerProbe`` (same role: the Ray actor ``run_ppo`` starts and ships
the config to), which writes what it saw and did to ``WORKDIR/probe.json``. Everything before it
is verl's: ``main()``, the wrapped ``run_ppo``, ``ray.init`` from the config.

    python fully_async_launcher.py WORKDIR
"""

import sys
from pathlib import Path

import harness
import ray
import recording
import verl
from hydra import compose, initialize_config_dir
from verl.experimental.fully_async_policy import fully_async_main

import verl_compat  # noqa: F401  (script-top use; activates unless VERL_COMPAT_DISABLE=1)


def main(workdir: Path) -> None:
    model = harness.tiny_model_dir(workdir / "model")
    config_dir = Path(fully_async_main.__file__).parent / "config"
    with initialize_config_dir(config_dir=str(config_dir), version_base=None):
        config = compose(
            config_name="fully_async_ppo_trainer",
            overrides=[
                "actor_rollout_ref.actor.profiler.tool=torch_memory",
                f"actor_rollout_ref.model.path={model}",
                f"critic.model.path={model}",
                "actor_rollout_ref.hybrid_engine=False",
                "trainer.logger=[console]",
                "trainer.device=cpu",
                f"global_profiler.save_path={workdir / 'prof'}",
                "ray_kwargs.ray_init.num_cpus=2",
                "+ray_kwargs.ray_init.include_dashboard=False",
            ],
        )
    fully_async_main.FullyAsyncTaskRunner = ray.remote(num_cpus=1)(recording.FullyAsyncTrainerProbe)
    fully_async_main.main(config)  # hydra hands a given config straight to the function


if __name__ == "__main__":
    print(f"verl {verl.__version__}")
    main(Path(sys.argv[1]))
