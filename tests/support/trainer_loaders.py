"""The train loader verl's own trainer builds, without a trainer run: ``RayPPOTrainer._create_dataloader``
of the installed release on the suite's dataset (``standins.TinyGSM8K``), its sampler and collate
function chosen by verl (``create_rl_sampler``: torch's ``RandomSampler`` up to 0.6.x, torchdata's
since 0.7.0). Used by ``scripts/old_dataloader_state.py`` (in the 0.6.1 environment) and the tests
that resume what it saved."""

import copy

from verl_config import verl_compose


def train_loader(batch_size: int = 2, workers: int = 0, overrides=()):
    """A fresh train loader, as verl's trainer builds it for ``ppo_trainer`` with these settings."""
    from standins import TinyGSM8K
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    config = verl_compose([f"data.train_batch_size={batch_size}", f"data.dataloader_num_workers={workers}", *overrides])
    trainer = RayPPOTrainer.__new__(RayPPOTrainer)
    trainer.config = copy.deepcopy(config)
    dataset = TinyGSM8K()
    trainer._create_dataloader(dataset, dataset, None, None)
    return trainer.train_dataloader


def indices(batch) -> list[int]:
    """The dataset rows a collated batch holds."""
    return [int(i) for i in batch["index"]]
