"""old_math: an old launch trains on the trainer and with the math it was written for, restored
where a key still does it, stopped or named where nothing can.

The fix reads top to bottom: :mod:`.table` is the data (each change of what verl computes, the
releases a launch must be written for to be touched by it, the condition on the composed config,
the evidence and its fate); :mod:`.releases` says which release a launch was written for (declared
by ``VERL_COMPAT_LAUNCH_RELEASE`` or ``+verl_compat.launch_release=…``, else inferred from the keys
it sets, against ``release_keys.json``); :mod:`.decide` picks the trainer and the rows and sets the
restoring keys; :mod:`.compose` does it where Hydra composes verl's config, after config_keys, and
warns once, or stops the launch before any worker starts; :mod:`.loss` is the patch of the
``patched`` rows (the legacy FSDP workers' loss normalisation), switched on per run by the keys those
rows set.
"""

from __future__ import annotations

from typing import Any

from ... import registry
from . import findings, loss

NAME = registry.fix_name(__name__)
TARGETS = ("hydra._internal.config_loader_impl", loss.LOSSES_MODULE)


def patches(module):
    """Hydra's config loader (the module is imported, so Hydra is there to import from), and the
    engine workers' losses (:mod:`.loss`: acting only in the workers of a run whose ``patched`` rows
    set its switch)."""
    if module.__name__ == loss.LOSSES_MODULE:
        return registry.Plan(tuple(loss.patches_for(module)))
    from . import compose

    return compose.plan(module)


def describe(config) -> dict[str, Any]:
    """The release, the trainer and the math rows of the config doctor composed."""
    from . import report

    return report.describe(findings.decision_for(config))


def state() -> dict[str, Any]:
    return findings.state()


def reset() -> None:
    findings.reset()
