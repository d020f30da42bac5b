"""What the torch_memory tests look for in a fit's call logs and profile folder, shared by every
trainer's tests (``harness.FitResult`` in, assertions out)."""

from pathlib import Path

from omegaconf import OmegaConf

from verl_compat.fixes.torch_memory import probes

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
    """A rank's profiling calls as ``(method, profile_step)``, a dump's as ``(method, sub_dir)``, and a
    stop's as ``(method, its keyword arguments)``: ``run_command`` decides whether the user's finish
    hook runs, so it is part of what is compared."""
    out = []
    for call in rank_calls:
        if call["method"] in PROFILE_METHODS:
            kwargs = call["kwargs"]
            if call["method"] == "stop_profile":
                out.append((call["method"], kwargs))
            else:
                out.append((call["method"], kwargs.get("profile_step", kwargs.get("sub_dir"))))
    return out


def stop_kwargs(step, last_step):
    """What ``stop_profile`` is passed at ``step``: where it takes ``run_command`` (0.9.1+), True on the
    last profiled step only (verl's rule, and the fix's: the finish hook runs once); else nothing."""
    return {"run_command": step == last_step} if probes.stop_profile_takes_run_command() else {}


def one_pair_per_step(steps):
    steps = list(steps)
    return [c for step in steps for c in (("start_profile", step), ("stop_profile", stop_kwargs(step, steps[-1])))]


# ----------------------------------------------------------------------------------- finish hook
def add_finish_hook(config, workdir) -> Path | None:
    """Give the actor's profiler a ``finish_hook_cmd`` that appends its rank to a file, where the
    release has the key (with ``run_command``, 0.9.1+); return that file (None elsewhere)."""
    if not probes.stop_profile_takes_run_command():
        return None
    hook_log = Path(workdir) / "finish_hook.log"
    config.actor_rollout_ref.actor.profiler.finish_hook_cmd = f'echo "$VERL_PROFILE_RANK" >> {hook_log}'
    return hook_log


def finish_hook_ranks(hook_log) -> list[int]:
    """The ranks whose finish hook ran, once per run of it, sorted."""
    return sorted(int(line) for line in Path(hook_log).read_text().split()) if Path(hook_log).exists() else []


# ----------------------------------------------------------------------------------- other roles
OTHER_PROFILERS = ("actor_rollout_ref.ref.profiler", "actor_rollout_ref.rollout.profiler", "critic.profiler")


def other_profilers_enable(config) -> dict:
    """``enable`` of every profiler besides the actor's that the config has."""
    found = {key: OmegaConf.select(config, f"{key}.enable") for key in OTHER_PROFILERS}
    return {key: value for key, value in found.items() if value is not None}


def assert_only_the_actor_profiled(result, enable_before):
    """The fix drives the actor alone: the critic and the agent loop manager got no profiling call,
    and the ref, rollout and critic profilers keep the ``enable`` they were composed with."""
    assert other_profilers_enable(result.config) == enable_before
    for rank_calls in result.critic_calls:
        assert profile_calls(rank_calls) == []
        assert rank_calls[0]["kwargs"]["profiler"]["enable"] in (False, None)
    for rank_calls in result.calls.get("agent_loop_manager", []):
        assert profile_calls(rank_calls) == []


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
