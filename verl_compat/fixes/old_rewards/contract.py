"""Which reward code is written against the old contract, and how old verl found and built it.

The old contract (verl <= 0.6.x; ``verl.workers.reward_manager.AbstractRewardManager``, still
shipped by 0.9.1): ``__init__(tokenizer, num_examine, compute_score, reward_fn_key, **kwargs)`` and
``__call__(data, return_dict=False)`` on the whole batch, in the trainer's process. The new one
(``verl.experimental.reward_loop.reward_manager.base.RewardManagerBase``, 0.7.1+):
``__init__(config, tokenizer, compute_score)`` and ``async run_single(data)`` on one trajectory.
A class is old-contract when it is no ``RewardManagerBase`` and is called with the batch.

How verl 0.6.1 found and built one (``verl/trainer/ppo/reward.py``, ``get_custom_reward_fn`` and
``load_reward_manager``; ``verl/trainer/main_ppo.py``): the ``custom_reward_function.path`` file is
imported once, as ``sys.modules["custom_module"]``, so that a manager it registers with the old
``register`` is found by name in the old registry; the class is built with the tokenizer,
``num_examine`` (0 for training, 1 for validation), ``compute_score`` (:func:`compute_score`: the
custom function, else ``default_compute_score``, bound to the sandbox where one is configured),
``reward_fn_key=data.reward_fn_key`` and ``**reward_kwargs``.
"""

from __future__ import annotations

import importlib.util
import inspect
import multiprocessing
import os
import sys
import threading
from functools import partial

from ... import configs, registry

CUSTOM_MODULE = "custom_module"  # the sys.modules name verl 0.6.1 gave the custom reward file


def _new_base():
    from verl.experimental.reward_loop.reward_manager.base import RewardManagerBase

    return RewardManagerBase


def is_new_contract(cls) -> bool:
    """Whether ``cls`` is one of today's reward managers (a ``RewardManagerBase``)."""
    try:
        return isinstance(cls, type) and issubclass(cls, _new_base())
    except ImportError:  # verl <= 0.6: there is only the old contract
        return False


def is_old_contract(cls) -> bool:
    """Whether ``cls`` is a reward manager class of the old contract: no ``RewardManagerBase``, and
    called with the batch (``__call__(data, ...)``) rather than awaited per trajectory."""
    if not isinstance(cls, type) or is_new_contract(cls):
        return False
    call = vars(type).get("__call__")
    for base in inspect.getmro(cls):
        if "__call__" in vars(base):
            call = vars(base)["__call__"]
            break
    if call is None or call is vars(type)["__call__"] or hasattr(cls, "run_single"):
        return False
    try:
        parameters = list(inspect.signature(call).parameters)
    except (TypeError, ValueError):
        return False
    return len(parameters) >= 2  # self, data, ...


def is_old_callable(value) -> bool:
    """Whether ``value`` is a reward callable of the old trainer (``reward_fn=``): called with the
    batch, not a ``RewardManagerBase`` instance."""
    return callable(value) and not is_new_contract(type(value)) and not isinstance(value, type)


def old_registry():
    """verl's old registry module, or None where this verl no longer ships it."""
    try:
        from verl.workers.reward_manager import registry
    except ImportError:
        return None
    return registry


