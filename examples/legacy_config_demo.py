"""A legacy torch_memory config through verl's real trainer, without and with verl-compat.

Run by ``scripts/demo.sh`` in each release's environment. The trainer is verl's real
``RayPPOTrainer`` (``init_workers()`` + ``fit()``, 3 steps) on a local Ray cluster; the actor
workers are CPU stand-ins shaped like verl's engine workers, so no snapshot pickle is written (that
needs CUDA), but verl's DistProfiler creates one folder per dumped step.
"""

import contextlib
import logging
import sys
import tempfile
import warnings
from pathlib import Path

from harness import compose_config, run_fit

import verl
import verl_compat

LEGACY = ["actor_rollout_ref.actor.profiler.tool=torch_memory"]


def show(title, result):
    print(f"\n--- {title}")
    if result.error is not None:
        print(f"fit() raised {type(result.error).__name__}: {result.error}")
    else:
        print("fit() completed 3 steps")
    tree = result.profile_tree()
    print(f"snapshot folders under {result.profile_dir}: {', '.join(tree) or 'none'}")


def quiet_fit(workdir):
    """Run the fit with verl's own console output (metrics per step) sent to a log file."""
    with open(workdir.parent / f"{workdir.name}-verl-output.log", "w") as log:
        with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
            return run_fit(compose_config(LEGACY, workdir), actor="engine")


def main() -> int:
    logging.basicConfig(level=logging.ERROR)
    workdir = Path(tempfile.mkdtemp(prefix="verl-compat-demo-"))
    print(f"\n===== verl {verl.__version__}: {' '.join(LEGACY)} (3 steps) =====")
    print(f"(verl's own output: {workdir}/*-verl-output.log)")

    verl_compat.deactivate()
    show("without verl-compat", quiet_fit(workdir / "without"))

    verl_compat.activate()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", verl_compat.VerlCompatDeprecationWarning)
        result = quiet_fit(workdir / "with")
    show("with verl-compat (import verl_compat)", result)
    for warning in caught:
        if issubclass(warning.category, verl_compat.VerlCompatDeprecationWarning):
            print(f"{warning.category.__name__}: {warning.message}")
    return 0 if result.error is None and len(result.profile_tree()) == 3 else 1


if __name__ == "__main__":
    sys.exit(main())
