"""The old entry points' overrides in their successors' terms (``entry_points.translate_*``), against a
made-up installed config: the pure part of ``python -m verl.trainer.main_generation`` and
``python -m verl.trainer.fsdp_sft_trainer``. No verl needed."""

import pytest

from verl_compat.fixes.old_imports import entry_points

pytestmark = pytest.mark.once

# The part of verl 0.9.1's ppo_trainer that the translation reads (values as Hydra composes them).
PPO_TRAINER = {
    "trainer": {"nnodes": 1, "n_gpus_per_node": 8, "device": "cuda"},
    "data": {"train_files": "~/data/rlhf/gsm8k/train.parquet", "prompt_key": "prompt"},
    "actor_rollout_ref": {
        "model": {"path": "~/models/deepseek-llm-7b-chat", "trust_remote_code": False, "external_lib": None},
        "rollout": {
            "name": "???",
            "mode": "async",
            "n": 1,
            "temperature": 1.0,
            "top_k": -1,
            "top_p": 1,
            "prompt_length": 512,
            "response_length": 512,
            "dtype": "bfloat16",
            "gpu_memory_utilization": 0.5,
            "ignore_eos": False,
            "enforce_eager": False,
            "free_cache_engine": True,
            "load_format": "dummy",
            "tensor_model_parallel_size": 2,
            "data_parallel_size": 1,
            "max_num_batched_tokens": 8192,
            "max_model_len": None,
            "max_num_seqs": 256,
            "do_sample": True,
            "disable_log_stats": True,
            "enable_chunked_prefill": True,
            "calculate_log_probs": True,
        },
    },
}

