"""``RayPPOTrainer`` subclasses shaped like the trainers verl users run outside verl's wheel.

verl's in-tree recipes (``recipe/`` up to 0.7.0: DAPO's ``RayDAPOTrainer``, PRIME, SPIN, ...), the
verl-recipe repository after it, and teams' own trainers subclass ``RayPPOTrainer`` and often carry
a private copy of an old ``fit()``. Copies taken from 0.6.x/0.7.x keep that release's legacy
per-step call, right after ``self.global_steps += 1``::

    if (
        hasattr(self.config.actor_rollout_ref.actor, "profiler")
        and self.config.actor_rollout_ref.actor.profiler.tool == "torch_memory"
    ):
        self.actor_rollout_wg.dump_memory_snapshot(
            tag=f"post_update_step{self.global_steps}", sub_dir=f"step{self.global_steps}"
        )

verl 0.8.0 deleted that call from its own ``fit()`` only, so on engine workers (no
``dump_memory_snapshot``) such a copy fails after step 1 on every release, 0.9.1 included.

The copies here keep the loop of 0.7.1's ``RayPPOTrainer.fit`` (``verl/trainer/ppo/ray_trainer.py``):
``_start_profiling(do_profile)``, the step, ``_stop_profiling(do_profile)``, ``global_steps += 1``,
the legacy call, the return after the last step. The step itself (:func:`train_step`) is trimmed to
the dataflow the CPU stand-ins serve, through the trainer's own helpers; validation, checkpoints and
metrics logging are left out (copies differ there, and profiling does not touch them). Each class
spells its loop out, as a copy does: a coverage check that reads a class's own ``fit()`` sees what
a recipe's would show it.

The shapes, each importable as ``recipe_trainers:<Name>`` (``verl-compat doctor --trainer``):

* :class:`RecipeCopiedFitTrainer`: a copied old ``fit()``, verl's ``_stop_profiling`` inherited
  (DAPO's shape).
* :class:`RecipeAliasedWorkerGroupTrainer`: the same, the actor's worker group also kept under a
  name of the recipe's own (``actor_train_wg``), and the legacy call made through that alias.
* :class:`RecipeStopAfterSuperTrainer`: verl's ``fit()``, its own ``_stop_profiling`` that calls
  ``super()._stop_profiling`` and then makes the legacy call.
* :class:`RecipeStopLegacyWithoutSuperTrainer`: verl's ``fit()``, its own ``_stop_profiling`` that
  stops the actor itself (no ``super()``) and then makes the legacy call.
* :class:`RecipeStopHelperTrainer`: verl's ``fit()``, its own ``_stop_profiling`` that calls
  ``super()`` and then a helper method of its own that makes the legacy call.
* :class:`RecipeNoStepEndTrainer`: deliberately uncoverable: its ``fit()`` never calls
  ``_stop_profiling`` (nor ``_start_profiling``) and still makes the legacy call, so there is no
  per-step point at which anything could drive the profiler. A coverage check must name it.

:func:`define_copied_fit_trainer` and :func:`define_legacy_without_super_trainer` run the class
statements again, so that a test can define a fresh class before or after the shim is activated.
``recipe_taskrunner_trainer`` holds a shape that only the TaskRunner actor imports.
"""

import uuid

import numpy as np
import torch
from verl import DataProto
from verl.trainer.ppo.ray_trainer import RayPPOTrainer, compute_advantage
from verl.trainer.ppo.reward import extract_reward
from verl.utils.debug import marked_timer
from verl.utils.metric import reduce_metrics

# The shapes by name: those the fix must serve, and the one no shim can.
COVERABLE = (
    "RecipeCopiedFitTrainer",
    "RecipeAliasedWorkerGroupTrainer",
    "RecipeStopAfterSuperTrainer",
    "RecipeStopLegacyWithoutSuperTrainer",
    "RecipeStopHelperTrainer",
)
# Where the legacy call is made -> the shape that makes it there.
LEGACY_CALL_PLACEMENTS = {
    "in_fit": "RecipeCopiedFitTrainer",
    "aliased_worker_group": "RecipeAliasedWorkerGroupTrainer",
    "override_after_super": "RecipeStopAfterSuperTrainer",
    "override_without_super": "RecipeStopLegacyWithoutSuperTrainer",
    "helper_of_override": "RecipeStopHelperTrainer",
}
UNCOVERABLE = "RecipeNoStepEndTrainer"


