"""Each ``restored`` row of old_math's table, on the newest release: the config verl composes for a
launch declared as written for an old release carries the keys that give back that release's
computation (real Hydra composition of verl's own config, through the compose API: the same
``ConfigLoaderImpl`` functions ``python -m verl.trainer.main_ppo`` composes with).

The expected values are the old releases' own (cited beside each case), never the shim's table read
back; a final test checks that every restored row has a case here.
"""

import pytest
from verl_config import verl_compose

from verl_compat.fixes.old_math import releases, table

pytestmark = pytest.mark.once

A, R, MT = table.A, table.R, table.MT
MEGATRON = "ppo_megatron_trainer"

# (row, release declared, config, overrides, {key: value the old release computed with})
CASES = [
    # v0.6.0 trainer/main_ppo.py:402 sampler seed `data_config.get("seed", 1)`
    ("data.seed", "0.6.0", "ppo_trainer", [], {"data.seed": 1}),
    # v0.7.0 core_algos.py:823 summed over the micro-batch's sequences / H: x ppo_micro_batch_size_per_gpu
    (
        "loss.dr_grpo",
        "0.7.0",
        "ppo_trainer",
        [
            f"{A}.loss_agg_mode=seq-mean-token-sum-norm",
            f"{A}.ppo_micro_batch_size_per_gpu=4",
            "data.max_response_length=1024",
        ],
        {f"{A}.loss_scale_factor": 256.0},
    ),
    # v0.9.0 core_algos.py:1604-1605: GSPO aggregates with "seq-mean-token-mean", whatever loss_agg_mode says
    (
        "loss.gspo",
        "0.9.0",
        "ppo_trainer",
        [f"{A}.policy_loss.loss_mode=gspo"],
        {f"{A}.loss_agg_mode": "seq-mean-token-mean"},
    ),
    # v0.6.1 vllm_rollout_spmd.py:352-370: do_sample=False -> greedy (temperature 0, top_p 1.0, top_k -1)
    (
        "val.do_sample",
        "0.6.1",
        "ppo_trainer",
        [f"{R}.val_kwargs.do_sample=False", f"{R}.val_kwargs.temperature=1.0", f"{R}.val_kwargs.top_p=0.7"],
        {f"{R}.val_kwargs.temperature": 0, f"{R}.val_kwargs.top_p": 1.0, f"{R}.val_kwargs.top_k": -1},
    ),
    # v0.7.1 dp_actor.py:548 / dp_critic.py: data.split, never shuffled
    ("actor.shuffle", "0.7.1", "ppo_trainer", [f"{A}.shuffle=true"], {f"{A}.shuffle": False}),
    ("critic.shuffle", "0.7.1", "ppo_trainer", ["critic.shuffle=true"], {"critic.shuffle": False}),
    # v0.7.1 fsdp_workers.py:657: lr_warmup_steps=0 -> no warm-up (the ratio only where it is < 0)
    (
        "actor.warmup_steps",
        "0.7.1",
        "ppo_trainer",
        [f"{A}.optim.lr_warmup_steps=0", f"{A}.optim.lr_warmup_steps_ratio=0.1"],
        {f"{A}.optim.lr_warmup_steps_ratio": 0.0},
    ),
    (
        "critic.warmup_steps",
        "0.7.1",
        "ppo_trainer",
        ["critic.optim.lr_warmup_steps=0", "critic.optim.lr_warmup_steps_ratio=0.1"],
        {"critic.optim.lr_warmup_steps_ratio": 0.0},
    ),
    # v0.6.1 experimental/agent_loop/agent_loop.py:333-343: the async agent loop sent no top_k (-1)
    ("rollout.top_k", "0.6.1", "ppo_trainer", [f"{R}.mode=async", f"{R}.top_k=50"], {f"{R}.top_k": -1}),
    # v0.7.1 core_algos.py:1181-1184: the legacy workers' agg_loss got no loss_scale_factor (None: H)
    ("loss.scale_factor", "0.7.1", "ppo_trainer", [f"{A}.loss_scale_factor=512"], {f"{A}.loss_scale_factor": None}),
    # v0.6.1 sync multi-turn: every sample through the tool loop, replies uncut, every call run
    (
        "multi_turn.agent_loop",
        "0.6.1",
        "ppo_trainer",
        [f"{MT}.enable=true", f"{MT}.tool_config_path=tools.yaml"],
        {f"{R}.agent.default_agent_loop": "tool_agent"},
    ),
    (
        "multi_turn.tool_response_length",
        "0.6.1",
        "ppo_trainer",
        [f"{MT}.enable=true"],
        {f"{MT}.max_tool_response_length": 2**31 - 1},
    ),
    (
        "multi_turn.parallel_calls",
        "0.6.1",
        "ppo_trainer",
        [f"{MT}.enable=true"],
        {f"{MT}.max_parallel_calls": 2**31 - 1},
    ),
    # v0.7.1 tool_agent_loop.py:451-454: "left" kept the head, "right" the tail
    (
        "multi_turn.truncate_left",
        "0.7.1",
        "ppo_trainer",
        [f"{MT}.tool_response_truncate_side=left"],
        {f"{MT}.tool_response_truncate_side": "right"},
    ),
    (
        "multi_turn.truncate_right",
        "0.7.1",
        "ppo_trainer",
        [f"{MT}.tool_response_truncate_side=right"],
        {f"{MT}.tool_response_truncate_side": "left"},
    ),
    # v0.4.1 ppo_megatron_trainer.yaml:82 lr_decay_style: linear (utils/megatron/optimizer.py:45-69)
    ("megatron.lr_decay", "0.4.1", MEGATRON, [], {f"{A}.optim.lr_decay_style": "linear"}),
    # v0.4.1 ppo_megatron_trainer.yaml:254,261: critic lr 1e-6, linear decay
    ("megatron.critic_lr", "0.4.1", MEGATRON, [], {"critic.optim.lr": 1e-6}),
    ("megatron.critic_lr_decay", "0.5.0", MEGATRON, [], {"critic.optim.lr_decay_style": "linear"}),
    # v0.4.0 megatron_workers.py:199-200: an optimizer, no LR scheduler: no warm-up
    (
        "megatron.warmup",
        "0.4.0",
        MEGATRON,
        [f"{A}.optim.lr_warmup_steps_ratio=0.1"],
        {f"{A}.optim.lr_warmup_steps_ratio": 0.0},
    ),
    # v0.8.0 main_ppo.py: RayPPOTrainer, the legacy trainer (no trainer.use_v1 key)
    ("trainer.use_v1", "0.8.0", "ppo_trainer", [], {"trainer.use_v1": False}),
]


