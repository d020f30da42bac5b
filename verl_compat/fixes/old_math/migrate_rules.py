"""old_math's migrate rule (the contract: :mod:`verl_compat.migrate_contract`): with ``verl-compat
migrate --release X.Y.Z``, the keys that give back what release X.Y.Z computed are written into the
launch, as the fix sets them at composition (:func:`.decide.decide` on the installed verl's config
with the launch's settings), so that the script no longer needs the shim for them.

Without ``--release`` the rule does nothing: which release a script was written for is the user's
to say (an inferred range would be a guess).
"""

from __future__ import annotations

import copy
import functools
import re

from ... import probes
from ...configs import set_key
from ...migrate_contract import Edit, Options, Refusal, Rule, Set, Setting
from . import decide, releases
from .table import ROWS, V1_ONLY

_READS = {key for row in ROWS for key, op, _ in row.when if op != "missing_module" and key not in V1_ONLY}
_WRITES = {key for row in ROWS for key, _ in row.keys}


@functools.cache
def _installed_config(name: str):
    """The installed verl's own ``name`` config, composed as a launch declared for it gets it."""
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(probes.verl_config_dir()), version_base=None):
        return compose(config_name=name, overrides=[f"+{releases.DECLARE_KEY}={releases.releases()[-1]}"])


def _paths(node, prefix: str = "") -> set[str]:
    from omegaconf import DictConfig

    if not isinstance(node, DictConfig):
        return {prefix}
    out = {prefix} if prefix else set()
    for key in node:
        out |= _paths(node._get_node(key), f"{prefix}.{key}" if prefix else str(key))
    return out


class OldReleaseMath(Rule):
    """The keys that restore what the release of ``--release`` computed: ``trainer.use_v1=false``
    for a launch written for verl <= 0.8, ``data.seed=1`` for <= 0.6.0, … (old_math's ``restored``
    rows that hold for the launch). Refuses a launch that asks the V1 trainer for what it cannot do."""

    name = "old_math"
    asked_by = "release"
    keys = tuple(sorted(_READS | _WRITES))
    subtrees = V1_ONLY
    mentions = ("main_ppo", "actor_rollout_ref")
    yaml_setting = re.compile(r"^[ \t]*(?:actor_rollout_ref|algorithm|data|trainer|critic)[ \t]*:", re.MULTILINE)
    text_setting = re.compile(r"(?!)")

    def concerns(self, settings: dict[str, Setting]) -> bool:
        return True

    def edits(self, settings: dict[str, Setting], options: Options) -> list[Edit]:
        from omegaconf import OmegaConf

        megatron = any(settings[key].value == "megatron" for key in settings if key.endswith(".strategy"))
        name = "ppo_megatron_trainer" if megatron else "ppo_trainer"
        config = copy.deepcopy(_installed_config(name))
        OmegaConf.set_struct(config, False)
        for key, setting in settings.items():
            if setting.known:
                set_key(config, key, setting.value)
        installed = releases.installed(name, _paths(config))
        release = str(options.release)
        if releases.version(release) >= releases.version(installed):
            return []
        launch = releases.Launch(installed, (release,), "--release", release)
        decision = decide.decide(config, launch, settings.keys())
        if decision.stops:
            lines = [line for key in settings for line in settings[key].lines]
            raise Refusal(lines, "; ".join(f"{o.written()}: {o.row.note}" for o in decision.stops))
        near = max(settings, key=lambda key: max(settings[key].lines, default=0), default=None)
        return [
            Set(key, value, near=key if key in settings else near)
            for outcome in decision.outcomes
            if outcome.action == "set"
            for key, value in outcome.keys
        ]


RULES = (OldReleaseMath(),)
