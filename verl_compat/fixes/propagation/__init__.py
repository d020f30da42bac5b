"""propagation: carry verl-compat from a launcher into the Ray processes that build trainers.

verl never builds the trainer in the launching process: ``run_ppo`` starts Ray and builds it inside
a ``TaskRunner`` actor (``verl/trainer/main_ppo.py``, every release). On a cluster started with
``ray start`` the workers do not inherit the launcher's environment, so a shim active only in the
launcher does nothing there.

When verl-compat is active in a launcher, each ``run_ppo`` entry point that exists is wrapped, and
before its own ``ray.init``:

1. :func:`reach` names ``verl_compat`` in the workers' ``VERL_USE_EXTERNAL_MODULES``
   (``ray_kwargs.ray_init.runtime_env.env_vars``), which every verl release imports at
   ``import verl`` in every process. The value is merged with what the user set, never replaced.
2. Then, and only if the workers were reached, ``patching.prepare_config(config)`` runs every fix's
   config-side work on the launcher's config, which travels by value to every actor (still
   unresolved there, so edits flow through interpolations). Where they were not reached, the
   launcher's config is left as it is: half a fix (a profiler enabled, nobody driving it) would be
   worse than none, and workers that have verl-compat installed apply it in the trainer process.

Before both, the launch-time stack check (:func:`verl_compat.stack.check`): one log line where the
run will certainly fail on this environment's stack (a module the config's path imports is missing,
a version verl's own code rejects), once per process, off with ``VERL_COMPAT_STACK_CHECK=0``.

verl imports the modules named there fail-closed: a name the worker cannot import makes its
``import verl`` fail. From the launcher one cannot tell whether the workers have verl-compat
installed (``ray.init`` may connect to any ``ray start`` cluster, even without an address), so the
name is only added together with the launcher's own copy of the package and of its runtime
dependency wrapt, shipped as ``runtime_env`` ``py_modules``. When they cannot be shipped, or Ray is
already initialised (then ``run_ppo`` does not call ``ray.init`` and the workers' environment can no
longer be changed from here), nothing is changed and the log says so: the run then behaves exactly
as without the shim wherever verl-compat is not installed.

Entry points (:data:`ENTRY_POINTS`): ``verl.trainer.main_ppo.run_ppo`` (its ``main``, 0.9's v0 path
and the experimental mains, which import it when called, all reach it); 0.8's
``verl.trainer.main_ppo_sync`` binds ``run_ppo`` at import, so its own name is wrapped too unless it
already holds the wrapped one; verl-omni's ``run_diffusion``, ``run_diffusion_v1`` and
``launch_ray_task_runner``, which call ``ray.init`` themselves.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import logging
import os
import sys
from typing import Any

from ... import patching, registry, stack, wrapping
from ...probes import EXTERNAL_MODULES

NAME = registry.fix_name(__name__)
# Module -> its function that calls ``ray.init`` with the run's config. verl-omni's launchers start
# Ray themselves (``run_omni``'s v1 path goes through ``run_ppo``, its offline-DPO path through
# ``launch_ray_task_runner``).
ENTRY_POINTS = {
    "verl.trainer.main_ppo": "run_ppo",
    "verl.trainer.main_ppo_sync": "run_ppo",
    "verl_omni.trainer.main_diffusion": "run_diffusion",
    "verl_omni.trainer.main_diffusion_v1": "run_diffusion_v1",
    "verl_omni.trainer.main_omni": "launch_ray_task_runner",
}
TARGETS = tuple(ENTRY_POINTS)

logger = logging.getLogger("verl_compat")

MODULE = "verl_compat"
SHIPPED = ("verl_compat", "wrapt")  # the package and its runtime dependency, as py_modules
_RUNTIME_ENV = "ray_kwargs.ray_init.runtime_env"
# Set by Ray in the driver of a submitted job: its runtime_env, which ray.init's must not conflict with.
_JOB_CONFIG = "RAY_JOB_CONFIG_JSON_ENV_VAR"


class Unshippable(Exception):
    """verl-compat cannot be made importable in the workers from this launcher."""


@dataclasses.dataclass(frozen=True)
class Decision:
    injected: bool
    reason: str
    external_modules: str | None = None
    py_modules: tuple = ()


# --- decide -----------------------------------------------------------------------------------


def _ray_initialized() -> bool:
    ray = sys.modules.get("ray")
    return ray is not None and ray.is_initialized()


def package_dir(name: str) -> str:
    """The one directory that holds package ``name``, as Ray's ``py_modules`` ships it."""
    module = sys.modules.get(name) or importlib.import_module(name)
    paths = list(getattr(module, "__path__", ()))
    if len(paths) != 1 or not os.path.isdir(paths[0]):
        raise Unshippable(f"{name} is not loaded from one plain directory ({paths or module.__file__})")
    return paths[0]


def _submitted_job_runtime_env() -> dict[str, Any]:
    """The runtime_env of the submitted Ray job this launcher is the driver of ({} if none)."""
    raw = os.environ.get(_JOB_CONFIG)
    if not raw:
        return {}
    try:
        return json.loads(raw).get("runtime_env") or {}
    except (ValueError, AttributeError) as exc:
        raise Unshippable(f"cannot read the submitted job's runtime_env ({exc})") from None


