"""The ``verl-compat migrate`` command: ``add_arguments(parser)`` and ``run(args)`` (cli.py's contract)."""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

from ..files import write_atomically
from ..migrate_contract import Refusal
from . import files, migrate, rulebook
from .python_imports import Unmigrated

DESCRIPTION = """\
Rewrite legacy verl configs into verl's own keys, and old verl imports of Python files into
where the installed verl has them, so launch scripts, YAML configs and code work without
verl-compat. The rules come from verl-compat's fixes:

{rules}

Reads shell scripts (.sh, .bash or a shell shebang), YAML configs (.yaml, .yml), the fenced
shell blocks of Markdown pages (.md) and the imports of Python files (.py), given one by one or as
directories. A file is refused, named with the lines to look at and left as it was, when migrating
it would mean guessing (for example no step count: pass --steps) or its launch cannot be read with
certainty. In a Python file, moved imports are rewritten and removed ones named (file:line).
A configuration with a `# verl-compat: ignore` comment on one of its lines, or right above
one, is left as it is."""

EPILOG = """\
exit status:
  0  nothing left to migrate (or everything migrated)
  1  --check: at least one file would change
  2  a file was refused or could not be read, a Python file has imports left for you (named;
     its moved imports are still rewritten), ruamel.yaml / hydra-core / tree-sitter-bash /
     libcst is missing, or a fix's rules cannot be loaded

examples:
  verl-compat migrate run_grpo.sh config/overlay.yaml    rewrite in place
  verl-compat migrate --diff run_grpo.sh                 show the change, write nothing
  verl-compat migrate --check examples/*.sh              exit 1 if anything would change
  verl-compat migrate my_recipe/trainer.py               old verl imports to today's paths
  verl-compat migrate --check .                          every script, YAML, Markdown and Python file below
  verl-compat migrate --steps 1,5,10 run_profile.sh      snapshot these steps

Each run ends with one line on stderr: N migrated, M unchanged, K refused."""

_MISSING = (
    "verl-compat migrate needs ruamel.yaml, hydra-core, tree-sitter-bash and libcst ({}): "
    "pip install 'verl-compat[migrate]'"
)
_PARSERS = ("hydra", "ruamel", "tree_sitter", "tree_sitter_bash", "libcst")


def _rule_list() -> str:
    """Each rule's name and the first paragraph of its docstring, for ``--help``."""
    try:
        found = rulebook.rules()
    except rulebook.RulesError as error:
        return f"  {error}"
    rows = []
    for rule in (*found, *rulebook.import_rules()):
        summary = " ".join(rule.__doc__.strip().split("\n\n")[0].split()).replace("``", "")
        rows.append(textwrap.fill(summary, 100, initial_indent=f"  {rule.name}: ", subsequent_indent="    "))
    return "\n".join(rows)


def _step_list(text: str) -> list[int]:
    try:
        steps = [int(step) for step in text.strip().removeprefix("[").removesuffix("]").split(",")]
    except ValueError:
        steps = []
    if not steps or min(steps) < 1:
        raise argparse.ArgumentTypeError(f"expected positive step numbers like 1,2,3 or [1,2,3], got {text!r}")
    return steps


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description, parser.epilog = DESCRIPTION.format(rules=_rule_list()), EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "paths",
        nargs="+",
        type=Path,
        metavar="PATH",
        help="shell scripts, YAML configs (.yaml, .yml), Markdown pages (.md), Python files (.py), or "
        "directories: every such file under them (hidden directories skipped)",
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file would change")
    parser.add_argument("--diff", action="store_true", help="write nothing; print a unified diff of the changes")
    parser.add_argument(
        "--steps",
        type=_step_list,
        help="steps to snapshot where the config means every step: 1,2,3 or [1,2,3] "
        "(default: 1..N, N = the step count of the same command or YAML file)",
    )
    parser.add_argument(
        "--release",
        metavar="X.Y.Z",
        help="the verl release the files were written for: also write the keys that give back what that "
        "release computed (the trainer, data order, sampling, loss settings) where this verl computes otherwise",
    )


def run(args) -> int:
    """0: nothing left to migrate; 1: ``--check`` found files to migrate; 2: a file was refused
    or unreadable, or a Python file has imports left for the user (the others are still processed),
    or a parser migrate needs is missing."""
    try:
        rulebook.rules()
        rulebook.import_rules()
    except rulebook.RulesError as error:
        print(f"verl-compat migrate: {error}", file=sys.stderr)
        return 2
    status, counts = 0, {"migrated": 0, "unchanged": 0, "refused": 0}
    named = [
        (found, not path.is_dir()) for path in args.paths for found in (files.walk(path) if path.is_dir() else [path])
    ]
    for path, by_name in named:
        left: list = []
        try:
            raw, old = files.read(path)
            new = migrate(old, files.kind_of(path, old), args.steps, named=by_name, release=args.release)
        except Unmigrated as unmigrated:  # a Python file: its moved imports rewritten, the rest named
            new, left = unmigrated.text, unmigrated.notes
        except Refusal as refusal:
            where = ", ".join(f"{path}:{line}" for line in refusal.lines) or str(path)
            print(f"{where}: {refusal.message}; not migrated", file=sys.stderr)
            status, counts["refused"] = 2, counts["refused"] + 1
            continue
        except (OSError, files.Unreadable) as error:
            print(f"{path}: cannot read: {' '.join(str(error).split())}; not migrated", file=sys.stderr)
            status, counts["refused"] = 2, counts["refused"] + 1
            continue
        except ImportError as error:  # the parsers, imported only once a file needs them
            if (error.name or "").split(".")[0] not in _PARSERS:
                raise
            print(_MISSING.format(error), file=sys.stderr)
            return 2
        for line, message in left:
            print(f"{path}:{line}: {message}", file=sys.stderr)
        if left:
            status, counts["refused"] = 2, counts["refused"] + 1
        if new == old:
            counts["unchanged"] += not left
            continue
        counts["migrated"] += not left
        rest = ", except what is named above" if left else ""
        if args.diff:
            sys.stdout.writelines(files.diff(path, old, new))
        if args.check:
            print(f"would migrate {path}{rest}", file=sys.stderr)
            status = max(status, 1)
        elif not args.diff:
            write_atomically(path, files.restore(raw, old, new))
            print(f"migrated {path}{rest}", file=sys.stderr)
    done = "to migrate" if args.check or args.diff else "migrated"
    print(f"{counts['migrated']} {done}, {counts['unchanged']} unchanged, {counts['refused']} refused", file=sys.stderr)
    return status
