"""``verl-compat doctor``: what verl-compat sees in this environment, and what it would do to a config.

The shim changes behaviour inside Ray actors, far from the terminal the user launches from. This
command answers what a launch script cannot tell: which verl is installed and what it can do (the
probes the fixes decide by), whether the shim will reach the trainer process at all (auto-load
routes, env toggles), what it patches, and, for a config, which case the fix detects and exactly
what it changes and calls. It only looks: no config is shipped anywhere, no warning is emitted.

One module per concern: :mod:`.cli` (the arguments, ``run``), :mod:`.config` (the user's config
composed by Hydra over verl's), :mod:`.user_trainers` (``--trainer MODULE:CLASS``),
:mod:`.environment` (versions, auto-load routes, env toggles, the patched modules imported),
:mod:`.stack` (the installed stack against the installed verl's, for the config's path),
:mod:`.report` (the report as data, each fix asked through the contract), :mod:`.exits` (problems
to exit codes: the lowest wins; ``docs/doctor.md``) and :mod:`.rendering` (the table, ``--json``).
"""

from __future__ import annotations

from .cli import EPILOG, add_arguments, run
from .config import BadInput, compose
from .environment import BOOTSTRAP, ENV, EXTERNAL_PLUGINS, PACKAGES, PLUGIN_GROUP, PTH_FILE
from .exits import BAD_INPUT, NO_VERL, NOT_REACHED, SHIM_OFF, STACK_FAILS, TRAINER_NOT_SERVED, VERL_LACKS
from .rendering import render, render_json
from .report import collect

__all__ = [
    "BAD_INPUT",
    "BOOTSTRAP",
    "ENV",
    "EPILOG",
    "EXTERNAL_PLUGINS",
    "NOT_REACHED",
    "NO_VERL",
    "PACKAGES",
    "PLUGIN_GROUP",
    "PTH_FILE",
    "SHIM_OFF",
    "STACK_FAILS",
    "TRAINER_NOT_SERVED",
    "VERL_LACKS",
    "BadInput",
    "add_arguments",
    "collect",
    "compose",
    "render",
    "render_json",
    "run",
]