def train_step(trainer, batch_dict, metrics: dict, timing_raw: dict) -> DataProto:
    """One PPO step as the copied fits run it: generate, score, old log-probs, values, advantages,
    critic and actor update, weights to the rollout. Same helpers and order as 0.7.1's ``fit()``."""
    config = trainer.config
    n = config.actor_rollout_ref.rollout.n
    batch = DataProto.from_single_dict(batch_dict)
    batch.meta_info["temperature"] = config.actor_rollout_ref.rollout.temperature
    batch.non_tensor_batch["uid"] = np.array([str(uuid.uuid4()) for _ in range(len(batch.batch))], dtype=object)
    gen_batch = trainer._get_gen_batch(batch)
    gen_batch.meta_info["global_steps"] = trainer.global_steps
    with marked_timer("gen", timing_raw):
        gen_output = trainer.async_rollout_manager.generate_sequences(gen_batch.repeat(repeat_times=n, interleave=True))
        gen_output.meta_info.pop("timing", None)
    batch = batch.repeat(repeat_times=n, interleave=True).union(gen_output)
    batch.meta_info["global_token_num"] = torch.sum(batch.batch["attention_mask"], dim=-1).tolist()
    batch.meta_info["images_seqlens"] = []
    reward_tensor, _ = extract_reward(batch)
    old_log_prob, _ = trainer._compute_old_log_prob(batch)
    old_log_prob.batch.pop("entropys", None)
    batch = batch.union(old_log_prob)
    if trainer.use_critic:
        batch = batch.union(trainer._compute_values(batch))
    batch.batch["token_level_scores"] = reward_tensor
    batch.batch["token_level_rewards"] = reward_tensor
    batch = compute_advantage(
        batch,
        adv_estimator=config.algorithm.adv_estimator,
        gamma=config.algorithm.gamma,
        lam=config.algorithm.lam,
        num_repeat=n,
        config=config.algorithm,
    )
    if trainer.use_critic:
        metrics.update(reduce_metrics(trainer._update_critic(batch).meta_info["metrics"]))
    metrics.update(reduce_metrics(trainer._update_actor(batch).meta_info["metrics"]))
    trainer.checkpoint_manager.update_weights(trainer.global_steps)
    return batch


def define_copied_fit_trainer():
    """Run the class statement of :class:`RecipeCopiedFitTrainer` (a new class each call)."""

    class RecipeCopiedFitTrainer(RayPPOTrainer):
        """A recipe trainer with a private copy of 0.7.1's ``fit()`` (DAPO's shape): verl's
        ``_start_profiling``/``_stop_profiling`` inherited, the legacy call after
        ``global_steps += 1``."""

        __qualname__ = "RecipeCopiedFitTrainer"

        def fit(self):
            self.global_steps = 0
            self._load_checkpoint()
            self.global_steps += 1
            for _epoch in range(self.config.trainer.total_epochs):
                for batch_dict in self.train_dataloader:
                    metrics, timing_raw = {}, {}
                    steps = self.config.global_profiler.steps
                    do_profile = steps is not None and self.global_steps in steps
                    is_last_step = self.global_steps >= self.total_training_steps
                    self._start_profiling(do_profile)
                    with marked_timer("step", timing_raw):
                        train_step(self, batch_dict, metrics, timing_raw)
                    self._stop_profiling(do_profile)

                    self.global_steps += 1

                    if (
                        hasattr(self.config.actor_rollout_ref.actor, "profiler")
                        and self.config.actor_rollout_ref.actor.profiler.tool == "torch_memory"
                    ):
                        self.actor_rollout_wg.dump_memory_snapshot(
                            tag=f"post_update_step{self.global_steps}", sub_dir=f"step{self.global_steps}"
                        )

                    if is_last_step:
                        return

    return RecipeCopiedFitTrainer


RecipeCopiedFitTrainer = define_copied_fit_trainer()


