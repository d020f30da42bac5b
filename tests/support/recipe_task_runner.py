"""The CPU TaskRunner (``cpu_task_runner``) building a recipe trainer that only this actor imports.

A recipe's ``main_*.py`` has a TaskRunner whose ``run()`` builds the recipe's trainer instead of
``RayPPOTrainer``. This one keeps verl's ``TaskRunner.run`` as it is and, inside the actor, binds the
name ``RayPPOTrainer`` in verl's TaskRunner module to
``recipe_taskrunner_trainer.TaskRunnerOnlyRecipeTrainer``, which is imported there and nowhere else.
Use ``run_ppo(config, task_runner_class=ray.remote(num_cpus=1)(RecipeTaskRunner))``.
"""

import sys

from cpu_task_runner import CPUTaskRunner

TRAINER_MODULE = "recipe_taskrunner_trainer"


class RecipeTaskRunner(CPUTaskRunner):
    def run(self, config):
        import recipe_taskrunner_trainer  # first imported here, in the TaskRunner actor

        verl_runner = next(c for c in type(self).__mro__ if c.__module__.startswith("verl.") and "run" in vars(c))
        module = sys.modules[verl_runner.__module__]
        verl_trainer = module.RayPPOTrainer
        module.RayPPOTrainer = recipe_taskrunner_trainer.TaskRunnerOnlyRecipeTrainer
        try:
            return super().run(config)
        finally:
            module.RayPPOTrainer = verl_trainer
