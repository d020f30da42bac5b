"""A recipe trainer that only the TaskRunner actor ever imports (``recipe_task_runner`` imports this
module inside ``run()``): the driver process never sees the class, as with a recipe whose
``main_*.py`` builds its trainer in its own TaskRunner.

Its shape: a copied old ``fit()`` with the legacy call (``recipe_trainers.RecipeCopiedFitTrainer``)
and its own ``_stop_profiling(self, do_profile)`` that calls ``super()`` first, as verl's VLA
trainers do. At the start of ``fit()`` it logs its own name to the ``trainer`` call log, so a test
sees that this class, not verl's, ran.
"""

import standins
from recipe_trainers import RecipeCopiedFitTrainer


class TaskRunnerOnlyRecipeTrainer(RecipeCopiedFitTrainer):
    def _stop_profiling(self, do_profile: bool) -> None:
        super()._stop_profiling(do_profile)

    def fit(self):
        cls = type(self)
        standins.log_call("trainer", 0, "fit", {"class": f"{cls.__module__}.{cls.__qualname__}"})
        return super().fit()
