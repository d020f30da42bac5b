"""``verl-compat migrate``: what it rewrites and what it leaves alone, byte for byte: golden outputs
of realistic launch scripts and YAML configs, run twice, both YAML readers, and the new-form and
non-torch_memory launches it must not touch."""

import shutil
import textwrap
from pathlib import Path

import pytest
from migrate_cases import DATA, GOLDEN_ARGS, GOLDEN_INPUTS, LEGACY_LINE, REFUSALS, golden_output, run_migrate, write

from verl_compat import migrate

pytestmark = pytest.mark.once


@pytest.mark.parametrize("name", GOLDEN_INPUTS)
def test_golden_in_place_then_idempotent(tmp_path, capsys, name):
    path = shutil.copy(DATA / name, tmp_path / name)
    expected = golden_output(name).read_bytes()  # bytes: line ends and non-UTF-8 bytes are kept too

    assert run_migrate(*GOLDEN_ARGS.get(name, []), path) == 0
    assert Path(path).read_bytes() == expected
    assert capsys.readouterr().err == f"migrated {path}\n1 migrated, 0 unchanged, 0 refused\n"

    assert run_migrate("--check", path) == 0, "a second run finds nothing left to migrate"
    assert run_migrate(path) == 0
    assert Path(path).read_bytes() == expected
    assert capsys.readouterr().err == "0 to migrate, 1 unchanged, 0 refused\n0 migrated, 1 unchanged, 0 refused\n"


def test_yaml_read_by_libyaml_and_by_ruamel_alone_gives_the_same_result(monkeypatch):
    """libyaml composes the documents (fast); where it is missing or cannot take a file, ruamel.yaml
    does: both read every YAML fixture to the same result."""
    from verl_compat.migrate import yaml_config

    names = [name for name in GOLDEN_INPUTS if name.endswith((".yaml", ".yml"))]
    refused = [textwrap.dedent(text) for name, text, _, _ in REFUSALS.values() if name.endswith(".yaml")]
    inputs = [(DATA / name).read_text() for name in names] + refused
    outcomes = [_outcome(text) for text in inputs]
    monkeypatch.setattr(yaml_config, "_compose_in_c", lambda text: None)
    assert [_outcome(text) for text in inputs] == outcomes
    assert outcomes[: len(names)] == [golden_output(name).read_text() for name in names]
    assert all(outcome.startswith("refused") for outcome in outcomes[len(names) :])


def _outcome(text: str) -> str:
    try:
        return migrate.migrate(text, "yaml")
    except migrate.Refused as refusal:
        return f"refused {refusal.lines} {refusal.message}"


def test_yaml_edits_keep_every_other_byte(tmp_path):
    """ruamel.yaml finds the nodes; only their lines change (a round-trip dump would turn verl's
    ``False`` into ``false`` and re-indent the sequences below)."""
    overlay = write(
        tmp_path,
        "overlay.yaml",
        """\
        defaults:
            - ppo_trainer   # four-space sequence indent
            - _self_
        data: {train_batch_size: 8}
        actor_rollout_ref:
          actor:
            use_dynamic_bsz: False
            profiler:
              tool: torch_memory
              all_ranks: no
        trainer:
          total_training_steps: 2
        """,
    )
    assert run_migrate(overlay) == 0
    assert overlay.read_text() == textwrap.dedent("""\
        defaults:
            - ppo_trainer   # four-space sequence indent
            - _self_
        data: {train_batch_size: 8}
        actor_rollout_ref:
          actor:
            use_dynamic_bsz: False
            profiler:
              all_ranks: True
              enable: True
        trainer:
          total_training_steps: 2
        global_profiler:
          tool: torch_memory
          steps: [1, 2]
        """)


def test_migrate_function_reports_nothing_to_do_by_returning_the_text():
    for text, kind in [
        ("python3 -m verl.trainer.main_ppo trainer.total_epochs=1\n", "shell"),
        ("", "yaml"),
        ("- a\n", "yaml"),
        ("- tool: torch_memory\n", "yaml"),
    ]:
        assert migrate.migrate(text, kind) == text


NOT_TORCH_MEMORY = {
    # verl's tests/special_e2e/run_ppo_trainer_megatron.sh, its profiler part: nsys in an array,
    # then npu on the NPU command (Hydra takes the last).
    "megatron.sh": """\
        PROFILE_ARGS=(global_profiler.tool=nsys global_profiler.steps=[1,2])
        python3 -m verl.trainer.main_ppo "${PROFILE_ARGS[@]}" \\
            global_profiler.tool=npu trainer.device=npu
        """,
    # verl's tests/special_e2e/run_ppo_trainer_veomni.sh shape: arrays and several commands.
    "veomni.sh": """\
        PROFILE=(global_profiler.tool=torch global_profiler.steps=[1])
        python3 -m verl.trainer.main_ppo "${PROFILE[@]}" trainer.seed=1
        python3 -m verl.trainer.main_ppo global_profiler.tool=nsys global_profiler.steps=[2]
        # actor_rollout_ref.actor.profiler.tool=torch_memory is served by verl-compat
        """,
    "exclusive.sh": """\
        if [ -n "$NPU" ]; then TOOL_ARGS=(global_profiler.tool=npu); else TOOL_ARGS=(global_profiler.tool=nsys); fi
        python3 -m verl.trainer.main_ppo "${TOOL_ARGS[@]}" global_profiler.tool=torch
        """,
    "tool_configs.yaml": """\
        global_profiler:
          tool: nsys  # torch_memory has its own block below
          global_tool_config:
            torch_memory:
              trace_alloc_max_entries: 100000
        """,
    "vllm.md": """\
        vLLM's rollout doesn't dump memory; `actor_rollout_ref.actor.profiler.tool=torch_memory` did.
        """,
}


def test_no_refusal_where_nothing_can_be_torch_memory(tmp_path, capsys):
    """Duplicate keys, arrays, several commands and contradicting arms are only a problem where a
    launch can get the torch_memory tool; here none can, so a pre-commit check passes."""
    paths = [write(tmp_path, name, text) for name, text in NOT_TORCH_MEMORY.items()]
    before = [path.read_bytes() for path in paths]

    assert run_migrate("--check", *paths) == 0
    assert run_migrate(*paths) == 0
    assert [path.read_bytes() for path in paths] == before
    assert capsys.readouterr().err == "0 to migrate, 5 unchanged, 0 refused\n0 migrated, 5 unchanged, 0 refused\n"


def test_new_form_scripts_and_usage_text_are_left_alone(tmp_path, capsys):
    """Already in the new form with steps from the shell (a third-party script), and usage text
    that names the legacy key (``echo``, ``printf``, a here-document for ``cat``): not launches,
    so nothing to migrate and nothing refused."""
    paths = [shutil.copy(path, tmp_path) for path in sorted((DATA / "unchanged").iterdir())]
    before = [Path(path).read_bytes() for path in paths]

    assert run_migrate("--check", *paths) == 0
    assert [Path(path).read_bytes() for path in paths] == before
    assert capsys.readouterr().err == f"0 to migrate, {len(paths)} unchanged, 0 refused\n"


def test_a_shift_is_not_a_here_document(tmp_path):
    script = write(
        tmp_path,
        "run.sh",
        f"""\
        STEPS=$((1 << 1))
        python3 -m verl.trainer.main_ppo {LEGACY_LINE} trainer.total_training_steps=2
        """,
    )
    assert run_migrate(script) == 0
    assert "global_profiler.steps=[1,2]" in script.read_text()
