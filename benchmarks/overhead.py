"""What the torch_memory translation costs a training run, measured in one run of this script.

1. **Step time.** verl's real ``RayPPOTrainer.fit()`` on the CPU stand-ins (``tests/support``), a
   legacy-key run translated by verl-compat against the native new-style run that profiles every
   step (``global_profiler.steps=[1..N]``, ``enable``, ``all_ranks``), same workers, same steps,
   interleaved. Reported: median ``fit()`` seconds per step of each, and their ratio.
2. **The shim's own Python time per step.** verl's ``RayPPOTrainer._stop_profiling`` called the way
   ``fit()`` calls it at the end of a step, bare and wrapped, on a trainer whose actor worker group
   is a stand-in with instant ``start_profile``/``stop_profile`` (so only verl-compat's own code is
   timed, not the remote calls it makes).
3. **The OOM observer outside an OOM.** ``oom_snapshot`` adds work at two places only: once per
   process, when verl builds a ``TorchMemoryProfiler`` (timed bare and wrapped, with an allocator
   that records the observer), and at an OOM. The caching allocator calls its observers only on
   its out-of-memory path, so allocations cost the same with one attached: with CUDA, a 1 MiB
   allocate-and-free is timed before and after the observer is attached (without CUDA, said so).

    PYTHONPATH=tests/support .venvs/verl-0.9.1/bin/python benchmarks/overhead.py [--pairs 3 --steps 5]
"""

import argparse
import contextlib
import logging
import statistics
import tempfile
import timeit
import warnings
from pathlib import Path

from harness import compose_config, run_fit

import verl_compat

QUIET = ["trainer.val_before_train=False", "trainer.test_freq=-1", "trainer.save_freq=-1"]


def step_seconds(overrides, workdir, steps, shim):
    (verl_compat.activate if shim else verl_compat.deactivate)()
    config = compose_config([*QUIET, f"trainer.total_training_steps={steps}", *overrides], workdir)
    with open(workdir.parent / f"{workdir.name}.log", "w") as log, contextlib.redirect_stdout(log):
        result = run_fit(config, actor="engine")
    result.raise_error()
    assert len(result.profile_tree()) == steps, result.profile_tree()
    return result.fit_s / steps


def bench_steps(pairs, steps):
    root = Path(tempfile.mkdtemp(prefix="verl-compat-overhead-"))
    every_step = "[" + ",".join(str(n) for n in range(1, steps + 1)) + "]"
    legacy = ["actor_rollout_ref.actor.profiler.tool=torch_memory"]
    native = [
        "global_profiler.tool=torch_memory",
        f"global_profiler.steps={every_step}",
        "actor_rollout_ref.actor.profiler.enable=True",
        "actor_rollout_ref.actor.profiler.all_ranks=True",
    ]
    shimmed, baseline = [], []
    for i in range(pairs):  # interleaved, alternating which goes first
        runs = [(shimmed, legacy, True), (baseline, native, False)]
        for times, overrides, shim in runs if i % 2 == 0 else runs[::-1]:
            times.append(step_seconds(overrides, root / f"{'shim' if shim else 'native'}{i}", steps, shim))
    verl_compat.deactivate()
    return statistics.median(shimmed), statistics.median(baseline)


class InstantWorkerGroup:
    """Stands in for the actor RayWorkerGroup: the remote calls cost nothing here."""

    def start_profile(self, **kwargs):
        pass

    def stop_profile(self, **kwargs):
        pass


def bench_wrapper(calls):
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    trainer = RayPPOTrainer.__new__(RayPPOTrainer)  # the real class; __init__ needs workers
    trainer.config = compose_config(["actor_rollout_ref.actor.profiler.tool=torch_memory"])
    trainer.actor_rollout_wg = InstantWorkerGroup()
    trainer.global_steps, trainer.total_training_steps = 1, 10**9
    trainer.use_reference_policy = trainer.use_critic = False

    def per_call(shim):
        (verl_compat.activate if shim else verl_compat.deactivate)()
        trainer._stop_profiling(False)  # first call prepares state (and warns once)
        return min(timeit.repeat(lambda: trainer._stop_profiling(False), number=calls, repeat=5)) / calls

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bare, wrapped = per_call(False), per_call(True)
    verl_compat.deactivate()
    return bare, wrapped


def bench_oom_observer(calls):
    import torch
    from verl.utils.profiler import DistProfiler, ProfilerConfig

    from verl_compat.fixes import oom_snapshot

    config = ProfilerConfig(tool="torch_memory", save_path=tempfile.mkdtemp(), all_ranks=True, tool_config=None)
    recorded = []

    def build_seconds(shim):
        (verl_compat.activate if shim else verl_compat.deactivate)()
        oom_snapshot.allocator = oom_snapshot.Allocator("cuda", recorded.append)  # a fresh one each time
        return min(timeit.repeat(lambda: DistProfiler(rank=0, config=config), number=1, repeat=20))

    bare, wrapped = build_seconds(False), build_seconds(True)
    verl_compat.deactivate()
    oom_snapshot.allocator = None
    print(
        f"TorchMemoryProfiler built (once per process): bare {bare * 1e6:.0f} us, "
        f"with the OOM observer attached {wrapped * 1e6:.0f} us ({len(recorded)} observer recorded)"
    )

    if not torch.cuda.is_available():
        print("allocation with an OOM observer attached: not timed (no CUDA device here)")
        return

    def alloc_seconds():
        torch.cuda.synchronize()
        return (
            min(timeit.repeat(lambda: torch.empty(1 << 20, dtype=torch.uint8, device="cuda"), number=calls, repeat=5))
            / calls
        )

    before = alloc_seconds()
    torch._C._cuda_attach_out_of_memory_observer(oom_snapshot.Observer("cuda", None))
    after = alloc_seconds()
    print(f"1 MiB CUDA allocate+free: {before * 1e6:.2f} us without an OOM observer, {after * 1e6:.2f} us with one")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3, help="interleaved shim/native run pairs")
    parser.add_argument("--steps", type=int, default=5, help="training steps per run")
    parser.add_argument("--calls", type=int, default=20000, help="wrapper calls per timing")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)

    bare, wrapped = bench_wrapper(args.calls)
    print(f"_stop_profiling per step: bare {bare * 1e6:.2f} us, with verl-compat {wrapped * 1e6:.2f} us")
    print(f"verl-compat's own Python time per step: {(wrapped - bare) * 1e6:.1f} us (budget 100 us)")
    bench_oom_observer(args.calls)

    shimmed, native = bench_steps(args.pairs, args.steps)
    print(
        f"fit() per step, median of {args.pairs}: legacy key + verl-compat {shimmed:.3f} s, "
        f"native new-style every step {native:.3f} s"
    )
    print(f"step-time ratio (verl-compat / native): {shimmed / native:.3f} (budget 1.03)")


if __name__ == "__main__":
    main()
