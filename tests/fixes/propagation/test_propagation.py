"""Propagation on verl's real ``run_ppo`` and real composed config, in this process: what reaches
``ray.init`` (stubbed to record its arguments and stop the run there)."""

import ast
import copy
import functools
import inspect
import json
import os
import sys
import types
from pathlib import Path

import pytest
import ray
import verl
import wrapt
from omegaconf import OmegaConf
from verl.trainer import main_ppo
from verl.trainer.constants_ppo import PPO_RAY_RUNTIME_ENV
from verl_config import verl_compose

import verl_compat
from verl_compat import patching, wrapping
from verl_compat.fixes import propagation

ENV = "VERL_USE_EXTERNAL_MODULES"
SHIPPED = [os.path.dirname(verl_compat.__file__), os.path.dirname(wrapt.__file__)]
# verl <= 0.8.0 adds TRANSFER_QUEUE_ENABLE in place to a user-set env_vars node (fixed in 0.9.1).
HAS_TRANSFER_QUEUE_BUG = 'runtime_env_vars["TRANSFER_QUEUE_ENABLE"]' in inspect.getsource(
    wrapt.unwrapped(main_ppo.run_ppo)
)
SWITCHES = (
    ENV,
    "VERL_COMPAT_DISABLE",
    "VERL_COMPAT_DISABLED_FIXES",
    "RAY_JOB_CONFIG_JSON_ENV_VAR",
    "RAY_OVERRIDE_JOB_RUNTIME_ENV",
)


class Stop(Exception):
    """Raised by the stubbed ray.init: the run stops right where the workers would start."""


@functools.cache
def _composed(overrides: tuple):
    return verl_compose(overrides)


def compose_config(*overrides):
    return copy.deepcopy(_composed(overrides))


@pytest.fixture(autouse=True)
def fresh_activation(monkeypatch):
    # verl leaves out of the workers' env_vars its defaults the launcher's environment already has;
    # importing some of verl's entry points (an earlier test's) sets TOKENIZERS_PARALLELISM there.
    for name in (*SWITCHES, *PPO_RAY_RUNTIME_ENV["env_vars"]):
        monkeypatch.delenv(name, raising=False)
    verl_compat.deactivate()
    verl_compat.activate()
    yield
    verl_compat.deactivate()
    verl_compat.activate()


@pytest.fixture
def ray_init(monkeypatch):
    """The keyword arguments of every ray.init call; the call itself stops the run."""
    calls = []

    def init(**kwargs):
        calls.append(kwargs)
        raise Stop

    monkeypatch.setattr(ray, "init", init)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    return calls


def launch(config):
    with pytest.raises(Stop):
        main_ppo.run_ppo(config, task_runner_class=None)


def decision():
    return verl_compat.status()["fixes"]["propagation"]["propagation"]


# --- what reaches ray.init ---------------------------------------------------------------------


def test_run_ppo_is_wrapped_where_verl_defines_it():
    assert "verl.trainer.main_ppo:run_ppo" in verl_compat.status()["fixes"]["propagation"]["patched"]


@pytest.mark.parametrize(
    "path", ["experimental/fully_async_policy/fully_async_main.py", "experimental/one_step_off_policy/main_ppo.py"]
)
def test_experimental_mains_call_the_wrapped_run_ppo(path):
    # They import run_ppo inside main(), when called: they get the wrapped one, whenever verl-compat
    # was activated. A main binding it at import (as 0.8's main_ppo_sync does) would need a target.
    source = Path(verl.__file__).parent / path
    if not source.exists():
        pytest.skip(f"this verl has no {path}")
    tree = ast.parse(source.read_text())

    def imports_run_ppo(node):
        return (
            isinstance(node, ast.ImportFrom)
            and node.module == "verl.trainer.main_ppo"
            and "run_ppo" in {alias.name for alias in node.names}
        )

    assert not any(imports_run_ppo(node) for node in tree.body)
    (main,) = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "main"]
    assert any(imports_run_ppo(node) for node in ast.walk(main))


