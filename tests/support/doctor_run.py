"""``verl-compat doctor --json`` in this process (verl-compat active, as the CLI has it)."""

import argparse
import json

from verl_compat import doctor


def doctor_json(*argv, capsys) -> tuple:
    """``(exit code, report)`` of ``verl-compat doctor --json ARGV``; ``capsys`` is pytest's."""
    parser = argparse.ArgumentParser()
    doctor.add_arguments(parser)
    code = doctor.run(parser.parse_args(["--json", *argv]))
    return code, json.loads(capsys.readouterr().out)
