"""The patching core against the installed verl, beyond what the contract suite checks for every
fix (tests/fixes/test_contract.py: one wrapper after activating twice, import order, faults in
planning): classes wrapped in place, re-activation, the env toggles, threads."""

import sys
import time

import pytest
import wrapt
from pyrun import run_python

import verl_compat

TRAINER_MODULE = "verl.trainer.ppo.ray_trainer"


@pytest.fixture
def ray_trainer():
    import verl.trainer.ppo.ray_trainer as module

    verl_compat.deactivate()
    yield module
    verl_compat.deactivate()


def _own(cls, name):
    return cls.__dict__[name]


def test_activate_wraps_in_place_and_deactivate_restores_identity(ray_trainer):
    cls = ray_trainer.RayPPOTrainer
    originals = {name: _own(cls, name) for name in ("__init__", "_stop_profiling")}

    verl_compat.activate()
    assert ray_trainer.RayPPOTrainer is cls, "the class itself is never replaced"
    for name, original in originals.items():
        assert isinstance(_own(cls, name), wrapt.FunctionWrapper)
        # Several fixes may wrap one method (old_imports translates __init__'s old keywords).
        assert original in list(wrapt.wrapper_chain(_own(cls, name)))
    patched = verl_compat.status()["fixes"]["torch_memory"]["patched"]
    assert [target for target in patched if target.startswith(f"{TRAINER_MODULE}:")] == [
        f"{TRAINER_MODULE}:RayPPOTrainer.__init__",
        f"{TRAINER_MODULE}:RayPPOTrainer._stop_profiling",
    ]

    verl_compat.deactivate()
    for name, original in originals.items():
        assert _own(cls, name) is original
    assert verl_compat.status()["fixes"]["torch_memory"]["patched"] == []
    assert verl_compat.status()["active"] is False


def test_reactivation_after_deactivate_patches_again(ray_trainer):
    for _ in range(3):
        verl_compat.activate()
        assert isinstance(_own(ray_trainer.RayPPOTrainer, "_stop_profiling"), wrapt.FunctionWrapper)
        verl_compat.deactivate()
        assert not isinstance(_own(ray_trainer.RayPPOTrainer, "_stop_profiling"), wrapt.FunctionWrapper)


def _run(code, **env):
    return run_python(code, env=env).stdout.strip()


@pytest.mark.parametrize(
    "env",
    [{"VERL_COMPAT_DISABLE": "1"}, {"VERL_COMPAT_DISABLED_FIXES": "other, torch_memory"}],
    ids=["disable", "disabled-fixes"],
)
def test_env_toggles_leave_verl_untouched(env):
    """In a fresh process, as a user sets them (the contract suite turns fixes off in process)."""
    out = _run(
        """
        import verl_compat, wrapt
        import verl.trainer.ppo.ray_trainer as rt
        print(isinstance(rt.RayPPOTrainer.__dict__["_stop_profiling"], wrapt.FunctionWrapper),
              verl_compat.status()["fixes"].get("torch_memory", {}).get("patched", []))
        """,
        **env,
    )
    assert out == "False []"


def test_first_import_from_many_threads_patches_once():
    out = _run(
        """
        import importlib, threading, wrapt
        import verl_compat
        from verl_compat import trainers

        asked = []
        plans = trainers.plans
        trainers.plans = lambda module, fix: asked.append(module.__name__) or plans(module, fix)

        barrier = threading.Barrier(8)
        def first_import():
            barrier.wait()
            importlib.import_module("verl.trainer.ppo.ray_trainer")
        threads = [threading.Thread(target=first_import) for _ in range(8)]
        for t in threads: t.start()
        for t in threads: t.join()

        from verl.trainer.ppo.ray_trainer import RayPPOTrainer
        chain = list(wrapt.wrapper_chain(RayPPOTrainer.__dict__["_stop_profiling"]))
        print(asked.count("verl.trainer.ppo.ray_trainer"), len(chain))
        """
    )
    assert out.splitlines()[-1] == "1 2"  # the hook ran once; one wrapper over the original


# ----------------------------------------------------------------------------------- threads
class CountingWorkerGroup:
    """An actor worker group for the step-end wrapper: records profiling calls, and counts how
    often its ``dump_memory_snapshot`` is replaced (the fix's neutralisation sets that attribute).

    Hashing it (as any lookup of it in a dict or set does) gives up the GIL, so a thread that looks
    it up before changing it lets the others in between: an unguarded check-then-set is raced for
    real, not once in thousands of runs."""

    def __init__(self):
        self.calls = []
        self.replaced = 0

    def __hash__(self):
        time.sleep(0)  # releases the GIL
        return object.__hash__(self)

    def __setattr__(self, name, value):
        if name == "dump_memory_snapshot":
            object.__setattr__(self, "replaced", self.replaced + 1)
        object.__setattr__(self, name, value)

    def start_profile(self, **kwargs):
        self.calls.append(("start_profile", kwargs))

    def stop_profile(self, **kwargs):
        self.calls.append(("stop_profile", kwargs))