def _select(config, key):
    from omegaconf import OmegaConf

    return OmegaConf.select(config, key)


@pytest.mark.parametrize(("row", "release", "name", "overrides", "expected"), CASES, ids=[c[0] for c in CASES])
def test_a_declared_old_launch_carries_the_restoring_keys(shim, shim_warnings, row, release, name, overrides, expected):
    # The installed verl's own answer first (the launch declared as written for it): it differs.
    without = verl_compose([*overrides, f"+{releases.DECLARE_KEY}={releases.releases()[-1]}"], name=name)
    assert any(_select(without, key) != value for key, value in expected.items()), "verl already computes it"
    config = verl_compose([*overrides, f"+{releases.DECLARE_KEY}={release}"], name=name)
    assert {key: _select(config, key) for key in expected} == expected
    assert "verl_compat" not in config  # the declaration is consumed: verl never sees it
    said = "trainer.use_v1=false: this launch" if row == "trainer.use_v1" else f"({row}, "
    warned = [text for text in shim_warnings() if said in text]
    assert warned, shim_warnings()


def test_every_restored_row_has_a_case():
    assert {row.name for row in table.ROWS if row.fate == "restored"} == {case[0] for case in CASES}


def test_a_key_the_launch_sets_is_never_overridden(shim, monkeypatch):
    """v0.4.1's Megatron GAE scripts set critic.optim.lr=1e-5 and still got the linear decay."""
    monkeypatch.setenv(releases.DECLARE_ENV, "0.4.1")
    config = verl_compose(["critic.optim.lr=1e-5"], name=MEGATRON)
    assert _select(config, "critic.optim.lr") == 1e-5
    assert _select(config, "critic.optim.lr_decay_style") == "linear"
