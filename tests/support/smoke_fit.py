"""Smoke run of the CPU harness against the installed verl: five real fits in one Ray session.

    .venvs/verl-0.7.1/bin/python tests/support/smoke_fit.py
    .venvs/verl-0.9.1/bin/python tests/support/smoke_fit.py

(a) engine-style actor, no profiling
(b) engine-style actor, legacy ``actor_rollout_ref.actor.profiler.tool=torch_memory``: where the
    trainer dumps legacy snapshots (0.7.1) it fails after step 1 with the users' AttributeError;
    elsewhere it completes without any step folder
(c) fsdp-style actor, same legacy key (only where the trainer dumps): one dump per step and rank,
    into step2..step4 (the trainer labels step N as N+1)
(d) new-style torch_memory profiling of steps [1,2] on all ranks: step1/step2 folders, and each rank
    got start_profile(profile_step=1|2) and stop_profile
(e) as (d), through verl's run_ppo with the trainer inside the TaskRunner actor

It shows verl's own behaviour, so it switches verl-compat off (``VERL_COMPAT_DISABLE=1``, unless
set otherwise) in case it is installed. Prints wall times and call logs; exits non-zero if an
expectation fails.
"""

import os
import sys

if "VERL_COMPAT_DISABLE" not in os.environ:
    # Restart with the switch in the environment from interpreter start, so that no bootstrap of an
    # installed verl-compat (here or in the Ray workers, which inherit it) runs before it is set.
    os.environ["VERL_COMPAT_DISABLE"] = "1"
    os.execv(sys.executable, [sys.executable, *sys.argv])

import tempfile
import time
from pathlib import Path

import harness

LEGACY = ["actor_rollout_ref.actor.profiler.tool=torch_memory"]
NEW_STYLE = [
    "global_profiler.tool=torch_memory",
    "global_profiler.steps=[1,2]",
    "actor_rollout_ref.actor.profiler.enable=True",
    "actor_rollout_ref.actor.profiler.all_ranks=True",
]
DUMPS = harness.TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT  # the trainer calls dump_memory_snapshot (0.7.x)


def calls_named(calls: list[dict], method: str) -> list[dict]:
    return [call for call in calls if call["method"] == method]


def describe(call: dict) -> str:
    kwargs = ", ".join(
        f"{k}={Path(v).name if isinstance(v, str) and os.sep in v else v}" for k, v in call["kwargs"].items()
    )
    return f"{call['method']}({kwargs})"


def fit(root: Path, name: str, overrides: list[str], actor: str | None = None) -> harness.FitResult:
    """One fit in ``root/name``; ``actor=None`` means through run_ppo + CPUTaskRunner."""
    workdir = root / name
    config = harness.compose_config([*overrides, f"global_profiler.save_path={workdir / 'prof'}"], workdir)
    result = harness.run_fit(config, actor=actor) if actor else harness.run_ppo_fit(config)
    print(
        f"\n=== ({name}) {'run_ppo' if actor is None else actor + ' actor'}: {result.wall_s:.1f} s, "
        f"error={result.error!r}"
    )
    for log_name, ranks in result.calls.items():
        for rank, calls in enumerate(ranks):
            print(f"  {log_name}[{rank}]: " + ", ".join(describe(c) for c in calls))
    print(f"  profile tree: {result.profile_tree()}")
    return result


def check_new_style(result: harness.FitResult) -> None:
    result.raise_error()
    assert {"step1", "step2"} <= set(result.profile_tree()), result.profile_tree()
    for calls in result.actor_calls:
        settings = calls[0]["kwargs"]["profiler"]  # what the rank's real DistProfiler was built with
        assert settings["tool"] == "torch_memory" and settings["enable"] and settings["all_ranks"], settings
        assert [c["kwargs"].get("profile_step") for c in calls_named(calls, "start_profile")] == [1, 2], calls
        assert len(calls_named(calls, "stop_profile")) == 2, calls


def main() -> int:
    import verl

    root = Path(tempfile.mkdtemp(prefix="verl-compat-smoke-"))
    print(f"verl {verl.__version__}; trainer dumps legacy snapshots: {DUMPS}; work in {root}")
    started = time.monotonic()
    harness.ray_session()
    print(f"ray.init: {time.monotonic() - started:.1f} s")
    walls = {}

    r = fit(root, "a", [], actor="engine")
    r.raise_error()
    assert len(r.actor_calls) == 2 and not calls_named(r.actor_calls[0], "start_profile")
    assert sorted(p.name for p in (root / "a" / "ckpt").glob("global_step_*")) == ["global_step_2", "global_step_3"]
    walls["a"] = r.wall_s

    r = fit(root, "b", LEGACY, actor="engine")
    if DUMPS:
        assert isinstance(r.error, AttributeError) and "dump_memory_snapshot" in str(r.error), r.error
        assert all(len(calls_named(calls, "update_actor")) == 1 for calls in r.actor_calls)  # failed after step 1
    else:
        r.raise_error()
        assert r.profile_tree() == {}, r.profile_tree()
    walls["b"] = r.wall_s

    if DUMPS:
        r = fit(root, "c", LEGACY, actor="fsdp")
        r.raise_error()
        for calls in r.actor_calls:  # every rank dumps after every step, labelled one step ahead
            sub_dirs = [c["kwargs"]["sub_dir"] for c in calls_named(calls, "dump_memory_snapshot")]
            assert sub_dirs == ["step2", "step3", "step4"], sub_dirs
        walls["c"] = r.wall_s

    # Where the trainer dumps, the new-style keys also select torch_memory for the actor, so an
    # engine-style actor would fail like (b): use the fsdp-style one there.
    r = fit(root, "d", NEW_STYLE, actor="fsdp" if DUMPS else "engine")
    check_new_style(r)
    walls["d"] = r.wall_s

    r = fit(root, "e", NEW_STYLE)
    check_new_style(r)
    walls["e"] = r.wall_s

    print(
        f"\nOK: verl {verl.__version__}; wall per run: "
        + ", ".join(f"({k}) {v:.1f} s" for k, v in walls.items())
        + f"; whole script {time.monotonic() - started:.1f} s after imports"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
