"""``actor_rollout_ref.nccl_timeout``, the workers' process-group timeout, where no key reaches it.

verl <= 0.7.1's legacy workers started the training process group with
``timeout=timedelta(seconds=self.config.get("nccl_timeout", 600))`` (0.7.1
``verl/workers/fsdp_workers.py`` and ``megatron_workers.py``, ``ActorRolloutRefWorker.__init__``);
verl's own old launches set 1200 to 14400 s for long collectives. verl 0.8.0 deleted those workers
(verl#6067); the key is still declared (0.9.1 ``ppo_trainer.yaml``: ``nccl_timeout: 600``) and read by
nothing: the engine workers call ``initialize_global_process_group_ray(timeout_second=None)`` (0.9.1
``verl/workers/engine_workers.py``, ``TrainingWorker.__init__``), so the group gets torch's default
(30 min for verl's ``cpu:gloo,cuda:nccl`` backend: ``torch.distributed.distributed_c10d._get_default_timeout``)
and a collective longer than that now fails where the launch had allowed it.

No key of 0.8.0+ sets that timeout, so the value travels as the old worker read it: at composition,
where the installed verl no longer ships the legacy worker of the launch's strategy and the launch sets
a timeout other than the declared 600, it is put in the workers' environment
(``ray_kwargs.ray_init.runtime_env.env_vars.VERL_COMPAT_NCCL_TIMEOUT``, which verl's TaskRunner hands to
every Ray actor of the run), with one warning; in the workers, the wrapper of ``engine_workers``'s
``initialize_global_process_group_ray`` passes it where verl passes ``timeout_second=None``. The
process holds one group: in a colocated worker the actor's key decides, as it did in 0.7.1, where the
actor's worker started the group first.

Reads **decide** (at composition) → **patch** (in the workers).
"""

from __future__ import annotations

import os

from ... import configs, registry
from . import readers
from .table import Reader, Row, legacy_worker
from .translate import Finding

NAME = registry.fix_name(__name__)
KEY = "actor_rollout_ref.nccl_timeout"
ENV = "VERL_COMPAT_NCCL_TIMEOUT"
SWITCH = f"ray_kwargs.ray_init.runtime_env.env_vars.{ENV}"
DECLARED = 600  # what verl declares for the key, and what 0.7.1's workers took without it
EVIDENCE = "verl#6067 (044bbba27)"
_GONE = "verl 0.8.0 deleted the legacy workers that passed it to init_process_group"


# --- decide -----------------------------------------------------------------------------------


def reader_for(config) -> Reader:
    """The legacy worker of the actor's strategy, which read the key."""
    return legacy_worker(configs.select(config, "actor_rollout_ref.actor.strategy"), "actor_rollout_ref", _GONE)


def seconds(value) -> int | None:
    """A timeout as the old worker took it (``timedelta(seconds=…)``), whole seconds; None where it
    is not a positive number."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return int(number) if number > 0 and number == int(number) else None


def apply(config) -> list[Finding]:
    """Put a launch's own timeout in the workers' environment where no legacy worker reads it; the
    finding that says so."""
    value = seconds(configs.select(config, KEY))
    if value is None or value == DECLARED:
        return []  # not set, or verl's own value: it asks for nothing
    reader = reader_for(config)
    if readers.calls(reader.entry, reader.function):
        return []  # this verl's own worker reads it
    if configs.select(config, SWITCH) is not None:
        return []  # the user's own
    configs.set_key(config, SWITCH, str(value))
    note = (
        f"{reader.said()} ({reader.entry}); the engine workers start it with torch's default timeout and "
        "no key of this verl sets it"
    )
    row = Row(KEY, "restored", SWITCH, "0.8.0", EVIDENCE, note=note, reader=reader)  # type: ignore[arg-type]  # not a table fate
    return [Finding(row, KEY, str(value), SWITCH, f"{SWITCH}={value}")]


# --- patch (in the workers) ---------------------------------------------------------------------


def wanted() -> int | None:
    """The run's timeout in seconds, from the workers' environment; None where it set none."""
    return seconds(os.environ.get(ENV))


def _with_timeout(wrapped, instance, args, kwargs):
    """verl's ``initialize_global_process_group_ray(timeout_second=None, backend=None)``, with the
    run's timeout where verl passes none."""
    with registry.guard(NAME, "initialize_global_process_group_ray"):
        timeout = wanted()
        given = kwargs.get("timeout_second", args[0] if args else None)
        if timeout is not None and given is None:
            kwargs = {**kwargs, "timeout_second": timeout}
            args = args[1:]
    return wrapped(*args, **kwargs)


def patches_for(module) -> list[registry.Patch]:
    """The engine workers' process-group start, where the module calls it by this name."""
    if not callable(getattr(module, "initialize_global_process_group_ray", None)):
        return []
    why = "actor_rollout_ref.nccl_timeout as the process-group timeout, as verl <=0.7.1's workers (verl#6067)"
    return [registry.Patch("initialize_global_process_group_ray", _with_timeout, why)]
