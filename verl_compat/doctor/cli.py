"""The ``verl-compat doctor`` command: ``add_arguments(parser)`` and ``run(args)`` (cli.py's contract).

Input errors (bad overrides, unreadable YAML, a ``--trainer`` that does not import) exit at once
with one line, before verl is imported, the way Hydra's own command line does; everything else is
the report, whose problems give the exit status.
"""

from __future__ import annotations

import argparse
import sys

from .. import probes
from .code import read as read_code
from .config import BadInput, describe_source, read_config
from .exits import BAD_INPUT, NO_VERL, NOT_REACHED, SHIM_OFF, STACK_FAILS, TRAINER_NOT_SERVED, VERL_LACKS
from .rendering import render, render_json
from .report import collect
from .user_trainers import import_trainer

EPILOG = f"""\
exit status (when several apply, the lowest wins):
  0  healthy
  {BAD_INPUT}  bad input: an override or --config file that cannot be composed
  {NO_VERL}  verl is not installed for this interpreter, or fails to import
  {VERL_LACKS}  verl-compat cannot patch what this verl runs, or an import of --code fails on it
  {SHIM_OFF}  the config (or --code) needs the shim, but VERL_COMPAT_DISABLE or
     VERL_COMPAT_DISABLED_FIXES turns it off
  {NOT_REACHED}  nothing brings the shim into verl's trainer process
  {TRAINER_NOT_SERVED}  a --trainer class would not be served by a fix with trainer hooks
  {STACK_FAILS}  the run will fail on this environment's stack: a module verl imports on the
     config's path is missing, or a version verl's own code rejects (the stack section)

examples:
  verl-compat doctor actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=3
  verl-compat doctor --config my_overlay.yaml --json > doctor.json
  verl-compat doctor --trainer my_recipe.trainer:MyTrainer
  verl-compat doctor custom_reward_function.path=my_reward.py --code my_recipe/

docs: https://github.com/verl-compat/verl-compat/blob/main/docs/doctor.md"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EPILOG
    parser.add_argument(
        "overrides",
        nargs="*",
        metavar="OVERRIDE",
        help="Hydra overrides, as given to python -m verl.trainer.main_ppo",
    )
    parser.add_argument(
        "--config",
        metavar="FILE.yaml",
        help="a YAML config merged over verl's ppo_trainer.yaml (an overlay or a full config; one with "
        "a Hydra defaults list is composed as a primary config); overrides apply on top",
    )
    parser.add_argument(
        "--trainer",
        action="append",
        default=[],
        metavar="MODULE:CLASS",
        help="a trainer class of your own (or a recipe's) to check: whether and how each fix's trainer "
        "hooks reach it; repeatable",
    )
    parser.add_argument(
        "--code",
        action="extend",
        nargs="+",
        default=[],
        metavar="PATH",
        help="your own Python files or folders (a recipe, custom workers; put overrides before it): each verl "
        "import, read without importing it, and what it comes to on this verl; the reward function file the "
        "config names (custom_reward_function.path) is read too",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    config_dir = probes.verl_config_dir()
    config = None
    if config_dir is not None and (args.overrides or args.config):
        try:
            config = read_config(config_dir, args.overrides, args.config)
        except BadInput as exc:
            print(f"verl-compat doctor: {exc}", file=sys.stderr)
            return BAD_INPUT
    try:
        code = read_code(args.code, config)
        classes = [(name, import_trainer(name)) for name in args.trainer]
    except BadInput as exc:
        print(f"verl-compat doctor: {exc}", file=sys.stderr)
        return BAD_INPUT
    report = collect(config, describe_source(args.overrides, args.config), classes, code)
    print(render_json(report) if args.json else render(report))
    if report["problems"]:
        print(f"verl-compat doctor: {report['problems'][0]['reason']}", file=sys.stderr)
    return report["exit_code"]