def custom_module(path: str):
    """The ``custom_reward_function.path`` file, imported once per process as verl 0.6.1 did (an
    old ``register`` in it runs once; a second import would register another class of the same
    name, which the old ``register`` rejects)."""
    module = sys.modules.get(CUSTOM_MODULE)
    if module is not None and os.path.abspath(getattr(module, "__file__", "") or "") == os.path.abspath(path):
        return module
    spec = importlib.util.spec_from_file_location(CUSTOM_MODULE, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import the reward function file {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[CUSTOM_MODULE] = module
    spec.loader.exec_module(module)
    return module


def from_custom_file(cls) -> bool:
    """Whether ``cls`` was defined by the custom reward file (imported as verl 0.6.1 or as verl
    0.7.1+'s ``load_extern_object`` names it)."""
    module = getattr(cls, "__module__", "") or ""
    return module == CUSTOM_MODULE or module.startswith(f"{CUSTOM_MODULE}_")


def registered_old_class(name: str, custom_path: str | None):
    """The class the old registry knows as ``name``, after importing the custom reward file when the
    name is not registered yet (as verl 0.6.1 did); None where neither has it."""
    registry = old_registry()
    if registry is None or not name:
        return None
    table = registry.REWARD_MANAGER_REGISTRY
    if name not in table and custom_path:
        custom_module(custom_path)
    return table.get(name)


def custom_function_settings(config) -> tuple[str | None, str | None, dict]:
    """``(path, name, reward_kwargs)`` of the custom reward function, at today's keys or, on verl
    0.6.x, at the legacy top-level ones."""
    section = configs.select(config, "reward.custom_reward_function")
    if section is None:
        section = configs.select(config, "custom_reward_function")
    if section is None:
        return None, None, {}
    kwargs = configs.select(section, "reward_kwargs") or {}
    return configs.select(section, "path"), configs.select(section, "name") or "compute_score", dict(kwargs)


def manager_kwargs(config) -> dict:
    """The constructor keywords old verl gave a manager: ``reward.reward_kwargs`` (0.7.1+) or
    ``reward_model.reward_kwargs`` (0.6.x), as ``**`` of the config node (nested values stay config
    nodes: verl's DAPORewardManager reads ``overlong_buffer_cfg.enable``)."""
    kwargs = configs.select(config, "reward.reward_kwargs")
    if kwargs is None:
        kwargs = configs.select(config, "reward_model.reward_kwargs")
    return {key: kwargs[key] for key in kwargs} if kwargs else {}


def compute_score(config):
    """What verl 0.6.1's ``load_reward_manager`` passed as ``compute_score``: the custom reward
    function wrapped as its ``get_custom_reward_fn`` wrapped it (``reward_kwargs`` merged into each
    call, taking precedence; an ``async`` function awaited), else verl's ``default_compute_score``,
    bound to the sandbox where ``sandbox_fusion.url`` is set (code data sources then run in the
    sandbox, never in this process)."""
    from verl.utils.reward_score import default_compute_score

    path, name, kwargs = custom_function_settings(config)
    if path:
        function = getattr(custom_module(path), name)
        call = _call_with_kwargs_async if inspect.iscoroutinefunction(function) else _call_with_kwargs
        return partial(call, function, kwargs)
    url, max_concurrent, memory_limit_mb = sandbox_settings(config)
    if not url:
        return default_compute_score
    return partial(
        default_compute_score,
        sandbox_fusion_url=url,
        concurrent_semaphore=sandbox_semaphore(max_concurrent),
        memory_limit_mb=memory_limit_mb,
    )


def _call_with_kwargs(function, extra_kwargs, *args, **kwargs):
    return function(*args, **{**kwargs, **extra_kwargs})


async def _call_with_kwargs_async(function, extra_kwargs, *args, **kwargs):
    return await function(*args, **{**kwargs, **extra_kwargs})


def sandbox_settings(config) -> tuple[str | None, int, int]:
    """``(url, max_concurrent, memory_limit_mb)`` of the sandbox, at today's ``reward.sandbox_fusion``
    or, on verl 0.6.x, ``reward_model.sandbox_fusion``, with verl 0.6.1's defaults (64, 1024 MB)."""
    section = configs.select(config, "reward.sandbox_fusion")
    if section is None:
        section = configs.select(config, "reward_model.sandbox_fusion")
    if section is None:
        return None, 64, 1024
    max_concurrent = configs.select(section, "max_concurrent")
    memory_limit_mb = configs.select(section, "memory_limit_mb")
    return (
        configs.select(section, "url") or None,
        64 if max_concurrent is None else max_concurrent,
        1024 if memory_limit_mb is None else memory_limit_mb,
    )


_sandbox_lock = threading.Lock()
_sandbox_manager: list = []  # the one multiprocessing.Manager of this process, made at first need
_sandbox_semaphores: dict[int, object] = {}  # max_concurrent -> the Manager's semaphore


def sandbox_semaphore(max_concurrent: int):
    """The ``multiprocessing.Manager().Semaphore(max_concurrent)`` verl 0.6.1 bounded sandbox calls
    with, made once per process (0.6.1 started a Manager server per ``load_reward_manager`` call;
    the training and validation managers never score at the same time)."""
    with _sandbox_lock:
        semaphore = _sandbox_semaphores.get(max_concurrent)
        if semaphore is None:
            if not _sandbox_manager:
                _sandbox_manager.append(multiprocessing.Manager())
            semaphore = _sandbox_semaphores[max_concurrent] = _sandbox_manager[0].Semaphore(max_concurrent)
        return semaphore


def build_old_manager(cls, config, tokenizer, num_examine: int, score=None, kwargs: dict | None = None):
    """``cls`` built as verl 0.6.1's ``load_reward_manager`` built it (``score``: a
    ``compute_score`` already loaded from the same config, by verl's own loader; ``kwargs``: the
    ``**reward_kwargs`` of a ``load_reward_manager`` call, else the config's, as 0.6.1's ``main_ppo``
    passed them)."""
    return cls(
        tokenizer=tokenizer,
        num_examine=num_examine,
        compute_score=score if score is not None else compute_score(config),
        reward_fn_key=configs.select(config, "data.reward_fn_key") or "data_source",
        **(manager_kwargs(config) if kwargs is None else kwargs),
    )


def is_new_contract_available() -> bool:
    """Whether this verl has today's reward loop (0.7.1+); verl 0.6.x calls old managers itself.
    Read off the installed tree, not imported: asked inside the import of verl's reward modules,
    where importing the reward loop package would be circular."""
    verl = sys.modules.get("verl")
    roots = list(getattr(verl, "__path__", None) or [])
    if not roots:
        spec = importlib.util.find_spec("verl")
        roots = list(spec.submodule_search_locations or []) if spec else []
    return any(os.path.exists(os.path.join(root, *NEW_BASE_FILE)) for root in roots)


NEW_BASE_FILE = ("experimental", "reward_loop", "reward_manager", "base.py")


_registered_from: dict[str, str] = {}  # name -> the file whose top level registered it


def tolerant_register(wrapped, instance, args, kwargs):
    """The old ``register(name)``: a second import of the same file (verl 0.7.1+ imports the custom
    reward file anew on each ``get_custom_reward_fn``, where 0.6.1 imported it once) registers the
    same class again, which the old registry rejects (``has already been registered``); that one
    replaces it. Two classes from different files under one name still fail as before."""
    decorator = wrapped(*args, **kwargs)
    name = args[0] if args else kwargs.get("name")

    def register_class(cls):
        with registry.guard(registry.fix_name(__name__), "register"):
            source = os.path.abspath(sys._getframe(1).f_code.co_filename)  # the module applying it
            table = getattr(old_registry(), "REWARD_MANAGER_REGISTRY", {})
            existing = table.get(name)
            if existing is not None and existing is not cls and _registered_from.get(name) == source:
                del table[name]
            _registered_from.setdefault(name, source)
        return decorator(cls)

    return register_class
