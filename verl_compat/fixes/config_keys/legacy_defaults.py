"""Old defaults of the legacy reward block, kept where the installed release declares it with null.

verl <= 0.6 defaulted ``custom_reward_function.name`` to ``compute_score`` (v0.6.1
``trainer/config/ppo_trainer.yaml``): an old launch sets only ``custom_reward_function.path``. verl
0.7.1 moved the block to ``reward.custom_reward_function`` and kept the old one for old launches in
``trainer/config/legacy_reward_impl.yaml``, every key null (verl#5287, 018f8dc5c); 0.7.1 and 0.8.0's
``main_ppo`` copy it into ``reward.*`` (``migrate_legacy_reward_impl``) with ``name: null``, and
``get_custom_reward_fn``'s ``assert function_name is not None`` fails in the reward workers, after
Ray has started. At composition (``--cfg job`` shows it), a legacy path without a legacy name gets
the old default. Where the release's own default says ``compute_score`` (0.6.x), or the name was
set, the name is not null and nothing changes; where config_keys moved the legacy block (0.9.x),
the legacy path is null by then.
"""

from __future__ import annotations

from ... import configs
from .table import Row
from .translate import Finding

PATH = "custom_reward_function.path"
NAME_KEY = "custom_reward_function.name"
OLD_DEFAULT = "compute_score"

ROW = Row(  # not a table row: a default the release's legacy block lost, not a key it renamed or removed
    NAME_KEY,
    "defaulted",  # type: ignore[arg-type]  # not a table fate
    NAME_KEY,
    "0.7.1",
    "verl#5287 (018f8dc5c)",
    note=f"verl <= 0.6 defaulted it to {OLD_DEFAULT}; the legacy block verl keeps for old launches has it null, "
    "which verl's own migration copies into reward.custom_reward_function, and get_custom_reward_fn's "
    "assert function_name is not None then fails in the reward workers, after Ray has started",
)


def apply(config) -> list[Finding]:
    """Give a composed config's legacy ``custom_reward_function.name`` the old default where the
    legacy path is set and the name null; the finding that says so, or none."""
    if not configs.select(config, PATH) or configs.select(config, NAME_KEY) is not None:
        return []
    if NAME_KEY.rpartition(".")[2] not in (configs.select(config, "custom_reward_function") or {}):
        return []
    configs.set_key(config, NAME_KEY, OLD_DEFAULT)
    return [Finding(ROW, NAME_KEY, "", NAME_KEY, f"{NAME_KEY}={OLD_DEFAULT}")]