def test_workers_import_verl_compat_shipped_with_wrapt(ray_init):
    launch(compose_config())
    runtime_env = ray_init[0]["runtime_env"]
    assert runtime_env["env_vars"][ENV] == "verl_compat"
    assert runtime_env["py_modules"] == SHIPPED
    assert runtime_env["env_vars"]["TOKENIZERS_PARALLELISM"] == "true"  # verl's own defaults stay
    assert decision()["injected"] is True


@pytest.mark.parametrize(
    "overrides, launcher_env, expected",
    [
        ((f"+ray_kwargs.ray_init.runtime_env.env_vars.{ENV}=mine",), None, "mine,verl_compat"),
        ((), "theirs", "theirs,verl_compat"),
        ((f"+ray_kwargs.ray_init.runtime_env.env_vars.{ENV}=mine",), "theirs", "mine,verl_compat"),
        ((f"+ray_kwargs.ray_init.runtime_env.env_vars.{ENV}='verl_compat,mine'",), None, "verl_compat,mine"),
    ],
    ids=["config", "launcher-env", "config-wins", "already-named"],
)
def test_the_users_modules_are_kept(ray_init, monkeypatch, overrides, launcher_env, expected):
    if launcher_env:
        monkeypatch.setenv(ENV, launcher_env)
    launch(compose_config(*overrides))
    assert ray_init[0]["runtime_env"]["env_vars"][ENV] == expected


def test_the_users_py_modules_are_kept(ray_init, tmp_path):
    launch(compose_config(f"+ray_kwargs.ray_init.runtime_env.py_modules=[{tmp_path}]"))
    assert ray_init[0]["runtime_env"]["py_modules"] == [str(tmp_path), *SHIPPED]


def test_user_env_vars_with_transfer_queue_do_not_crash(ray_init):
    overrides = ("transfer_queue.enable=True", "+ray_kwargs.ray_init.runtime_env.env_vars.MINE=mine")
    if HAS_TRANSFER_QUEUE_BUG:  # the bug, without the shim
        with pytest.raises(Exception, match="TRANSFER_QUEUE_ENABLE"):
            wrapt.unwrapped(main_ppo.run_ppo)(compose_config(*overrides), None)
    launch(compose_config(*overrides))
    env_vars = ray_init[-1]["runtime_env"]["env_vars"]
    assert (env_vars["MINE"], env_vars["TRANSFER_QUEUE_ENABLE"], env_vars[ENV]) == ("mine", "1", "verl_compat")


def test_the_launcher_config_is_prepared_by_every_fix(ray_init):
    config = compose_config("actor_rollout_ref.actor.profiler.tool=torch_memory")
    with pytest.warns(verl_compat.VerlCompatDeprecationWarning) as caught:
        launch(config)
    assert len([w for w in caught if issubclass(w.category, verl_compat.VerlCompatDeprecationWarning)]) == 1
    assert config.actor_rollout_ref.actor.profiler.enable is True  # torch_memory's launcher-side work
    # The rollout's profiler follows the actor's enable by interpolation: it is kept as it was.
    assert (config.actor_rollout_ref.rollout.profiler.enable, config.actor_rollout_ref.rollout.profiler.all_ranks) == (
        False,
        False,
    )


# --- when it cannot reach the workers, it changes nothing and says so ---------------------------


def test_ray_already_initialised_changes_nothing_and_says_so(monkeypatch, caplog):
    class Runner:
        @staticmethod
        def remote():
            raise Stop

    monkeypatch.setattr(ray, "is_initialized", lambda: True)
    config = compose_config("actor_rollout_ref.actor.profiler.tool=torch_memory")
    before = OmegaConf.to_container(config)
    with pytest.raises(Stop):
        main_ppo.run_ppo(config, task_runner_class=Runner)
    assert OmegaConf.to_container(config) == before
    assert "Ray is already initialised" in caplog.text
    assert decision()["injected"] is False


def test_unshippable_changes_nothing_and_says_so(ray_init, monkeypatch, caplog):
    def unshippable(name):
        raise propagation.Unshippable(f"{name} is a simulated zip import")

    monkeypatch.setattr(propagation, "package_dir", unshippable)
    config = compose_config("actor_rollout_ref.actor.profiler.tool=torch_memory")
    before = OmegaConf.to_container(config)
    launch(config)
    # Not even the fixes' launcher-side edits: a profiler enabled with nobody to drive it.
    assert OmegaConf.to_container(config) == before
    runtime_env = ray_init[0]["runtime_env"]
    assert ENV not in runtime_env["env_vars"] and "py_modules" not in runtime_env
    assert "cannot be shipped to the workers: verl_compat is a simulated zip import" in caplog.text


