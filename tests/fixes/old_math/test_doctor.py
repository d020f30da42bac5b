"""doctor's ``math`` list on verl's own launches (``verl_own_launches.jsonl``: four records of
``verl-own.jsonl``, the launches of verl's own example scripts at their release tags), each with the
release it was written for declared, on the newest release.

The rows expected per launch are read from the research notes' tables for that release and script
(a GRPO or GAE launch on FSDP with verl's defaults), never from old_math's table.
"""

import json
from pathlib import Path

import pytest
from doctor_run import doctor_json

from verl_compat.fixes.old_math import releases

pytestmark = pytest.mark.once

LAUNCHES = [json.loads(line) for line in (Path(__file__).parent / "verl_own_launches.jsonl").read_text().splitlines()]

# tag, script -> the rows that apply, by verl's changes: token-mean (verl#6067), mini-batch order
# (<=0.6.0, verl#3605), the critic (GAE, verl#6067), the seed (<=0.6.0, verl#3815), epochs >= 2
# (<=0.6.1, verl#4156), validation grouping (<=0.5.0, verl#3280); the trainer (<=0.8.0, verl#6823).
# Each script sets total_epochs > 1. Token-mean and the critic are patched (their switch "set") where
# the launch has fixed micro-batches on FSDP, as these do.
EXPECTED = {
    ("v0.4.1", "examples/grpo_trainer/run_qwen2-7b.sh"): {
        "trainer.use_v1": "set",
        "data.seed": "set",
        "loss.token_mean": "set",
        "minibatch.order": "named",
        "data.epoch_order": "named",
        "val.grouping": "named",
    },
    ("v0.6.0", "examples/ppo_trainer/run_deepseek7b_llm.sh"): {
        "trainer.use_v1": "set",
        "data.seed": "set",
        "loss.token_mean": "set",
        "loss.critic": "set",
        "minibatch.order": "named",
        "data.epoch_order": "named",
    },
    ("v0.7.1", "examples/ppo_trainer/run_deepseek7b_llm.sh"): {
        "trainer.use_v1": "set",
        "loss.token_mean": "set",
        "loss.critic": "set",
    },
    ("v0.8.0", "examples/gpg_trainer/run_qwen3_8b_fsdp.sh"): {"trainer.use_v1": "set"},
}


@pytest.mark.parametrize("launch", LAUNCHES, ids=[f"{launch['tag']}:{launch['path']}" for launch in LAUNCHES])
def test_doctor_lists_the_math_of_verl_own_launch(shim, shim_warnings, capsys, launch):
    release = launch["tag"].removeprefix("v")
    _, report = doctor_json(*launch["overrides"], f"+{releases.DECLARE_KEY}={release}", capsys=capsys)
    found = report["config"]["fixes"]["old_math"]
    assert found["release"]["written_for"] == [release]
    assert found["release"]["source"] == f"declared by {releases.DECLARE_KEY}"
    assert (
        found["trainer"] == {"trainer": "legacy", "why": found["trainer"]["why"]}
        and "verl#6823" in found["trainer"]["why"]
    )
    assert {entry["row"]: entry["done"] for entry in found["math"]} == EXPECTED[(launch["tag"], launch["path"])]
    for entry in found["math"]:
        assert entry["verl_prs"] and all(isinstance(number, int) for number in entry["verl_prs"])
        assert entry["fate"] in ("restored", "patched", "stopped", "named") and entry["what"]
    assert shim_warnings() == []  # doctor only looks


def test_doctor_text_says_the_release_and_the_trainer(shim, capsys):
    import argparse

    from verl_compat import doctor

    parser = argparse.ArgumentParser()
    doctor.add_arguments(parser)
    doctor.run(parser.parse_args(["algorithm.adv_estimator=grpo", f"+{releases.DECLARE_KEY}=0.6.0"]))
    text = capsys.readouterr().out
    assert "old_math release" in text and "0.6.0 (declared by verl_compat.launch_release)" in text
    assert "trainer.use_v1" in text and "the legacy trainer" in text
    assert "data.seed=1 (data.seed, verl#3815)" in text


def test_doctor_on_an_undeclared_launch_gives_the_range(shim, capsys):
    _, report = doctor_json("algorithm.adv_estimator=grpo", capsys=capsys)
    found = report["config"]["fixes"]["old_math"]
    assert found["release"]["source"] == "inferred from the keys it sets"
    assert len(found["release"]["written_for"]) > 1


def test_doctor_infers_the_release_of_a_config_file_with_a_defaults_list(shim, capsys):
    """A file with its own defaults list (verl's own ``ppo_megatron_trainer.yaml`` here, as a recipe's
    config) is composed with Hydra's search path among the overrides: Hydra's setting, no release's
    key, so it does not keep the launch from being placed among the releases it composes on."""
    from verl_compat import probes

    megatron = probes.verl_config_dir() / "ppo_megatron_trainer.yaml"
    _, report = doctor_json("--config", str(megatron), "algorithm.adv_estimator=grpo", capsys=capsys)
    found = report["config"]["fixes"]["old_math"]
    assert found["release"]["source"] == "inferred from the keys it sets"
    assert len(found["release"]["written_for"]) > 1
    assert found["trainer"]["trainer"] == "legacy"
