"""verl's own torch_memory example through the real fit(): ``examples/profile/
run_qwen2_5_vl_7b_torch_memory.sh`` (verl 0.8.0 to 0.9.x) sets ``global_profiler.tool=torch_memory``
and no ``global_profiler.steps``. The actor inherits the tool, so verl >= 0.8 writes nothing for it,
verl <= 0.7.x makes the legacy call (a crash on engine workers); verl-compat serves it as the legacy case and
names the key the user actually wrote."""

import pytest
from expectations import STEPS, assert_one_dump_per_rank_per_step
from harness import TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT, compose_config, run_fit

from verl_compat.fixes import torch_memory

pytestmark = pytest.mark.sides

# The example's profiler overrides (its save_path is the harness's own <workdir>/prof).
EXAMPLE = [
    "global_profiler.tool=torch_memory",
    "global_profiler.global_tool_config.torch_memory.trace_alloc_max_entries=100000",
    "global_profiler.global_tool_config.torch_memory.stack_depth=32",
]


def test_baseline_verls_own_example(no_shim, tmp_path):
    result = run_fit(compose_config(EXAMPLE, tmp_path), actor="engine")
    if TRAINER_CALLS_DUMP_MEMORY_SNAPSHOT:
        assert isinstance(result.error, AttributeError) and "dump_memory_snapshot" in str(result.error)
    else:
        result.raise_error()
        assert result.profile_tree() == {}


def test_verls_own_example_is_served_and_the_warning_names_the_key_written(shim, shim_warnings, tmp_path):
    result = run_fit(compose_config(EXAMPLE, tmp_path), actor="engine")

    assert_one_dump_per_rank_per_step(result, range(1, STEPS + 1))
    [message] = shim_warnings()
    assert message.startswith("verl-compat: global_profiler.tool=torch_memory without global_profiler.steps")
    assert "actor_rollout_ref.actor.profiler.tool" not in message
    assert "Replace the legacy key" not in message
    [add] = [
        line.strip() for line in message.splitlines()[message.splitlines().index("  Add to your overrides:") + 1 :][:1]
    ]
    assert add == (
        "global_profiler.steps=[1,2,3] actor_rollout_ref.actor.profiler.enable=True "
        "actor_rollout_ref.actor.profiler.all_ranks=True"
    )
    detection = torch_memory.detect(compose_config(EXAMPLE, tmp_path / "again"))
    assert (detection.case, detection.key_set) == (torch_memory.Case.LEGACY, "global_profiler.tool")
