"""The ``verl-compat`` command (also ``python -m verl_compat``): ``doctor``, ``migrate`` and ``view``.

Each subcommand lives in its own module with the same two functions,
``add_arguments(parser)`` and ``run(args) -> int`` (the exit status), imported only when chosen.
``--help`` texts are plain text: argparse prints them as they are.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ._version import __version__

DESCRIPTION = """\
Keeps old verl setups working on the installed verl: old trainer-config keys, old Python imports,
the legacy torch_memory profiler config, and an OOM memory snapshot on older releases. Installing
verl-compat is all the shim needs; this command only looks (doctor: what the shim sees and would
do to a config, your code or a trainer), rewrites old configs and imports into verl's own
(migrate), and shows a run's memory snapshots (view)."""

EPILOG = """\
exit status:
  the subcommand's own (see verl-compat doctor --help, migrate --help, view --help);
  2 for a usage error

examples:
  verl-compat doctor actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=3
  verl-compat migrate --diff run_grpo.sh
  verl-compat view outputs/profile -o memory.html
  verl-compat --version

docs: https://github.com/verl-compat/verl-compat#readme"""

SUBCOMMANDS = {
    "doctor": ("verl_compat.doctor.cli", "show versions, probes, auto-load and what the shim does to a config"),
    "migrate": ("verl_compat.migrate.cli", "rewrite legacy overrides, YAML keys and verl imports into the new form"),
    "view": ("verl_compat.view.cli", "one offline page (or --text) for a run's memory snapshots"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="verl-compat",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"verl-compat {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="{doctor,migrate,view}")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sub = commands.add_parser(
            name, help=help_text, description=help_text, formatter_class=argparse.RawDescriptionHelpFormatter
        )
        sub.set_defaults(_module=module_name)
        # Arguments are declared by the module itself; import it only for --help or when chosen.
        if name in (argv if argv is not None else sys.argv[1:])[:1]:
            importlib.import_module(module_name).add_arguments(sub)
    args = parser.parse_args(argv)
    return importlib.import_module(args._module).run(args)
