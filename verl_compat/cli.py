"""The ``verl-compat`` command (also ``python -m verl_compat``): ``doctor`` and ``migrate``.

Each subcommand lives in its own module with the same two functions,
``add_arguments(parser)`` and ``run(args) -> int`` (the exit status), imported only when chosen.
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS = {
    "doctor": ("verl_compat.doctor", "show versions, probes, auto-load and what the shim does to a config"),
    "migrate": ("verl_compat.migrate", "rewrite legacy overrides and YAML keys into the new form"),
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="verl-compat", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(_module=module_name)
        # Arguments are declared by the module itself; import it only for --help or when chosen.
        if name in (argv if argv is not None else sys.argv[1:])[:1]:
            importlib.import_module(module_name).add_arguments(sub)
    args = parser.parse_args(argv)
    return importlib.import_module(args._module).run(args)
