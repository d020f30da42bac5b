"""Old imports and old entry points in a fresh process, reached the way a user gets verl-compat: the
auto-load ``.pth`` of this environment, no ``import verl_compat`` anywhere. Hydra's ``--cfg job``
prints the composed config of the script that would run and exits before it runs: no GPU needed.
"""

from pathlib import Path

import pytest
import yaml
from pyrun import SHIM_SETTINGS, USER_SHELL, run_argv, run_python

from verl_compat.fixes.old_imports import installed

# verl's main_generation_server imports ``openai`` at module level (vLLM brings it on a GPU machine).
STANDINS = Path(__file__).resolve().parent / "standins"
OLD_MATH = "verl.utils.reward_score.math"  # renamed math_reward by verl#3378 (0.6.0)

# verl's own examples/generation/run_deepseek7b_mutli_node.sh at v0.7.0.
OLD_GENERATION = [
    "trainer.nnodes=2",
    "trainer.n_gpus_per_node=8",
    "data.path=/data/test.parquet",
    "data.prompt_key=prompt",
    "data.n_samples=4",
    "data.output_path=/data/out.parquet",
    "model.path=deepseek-ai/deepseek-llm-7b-chat",
    "+model.trust_remote_code=True",
    "rollout.temperature=1.0",
    "rollout.top_k=50",
    "rollout.top_p=0.7",
    "rollout.prompt_length=2048",
    "rollout.response_length=1024",
    "rollout.tensor_model_parallel_size=16",
    "rollout.gpu_memory_utilization=0.8",
]


def fresh(argv: list[str], shim: bool = True, check: bool = True):
    """``python argv`` as from a user's shell: auto-load on (or ``VERL_COMPAT_DISABLE=1``)."""
    env = {"PYTHONPATH": str(STANDINS), **({} if shim else {"VERL_COMPAT_DISABLE": "1"})}
    return run_argv(argv, env=env, drop=USER_SHELL + SHIM_SETTINGS, check=check)


def needs_missing(module: str) -> None:
    if installed.has(module):
        pytest.skip(f"this verl still ships {module}")


def test_baseline_an_old_import_is_a_bare_module_not_found_error():
    needs_missing(OLD_MATH)
    result = fresh(["-c", f"import {OLD_MATH}"], shim=False, check=False)
    assert result.returncode == 1
    assert f"ModuleNotFoundError: No module named '{OLD_MATH}'" in result.stderr
    assert "verl-compat" not in result.stderr


def test_auto_load_serves_an_old_import_in_a_fresh_process():
    needs_missing(OLD_MATH)
    result = fresh(["-c", f"import {OLD_MATH} as old, {OLD_MATH}_reward as new; print(old is new)"])
    assert result.stdout.strip().splitlines()[-1] == "True"
    assert f"<string>:1: VerlCompatDeprecationWarning: verl-compat: {OLD_MATH} moved to {OLD_MATH}_reward" in (
        result.stderr
    )


def test_baseline_the_old_generation_entry_point_is_gone():
    needs_missing("verl.trainer.main_generation")
    result = fresh(["-m", "verl.trainer.main_generation", *OLD_GENERATION, "--cfg", "job"], shim=False, check=False)
    assert result.returncode == 1
    assert "No module named verl.trainer.main_generation" in result.stderr


def test_the_old_generation_entry_point_runs_its_successor_with_the_overrides_translated():
    needs_missing("verl.trainer.main_generation")
    result = fresh(["-m", "verl.trainer.main_generation", *OLD_GENERATION, "--cfg", "job"])
    config = yaml.safe_load(result.stdout)
    rollout, model = config["actor_rollout_ref"]["rollout"], config["actor_rollout_ref"]["model"]
    assert config["data"]["train_files"] == "/data/test.parquet"
    assert config["data"]["output_path"] == "/data/out.parquet"
    assert config["trainer"]["nnodes"] == 2
    assert (model["path"], model["trust_remote_code"]) == ("deepseek-ai/deepseek-llm-7b-chat", True)
    assert (rollout["n"], rollout["top_p"]) == (4, 0.7)
    assert (rollout["prompt_length"], rollout["response_length"]) == (2048, 1024)
    assert (rollout["tensor_model_parallel_size"], rollout["gpu_memory_utilization"]) == (16, 0.8)
    # Old defaults this verl changed: real weights (load_format dummy would generate from random ones).
    assert (rollout["name"], rollout["load_format"], rollout["enforce_eager"]) == ("vllm", "auto", True)
    warning = result.stderr[result.stderr.index("VerlCompatDeprecationWarning: ") :]
    assert "data.path=/data/test.parquet -> data.train_files=/data/test.parquet" in warning
    assert "Write instead: python -m verl.trainer.main_generation_server trainer.nnodes=2" in warning
    assert warning.count("VerlCompatDeprecationWarning") == 1


def test_an_old_generation_override_without_an_equivalent_stops_before_anything_starts():
    needs_missing("verl.trainer.main_generation")
    argv = ["-m", "verl.trainer.main_generation", *OLD_GENERATION, "rollout.top_k=20", "ray_kwargs.ray_init.num_cpus=8"]
    result = fresh(argv, check=False)
    assert result.returncode == 1
    assert "verl-compat: python -m verl.trainer.main_generation was removed in verl 0.7.1 (verl#5382" in result.stderr
    assert "  rollout.top_k=20: main_generation_server does not send top_k" in result.stderr
    assert "  ray_kwargs.ray_init.num_cpus=8: " in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_the_old_sft_entry_point_stops_with_the_command_to_write():
    """verl's own examples/sft/gsm8k/run_qwen_05_sp2.sh at v0.7.0 (single-turn data)."""
    needs_missing("verl.trainer.fsdp_sft_trainer")
    argv = [
        "-m",
        "verl.trainer.fsdp_sft_trainer",
        "data.train_files=/d/train.parquet",
        "data.prompt_key=extra_info",
        "data.response_key=extra_info",
        "optim.lr=1e-4",
        "+data.prompt_dict_keys=['question']",
        "data.micro_batch_size=4",
        "model.partial_pretrain=Qwen/Qwen2.5-0.5B-Instruct",
        "trainer.total_epochs=1",
        "ulysses_sequence_parallel_size=2",
        "use_remove_padding=true",
    ]
    result = fresh(argv, check=False)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines[0].startswith(
        "verl-compat: python -m verl.trainer.fsdp_sft_trainer was removed in verl 0.7.1 (verl#5382 (4c8101dd2)); "
        "nothing was started."
    )
    assert "  model.partial_pretrain=Qwen/Qwen2.5-0.5B-Instruct -> model.path=Qwen/Qwen2.5-0.5B-Instruct" in lines
    assert "  ulysses_sequence_parallel_size=2 -> engine.ulysses_sequence_parallel_size=2" in lines
    assert any(line.startswith("  no equivalent: data.prompt_key=extra_info: single-turn") for line in lines)
    assert any(line.startswith("Write instead: torchrun ... -m verl.trainer.sft_trainer ") for line in lines)


def test_an_old_import_in_a_ray_actor_is_served_too():
    """Ray actors are fresh interpreters of this environment: auto-load reaches them as well."""
    needs_missing(OLD_MATH)
    code = f"""
        import ray
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)

        @ray.remote
        def old_import():
            import {OLD_MATH} as old, {OLD_MATH}_reward as new
            return old is new

        print(ray.get(old_import.remote()))
        ray.shutdown()
    """
    result = run_python(code, drop=USER_SHELL + SHIM_SETTINGS)
    assert result.stdout.strip().splitlines()[-1] == "True"
