"""old_checkpoints: an old run's checkpoints resumed on new verl as the old release resumed them.

A checkpoint directory (``global_step_N/``) written by an older verl is read by the installed one's
``_load_checkpoint``. Where the format changed so that the new code reads it without an error but
differently, the fix completes what the new code reads, in memory, while verl loads it, with one
warning; the files are not changed. :mod:`.dataloader_state`: a ``data.pt`` of verl <= 0.6.x resumes
at its sample instead of starting the epoch over (verl#4156).
"""

from __future__ import annotations

from pathlib import Path

from ... import probes, registry

NAME = registry.fix_name(__name__)
# The legacy trainer (all releases) and the V1 trainer (0.9.0+), where each defines _load_checkpoint.
TARGETS = ("verl.trainer.ppo.ray_trainer", "verl.trainer.ppo.v1.trainer_base")


def patches(module) -> registry.Plan:
    from . import dataloader_state

    return registry.Plan(tuple(dataloader_state.patches_for(module)))


# Where verl's create_rl_sampler lives (0.7.x: main_ppo; 0.8.0+: ppo/utils), read as text: no verl import.
_SAMPLER_FILES = ("trainer/ppo/utils.py", "trainer/main_ppo.py")
_NEW_SAMPLER = "torchdata.stateful_dataloader.sampler import RandomSampler"


def samples_with_torchdata() -> bool | None:
    """Whether the installed verl's train sampler is torchdata's ``RandomSampler`` (verl#4156, 0.7.0);
    None without verl."""
    package = probes.verl_package_dir()
    if package is None:
        return None
    return any(_NEW_SAMPLER in _text(package / name) for name in _SAMPLER_FILES)


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def doctor_rows() -> list[registry.DoctorRow]:
    """Whether an old ``data.pt`` needs this fix on the installed verl."""
    new = samples_with_torchdata()
    if new is None:
        return []
    if new:
        why = "this verl samples with torchdata's RandomSampler, verl#4156"
        return [("old data.pt", f"a verl <= 0.6.x data.pt resumes at its sample ({why})")]
    return [("old data.pt", "nothing to do: this verl samples with torch's RandomSampler, as verl <= 0.6.x did")]
