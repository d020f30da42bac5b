"""What the torch_memory tests look for in a fit's call logs and profile folder, shared by every
trainer's tests (``harness.FitResult`` in, assertions out)."""

STEPS = 3  # every harness fit runs 3 training steps
LEGACY = ["actor_rollout_ref.actor.profiler.tool=torch_memory"]
# verl #6181's overrides: steps given, the actor's enable left False (save_path comes from compose_config).
ISSUE_6181 = [
    "global_profiler.tool=torch_memory",
    "actor_rollout_ref.actor.profiler.all_ranks=True",
    "global_profiler.steps=[1,2]",
]
# verl #6198's documented replacement.
NEW_STYLE = [
    "global_profiler.tool=torch_memory",
    "global_profiler.steps=[1,2]",
    "actor_rollout_ref.actor.profiler.enable=True",
    "actor_rollout_ref.actor.profiler.all_ranks=True",
]
PROFILE_METHODS = ("start_profile", "stop_profile", "dump_memory_snapshot")


def profile_calls(rank_calls):
    """A rank's profiling calls as ``(method, profile_step)``; stop has no step, a dump its sub_dir."""
    out = []
    for call in rank_calls:
        if call["method"] in PROFILE_METHODS:
            kwargs = call["kwargs"]
            out.append((call["method"], kwargs.get("profile_step", kwargs.get("sub_dir"))))
    return out


def one_pair_per_step(steps):
    return [call for step in steps for call in (("start_profile", step), ("stop_profile", None))]


def empty_step_folders(steps):
    # On a machine without CUDA, DistProfiler creates the step folder and writes no pickle into it.
    return {f"step{step}": [] for step in steps}


def profiler_settings(result):
    """The profiler config each actor rank was built with (enable, all_ranks, ...)."""
    return [rank[0]["kwargs"]["profiler"] for rank in result.actor_calls]


def assert_one_dump_per_rank_per_step(result, steps):
    result.raise_error()
    assert result.profile_tree() == empty_step_folders(steps)
    assert len(result.actor_calls) == 2
    for rank_calls in result.actor_calls:
        assert profile_calls(rank_calls) == one_pair_per_step(steps)
    for settings in profiler_settings(result):
        assert settings["enable"] is True and settings["all_ranks"] is True


def assert_no_profiling(result):
    """verl >= 0.8 with the legacy key alone: the run completes, nothing is started or dumped."""
    result.raise_error()
    assert result.profile_tree() == {}
    for rank_calls in result.actor_calls:
        assert profile_calls(rank_calls) == []


def assert_replacement_named(message, save_path, steps="[1,2,3]"):
    """The warning names the legacy key, the exact new overrides, the new layout and the tool."""
    for text in (
        "actor_rollout_ref.actor.profiler.tool=torch_memory",
        "global_profiler.tool=torch_memory",
        f"global_profiler.steps={steps}",
        f"global_profiler.save_path={save_path}",
        "actor_rollout_ref.actor.profiler.enable=True",
        "actor_rollout_ref.actor.profiler.all_ranks=True",
        "step{N}/torch_memory_rank{R}_pid{P}.pickle",
        "post_update_step{N+1}",
        "verl-compat migrate",
    ):
        assert text in message