class RecipeAliasedWorkerGroupTrainer(RayPPOTrainer):
    """A copied old ``fit()`` that reaches the actor's worker group under the recipe's own name:
    ``actor_train_wg`` is the same group as ``actor_rollout_wg`` (recipes that split training and
    rollout keep both names), and the copy's legacy call goes through ``actor_train_wg``."""

    def init_workers(self):
        super().init_workers()
        self.actor_train_wg = self.actor_rollout_wg

    def fit(self):
        self.global_steps = 0
        self._load_checkpoint()
        self.global_steps += 1
        for _epoch in range(self.config.trainer.total_epochs):
            for batch_dict in self.train_dataloader:
                metrics, timing_raw = {}, {}
                steps = self.config.global_profiler.steps
                do_profile = steps is not None and self.global_steps in steps
                is_last_step = self.global_steps >= self.total_training_steps
                self._start_profiling(do_profile)
                with marked_timer("step", timing_raw):
                    train_step(self, batch_dict, metrics, timing_raw)
                self._stop_profiling(do_profile)

                self.global_steps += 1

                if (
                    hasattr(self.config.actor_rollout_ref.actor, "profiler")
                    and self.config.actor_rollout_ref.actor.profiler.tool == "torch_memory"
                ):
                    self.actor_train_wg.dump_memory_snapshot(
                        tag=f"post_update_step{self.global_steps}", sub_dir=f"step{self.global_steps}"
                    )

                if is_last_step:
                    return


class RecipeNoStepEndTrainer(RayPPOTrainer):
    """Deliberately UNCOVERABLE: a copied ``fit()`` that has no step-end profiling point at all (no
    ``_start_profiling``/``_stop_profiling`` call) but keeps the legacy call. Nothing verl-compat can
    wrap runs once per step in it, so the legacy key cannot be served (no per-step snapshots,
    whatever a shim does); ``verl-compat doctor --trainer`` must say so for this class."""

    def fit(self):
        self.global_steps = 0
        self._load_checkpoint()
        self.global_steps += 1
        for _epoch in range(self.config.trainer.total_epochs):
            for batch_dict in self.train_dataloader:
                metrics, timing_raw = {}, {}
                is_last_step = self.global_steps >= self.total_training_steps
                with marked_timer("step", timing_raw):
                    train_step(self, batch_dict, metrics, timing_raw)

                self.global_steps += 1

                if (
                    hasattr(self.config.actor_rollout_ref.actor, "profiler")
                    and self.config.actor_rollout_ref.actor.profiler.tool == "torch_memory"
                ):
                    self.actor_rollout_wg.dump_memory_snapshot(
                        tag=f"post_update_step{self.global_steps}", sub_dir=f"step{self.global_steps}"
                    )

                if is_last_step:
                    return


# The three below keep verl's own ``fit()`` and take ``_stop_profiling``'s arguments as every release
# passes them (0.9.1 adds ``run_command=``). Their legacy call comes inside the step end, before the
# outermost ``_stop_profiling`` returns.


class RecipeStopAfterSuperTrainer(RayPPOTrainer):
    """Its own ``_stop_profiling``: verl's, through ``super()``, then the legacy call."""

    def _stop_profiling(self, do_profile, **kwargs):
        super()._stop_profiling(do_profile, **kwargs)
        if self.config.actor_rollout_ref.actor.profiler.tool == "torch_memory":
            self.actor_rollout_wg.dump_memory_snapshot(
                tag=f"post_update_step{self.global_steps}", sub_dir=f"step{self.global_steps}"
            )


def define_legacy_without_super_trainer():
    """Run the class statement of :class:`RecipeStopLegacyWithoutSuperTrainer` (a new class each call)."""

    class RecipeStopLegacyWithoutSuperTrainer(RayPPOTrainer):
        """Its own ``_stop_profiling``: stops the worker groups itself, as verl's does, never calls
        ``super()``, then makes the legacy call."""

        __qualname__ = "RecipeStopLegacyWithoutSuperTrainer"

        def _stop_profiling(self, do_profile, **kwargs):
            if do_profile:
                self.actor_rollout_wg.stop_profile()
                if self.use_critic:
                    self.critic_wg.stop_profile()
            if self.config.actor_rollout_ref.actor.profiler.tool == "torch_memory":
                self.actor_rollout_wg.dump_memory_snapshot(
                    tag=f"post_update_step{self.global_steps}", sub_dir=f"step{self.global_steps}"
                )

    return RecipeStopLegacyWithoutSuperTrainer


RecipeStopLegacyWithoutSuperTrainer = define_legacy_without_super_trainer()


class RecipeStopHelperTrainer(RayPPOTrainer):
    """Its own ``_stop_profiling``: verl's, through ``super()``, then a helper of its own that makes
    the legacy call."""

    def _stop_profiling(self, do_profile, **kwargs):
        super()._stop_profiling(do_profile, **kwargs)
        self._dump_step_memory()

    def _dump_step_memory(self):
        if self.config.actor_rollout_ref.actor.profiler.tool == "torch_memory":
            self.actor_rollout_wg.dump_memory_snapshot(
                tag=f"post_update_step{self.global_steps}", sub_dir=f"step{self.global_steps}"
            )
