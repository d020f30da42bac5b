"""Trainer-config keys verl renamed or removed, as data: one :class:`Row` per old path.

A row names a dotted path of verl's PPO trainer config (``ppo_trainer`` / ``ppo_megatron_trainer``)
and what it became. A path may name a whole subtree: the row then applies to every key under it,
the rest of the key kept (``critic.model.fsdp_config.param_offload`` ->
``critic.fsdp.param_offload``).

``kind``:

- ``renamed``: the same setting at ``new``;
- ``moved``: at ``new``, its values mapped by ``values`` (``((old, new), ...)``);
- ``dropped``: has no effect any more, and what the user asked is what the release does anyway:
  deleted, with a warning that says why (``why``);
- ``removed``: asks for something the release cannot do: the run stops before workers start.

``group`` marks a config-group option (``model_engine=mindspeed``): ``old`` is ``group=option``.
"""

from __future__ import annotations

import dataclasses

KINDS = ("renamed", "moved", "dropped", "removed")


@dataclasses.dataclass(frozen=True)
class Row:
    old: str
    kind: str
    new: str | None
    since: str
    evidence: str
    why: str = ""
    values: tuple = ()
    group: bool = False


ROWS = (
    Row(
        "critic.model.fsdp_config",
        "renamed",
        "critic.fsdp",
        "0.8.0",
        "verl critic engine config",
    ),
    Row(
        "actor_rollout_ref.actor.megatron.grad_offload",
        "dropped",
        None,
        "0.9.1",
        "verl#7544",
        why="it never had an effect: gradients are offloaded with the parameters (param_offload)",
    ),
    Row("trainer.profile_steps", "renamed", "global_profiler.steps", "0.6.0", "verl global_profiler"),
    Row(
        "trainer.use_legacy_worker_impl",
        "removed",
        None,
        "0.9.0",
        "verl legacy workers removed",
        why="the legacy worker implementation is gone; verl runs its engine workers",
    ),
    Row(
        "model_engine=mindspeed",
        "removed",
        None,
        "0.9.0",
        "verl model_engine group",
        why="the MindSpeed engine is no longer shipped",
        group=True,
    ),
)
