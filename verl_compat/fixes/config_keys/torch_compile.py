"""``use_torch_compile=False`` of the actor and the reference, where the FSDP engines read it now.

verl 0.7.1's legacy actor (``verl/workers/actor/dp_actor.py``) compiled its entropy and log-prob
functions unless the role's ``use_torch_compile`` was false; the reference's key follows the actor's
(``ref.use_torch_compile: ${oc.select:actor_rollout_ref.actor.use_torch_compile,true}``). verl 0.8.0
deleted that actor (verl#6067); the FSDP engine reads ``<role>.fsdp_config.use_torch_compile``
instead (0.9.1 ``verl/workers/engine/fsdp/transformer_impl.py``), a literal ``true``, and both
roles' old keys are still declared and read by nothing: 65 of verl's own old launches turn compiling
off and are compiled anyway. At composition, where the installed verl no longer ships the legacy
actor, each role's resolved old key, when false, is set on its engine config, with one warning each.
Only ``false`` asks for something: ``true`` is what the engines do.
"""

from __future__ import annotations

import dataclasses

from ... import configs
from . import readers
from .table import LEGACY_ACTOR_CLIP, LEGACY_FSDP_WORKERS, Row
from .translate import Finding

ROLES = ("actor_rollout_ref.actor", "actor_rollout_ref.ref")
# The same probe as actor.grad_clip's row (the legacy actor's file), its own home and words.
LEGACY_ACTOR = dataclasses.replace(
    LEGACY_ACTOR_CLIP,
    home="actor_rollout_ref.actor.fsdp_config",
    gone="verl 0.8.0 deleted the legacy actor that read it (workers/actor/dp_actor.py)",
)
EVIDENCE = "verl#6067 (044bbba27)"


def applies(config) -> bool:
    """No legacy actor reads the keys, and the launch is on FSDP."""
    on_fsdp = configs.select(config, LEGACY_FSDP_WORKERS.home) is not None
    return on_fsdp and not readers.calls(LEGACY_ACTOR.entry, LEGACY_ACTOR.function)


def apply(config) -> list[Finding]:
    """Turn each role's engine compile off where its old key says false; the findings that say so."""
    asked = [role for role in ROLES if configs.select(config, f"{role}.use_torch_compile") is False]
    if not asked or not applies(config):
        return []
    findings = []
    for role in asked:
        old, new = f"{role}.use_torch_compile", f"{role}.fsdp_config.use_torch_compile"
        if configs.select(config, new) is not True:
            continue  # off already
        configs.set_key(config, new, False)
        follows = "; the reference's key follows the actor's" if role == ROLES[1] else ""
        reader = dataclasses.replace(LEGACY_ACTOR, home=f"{role}.fsdp_config", gone=LEGACY_ACTOR.gone + follows)
        row = Row(old, "moved", new, "0.8.0", EVIDENCE, reader=reader)
        findings.append(Finding(row, old, "false", new, f"{new}=false"))
    return findings
