"""The path a run takes through verl, read from its config: which rollout backend, which training
strategy, which trainer. What a run imports, and so what must be installed, depends on it: vLLM only
for ``actor_rollout_ref.rollout.name=vllm``, megatron-core only for the Megatron strategy,
TransferQueue only for verl 0.9's v1 trainer (``trainer.use_v1``, its default).

Also whether the workers may run in another Python environment than this one: a Ray address (an
existing cluster) or a ``runtime_env`` that installs or selects one (``pip``, ``conda``, ``uv``,
``py_executable``, ``container``, ``image_uri``). Then what this interpreter has says nothing certain
about the workers.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from .. import configs

BACKENDS = ("vllm", "sglang", "trtllm")
BACKEND_DISTRIBUTIONS = ("vllm", "sglang", "tensorrt-llm")
_RUNTIME_ENV = "ray_kwargs.ray_init.runtime_env"
_OTHER_ENV_FIELDS = ("py_executable", "pip", "conda", "uv", "container", "image_uri")


@dataclass(frozen=True)
class RunPath:
    """``rollout``: a backend of :data:`BACKENDS`, or None when the config does not say (verl's own
    ``rollout.yaml`` leaves it ``???``); ``strategy``: ``fsdp`` or ``megatron``; ``v1``: verl 0.9's
    v1 trainer; ``elsewhere``: why the workers may run in another environment (empty: they run in
    this one, as far as the config says)."""

    rollout: str | None = None
    strategy: str = "fsdp"
    v1: bool = False
    elsewhere: tuple[str, ...] = ()

    @property
    def tags(self) -> frozenset[str]:
        found = {self.strategy}
        if self.rollout:
            found.add(self.rollout)
        if self.v1:
            found.add("v1")
        return frozenset(found)

    def describe(self) -> str:
        rollout = f"rollout {self.rollout}" if self.rollout else "rollout not given"
        return f"{rollout}, {self.strategy}, {'v1 trainer' if self.v1 else 'RayPPOTrainer'}"


def of_config(config: Any) -> RunPath:
    """The path ``config`` (a composed verl config, a dict, or None: verl's defaults) takes."""
    if config is None:
        return RunPath(elsewhere=_ray_address_env())
    name = configs.select(config, "actor_rollout_ref.rollout.name")
    rollout = str(name).lower() if name is not None and str(name) in BACKENDS else None
    strategy = str(configs.select(config, "actor_rollout_ref.actor.strategy") or "fsdp").lower()
    use_v1 = configs.select(config, "trainer.use_v1")
    return RunPath(
        rollout=rollout,
        strategy="megatron" if strategy == "megatron" else "fsdp",
        v1=bool(use_v1),
        elsewhere=_elsewhere(config),
    )


def _elsewhere(config: Any) -> tuple[str, ...]:
    found = list(_ray_address_env())
    address = configs.select(config, "ray_kwargs.ray_init.address")
    if address not in (None, "", "local"):
        found.append(f"ray_kwargs.ray_init.address={address}: the workers run on that cluster's Python")
    runtime_env = configs.select(config, _RUNTIME_ENV)
    if runtime_env is not None:
        found += [
            f"{_RUNTIME_ENV}.{field} is set: the workers get another environment"
            for field in _OTHER_ENV_FIELDS
            if configs.select(runtime_env, field) not in (None, "", [], {})
        ]
    return tuple(found)


def _ray_address_env() -> tuple[str, ...]:
    address = os.environ.get("RAY_ADDRESS", "")
    if address and address != "local":
        return (f"RAY_ADDRESS={address}: the workers run on that cluster's Python",)
    return ()