def _legacy_trainer(cls, tmp_path):
    """A trainer of ``cls`` as its step-end code sees it, built without its ``__init__`` (so the
    first step-end wrapper to run detects the legacy key and warns), with a fresh worker group."""
    from omegaconf import OmegaConf

    trainer = object.__new__(cls)
    trainer.config = OmegaConf.create(
        {
            "actor_rollout_ref": {"actor": {"profiler": {"tool": "torch_memory", "enable": False, "all_ranks": False}}},
            "global_profiler": {"tool": None, "steps": None, "save_path": str(tmp_path)},
            "trainer": {"nnodes": 1, "n_gpus_per_node": 2, "total_training_steps": 3},
        }
    )
    trainer.actor_rollout_wg = CountingWorkerGroup()
    trainer.global_steps, trainer.total_training_steps = 1, 3
    return trainer


def _race(threads, target, *args):
    """Run ``target(i, *args)`` in ``threads`` threads released together by a barrier; bounded."""
    import threading

    barrier = threading.Barrier(threads, timeout=30)
    errors = []

    def run(i):
        try:
            barrier.wait()
            target(i, *args)
        except BaseException as error:
            errors.append(error)

    workers = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=30)
    assert not any(worker.is_alive() for worker in workers), "a racing thread did not finish in 30 s"
    if errors:
        raise errors[0]


@pytest.fixture
def fast_thread_switches():
    """Switch threads every microsecond (CPython's default is 5 ms), so check-then-act windows
    in the code under race are entered by several threads at once."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


ROUNDS, THREADS = 50, 8


def _patched_by_a_lone_activation() -> list:
    """What ``status()`` lists as patched after one activation in one thread (then undone)."""
    verl_compat.activate()
    patched = verl_compat.status()["fixes"]["torch_memory"]["patched"]
    verl_compat.deactivate()
    return patched


def test_racing_activation_and_step_ends_patch_warn_and_neutralise_once(
    ray_trainer, shim_warnings, fast_thread_switches, tmp_path
):
    """Threads released together re-activate verl-compat and run the step-end wrapper
    (``_stop_profiling``) on one trainer with one worker group, round after round: each round ends
    with one wrapper over verl's method, one warning, the worker group's legacy method replaced
    once, and a ``status()`` that says the same as a lone activation."""
    cls = ray_trainer.RayPPOTrainer
    original, alone = _own(cls, "_stop_profiling"), _patched_by_a_lone_activation()

    def activate_then_end_step(i, trainer):
        assert verl_compat.activate()
        trainer._stop_profiling(False)

    for round_ in range(ROUNDS):
        trainer = _legacy_trainer(cls, tmp_path)
        _race(THREADS, activate_then_end_step, trainer)

        chain = list(wrapt.wrapper_chain(_own(cls, "_stop_profiling")))
        assert len(chain) == 2 and chain[-1] is original, f"round {round_}: {len(chain) - 1} wrappers"
        assert len(shim_warnings()) == round_ + 1, f"round {round_}: {len(shim_warnings()) - round_} warnings"
        assert trainer.actor_rollout_wg.replaced == 1, f"round {round_}: replaced {trainer.actor_rollout_wg.replaced}x"
        fix = verl_compat.status()["fixes"]["torch_memory"]
        assert (fix["patched"], fix["errors"], fix["case"]) == (alone, {}, "legacy")
        assert verl_compat.status()["active"] is True
        verl_compat.deactivate()  # the next round re-activates: the path a second activate() takes
        assert "dump_memory_snapshot" not in vars(trainer.actor_rollout_wg)  # restored as it was


def test_racing_activate_and_deactivate_leave_a_consistent_state(ray_trainer, fast_thread_switches, tmp_path):
    """Half the threads activate, half deactivate, while the step-end wrapper runs: whichever wins,
    ``status()`` and the trainer class agree (active with one wrapper over verl's method, or
    inactive with verl's method itself), and a last deactivate() restores verl by identity."""
    cls = ray_trainer.RayPPOTrainer
    original, alone = _own(cls, "_stop_profiling"), _patched_by_a_lone_activation()

    def toggle(i, trainer):
        if i % 2:
            verl_compat.deactivate()
        else:
            verl_compat.activate()
        trainer._stop_profiling(False)

    for round_ in range(ROUNDS):
        trainer = _legacy_trainer(cls, tmp_path)
        _race(THREADS, toggle, trainer)

        status = verl_compat.status()
        chain = list(wrapt.wrapper_chain(_own(cls, "_stop_profiling")))
        if status["active"]:
            assert len(chain) == 2 and chain[-1] is original, f"round {round_}: active, {len(chain) - 1} wrappers"
            assert status["fixes"]["torch_memory"]["patched"] == alone, f"round {round_}"
        else:
            assert chain == [original], f"round {round_}: inactive, {len(chain) - 1} wrappers left"
            assert status["fixes"]["torch_memory"]["patched"] == [], f"round {round_}"
        verl_compat.deactivate()
        assert _own(cls, "_stop_profiling") is original
        assert "dump_memory_snapshot" not in vars(trainer.actor_rollout_wg), f"round {round_}: not restored"