# verl's own examples/generation/run_deepseek7b_mutli_node.sh at v0.7.0.
OLD_SCRIPT = [
    "trainer.nnodes=2",
    "trainer.n_gpus_per_node=8",
    "data.path=/d/test.parquet",
    "data.prompt_key=prompt",
    "data.n_samples=1",
    "data.output_path=/d/out.parquet",
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


def test_verl_own_old_generation_script_translates_as_verl_translated_it():
    """What verl's own examples/generation/run_deepseek_llm_7b.sh (main) writes by hand, plus the old
    script's defaults this verl changed (load_format was auto: real weights; rollout.name had one)."""
    out = entry_points.translate_generation([*OLD_SCRIPT, "--cfg", "job"], PPO_TRAINER)
    assert out.problems == []
    assert out.args == [
        "trainer.nnodes=2",
        "trainer.n_gpus_per_node=8",
        "data.train_files=/d/test.parquet",
        "data.prompt_key=prompt",
        "actor_rollout_ref.rollout.n=1",
        "+data.output_path=/d/out.parquet",
        "actor_rollout_ref.model.path=deepseek-ai/deepseek-llm-7b-chat",
        "actor_rollout_ref.model.trust_remote_code=True",
        "actor_rollout_ref.rollout.temperature=1.0",
        "actor_rollout_ref.rollout.top_k=50",
        "actor_rollout_ref.rollout.top_p=0.7",
        "actor_rollout_ref.rollout.prompt_length=2048",
        "actor_rollout_ref.rollout.response_length=1024",
        "actor_rollout_ref.rollout.tensor_model_parallel_size=16",
        "actor_rollout_ref.rollout.gpu_memory_utilization=0.8",
        "actor_rollout_ref.rollout.name=vllm",
        "actor_rollout_ref.rollout.enforce_eager=true",
        "actor_rollout_ref.rollout.load_format=auto",
        "actor_rollout_ref.rollout.max_num_seqs=1024",
        "actor_rollout_ref.rollout.calculate_log_probs=false",
        "--cfg",
        "job",
    ]
    assert "data.path=/d/test.parquet -> data.train_files=/d/test.parquet" in out.changes
    assert "trainer.nnodes=2 -> trainer.nnodes=2" not in out.changes  # unchanged keys are not listed
    assert out.notes == [entry_points.TOP_K_NOTE]
    message = entry_points.generation_message(out)
    assert "actor_rollout_ref.rollout.load_format=auto (the old script's default; this verl's differs)" in message
    assert message.splitlines()[-1].startswith("Write instead: python -m verl.trainer.main_generation_server ")


def test_old_defaults_are_kept_where_this_verl_changed_them():
    out = entry_points.translate_generation(["data.path=/d.parquet", "model.path=/m"], PPO_TRAINER)
    assert "actor_rollout_ref.rollout.n=5" in out.pinned  # data.n_samples was 5
    assert "actor_rollout_ref.rollout.top_p=0.7" in out.pinned
    assert "actor_rollout_ref.rollout.prompt_length=1536" in out.pinned
    assert "+data.output_path=/opt/tiger/math_Qwen2-7B-Instruct.parquet" in out.pinned
    assert not any(pin.startswith(("data.train_files", "actor_rollout_ref.model.path")) for pin in out.pinned)
    assert not any(pin.startswith("actor_rollout_ref.rollout.temperature") for pin in out.pinned)  # same default


def test_keys_without_an_equivalent_stop_and_are_named():
    without_equivalent = [
        "rollout.top_k=20",
        "rollout.n=4",
        "data.apply_chat_template_kwargs.x=1",
        "ray_kwargs.ray_init.num_cpus=8",
        "rollout.no_such_key=1",
        "--config-name=my_generation",
    ]
    out = entry_points.translate_generation([*OLD_SCRIPT[:4], *without_equivalent], PPO_TRAINER)
    problems = " | ".join(out.problems)
    for key in without_equivalent:
        assert key in problems


def test_ignored_keys_say_why():
    out = entry_points.translate_generation(
        ["data.batch_size=1024", "actor.fsdp_config.fsdp_size=-1", "rollout.n=1", "+rollout.extra=1"], PPO_TRAINER
    )
    assert [line.split(":")[0] for line in out.ignored] == [
        "data.batch_size=1024",
        "actor.fsdp_config.fsdp_size=-1",
        "rollout.n=1",
    ]
    assert "+actor_rollout_ref.rollout.extra=1" in out.args and out.problems == []


SFT_ENGINE = {
    "model": {"path": "~/models/x", "use_remove_padding": True, "lora_rank": 0},
    "engine": {"strategy": "fsdp", "ulysses_sequence_parallel_size": 1, "model_dtype": "fp32", "param_offload": False},
    "optim": {"lr": 0.001, "betas": [0.9, 0.999], "lr_warmup_steps_ratio": 0.0, "lr_scheduler_type": "constant"},
    "data": {"train_files": "x", "val_files": None, "micro_batch_size_per_gpu": 4, "messages_key": "messages"},
    "checkpoint": {"save_contents": ["model"]},
    "trainer": {"total_epochs": 4, "n_gpus_per_node": 1, "project_name": "p"},
}


def test_fsdp_sft_trainer_overrides_are_mapped_for_the_message():
    """verl's own examples/sft/gsm8k/run_qwen_05_peft.sh at v0.7.0, shortened."""
    out = entry_points.translate_sft(
        [
            "data.train_files=/t.parquet",
            "data.prompt_key=extra_info",
            "data.response_key=extra_info",
            "+data.prompt_dict_keys=['question']",
            "data.micro_batch_size_per_gpu=4",
            "model.partial_pretrain=Qwen/Qwen2.5-0.5B-Instruct",
            "model.lora_rank=32",
            "trainer.total_epochs=1",
            "model.fsdp_config.model_dtype=bf16",
            "ulysses_sequence_parallel_size=2",
        ],
        SFT_ENGINE,
    )
    assert out.changes == [
        "model.partial_pretrain=Qwen/Qwen2.5-0.5B-Instruct -> model.path=Qwen/Qwen2.5-0.5B-Instruct",
        "model.fsdp_config.model_dtype=bf16 -> engine.model_dtype=bf16",
        "ulysses_sequence_parallel_size=2 -> engine.ulysses_sequence_parallel_size=2",
    ]
    assert [problem.split(":")[0] for problem in out.problems] == [
        "data.prompt_key=extra_info",
        "data.response_key=extra_info",
        "+data.prompt_dict_keys=['question']",
    ]
    assert "optim.lr=1e-05 (this verl's default: 0.001)" in out.pinned
    assert "engine.strategy=fsdp2 (this verl's default: fsdp)" in out.pinned
    assert "model.use_remove_padding=false (this verl's default: true)" in out.pinned
    assert any("single-turn" in note for note in out.notes)
