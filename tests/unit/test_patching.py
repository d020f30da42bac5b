"""The patching core against the installed verl: in place, idempotent, exactly reversible."""

import subprocess
import sys
import textwrap

import pytest
import wrapt

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
        assert _own(cls, name).__wrapped__ is original
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


def test_activate_twice_does_not_double_wrap(ray_trainer):
    verl_compat.activate()
    verl_compat.activate()
    chain = list(wrapt.wrapper_chain(_own(ray_trainer.RayPPOTrainer, "_stop_profiling")))
    assert len(chain) == 2, chain  # one wrapper, then the original function


def test_reactivation_after_deactivate_patches_again(ray_trainer):
    for _ in range(3):
        verl_compat.activate()
        assert isinstance(_own(ray_trainer.RayPPOTrainer, "_stop_profiling"), wrapt.FunctionWrapper)
        verl_compat.deactivate()
        assert not isinstance(_own(ray_trainer.RayPPOTrainer, "_stop_profiling"), wrapt.FunctionWrapper)


def _run(code, **env):
    import os

    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.parametrize(
    "env",
    [{"VERL_COMPAT_DISABLE": "1"}, {"VERL_COMPAT_DISABLED_FIXES": "other, torch_memory"}],
    ids=["disable", "disabled-fixes"],
)
def test_env_toggles_leave_verl_untouched(env):
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


def test_import_before_or_after_verl_patches_the_same(ray_trainer):
    before = _run(
        """
        import verl_compat
        import verl.trainer.ppo.ray_trainer
        print(verl_compat.status()["fixes"]["torch_memory"]["patched"])
        """
    )
    after = _run(
        """
        import verl.trainer.ppo.ray_trainer
        import verl_compat
        print(verl_compat.status()["fixes"]["torch_memory"]["patched"])
        """
    )
    assert before == after
    assert "RayPPOTrainer._stop_profiling" in before


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


def test_a_fault_in_the_import_hook_never_breaks_the_import():
    # The patch planning for the fix raises while verl's trainer module is first imported: the
    # import succeeds, verl is left as released, and the error is logged once with the fix's name.
    out = _run(
        """
        import logging, sys, wrapt
        logging.basicConfig(stream=sys.stdout, format="%(levelname)s %(message)s")
        import verl_compat
        from verl_compat import trainers

        def broken(module, fix):
            raise RuntimeError("injected fault in the patch plan")
        trainers.plans = broken

        from verl.trainer.ppo.ray_trainer import RayPPOTrainer
        print(isinstance(RayPPOTrainer.__dict__["_stop_profiling"], wrapt.FunctionWrapper))
        print(verl_compat.status()["fixes"]["torch_memory"]["errors"])
        """
    )
    lines = out.splitlines()
    assert lines[-2:] == ["False", "{'patching verl.trainer.ppo.ray_trainer': 1}"]
    failures = [line for line in lines if line.startswith("ERROR ")]
    assert failures == [
        "ERROR verl-compat: fix 'torch_memory' failed in patching verl.trainer.ppo.ray_trainer; the run continues "
        "without it there (set VERL_COMPAT_DISABLED_FIXES=torch_memory to turn it off)"
    ]
