"""A user's launcher, run by test_reach_ray.py in its own interpreter: verl's real ``run_ppo`` with
the CPU TaskRunner (``tests/support``), the legacy key only, and Ray started by ``run_ppo`` itself
from ``ray_kwargs.ray_init`` (locally, or connecting to ``--address``).

    python reach_launcher.py WORKDIR [--import-shim [--unshippable]] [--address HOST:PORT]

``--import-shim``: ``import verl_compat`` is the script's first line (otherwise the script imports
nothing from verl-compat). ``--unshippable``: verl-compat cannot be packaged for the workers (as when
it is imported from a zip). Prints one JSON line last: the run's error, the step folders the actor's
profiler wrote, whether the actor worker verl builds has the legacy ``dump_memory_snapshot``, and the
launcher's propagation decision.
"""

import sys

if "--import-shim" in sys.argv:
    import verl_compat  # noqa: F401

    if "--unshippable" in sys.argv:
        from verl_compat.fixes import propagation

        def _unshippable(name):
            raise propagation.Unshippable(f"{name}: a packaging failure simulated by the test")

        propagation.package_dir = _unshippable

import json
from pathlib import Path

SUPPORT = Path(__file__).resolve().parents[1] / "support"
sys.path.insert(0, str(SUPPORT))

import ray  # noqa: E402
import standins  # noqa: E402
from cpu_task_runner import CPUTaskRunner  # noqa: E402
from harness import compose_config, launcher_ray_init  # noqa: E402
from omegaconf import OmegaConf  # noqa: E402
from verl.trainer import main_ppo  # noqa: E402

LEGACY = "actor_rollout_ref.actor.profiler.tool=torch_memory"


def main() -> None:
    workdir = Path(sys.argv[1])
    config = compose_config([LEGACY, *launcher_ray_init(sys.argv, SUPPORT, num_cpus=4)], workdir)
    if "use_legacy_worker_impl" in config.trainer:
        # verl 0.7.x builds its FSDP workers by default, which still have dump_memory_snapshot; the
        # users of verl #6180/#6181 crash on the engine workers.
        config.trainer.use_legacy_worker_impl = "disable"
    # What main() does before run_ppo (0.7.x, 0.8.x): main_ppo's own binding, not old_imports' moved name.
    if "migrate_legacy_reward_impl" in vars(main_ppo):
        config = main_ppo.migrate_legacy_reward_impl(config)
    # The stand-in mirrors the actor worker class verl picks for this config (0.6.x: always FSDP).
    actor_standin, _ = CPUTaskRunner().add_actor_rollout_worker(config)

    error = None
    try:
        main_ppo.run_ppo(config, task_runner_class=ray.remote(num_cpus=1)(CPUTaskRunner))
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
    finally:
        ray.shutdown()

    profile = Path(OmegaConf.select(config, "actor_rollout_ref.actor.profiler.save_path"))
    shim = sys.modules.get("verl_compat")
    print(
        json.dumps(
            {
                "error": error,
                "steps": sorted(p.name for p in profile.iterdir()) if profile.is_dir() else [],
                "actor_dumps_legacy": actor_standin is standins.FsdpStyleActor,
                "decision": shim.status()["fixes"].get("propagation", {}).get("propagation") if shim else None,
            }
        )
    )


main()
