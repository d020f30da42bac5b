"""``actor_rollout_ref.nccl_timeout``: the old workers' process-group timeout (23 of verl's own old
launches set 1200-14400 s).

verl 0.7.1's legacy workers passed it to ``torch.distributed.init_process_group``; verl 0.8.0 deleted
them (verl#6067) and its engine workers' ``TrainingWorker.__init__`` passes ``timeout_second=None``:
the key is declared and read by nothing. The worker tests run verl's own ``TrainingWorker.__init__``
in a fresh process and record the timeout it hands torch (a recording wrapper on torch's
``init_process_group`` that stops there: there is no NCCL on this machine).
"""

import pytest
from omegaconf import OmegaConf
from pyrun import run_python
from verl_config import verl_compose

from verl_compat.fixes.config_keys import nccl_timeout, readers
from verl_compat.fixes.config_keys.table import legacy_worker

OLD_WORKER = legacy_worker("fsdp", "actor_rollout_ref", "")
legacy_workers = readers.calls(OLD_WORKER.entry, OLD_WORKER.function)
engines_only = pytest.mark.skipif(legacy_workers, reason="this verl's own FSDP worker reads the key")


def _engine_workers_start_the_group() -> bool:
    try:
        from verl.workers import engine_workers
    except ImportError:
        return False
    return hasattr(engine_workers, "TrainingWorker")


has_training_worker = pytest.mark.skipif(
    not _engine_workers_start_the_group(), reason="this verl has no engine TrainingWorker"
)

# verl's own TrainingWorker.__init__ up to its process-group start, in a fresh process: the
# timeout it hands torch, printed as "timeout=<seconds or None>".
TRAINING_WORKER_START = """
    import os, wrapt
    os.environ.update(RANK="0", WORLD_SIZE="1", LOCAL_RANK="0", MASTER_ADDR="127.0.0.1", MASTER_PORT="29571")
    import torch.distributed

    class Started(Exception):
        pass

    def record(wrapped, instance, args, kwargs):
        timeout = kwargs.get("timeout")
        print("timeout=%s" % (None if timeout is None else int(timeout.total_seconds())))
        raise Started

    wrapt.wrap_function_wrapper(torch.distributed, "init_process_group", record)
    from verl.workers.engine_workers import TrainingWorker

    try:
        TrainingWorker(config=None)
    except Started:
        pass
"""


def started_with(env: dict, cwd) -> str:
    """The timeout line; run outside the checkout, so the installed verl-compat is the one imported."""
    out = run_python(TRAINING_WORKER_START, env=env, drop=("VERL_COMPAT_",), cwd=cwd).stdout
    return next(line for line in out.splitlines() if line.startswith("timeout="))


@has_training_worker
def test_baseline_verls_training_worker_starts_the_group_without_a_timeout(tmp_path):
    assert started_with({nccl_timeout.ENV: "7200", "VERL_COMPAT_DISABLE": "1"}, tmp_path) == "timeout=None"


@has_training_worker
def test_the_workers_start_the_group_with_the_runs_timeout(tmp_path):
    assert started_with({nccl_timeout.ENV: "7200"}, tmp_path) == "timeout=7200"


@has_training_worker
def test_a_run_that_set_none_is_left_to_verl(tmp_path):
    assert started_with({}, tmp_path) == "timeout=None"


def env_vars(config) -> dict:
    found = OmegaConf.select(config, "ray_kwargs.ray_init.runtime_env.env_vars")
    return OmegaConf.to_container(found) if found is not None else {}


@engines_only
def test_baseline_the_old_timeout_composes_and_reaches_no_worker(no_shim):
    config = verl_compose(["actor_rollout_ref.nccl_timeout=7200"])
    assert config.actor_rollout_ref.nccl_timeout == 7200
    assert nccl_timeout.ENV not in env_vars(config)


@engines_only
def test_an_old_timeout_goes_to_the_workers_with_one_warning(shim, shim_warnings):
    config = verl_compose(["actor_rollout_ref.nccl_timeout=7200", "+ray_kwargs.ray_init.runtime_env.env_vars.A=1"])
    assert env_vars(config) == {"A": 1, nccl_timeout.ENV: "7200"}  # the user's own kept
    warned = [w for w in shim_warnings() if "nccl_timeout" in w]
    assert len(warned) == 1 and "7200 s timeout" in warned[0], warned


@engines_only
@pytest.mark.parametrize("value", [600, None])
def test_verls_own_value_asks_for_nothing(shim, shim_warnings, value):
    config = verl_compose([] if value is None else [f"actor_rollout_ref.nccl_timeout={value}"])
    assert nccl_timeout.ENV not in env_vars(config)
    assert not any("nccl_timeout" in w for w in shim_warnings())


@pytest.mark.skipif(not legacy_workers, reason="needs verl's legacy FSDP worker")
def test_where_the_legacy_worker_reads_it_nothing_is_added(shim, shim_warnings):
    config = verl_compose(["actor_rollout_ref.nccl_timeout=7200"])
    assert nccl_timeout.ENV not in env_vars(config)
    assert not any("nccl_timeout" in w for w in shim_warnings())
