"""The harness cannot hang CI: a worker group the cluster cannot place fails its test within the
pool's bound, with a message naming what it waited for (verl's own wait has no timeout)."""

import time

import harness
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
