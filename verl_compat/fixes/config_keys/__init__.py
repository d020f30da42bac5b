"""config_keys: trainer-config keys verl renamed or removed, translated where Hydra composes
verl's config, before Hydra rejects the first one (or, for a ``+key=``, silently keeps a key
verl reads nowhere).

The fix reads top to bottom: :mod:`.table` is the data (every old path, what it became, the release
and the verl change); :mod:`.translate` applies it to override strings and to a composed config,
probing the installed release's config rather than its version; :mod:`.compose` finds verl's
compositions inside Hydra (``@hydra.main`` and the compose API) and warns, or stops the launch
before any worker starts when a key asks for what this verl cannot do
(``VERL_COMPAT_ALLOW_REMOVED_KEYS=1`` turns that stop into a warning); :mod:`.nccl_timeout` carries
the old process-group timeout, which no key of 0.8.0+ sets, into the engine workers.
"""

from __future__ import annotations

from typing import Any

from ... import registry
from . import findings

NAME = registry.fix_name(__name__)
# verl.workers.engine_workers (0.7.0+): its TrainingWorker starts the workers' process group.
TARGETS = ("hydra._internal.config_loader_impl", "verl.workers.engine_workers")


def patches(module):
    """Hydra's config loader (the module is imported, so Hydra is there to import from), and the
    engine workers' process-group start (:mod:`.nccl_timeout`: acting only in the workers of a run
    whose launch set its old timeout)."""
    if module.__name__ == "verl.workers.engine_workers":
        from . import nccl_timeout

        return registry.Plan(tuple(nccl_timeout.patches_for(module)))
    from . import compose

    return compose.plan(module)


def describe(config) -> dict[str, Any]:
    """Each old key of the config doctor composed, and what the launch does with it."""
    from . import report  # the table, read only when doctor asks

    return report.describe(findings.findings_for(config))


def state() -> dict[str, dict[str, str]]:
    """The old keys met in this process and what each became."""
    return findings.state()


def reset() -> None:
    findings.reset()
