"""The deprecated global micro-batch sizes, divided per GPU as verl's legacy FSDP workers divided them.

verl <= 0.7.1's launches may set ``actor_rollout_ref.actor.ppo_micro_batch_size`` and
``{rollout,ref}.log_prob_micro_batch_size`` (global, all GPUs together) instead of their
``_per_gpu`` keys: verl 0.7.1's ``ActorRolloutRefWorker.__init__`` (``verl/workers/fsdp_workers.py``,
"normalize config") divided each by ``world size // actor.ulysses_sequence_parallel_size`` and set
the ``_per_gpu`` key itself. verl 0.8.0 deleted those workers (verl#6067); its checks still accept the
global keys (``verl/utils/config.py`` ``check_mutually_exclusive``), and its engine workers then stop
at start on ``assert ….log_prob_micro_batch_size_per_gpu is not None``
(0.9.1 ``verl/workers/engine_workers.py``), after Ray has started. At composition, where the installed
verl no longer ships the legacy workers, a global size set without its ``_per_gpu`` key is divided
the same way (world size: ``trainer.n_gpus_per_node * trainer.nnodes``, the actor/rollout pool), the
``_per_gpu`` key set and the global one cleared, with one warning each.
"""

from __future__ import annotations

from ... import configs
from . import readers
from .table import LEGACY_FSDP_WORKERS, Row
from .translate import Finding

GLOBAL_TO_PER_GPU = (
    ("actor_rollout_ref.actor.ppo_micro_batch_size", "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu"),
    (
        "actor_rollout_ref.rollout.log_prob_micro_batch_size",
        "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu",
    ),
    ("actor_rollout_ref.ref.log_prob_micro_batch_size", "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu"),
)
SP = "actor_rollout_ref.actor.ulysses_sequence_parallel_size"
EVIDENCE = "verl#6067 (044bbba27)"


def divisor(config) -> int | None:
    """verl 0.7.1's ``device_mesh.size() // ulysses_sequence_parallel_size``; None where unknown."""
    try:
        world = int(configs.select(config, "trainer.n_gpus_per_node")) * int(configs.select(config, "trainer.nnodes"))
        sp = int(configs.select(config, SP) or 1)
    except (TypeError, ValueError):
        return None
    return world // sp if world > 0 and sp > 0 and world // sp > 0 else None


def applies(config) -> bool:
    """The installed verl has no legacy FSDP workers to divide them, and the launch is on FSDP."""
    home = configs.select(config, LEGACY_FSDP_WORKERS.home)
    return home is not None and not readers.calls(LEGACY_FSDP_WORKERS.entry, LEGACY_FSDP_WORKERS.function)


def apply(config) -> list[Finding]:
    """Divide each global micro-batch size set without its ``_per_gpu`` key; the findings that say so."""
    if not any(configs.select(config, key) is not None for key, _ in GLOBAL_TO_PER_GPU) or not applies(config):
        return []
    parts = divisor(config)
    if parts is None:
        return []  # world size unknown: left to verl
    findings = []
    for key, per_gpu_key in GLOBAL_TO_PER_GPU:
        size = configs.select(config, key)
        if size is None or configs.select(config, per_gpu_key) is not None:
            continue  # both set: verl's own check names it
        per_gpu = int(size) // parts
        if per_gpu < 1:
            continue  # verl 0.7.1 failed on it too (a zero micro-batch)
        configs.set_key(config, per_gpu_key, per_gpu)
        configs.set_key(config, key, None)
        note = (
            f"verl 0.7.1's FSDP workers divided it by the data-parallel size ({size} // {parts}: "
            f"trainer.n_gpus_per_node * trainer.nnodes // {SP}); verl 0.8.0+ reads only "
            f"{per_gpu_key.rpartition('.')[2]} and its engine workers stop on an assertion at start without it"
        )
        row = Row(key, "converted", per_gpu_key, "0.8.0", EVIDENCE, note=note)  # type: ignore[arg-type]  # not a table fate
        findings.append(Finding(row, key, str(size), per_gpu_key, f"{per_gpu_key}={per_gpu}"))
    return findings