@pytest.mark.parametrize("override, injected", [(None, False), ("1", True)])
def test_a_submitted_jobs_own_py_modules_are_not_overridden(ray_init, monkeypatch, override, injected):
    # ray.init raises on a runtime_env field the submitted job already sets, unless told to override.
    monkeypatch.setenv("RAY_JOB_CONFIG_JSON_ENV_VAR", json.dumps({"runtime_env": {"py_modules": ["gcs://x.zip"]}}))
    if override:
        monkeypatch.setenv("RAY_OVERRIDE_JOB_RUNTIME_ENV", override)
    launch(compose_config())
    assert (ENV in ray_init[0]["runtime_env"]["env_vars"]) is injected


@pytest.mark.shim_errors("propagation:before run_ppo")
def test_a_shim_error_never_stops_run_ppo(ray_init, monkeypatch):
    def broken(name):
        raise RuntimeError("a bug in verl-compat")

    monkeypatch.setattr(propagation, "package_dir", broken)
    launch(compose_config())
    assert ray_init, "run_ppo went on to ray.init"
    assert verl_compat.status()["fixes"]["propagation"]["errors"] == {"before run_ppo": 1}


# --- switching it off, undoing it --------------------------------------------------------------


def test_propagation_can_be_turned_off_alone(ray_init, monkeypatch):
    monkeypatch.setenv("VERL_COMPAT_DISABLED_FIXES", "propagation")
    verl_compat.deactivate()
    verl_compat.activate()
    assert wrapping.wrapped_by(main_ppo.run_ppo, "propagation") is None  # other fixes may wrap it
    launch(compose_config())
    assert ENV not in ray_init[0]["runtime_env"]["env_vars"]


def test_deactivate_restores_run_ppo_by_identity():
    original = wrapt.unwrapped(main_ppo.run_ppo)
    verl_compat.deactivate()
    assert main_ppo.run_ppo is original


def test_main_ppo_sync_run_ppo_reaches_the_workers(ray_init):
    # 0.8's second entry point, which binds run_ppo at import.
    if not (Path(verl.__file__).parent / "trainer/main_ppo_sync.py").exists():
        pytest.skip("this verl has no verl.trainer.main_ppo_sync (0.8 only)")
    from verl.trainer import main_ppo_sync

    assert wrapping.wrapped_by(main_ppo_sync.run_ppo, "propagation") is not None
    with pytest.raises(Stop):
        main_ppo_sync.run_ppo(compose_config(), None)
    assert ray_init[-1]["runtime_env"]["env_vars"][ENV] == "verl_compat"


def test_main_ppo_sync_is_wrapped_once(ray_init, monkeypatch):
    # 0.8's main_ppo_sync binds run_ppo at import: the wrapped one when imported after activation,
    # the original when imported before. A stand-in module under that name, so the case does not
    # depend on whether (and when) an earlier test imported the real one.
    name = "verl.trainer.main_ppo_sync"
    for imported_after_activation in (True, False):
        verl_compat.deactivate()  # unpatches the real module too, if it is imported
        monkeypatch.delitem(sys.modules, name, raising=False)
        verl_compat.activate()
        module = types.ModuleType(name)
        module.run_ppo = main_ppo.run_ppo if imported_after_activation else wrapt.unwrapped(main_ppo.run_ppo)
        sys.modules[name] = module
        patching._on_import(module)
        patched = verl_compat.status()["fixes"]["propagation"]["patched"]
        assert ("verl.trainer.main_ppo_sync:run_ppo" in patched) is not imported_after_activation
        with pytest.raises(Stop):
            module.run_ppo(compose_config(), None)
        assert ray_init[-1]["runtime_env"]["env_vars"][ENV] == "verl_compat"
        verl_compat.deactivate()
        if not imported_after_activation:
            assert module.run_ppo is main_ppo.run_ppo, "deactivate() unpatched the module it patched"
    monkeypatch.undo()  # the real module (if any) is back: fresh_activation patches it again
