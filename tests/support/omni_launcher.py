"""A verl-omni user's launcher, run by test_omni_launch.py in its own interpreter: verl-omni's real
``main_diffusion.run_diffusion``, which calls ``ray.init`` itself from ``ray_kwargs.ray_init``
(locally, or connecting to ``--address``), with ``omni_trainers.OmniTrainerProbe`` as its task
runner, the legacy key only.

    python omni_launcher.py WORKDIR [--import-shim] [--address HOST:PORT]

``--import-shim``: ``import verl_compat`` is the script's first line (otherwise the script imports
nothing from verl-compat). Prints one JSON line last: what the probe saw in the task runner's Ray
actor (``probe.json``) and this process's propagation decision, if verl-compat is loaded here.
"""

import sys

if "--import-shim" in sys.argv:
    import verl_compat  # noqa: F401

import json
from pathlib import Path

SUPPORT = Path(__file__).resolve().parent
sys.path.insert(0, str(SUPPORT))

import ray  # noqa: E402
from harness import launcher_ray_init  # noqa: E402
from omni_trainers import LEGACY, OmniTrainerProbe, compose  # noqa: E402
from verl_omni.trainer import main_diffusion  # noqa: E402


def main() -> None:
    workdir = Path(sys.argv[1])
    # The task runner's actor imports omni_trainers from SUPPORT.
    config = compose("policy_gradient", [*LEGACY, *launcher_ray_init(sys.argv, SUPPORT, num_cpus=2)], workdir)
    try:
        main_diffusion.run_diffusion(config, task_runner_class=ray.remote(num_cpus=1)(OmniTrainerProbe))
    finally:
        ray.shutdown()
    report = json.loads((workdir / "probe.json").read_text())
    shim = sys.modules.get("verl_compat")  # auto-loaded at `import verl`, or imported above
    report["decision"] = shim.status()["fixes"]["propagation"]["propagation"] if shim else None
    print(json.dumps(report))


if __name__ == "__main__":
    main()
