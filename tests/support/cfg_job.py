"""``python -m verl.trainer.main_ppo … --cfg job`` in a fresh process, as a user runs it: the
composed config it prints, and the verl-compat warnings on its stderr."""

import yaml
from pyrun import run_argv


def cli(*argv, env=None, cwd=None):
    """The CompletedProcess of ``python -m verl.trainer.main_ppo ARGV --cfg job`` (not checked)."""
    return run_argv(["-m", "verl.trainer.main_ppo", *argv, "--cfg", "job"], env=env, cwd=cwd, check=False)


def composed(stdout: str) -> dict:
    """The job config ``--cfg job`` printed."""
    return yaml.safe_load(stdout[stdout.index("model_engine:") :])


def warning_lines(stderr: str) -> list:
    """The ``VerlCompatDeprecationWarning`` lines of a process's stderr."""
    return [line for line in stderr.splitlines() if "VerlCompatDeprecationWarning: " in line]
