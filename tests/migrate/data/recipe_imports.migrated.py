"""A recipe trainer written for verl 0.5: its imports, as old code spells them."""

import os  # not verl's: never touched

# the trainer and the worker base class
from verl.trainer.ppo.ray_trainer import (  # verl's trainer module
    RayPPOTrainer,
)
from verl.single_controller.base import (
    Worker,  # moved to verl.single_controller.base in verl 0.6.0
)
from verl.single_controller.base import Worker as BaseWorker  # noqa: E402
from verl.trainer.ppo.ray_trainer import RayPPOTrainer as Trainer  # noqa: E402
import verl.utils.reward_score.math_reward as math_score
import verl.utils.reward_score.math_reward
from verl.utils.reward_score import math_reward as math


class MyTrainer(RayPPOTrainer):
    """Scores with verl's math reward."""

    def score(self, solution: str) -> float:
        from verl.utils.reward_score.math_reward import compute_score

        return compute_score(solution, "1") + math_score.compute_score(solution, os.sep)
