"""Write a ``data.pt`` as verl 0.6.1's trainer saves it, and the batches verl 0.6.1 serves when it
resumes from it, to ``tests/fixes/old_checkpoints/data/``: what the 0.7.0+ tests compare a resume
through verl-compat with.

verl 0.6.1's ``RayPPOTrainer._create_dataloader`` builds the train loader (torchdata's
``StatefulDataLoader`` over the sampler of ``verl.trainer.main_ppo.create_rl_sampler``: torch's
``RandomSampler``); ``_save_checkpoint`` saves ``train_dataloader.state_dict()`` as
``global_step_N/data.pt`` and ``_load_checkpoint`` loads it into a new loader. The script builds the
loader with that very function (``tests/support/trainer_loaders.py``) on the test suite's dataset
(``TinyGSM8K``: eight rows) and batch size (2), serves one step, saves, then resumes as 0.6.1
resumes, for 0 and 2 loader workers (the
trainers' default ``data.dataloader_num_workers`` is 8: the state then sits under ``_snapshot``).
Run in the 0.6.1 environment, verl alone:

    VERL_COMPAT_DISABLE=1 .venvs/verl-0.6.1/bin/python scripts/old_dataloader_state.py [--check]
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "fixes" / "old_checkpoints" / "data"
EXPECTED = DATA / "dataloader_v0_6_1.json"
BATCH = 2
STEPS_DONE = 1  # the checkpoint: global_step_1
WORKERS = (0, 2)


def state_file(workers: int) -> Path:
    return DATA / f"data_v0_6_1_workers{workers}.pt"


def comparable(state):
    """A loader state without the seed its workers draw at random on every start."""
    if isinstance(state, dict):
        return {key: comparable(value) for key, value in state.items() if key != "_base_seed"}
    return state


def generate() -> tuple[dict, dict[int, bytes]]:
    """The expectations and each ``data.pt``'s bytes, made by the installed verl."""
    import torch
    import verl

    sys.path.insert(0, str(ROOT / "tests" / "support"))
    from trainer_loaders import indices, train_loader

    files, cases = {}, {}
    for workers in WORKERS:
        first = train_loader(BATCH, workers)
        served = iter(first)
        before = [indices(next(served)) for _ in range(STEPS_DONE)]
        state = first.state_dict()
        uninterrupted = [indices(batch) for batch in served]  # the rest of the epoch
        buffer = io.BytesIO()
        torch.save(state, buffer)
        files[workers] = buffer.getvalue()
        resumed = train_loader(BATCH, workers)
        resumed.load_state_dict(torch.load(io.BytesIO(files[workers]), weights_only=False))
        cases[str(workers)] = {
            "served_before": before,
            "resumed_rest_of_epoch": [indices(batch) for batch in resumed],
            "uninterrupted_rest_of_epoch": uninterrupted,
        }
    expected = {"verl": verl.__version__, "batch_size": BATCH, "steps_done": STEPS_DONE, "workers": cases}
    return expected, files


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    args = parser.parse_args(argv)
    expected, files = generate()
    if args.check:
        import torch

        same = json.loads(EXPECTED.read_text()) == expected and all(
            comparable(torch.load(state_file(w), weights_only=False))
            == comparable(torch.load(io.BytesIO(b), weights_only=False))
            for w, b in files.items()
        )
        print("the committed files are what this verl makes" if same else "stale: run without --check")
        return 0 if same else 1
    DATA.mkdir(parents=True, exist_ok=True)
    EXPECTED.write_text(json.dumps(expected) + "\n")
    for workers, data in files.items():
        state_file(workers).write_bytes(data)
    print(f"wrote {EXPECTED.relative_to(ROOT)} and {len(files)} data.pt files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
