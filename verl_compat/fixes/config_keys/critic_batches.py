"""The critic's micro-batching keys, where the critic's engine reads its own.

verl <= 0.7.1's legacy critic workers (``verl/workers/fsdp_workers.py`` / ``megatron_workers.py``
``CriticWorker``, ``workers/critic/dp_critic.py``) split each mini-batch into micro-batches of
``critic.ppo_micro_batch_size_per_gpu`` sequences unless ``critic.use_dynamic_bsz`` (whose default
follows the actor's), computed values in micro-batches of ``forward_micro_batch_size_per_gpu`` (or at
most ``forward_max_token_len_per_gpu`` tokens) and ran Ulysses with ``critic.ulysses_sequence_parallel_size``.
verl 0.8.0 deleted those workers (verl#6067). Its critic is a ``TrainingWorker`` built from
``critic.fsdp`` / ``critic.megatron`` (0.9.1 ``verl/trainer/ppo/ray_trainer.py``, ``init_workers``:
``engine_config = critic_cfg.engine``, then only ``max_token_len_per_gpu`` and
``infer_max_token_len_per_gpu`` copied from the critic), whose ``use_dynamic_bsz`` defaults to true
(``verl/workers/config/engine.py`` ``EngineConfig``): the old keys are declared and read by nothing, and
an old launch's critic trains on token-packed micro-batches of up to 32,768 tokens, without its Ulysses.

That matters beyond memory: the old critic's loss was a mean per micro-batch (verl-compat's
``old_math`` restores it, :mod:`verl_compat.fixes.old_math.loss`), so the micro-batches must be the old
ones for the old weights. At composition, where the installed verl no longer ships the legacy worker of
the critic's strategy and the run has a critic, each such key is set on the critic's engine config, with
one warning each:

- ``use_dynamic_bsz`` false with ``ppo_micro_batch_size_per_gpu`` set: the engine's
  ``use_dynamic_bsz=false``, ``micro_batch_size_per_gpu`` and ``infer_micro_batch_size_per_gpu``
  (``forward_micro_batch_size_per_gpu``, which defaults to the training size), unless the launch set
  the engine's own fixed micro-batches (0.9.1's ``CriticConfig`` still wants the old key beside them);
- ``use_dynamic_bsz`` true: ``forward_max_token_len_per_gpu`` becomes ``ppo_infer_max_token_len_per_gpu``
  (what 0.9.1 copies to the engine) where it differs;
- FSDP: ``critic.ulysses_sequence_parallel_size`` reaches ``critic.fsdp.ulysses_sequence_parallel_size``.
"""

from __future__ import annotations

from ... import configs
from . import readers
from .table import Reader, Row, legacy_worker
from .translate import Finding

EVIDENCE = "verl#6067 (044bbba27)"
ENGINES = {"fsdp": "critic.fsdp", "fsdp2": "critic.fsdp", "megatron": "critic.megatron"}
_GONE = "verl 0.8.0 deleted the legacy critic worker that read it"
INFER_TOKENS = "critic.ppo_infer_max_token_len_per_gpu"
INFER_TOKENS_DEFAULT = 32768  # 0.9.1 CriticConfig.ppo_infer_max_token_len_per_gpu, undeclared in its YAML


def engine_of(config) -> tuple[str, Reader] | None:
    """The critic's engine section and the legacy worker that read the old keys, where that worker
    is gone from the installed verl and the run has a critic; else None."""
    strategy = configs.select(config, "critic.strategy")
    engine = ENGINES.get(strategy)
    if engine is None or configs.select(config, engine) is None or not configs.needs_critic(config):
        return None
    reader = legacy_worker(strategy, engine, _GONE)
    if readers.calls(reader.entry, reader.function):
        return None
    return engine, reader


def _set(config, key: str, value) -> str:
    """Set ``key``; the override that says so (``+key=v`` where verl's config lacks the key)."""
    plus = "" if configs.select(config, key) is not None else "+"
    configs.set_key(config, key, value)
    text = str(value).lower() if isinstance(value, bool) else value
    return f"{plus}{key}={text}"


def _finding(old: str, value, new: str, overrides: list[str], reader: Reader) -> Finding:
    row = Row(old, "moved", new, "0.8.0", EVIDENCE, reader=reader)
    return Finding(row, old, str(value), new, " ".join(overrides))


def apply(config) -> list[Finding]:
    """Set the critic's old micro-batching on its engine; the findings that say so."""
    found = engine_of(config)
    if found is None:
        return []
    engine, reader = found
    findings = []
    dynamic = configs.select(config, "critic.use_dynamic_bsz")
    if dynamic is False:
        size = configs.select(config, "critic.ppo_micro_batch_size_per_gpu")
        own = configs.select(config, f"{engine}.use_dynamic_bsz") is False and configs.select(
            config, f"{engine}.micro_batch_size_per_gpu"
        )
        if size is not None and configs.select(config, "critic.ppo_micro_batch_size") is None and not own:
            forward = configs.select(config, "critic.forward_micro_batch_size_per_gpu") or size
            overrides = [  # the old key stays: 0.9.1's CriticConfig wants a micro-batch size beside the engine's
                f"critic.ppo_micro_batch_size_per_gpu={size}",
                _set(config, f"{engine}.use_dynamic_bsz", False),
                _set(config, f"{engine}.micro_batch_size_per_gpu", int(size)),
                _set(config, f"{engine}.infer_micro_batch_size_per_gpu", int(forward)),
            ]
            new = f"{engine}.micro_batch_size_per_gpu"
            findings.append(_finding("critic.ppo_micro_batch_size_per_gpu", size, new, overrides, reader))
    elif dynamic is True:
        tokens = configs.select(config, "critic.forward_max_token_len_per_gpu")
        infer = configs.select(config, INFER_TOKENS)
        if tokens is not None and infer is None and int(tokens) != INFER_TOKENS_DEFAULT:
            overrides = [_set(config, INFER_TOKENS, int(tokens))]
            findings.append(_finding("critic.forward_max_token_len_per_gpu", tokens, INFER_TOKENS, overrides, reader))
    sp = configs.select(config, "critic.ulysses_sequence_parallel_size")
    engine_sp = f"{engine}.ulysses_sequence_parallel_size"
    if engine == "critic.fsdp" and sp is not None and int(sp) > 1 and configs.select(config, engine_sp) == 1:
        overrides = [_set(config, engine_sp, int(sp))]
        findings.append(_finding("critic.ulysses_sequence_parallel_size", sp, engine_sp, overrides, reader))
    return findings
