"""config_keys and torch_memory together, in verl's real ``RayPPOTrainer.fit()`` (3 steps, CPU
stand-ins, real Ray): a 0.7-era override list with keys verl has since renamed and dropped, and the
legacy ``actor_rollout_ref.actor.profiler.tool=torch_memory``, composed through Hydra on the newest
release. The run completes, the actor writes its snapshot every step, and each old key is warned
about once."""

import pytest
from expectations import LEGACY, STEPS, assert_one_dump_per_rank_per_step
from harness import compose_config, run_fit

pytestmark = pytest.mark.once

OLD_KEYS = [
    "actor_rollout_ref.profiler.all_ranks=True",  # 0.5-era profiler keys
    "actor_rollout_ref.profiler.discrete=False",
    "critic.model.fsdp_config.param_offload=False",
    "+actor_rollout_ref.actor.megatron.grad_offload=False",
    f"trainer.profile_steps=[{','.join(str(step) for step in range(1, STEPS + 1))}]",
]


def test_old_script_with_the_legacy_torch_memory_key(shim, shim_warnings, tmp_path):
    config = compose_config([*OLD_KEYS, *LEGACY], tmp_path)
    assert list(config.global_profiler.steps) == list(range(1, STEPS + 1))
    result = run_fit(config, actor="engine")
    assert_one_dump_per_rank_per_step(result, range(1, STEPS + 1))
    warned = shim_warnings()
    for override in OLD_KEYS:
        key = override.lstrip("+").split("=")[0]
        assert sum(f"verl-compat: {key} " in text for text in warned) == 1, (key, warned)
    assert sum("actor_rollout_ref.actor.profiler.tool=torch_memory" in text for text in warned) == 1, warned
