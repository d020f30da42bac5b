"""A legacy torch_memory config through verl's real trainer, without and with verl-compat.

Run by ``scripts/demo.sh`` in each release's environment. The trainer is verl's real
``RayPPOTrainer`` (``init_workers()`` + ``fit()``, 3 steps) on a local Ray cluster; the actor
workers are CPU stand-ins shaped like verl's engine workers, so no snapshot pickle is written (that
needs CUDA), but verl's DistProfiler creates one folder per dumped step.

The console shows only the demo's own lines: everything else the process writes (verl's step
metrics and warnings, Ray's notices and forwarded worker logs, the ``verl_compat`` logger's copy
of the warning) goes, at the file-descriptor level and until the process ends, to the log file the
demo names. The deprecation warning is shown once, from the run that raised it.
"""

import os
import sys
import tempfile
import traceback
import warnings
from pathlib import Path

LEGACY = ["actor_rollout_ref.actor.profiler.tool=torch_memory"]


def chatter_to(log_path: Path):
    """Send the process's stdout and stderr (file descriptors 1 and 2 included, so Ray's C++ core
    and handlers that kept the old stream follow) to ``log_path``; return the console."""
    sys.stdout.flush()
    sys.stderr.flush()
    console = os.fdopen(os.dup(1), "w", buffering=1)
    log = open(log_path, "w", buffering=1)  # noqa: SIM115 - open until the process ends
    os.dup2(log.fileno(), 1)
    os.dup2(log.fileno(), 2)
    sys.stdout = sys.stderr = log
    return console


def show(console, title, result, caught=()):
    from verl_compat import VerlCompatDeprecationWarning

    print(f"--- {title}", file=console)
    if result.error is not None:
        print(f"fit() raised {type(result.error).__name__}: {result.error}", file=console)
    else:
        print("fit() completed 3 steps", file=console)
    tree = result.profile_tree()
    print(f"snapshot folders under {result.profile_dir}: {', '.join(tree) or 'none'}", file=console)
    for warning in caught:
        if issubclass(warning.category, VerlCompatDeprecationWarning):
            print(f"{warning.category.__name__}: {warning.message}", file=console)


def main() -> int:
    workdir = Path(tempfile.mkdtemp(prefix="verl-compat-demo-"))
    log_path = workdir / "verl-and-ray.log"
    console = chatter_to(log_path)
    try:
        return demo(console, workdir, log_path)
    except Exception:  # the console must show it: stderr now goes to the log
        traceback.print_exc(file=console)
        print(f"(the log: {log_path})", file=console)
        return 1


def demo(console, workdir: Path, log_path: Path) -> int:
    # Imported only now: importing verl and Ray already prints (accelerator and engine notices).
    import verl
    from harness import compose_config, run_fit

    import verl_compat

    print(f"===== verl {verl.__version__}: {' '.join(LEGACY)} (3 steps) =====", file=console)
    print(f"verl's and Ray's own output: {log_path}", file=console)

    verl_compat.deactivate()
    show(console, "without verl-compat", run_fit(compose_config(LEGACY, workdir / "without"), actor="engine"))

    verl_compat.activate()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", verl_compat.VerlCompatDeprecationWarning)
        result = run_fit(compose_config(LEGACY, workdir / "with"), actor="engine")
    show(console, "with verl-compat (import verl_compat)", result, caught)
    return 0 if result.error is None and len(result.profile_tree()) == 3 else 1


if __name__ == "__main__":
    sys.exit(main())