def _merged(value: str) -> str:
    if MODULE in (name.strip() for name in value.split(",")):
        return value
    return f"{value},{MODULE}" if value.strip() else MODULE


def decide(config) -> Decision:
    """Whether (and how) ``config``'s ``ray.init`` can make the workers import verl-compat."""
    from omegaconf import OmegaConf

    if _ray_initialized():
        return Decision(False, "Ray is already initialised, so run_ppo will not call ray.init with this config")
    try:
        job = _submitted_job_runtime_env()
        override = os.environ.get("RAY_OVERRIDE_JOB_RUNTIME_ENV") == "1"
        # ray.init refuses a field or env var key that the submitted job's runtime_env already sets.
        if "py_modules" in job and not override:
            raise Unshippable("the submitted Ray job's runtime_env already sets py_modules")
        if EXTERNAL_MODULES in (job.get("env_vars") or {}) and not override:
            raise Unshippable(f"the submitted Ray job's runtime_env already sets {EXTERNAL_MODULES}")
        py_modules = tuple(package_dir(name) for name in SHIPPED)
    except Unshippable as exc:
        return Decision(False, f"verl-compat cannot be shipped to the workers: {exc}")
    env_vars = OmegaConf.select(config, f"{_RUNTIME_ENV}.env_vars") or {}
    # Without an env_vars entry the workers inherit the raylet's value, which for a cluster that
    # ray.init starts is the launcher's own.
    current = env_vars[EXTERNAL_MODULES] if EXTERNAL_MODULES in env_vars else os.environ.get(EXTERNAL_MODULES, "")
    return Decision(True, "shipped as runtime_env py_modules", _merged(str(current or "")), py_modules)


# --- inject -----------------------------------------------------------------------------------


def inject(config, decision: Decision) -> None:
    """Write the decision into ``config``'s ``ray_kwargs.ray_init.runtime_env`` (keys added with
    ``open_dict``, the user's ``env_vars`` and ``py_modules`` kept)."""
    from omegaconf import OmegaConf, open_dict, read_write

    with read_write(config), open_dict(config):
        OmegaConf.update(config, f"{_RUNTIME_ENV}.env_vars.{EXTERNAL_MODULES}", decision.external_modules)
        existing = list(OmegaConf.select(config, f"{_RUNTIME_ENV}.py_modules") or [])
        added = [path for path in decision.py_modules if path not in existing]
        OmegaConf.update(config, f"{_RUNTIME_ENV}.py_modules", existing + added, merge=False)
    # verl <=0.8.0 adds TRANSFER_QUEUE_ENABLE to a user-set env_vars node in place, which raises
    # ConfigKeyError on a struct config (fixed in 0.9.1): leave that node open.
    OmegaConf.set_struct(OmegaConf.select(config, f"{_RUNTIME_ENV}.env_vars"), False)


def reach(config) -> bool:
    """Decide, write the decision into ``config`` and log it; True when the workers will import
    verl-compat."""
    from omegaconf import DictConfig

    if not isinstance(config, DictConfig):
        return False
    decision = decide(config)
    _last["decision"] = decision
    if not decision.injected:
        logger.warning(
            "verl-compat: %s; the config and %s are left unchanged, so the Ray workers get the shim "
            "only where verl-compat is installed (auto-load) or already named in their %s",
            decision.reason,
            EXTERNAL_MODULES,
            EXTERNAL_MODULES,
        )
        return False
    inject(config, decision)
    logger.info(
        "verl-compat: Ray workers will import verl_compat at `import verl` (%s=%s); "
        "verl-compat and wrapt are shipped to them as runtime_env py_modules: %s",
        EXTERNAL_MODULES,
        decision.external_modules,
        ", ".join(decision.py_modules),
    )
    return True


# --- wrap -------------------------------------------------------------------------------------


def _before_run_ppo(wrapped, instance, args, kwargs):
    config = args[0] if args else kwargs.get("config")
    with registry.guard(NAME, "stack check before run_ppo"):
        # Before ray.init: a run that will certainly fail on this stack says so in one line first.
        stack.check(config)
    with registry.guard(NAME, "before run_ppo"):
        if patching.is_active() and reach(config):
            patching.prepare_config(config)
    return wrapped(*args, **kwargs)


def patches(module) -> registry.Plan:
    name = ENTRY_POINTS[module.__name__]
    if wrapping.wrapped_by(getattr(module, name, None), NAME) is not None:
        # main_ppo_sync imported main_ppo's run_ppo after it was wrapped: wrapping again would
        # prepare the config twice. It is covered, so this is no skip.
        logger.debug("verl-compat: %s.%s is a wrapped entry point already", module.__name__, name)
        return registry.Plan()
    return registry.Plan((registry.Patch(name, _before_run_ppo, "prepare the config and reach the Ray workers"),))


# --- state ------------------------------------------------------------------------------------

_last: dict[str, Decision | None] = {"decision": None}


def state() -> dict[str, dict[str, Any] | None]:
    """The last propagation decision in this process (None before any run_ppo call)."""
    decision = _last["decision"]
    return {"propagation": dataclasses.asdict(decision) if decision else None}


def reset() -> None:
    _last["decision"] = None
    stack.reset()
