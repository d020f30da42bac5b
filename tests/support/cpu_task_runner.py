"""verl's own TaskRunner with the stand-ins, for ``main_ppo.run_ppo(config, task_runner_class=...)``.

Use ``run_ppo(config, task_runner_class=ray.remote(num_cpus=1)(CPUTaskRunner))``: verl's real
``TaskRunner.run`` then resolves and validates the config, loads tokenizer and datasets, and builds
``RayPPOTrainer``, ``init_workers()`` and ``fit()`` inside a Ray actor, as production does. This
class only swaps the worker classes and the resource pool manager.

The base is the TaskRunner that drives ``RayPPOTrainer`` in the installed release:
``verl.trainer.main_ppo.TaskRunner`` (a plain class up to 0.8) or ``main_ppo_v0.TaskRunner``
(0.9.x, where it is a ``@ray.remote`` class: its undecorated class is subclassed).
"""

import importlib.util

import ray
import standins
from verl.trainer.ppo.ray_trainer import Role


def _verl_task_runner() -> type:
    if importlib.util.find_spec("verl.trainer.main_ppo_v0") is not None:
        from verl.trainer.main_ppo_v0 import TaskRunner
    else:
        from verl.trainer.main_ppo import TaskRunner
    if isinstance(TaskRunner, ray.actor.ActorClass):
        TaskRunner = TaskRunner.__ray_metadata__.modified_class.__ray_actor_class__
    return TaskRunner


class CPUTaskRunner(_verl_task_runner()):
    """Maps the roles to the stand-ins and the pools to CPU bundles; everything else is verl's."""

    def __init__(self):
        # Not super().__init__(): 0.9.x's TaskRunner.__init__ calls super() and, once Ray ships this
        # subclass to the actor, fails with "super(type, obj): obj must be an instance or subtype".
        self.role_worker_mapping = {}
        self.mapping = {}

    def add_actor_rollout_worker(self, config):
        """Let verl pick its worker class and role, then substitute the matching stand-in.

        The stand-in has ``dump_memory_snapshot`` exactly when the worker verl picked has it (0.7.1's
        FSDP workers do, engine workers do not), so a run reproduces what that worker would do.
        """
        verl_cls, worker_group_cls = super().add_actor_rollout_worker(config)
        standin = standins.FsdpStyleActor if hasattr(verl_cls, "dump_memory_snapshot") else standins.EngineStyleActor
        for role in (Role.ActorRollout, Role.ActorRolloutRef):
            if role in self.role_worker_mapping:
                self.role_worker_mapping[role] = ray.remote(standin)
        return standin, worker_group_cls

    def add_critic_worker(self, config):
        super().add_critic_worker(config)
        self.role_worker_mapping[Role.Critic] = ray.remote(standins.StubCriticWorker)

    def init_resource_pool_mgr(self, config):
        manager = super().init_resource_pool_mgr(config)
        return standins.CPUResourcePoolManager(resource_pool_spec=manager.resource_pool_spec, mapping=manager.mapping)

    def run(self, config):
        standins.register_cpu_rollout()  # the registry lives in this (the trainer's) process
        return super().run(config)
