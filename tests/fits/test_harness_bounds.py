"""The harness cannot hang CI: a worker group the cluster cannot place fails its test within the
pool's bound, with a message naming what it waited for (verl's own wait has no timeout). And a loaded
machine does not fail it: a start of Ray whose node timed out is made again once (``pyrun.ray_start``)."""

import time

import harness
import pyrun
import pytest
import ray
import standins
from verl.single_controller.ray import RayClassWithInitArgs, RayWorkerGroup


def test_a_starved_placement_group_fails_fast_naming_what_it_waited_for():
    harness.ray_session()
    actors_before, pgs_before = harness._live_actors(), harness._live_placement_groups()
    cpus = int(ray.cluster_resources()["CPU"])
    pool = standins.CPUResourcePool(
        process_on_nodes=[cpus + 1], use_gpu=False, max_colocate_count=1, name_prefix="starved"
    )
    pool.placement_timeout_s = 1
    start = time.monotonic()
    try:
        with pytest.raises(standins.StarvedPlacementGroup) as raised:
            # verl's worker group, as the trainers build it: it asks the pool for its placement groups
            RayWorkerGroup(
                resource_pool=pool,
                ray_cls_with_init=RayClassWithInitArgs(cls=ray.remote(standins.StubCriticWorker), config=None),
                device_name="cpu",
            )
    finally:
        harness._reap(actors_before, pgs_before)  # removes the pending group: verl's wait ends too
    assert time.monotonic() - start < 60
    message = str(raised.value)
    assert f"resource pool 'starved': placement groups for [{cpus + 1}] bundles of {{'CPU': 1}}" in message
    assert "not placed in 1 s" in message and "the Ray cluster has" in message


def _starts(*outcomes):
    """A start of Ray that gives each outcome in turn (an exception is raised), and its calls."""
    calls = []

    def start():
        calls.append(len(calls))
        outcome = outcomes[len(calls) - 1]
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    return start, calls


TIMED_OUT = Exception(f"{pyrun.RAY_STARTUP_TIMEOUT}. This could happen because some of the raylet failed")


@pytest.mark.once
def test_a_ray_start_that_timed_out_is_made_again_once():
    start, calls = _starts(TIMED_OUT, "up")
    assert pyrun.ray_start(start, "the cluster") == "up" and len(calls) == 2


@pytest.mark.once
def test_a_ray_start_that_times_out_twice_fails_saying_so():
    start, calls = _starts(TIMED_OUT, TIMED_OUT, "never")
    with pytest.raises(RuntimeError, match="the cluster: Ray's node timed out during startup twice"):
        pyrun.ray_start(start, "the cluster")
    assert len(calls) == 2


@pytest.mark.once
def test_any_other_error_of_a_ray_start_is_not_retried():
    start, calls = _starts(ValueError("runtime_env"), "up")
    with pytest.raises(ValueError, match="runtime_env"):
        pyrun.ray_start(start, "the cluster")
    assert len(calls) == 1


@pytest.mark.once
def test_a_program_that_stopped_at_rays_startup_timeout_is_run_again(tmp_path):
    marker = tmp_path / "ran"
    code = f"""
        import pathlib, sys
        marker = pathlib.Path({str(marker)!r})
        if not marker.exists():
            marker.write_text("once")
            sys.exit("Exception: {pyrun.RAY_STARTUP_TIMEOUT}.")
        print("second run")
    """
    assert pyrun.run_python(code).stdout == "second run\n"
