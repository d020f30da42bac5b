"""Trainer shapes for ``verl-compat doctor --trainer`` (imported by doctor, after activation)."""

from verl.trainer.ppo.ray_trainer import RayPPOTrainer


class OwnStopWithoutSuper(RayPPOTrainer):
    """Overrides the step end without calling super(): wrapped by the structural rule."""

    def _stop_profiling(self, do_profile: bool) -> None:
        if do_profile:
            self.actor_rollout_wg.stop_profile()


class LegacyCallAfterSuper(RayPPOTrainer):
    """Its own step end: verl's through super(), then the legacy call in a helper of its own."""

    def _stop_profiling(self, do_profile, **kwargs) -> None:
        super()._stop_profiling(do_profile, **kwargs)
        self._dump_step_memory()

    def _dump_step_memory(self):
        self.actor_rollout_wg.dump_memory_snapshot(tag="post_update", sub_dir=f"step{self.global_steps}")


class LegacyCallWithoutSuper(RayPPOTrainer):
    """Its own step end without super(): stops the actor itself, then makes the legacy call."""

    def _stop_profiling(self, do_profile, **kwargs) -> None:
        if do_profile:
            self.actor_rollout_wg.stop_profile()
        self.actor_rollout_wg.dump_memory_snapshot(tag="post_update", sub_dir=f"step{self.global_steps}")


class UnknownStopSignature(RayPPOTrainer):
    """A step end verl-compat cannot call after: it does not know what the arguments mean."""

    def _stop_profiling(self, phase, do_profile, extra=None) -> None:
        pass


class NoStepEnd(RayPPOTrainer):
    """A copied fit() that never reaches _stop_profiling, and makes the legacy call itself."""

    def fit(self):
        for _ in range(3):
            self.global_steps += 1
            self.actor_rollout_wg.dump_memory_snapshot(tag="post_update", sub_dir=f"step{self.global_steps}")


class _ConfigHolder:
    def __init__(self, config):
        self.config = config


class InitFromAMixin(_ConfigHolder, RayPPOTrainer):
    """Its ``__init__`` comes from a mixin that never calls ``super().__init__``: no trainer hook of
    verl-compat's runs at construction; the step end is verl's, wrapped."""
