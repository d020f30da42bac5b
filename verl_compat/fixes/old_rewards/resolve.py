"""Which reward path a config takes, and where verl resolves the manager class, the old class's
adapter instead of a failure.

verl 0.8.0+ resolves the class in ``verl.trainer.ppo.reward.resolve_reward_manager_cls(config)``:
the driver's ``RewardLoopManager.__init__`` and each ``RewardLoopWorker``'s ``load_reward_manager``
call it. A name only the old registry knows raises ``ValueError: Unknown reward manager``; an
old-contract class named with ``source=importlib`` comes back as is and dies when built. The wrapper
answers both with :func:`.adapter.adapter_for` the old class; any other failure passes through.
"""

from __future__ import annotations

import dataclasses

from ... import configs, registry
from . import adapter, contract

NAME = registry.fix_name(__name__)


@dataclasses.dataclass(frozen=True)
class Path:
    """The reward path of a config: ``kind`` is ``default`` (verl's scorer), ``function`` (a custom
    reward function, native), ``native`` (a manager of today's contract), ``old`` (an old-contract
    manager: adapted), ``unknown`` (a name neither registry knows)."""

    kind: str
    name: str | None = None
    cls: type | None = None
    found: str = ""  # how the old class was found: "old registry", "custom reward file", "importlib",
    # or "data.reward_fn_key=<column>" (verl's own old manager, which reads that column)


def manager_settings(config) -> tuple[str, str | None, str | None]:
    """``(source, name, module path)`` of the configured manager (0.6.x: ``reward_model.reward_manager``)."""
    section = configs.select(config, "reward.reward_manager")
    if section is None or isinstance(section, str):
        return "register", section or configs.select(config, "reward_model.reward_manager") or "naive", None
    return (
        configs.select(section, "source") or "register",
        configs.select(section, "name"),
        configs.select(section, "module.path"),
    )


def _new_registry_has(name: str) -> bool:
    try:
        from verl.experimental.reward_loop.reward_manager import registry as new_registry
    except ImportError:
        return False
    return name in getattr(new_registry, "REWARD_MANAGER", {})


def old_class_by_name(config, name: str):
    """The old class the old registry knows as ``name`` (importing the custom reward file first)."""
    path, _, _ = contract.custom_function_settings(config)
    return contract.registered_old_class(name, path)


def reward_path(config) -> Path:
    """The reward path ``config`` takes on the installed verl."""
    source, name, module_path = manager_settings(config)
    custom_path, _, _ = contract.custom_function_settings(config)
    if source == "importlib":
        from verl.utils.import_utils import load_extern_object

        cls = load_extern_object(module_path=module_path, object_name=name)
        if contract.is_old_contract(cls):
            return Path("old", name, cls, "importlib")
        return Path("native", name, cls)
    if not contract.is_new_contract_available():
        return Path("native", name)  # verl <= 0.6: the trainer calls old managers itself
    if name and _new_registry_has(name):
        old = _old_for_reward_fn_key(config, name)
        if old is not None:
            return old
        return Path("function" if custom_path and name == "naive" else "native", name)
    cls = old_class_by_name(config, name) if name else None
    if cls is not None and contract.is_old_contract(cls):
        return Path("old", name, cls, "custom reward file" if contract.from_custom_file(cls) else "old registry")
    return Path("unknown", name)


def reward_fn_key(config) -> str:
    return configs.select(config, "data.reward_fn_key") or "data_source"


def _old_for_reward_fn_key(config, name: str) -> Path | None:
    """verl's own old manager of that name, where ``data.reward_fn_key`` names another column than
    ``data_source``: old verl's managers read the data source from that column (verl 0.6.1
    ``naive.py``: ``data_item.non_tensor_batch[self.reward_fn_key]``), today's ``naive``/``dapo``
    read ``data_source`` whatever the key says (0.9.1 ``reward_loop/reward_manager/naive.py``), so
    the old class scores, on the whole batch, as it did."""
    if reward_fn_key(config) == "data_source":
        return None
    registry_module = contract.old_registry()
    cls = getattr(registry_module, "REWARD_MANAGER_REGISTRY", {}).get(name) if registry_module else None
    if cls is None or not contract.is_old_contract(cls):
        return None
    return Path("old", name, cls, f"data.reward_fn_key={reward_fn_key(config)}")


def resolve_reward_manager_cls(wrapped, instance, args, kwargs):
    """verl's resolution, answered with the adapter where the config names an old-contract class."""
    config = args[0] if args else kwargs.get("config")
    try:
        cls = wrapped(*args, **kwargs)
    except ValueError:
        old = None
        with registry.guard(NAME, "resolve_reward_manager_cls"):
            _, name, _ = manager_settings(config)
            old = old_class_by_name(config, name)
            if old is not None and not contract.is_old_contract(old):
                old = None
        if old is None:
            raise
        return adapter.adapter_for(old)
    with registry.guard(NAME, "resolve_reward_manager_cls"):
        if contract.is_old_contract(cls):
            return adapter.adapter_for(cls)
        path = reward_path(config)
        if path.kind == "old" and path.found.startswith("data.reward_fn_key"):
            return adapter.adapter_for(path.cls)
    return cls


def load_reward_manager(wrapped, instance, args, kwargs):
    """verl 0.7.x's ``load_reward_manager(config, tokenizer, **kwargs)`` (it resolves the class
    itself, without ``resolve_reward_manager_cls``): where it fails on an old-contract class (an old
    name: ``ValueError``; an old class built the new way: ``TypeError``), the adapter built the way
    it builds managers."""
    try:
        return wrapped(*args, **kwargs)
    except (ValueError, TypeError):
        built = None
        with registry.guard(NAME, "load_reward_manager"):
            config = args[0] if args else kwargs.get("config")
            tokenizer = args[1] if len(args) > 1 else kwargs.get("tokenizer")
            path = reward_path(config)
            if path.kind == "old":
                from verl.trainer.ppo.reward import get_custom_reward_fn

                built = adapter.adapter_for(path.cls)(
                    config=config, tokenizer=tokenizer, compute_score=get_custom_reward_fn(config)
                )
        if built is None:
            raise
        return built
