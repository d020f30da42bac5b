"""The CPU harness for verl's trainers other than ``RayPPOTrainer``, each run through verl's own code
the way its entry point runs it (``harness`` covers ``RayPPOTrainer``):

* :func:`run_v1_fit`: the v1 trainer of 0.9.x, the default of ``python -m verl.trainer.main_ppo``.
  verl's own ``TaskRunnerV1.run`` (undecorated, in this process) picks the class with
  ``get_trainer_cls(config.trainer.v1.trainer_mode)``, starts TransferQueue, and runs the trainer's
  ``init()`` and ``fit()`` with the real agent loop (see ``standins_v1``).
* :func:`run_sync_fit`: 0.8.0's ``main_ppo_sync.PPOTrainer``, through its own ``TaskRunner.run``.
* :func:`run_separate_fit`: ``SeparateRayPPOTrainer``'s real ``fit()`` and ``fit_step()`` (the step
  code of the one-step-off and fully-async trainers), built through :class:`CPUSeparateTrainer`.

Each returns a ``harness.FitResult``; all share the process's one Ray session.
"""

import copy

import harness
import ray
import standins
import standins_v1
from omegaconf import DictConfig
from verl.single_controller.ray import RayClassWithInitArgs
from verl.trainer.ppo.ray_trainer import Role
from verl.trainer.ppo.utils import need_critic, need_reference_policy
from verl.utils.config import validate_config

# The rollout of the TransferQueue trainers: one replica (tp=2 over the 2 actor ranks) served by a
# stub server, one agent loop worker and one storage unit (verl starts 8 of each, ~7 s apiece), and
# no validation or checkpoints, so that a run is what the profiling needs: 3 training steps.
TQ_OVERRIDES = [
    f"actor_rollout_ref.rollout.name={standins_v1.SERVER_ROLLOUT_NAME}",
    "actor_rollout_ref.rollout.tensor_model_parallel_size=2",
    "actor_rollout_ref.rollout.agent.num_workers=1",
    "transfer_queue.backend.SimpleStorage.num_data_storage_units=1",
    "trainer.val_before_train=False",
    "trainer.test_freq=-1",
    "trainer.save_freq=-1",
]
# 0.8.0's main_ppo_sync builds a critic from a config field that does not exist (critic_cfg.model_config,
# a 0.8.0 bug at verl/trainer/main_ppo_sync.py:627): it runs only without a critic.
SYNC_OVERRIDES = [*TQ_OVERRIDES, "algorithm.adv_estimator=grpo"]


def compose_tq_config(overrides=(), workdir=None, sync=False) -> DictConfig:
    """``harness.compose_config`` for a TransferQueue trainer: verl's default trainer kept (the v1
    trainer, on 0.9.x), verl's own agent loop manager, and the small rollout above."""
    base = SYNC_OVERRIDES if sync else TQ_OVERRIDES
    config = harness.compose_config(base + list(overrides), workdir, default_trainer=True)
    config.actor_rollout_ref.rollout.agent.agent_loop_manager_class = None
    return config


def _undecorated(actor_class) -> type:
    """The user's class behind a ``@ray.remote`` class (verl's TaskRunners), to run in this process."""
    return actor_class.__ray_metadata__.modified_class.__ray_actor_class__


def run_v1_fit(config: DictConfig) -> harness.FitResult:
    """``python -m verl.trainer.main_ppo``'s default path on 0.9.x: what its ``main()`` checks, then
    verl's ``TaskRunnerV1.run`` in this process (its Ray actor only moves it to another process)."""
    from verl.trainer import main_ppo

    assert config.trainer.use_v1, "main_ppo runs the v1 trainer only with trainer.use_v1"
    standins_v1.apply_v1_cpu_patches()
    config = copy.deepcopy(config)  # run() resolves it in place
    validate_config(config, use_reference_policy=need_reference_policy(config), use_critic=need_critic(config))
    runner = _undecorated(main_ppo.TaskRunnerV1)()
    with harness._fit_run(config) as result:
        try:
            runner.run(config)
        finally:
            result.trainer = runner.trainer
    return result


def _cpu_sync_task_runner() -> type:
    from verl.trainer import main_ppo_sync

    class CPUSyncTaskRunner(_undecorated(main_ppo_sync.TaskRunner)):
        """0.8.0's ``main_ppo_sync.TaskRunner`` with the stand-in workers and CPU pools."""

        def add_actor_rollout_worker(self, config):
            super().add_actor_rollout_worker(config)
            for role in self.role_worker_mapping:
                self.role_worker_mapping[role] = ray.remote(standins_v1.ServerActor)

        def init_resource_pool_mgr(self, config):
            super().init_resource_pool_mgr(config)
            manager = self.resource_pool_manager
            self.resource_pool_manager = standins.CPUResourcePoolManager(
                resource_pool_spec=manager.resource_pool_spec, mapping=manager.mapping
            )

        def run(self, config):
            standins_v1.register_stub_server_rollout()
            return super().run(config)

    return CPUSyncTaskRunner


def run_sync_fit(config: DictConfig) -> harness.FitResult:
    """``python -m verl.trainer.main_ppo_sync`` on 0.8.0: what its ``main()`` does to the config,
    then its ``TaskRunner.run`` in this process."""
    config = copy.deepcopy(config)
    config.transfer_queue.enable = True
    validate_config(config, use_reference_policy=need_reference_policy(config), use_critic=need_critic(config))
    runner = _cpu_sync_task_runner()()
    with harness._fit_run(config) as result:
        runner.run(config)
    return result


def _cpu_separate_trainer() -> type:
    from verl.experimental.separation.ray_trainer import SeparateRayPPOTrainer

    class CPUSeparateTrainer(SeparateRayPPOTrainer):
        """``SeparateRayPPOTrainer`` with the two hooks it leaves to its subclasses filled in as
        ``RayPPOTrainer.init_workers`` does: a colocated actor, and the harness's agent loop manager.
        Everything else, ``fit()``, ``fit_step()`` and each ``_fit_*`` step, is verl's."""

        def _create_actor_rollout_classes(self):
            pool = self.resource_pool_manager.get_resource_pool(Role.ActorRollout)
            self.resource_pool_to_cls[pool][str(Role.ActorRollout)] = RayClassWithInitArgs(
                cls=self.role_worker_mapping[Role.ActorRollout],
                config=self.config.actor_rollout_ref,
                role=str(Role.ActorRollout),
            )

        def _init_async_rollout_manager(self):
            self.async_rollout_mode = True
            self.async_rollout_manager = standins.StubAgentLoopManager.create(
                self.config, reward_loop_worker_handles=self.reward_loop_manager.reward_loop_workers
            )

    return CPUSeparateTrainer


def run_separate_fit(config: DictConfig, actor: str = "engine") -> harness.FitResult:
    """``SeparateRayPPOTrainer.fit()`` on the harness's stand-ins (``harness.run_fit``)."""
    return harness.run_fit(config, actor=actor, trainer_cls=_cpu_separate_trainer())
