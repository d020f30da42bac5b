"""Every way verl-compat can come to be imported gives the same result, with no double wrapping.

Each case runs in a fresh interpreter (as ddtrace tests its patch/import orders): a prologue that
imports or (de)activates in its own order, then the same observation: build verl's real
``RayPPOTrainer`` on a legacy config and report what is patched, how many times torch_memory
wrapped each target (wrapt's own introspection), what the config became, how many warnings came,
and whether ``deactivate()`` puts back the original functions by identity.

The cases without auto-load run with ``python -S`` and the environment's site-packages on
``PYTHONPATH``: the packages are importable, but no ``.pth`` file runs.
"""

import os
import sysconfig
import textwrap

import pytest
from paths import SUPPORT
from pyrun import last_json, run_python

OBSERVE = """
import json, sys, warnings, wrapt, ray
import verl_compat, standins
from verl_compat import wrapping
from harness import compose_config
from omegaconf import OmegaConf
from verl.trainer.ppo.ray_trainer import RayPPOTrainer, Role
from verl.utils import hf_tokenizer

config = compose_config(["actor_rollout_ref.actor.profiler.tool=torch_memory"])
OmegaConf.resolve(config)
roles = {Role.ActorRollout: ray.remote(standins.EngineStyleActor), Role.Critic: ray.remote(standins.StubCriticWorker)}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    RayPPOTrainer(
        config=config,
        tokenizer=hf_tokenizer(config.actor_rollout_ref.model.path),
        role_worker_mapping=roles,
        resource_pool_manager=standins.CPUResourcePoolManager(
            resource_pool_spec={"global_pool": [2]}, mapping={role: "global_pool" for role in roles}
        ),
    )
patched = verl_compat.status()["fixes"]["torch_memory"]["patched"]
wrappers, originals = {}, []
for entry in patched:
    module, path = entry.split(":")
    owner, name = path.split(".")
    cls = getattr(sys.modules[module], owner)
    chain = list(wrapt.wrapper_chain(cls.__dict__[name]))
    # torch_memory's own wrappers (old_imports wraps RayPPOTrainer.__init__ too, for its old keywords).
    wrappers[entry] = sum(getattr(wrapping.wrapped_by(link, "torch_memory"), "handle", None) is link for link in chain)
    originals.append((cls, name, next(link for link in chain if not isinstance(link, wrapt.FunctionWrapper))))
profiler = config.actor_rollout_ref.actor.profiler
verl_compat.deactivate()
print(json.dumps({
    "patched": patched,
    "wrappers": wrappers,
    "enable": profiler.enable,
    "all_ranks": profiler.all_ranks,
    "warnings": sum(issubclass(w.category, verl_compat.VerlCompatDeprecationWarning) for w in caught),
    "restored": all(cls.__dict__[name] is original for cls, name, original in originals),
}))
"""

CASES = {
    "shim-before-verl": (False, "import verl_compat\nimport verl"),
    "shim-after-verl": (False, "import verl\nimport verl_compat"),
    "shim-after-trainer-module": (False, "import verl.trainer.ppo.ray_trainer\nimport verl_compat"),
    "imported-twice": (
        False,
        "import sys\nimport verl_compat\ndel sys.modules['verl_compat']\nimport verl_compat\nimport verl",
    ),
    "activate-twice": (False, "import verl_compat\nverl_compat.activate()\nverl_compat.activate()"),
    "deactivate-activate-cycles": (
        False,
        "import verl.trainer.ppo.ray_trainer, verl_compat\n"
        "for _ in range(3):\n    verl_compat.deactivate()\n    verl_compat.activate()",
    ),
    "reload": (False, "import importlib, verl_compat\nimportlib.reload(verl_compat)\nimport verl"),
    "auto-load-only": (True, "import verl"),
    "auto-load-plus-explicit-import": (True, "import verl\nimport verl_compat\nverl_compat.activate()"),
}


def observe(autoload: bool, prologue: str) -> dict:
    site_packages = sysconfig.get_paths()["purelib"]
    env = {"PYTHONPATH": os.pathsep.join([str(SUPPORT)] + ([] if autoload else [site_packages]))}
    flags = () if autoload else ("-S",)
    code = textwrap.dedent(prologue) + "\n" + OBSERVE
    return last_json(run_python(code, flags=flags, env=env, drop=("VERL_COMPAT_",), timeout=600))


@pytest.fixture(scope="module")
def reference():
    return observe(*CASES["shim-before-verl"])


# Every release runs the plain import and auto-load; the other orders exercise the core's own
# bookkeeping (the same code on every release), which runs once, in the newest release (``once``).
EVERY_RELEASE = ("shim-before-verl", "auto-load-only")


@pytest.mark.parametrize(
    "case", [case if case in EVERY_RELEASE else pytest.param(case, marks=pytest.mark.once) for case in CASES]
)
def test_same_behaviour_whatever_the_import_order(case, reference):
    seen = reference if case == "shim-before-verl" else observe(*CASES[case])

    assert seen == reference
    assert "verl.trainer.ppo.ray_trainer:RayPPOTrainer._stop_profiling" in seen["patched"]
    assert set(seen["wrappers"].values()) == {1}, "each target is wrapped exactly once"
    assert (seen["enable"], seen["all_ranks"], seen["warnings"], seen["restored"]) == (True, True, 1, True)
