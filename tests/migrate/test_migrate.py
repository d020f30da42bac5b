"""``verl-compat migrate`` on realistic launch scripts and YAML configs: golden outputs, refusals,
``--check`` / ``--diff``, atomic in-place writes, and the missing-dependency message."""

import os
import shutil
import stat
import sys
import textwrap
from pathlib import Path

import pytest
from paths import DOCS, REPO
from pyrun import run, run_python

from verl_compat import cli, migrate

pytestmark = pytest.mark.once

DATA = Path(__file__).parent / "data"
GOLDEN_INPUTS = sorted(path.name for path in DATA.iterdir() if path.is_file() and ".migrated." not in path.name)
# Extra arguments per golden input; the others derive the steps from trainer.total_training_steps.
GOLDEN_ARGS = {"legacy_last_line.sh": ["--steps", "2,4"]}
LEGACY_LINE = "actor_rollout_ref.actor.profiler.tool=torch_memory"


def golden_output(name: str) -> Path:
    stem, suffix = name.rsplit(".", 1)
    return DATA / f"{stem}.migrated.{suffix}"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def run_migrate(*args) -> int:
    return cli.main(["migrate", *map(str, args)])


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


def test_check_reports_without_writing(tmp_path, capsys):
    legacy = shutil.copy(DATA / "grpo_gsm8k_legacy.sh", tmp_path)
    migrated = shutil.copy(golden_output("overlay_legacy.yaml"), tmp_path)
    before = Path(legacy).read_bytes()

    assert run_migrate("--check", legacy, migrated) == 1
    assert Path(legacy).read_bytes() == before
    assert capsys.readouterr().err == f"would migrate {legacy}\n1 to migrate, 1 unchanged, 0 refused\n"
    assert run_migrate("--check", migrated) == 0


def test_check_passes_on_files_without_the_legacy_key(tmp_path):
    script = write(
        tmp_path,
        "nsys.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            global_profiler.tool=nsys \\
            global_profiler.steps=[1,2] \\
            actor_rollout_ref.actor.profiler.enable=True
        """,
    )
    config = write(tmp_path, "config.yaml", "global_profiler:\n  tool: torch\n  steps: [3]\n")
    assert run_migrate("--check", script, config) == 0


def test_diff_prints_a_unified_diff_and_writes_nothing(tmp_path, capsys):
    script = write(
        tmp_path,
        "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            actor_rollout_ref.actor.profiler.tool=torch_memory \\
            trainer.total_training_steps=2
        """,
    )
    before = script.read_text()

    assert run_migrate("--diff", script) == 0
    assert script.read_text() == before
    name = script.as_posix().lstrip("/")  # git's a/tmp/run.sh for /tmp/run.sh, not a//tmp/run.sh
    assert capsys.readouterr().out == textwrap.dedent(f"""\
        --- a/{name}
        +++ b/{name}
        @@ -1,3 +1,6 @@
         python3 -m verl.trainer.main_ppo \\
        -    actor_rollout_ref.actor.profiler.tool=torch_memory \\
        +    global_profiler.tool=torch_memory \\
        +    global_profiler.steps=[1,2] \\
        +    actor_rollout_ref.actor.profiler.enable=True \\
        +    actor_rollout_ref.actor.profiler.all_ranks=True \\
             trainer.total_training_steps=2
        """)
    assert run_migrate("--diff", "--check", script) == 1

    script.write_text(f"python3 -m verl.trainer.main_ppo {LEGACY_LINE} trainer.total_training_steps=1")
    capsys.readouterr()
    assert run_migrate("--diff", script) == 0
    assert capsys.readouterr().out.endswith("=1\n\\ No newline at end of file\n")


REFUSALS = {
    "no step count": (
        "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            trainer.total_epochs=15 \\
            actor_rollout_ref.actor.profiler.tool=torch_memory
        """,
        [3],
        "choose the steps with --steps",
    ),
    "step count only the shell knows": (
        "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            actor_rollout_ref.actor.profiler.tool=torch_memory \\
            trainer.total_training_steps=$STEPS
        """,
        [2, 3],
        "choose the steps with --steps",
    ),
    "different save paths": (
        "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            global_profiler.save_path=/data/profiles \\
            actor_rollout_ref.actor.profiler.tool=torch_memory \\
            actor_rollout_ref.actor.profiler.save_path=/scratch/mem \\
            trainer.total_training_steps=3
        """,
        [2, 4],
        "differ",
    ),
    "enable=False next to steps": (
        "overlay.yaml",
        """\
        global_profiler:
          tool: torch_memory
          steps: [1, 2]
        actor_rollout_ref:
          actor:
            profiler:
              enable: False  # on purpose?
        """,
        [3, 7],
        "turns the actor's profiler off",
    ),
    "another global tool": (
        "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            global_profiler.tool=nsys \\
            global_profiler.steps=[1] \\
            actor_rollout_ref.actor.profiler.tool=torch_memory
        """,
        [2, 4],
        "disagree",
    ),
    "two values for one key in one launch": (
        "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            trainer.total_training_steps=3 \\
            actor_rollout_ref.actor.profiler.tool=torch_memory \\
            trainer.total_training_steps=9
        """,
        [2, 4],
        "is set to 3 and to 9",
    ),
    "one array, two commands that need different steps": (
        "run.sh",
        """\
        PROFILE=(
            actor_rollout_ref.actor.profiler.tool=torch_memory
        )
        python3 -m verl.trainer.main_ppo "${PROFILE[@]}" trainer.total_training_steps=3
        python3 -m verl.trainer.main_ppo "${PROFILE[@]}" trainer.total_training_steps=5 trainer.seed=2
        """,
        [2, 4, 5],
        "expand the same bash array but need different edits",
    ),
    "a case arm without a step count": (
        "run.sh",
        """\
        case "$PROFILER" in
            nsys) PROFILE=(global_profiler.tool=nsys global_profiler.steps=[1]) ;;
            torch) PROFILE=(global_profiler.tool=torch global_profiler.steps=[1]) ;;
            memory) PROFILE=(actor_rollout_ref.actor.profiler.tool=torch_memory) ;;
        esac
        python3 -m verl.trainer.main_ppo "${PROFILE[@]}" trainer.total_epochs=2
        """,
        [4],
        "actor_rollout_ref.actor.profiler.tool=torch_memory without global_profiler.steps",
    ),
    "verl's own example: the global tool without steps": (
        # verl's examples/profile/run_qwen2_5_vl_7b_torch_memory.sh (0.8.0 and later), its profiler part.
        "run_qwen2_5_vl_7b_torch_memory.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            trainer.total_epochs=1 \\
            global_profiler.tool=torch_memory \\
            global_profiler.save_path=./mem_snapshots \\
            global_profiler.global_tool_config.torch_memory.trace_alloc_max_entries=100000 \\
            global_profiler.global_tool_config.torch_memory.stack_depth=32
        """,
        [3],
        "global_profiler.tool=torch_memory without global_profiler.steps means a snapshot after every step "
        "with verl-compat (verl alone dumps nothing), and the number of steps is not in this file: choose the "
        "steps with --steps, e.g. `verl-compat migrate --steps 1,2,3 FILE`",
    ),
    "a launch file that is not a shell script": (
        "launch.ipynb",
        """\
        {"cells": [{"cell_type": "code", "source": [
          "!python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.profiler.tool=torch_memory"]}]}
        """,
        [2],
        "not a shell script, YAML or Markdown",
    ),
    "legacy key inside a shell variable": (
        "run.sh",
        """\
        EXTRA="actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=3"
        python3 -m verl.trainer.main_ppo $EXTRA
        """,
        [1],
        "by hand",
    ),
    "enable from the environment": (
        "run.sh",
        """\
        python3 -m verl.trainer.main_ppo \\
            actor_rollout_ref.actor.profiler.tool=torch_memory \\
            actor_rollout_ref.actor.profiler.enable=${ENABLE:-False} \\
            trainer.total_training_steps=3
        """,
        [3],
        "comes from the shell",
    ),
    "flow-style YAML mapping": (
        "overlay.yaml",
        """\
        trainer: {total_training_steps: 2}
        actor_rollout_ref:
          actor:
            profiler: {tool: torch_memory}
        """,
        [4],
        "block-style",
    ),
    "YAML merge key where migrate reads keys": (
        "overlay.yaml",
        """\
        memory: &memory
          tool: torch_memory
        actor_rollout_ref:
          actor:
            profiler:
              <<: *memory
        trainer:
          total_training_steps: 2
        """,
        [6],
        "a merge key (<<) in actor_rollout_ref.actor.profiler",
    ),
    "YAML alias as a value migrate reads": (
        # Editing the value in place would edit the anchor, another key's value.
        "overlay.yaml",
        """\
        tools:
          memory: &memory torch_memory
        actor_rollout_ref:
          actor:
            profiler:
              tool: *memory
        trainer:
          total_training_steps: 2
        """,
        [6],
        "takes its value from an alias",
    ),
}


@pytest.mark.parametrize("case", REFUSALS, ids=list(REFUSALS))
def test_refusal_names_the_lines_and_leaves_the_file(tmp_path, capsys, case):
    name, text, lines, reason = REFUSALS[case]
    path = write(tmp_path, name, text)
    before = path.read_bytes()

    assert run_migrate(path) == 2
    assert path.read_bytes() == before
    message = capsys.readouterr().err
    refusal, summary = message.splitlines()
    assert refusal.startswith(", ".join(f"{path}:{line}" for line in lines) + ": "), message
    assert reason in refusal and refusal.endswith("; not migrated")
    assert summary == "0 migrated, 0 unchanged, 1 refused"


def test_a_directory_is_every_script_yaml_and_markdown_file_below_it(tmp_path, capsys):
    """``verl-compat migrate --check DIR``: shell scripts (by suffix, or by a shebang naming a
    shell), YAML and Markdown files, and Python files for their imports only (a setting in a
    Python string is read where the file is named: tests/migrate/test_python_imports.py); other
    files and hidden directories (``.git``) left out."""
    legacy = f"python3 -m verl.trainer.main_ppo {LEGACY_LINE} trainer.total_training_steps=1\n"
    for name in ("a/run.sh", "a/b/launch", "a/job.sbatch", "c/overlay.yaml", "d/README.md", ".git/hooks/x.sh"):
        write(tmp_path, name, "#!/bin/bash\n" + legacy if name in ("a/b/launch", "a/job.sbatch") else legacy)
    write(tmp_path, "e/notes.txt", legacy)
    write(tmp_path, "e/tool.py", f"ARGS = ['{LEGACY_LINE}']\n")
    (tmp_path / "d" / "README.md").write_text(f"```bash\n{legacy}```\n")
    (tmp_path / "c" / "overlay.yaml").write_text("trainer:\n  total_epochs: 1\n")

    assert run_migrate("--check", tmp_path) == 1
    err = capsys.readouterr().err
    assert sorted(line.split(str(tmp_path))[1] for line in err.splitlines()[:-1]) == [
        "/a/b/launch",
        "/a/job.sbatch",
        "/a/run.sh",
        "/d/README.md",
    ]
    assert err.endswith("4 to migrate, 2 unchanged, 0 refused\n")


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


def test_refused_and_unreadable_files_do_not_stop_the_others(tmp_path, capsys):
    refused = write(tmp_path, "refused.sh", f"python3 -m verl.trainer.main_ppo {LEGACY_LINE}\n")
    broken = write(tmp_path, "broken.yaml", "actor_rollout_ref: {profiler: {tool: torch_memory}\n")
    good = write(
        tmp_path, "good.sh", f"python3 -m verl.trainer.main_ppo {LEGACY_LINE} trainer.total_training_steps=1\n"
    )

    assert run_migrate(tmp_path / "missing.sh", refused, broken, good) == 2
    assert LEGACY_LINE not in good.read_text()
    err = capsys.readouterr().err
    assert err.endswith("\n1 migrated, 0 unchanged, 3 refused\n")
    assert f"{tmp_path / 'missing.sh'}: cannot read: " in err
    assert f"{broken}: cannot read: " in err
    assert f"{refused}:1: " in err
    assert f"migrated {good}" in err


def test_steps_option_wins_over_the_total_and_accepts_both_spellings(tmp_path):
    for spelling in ("1,3", "[1,3]"):
        script = write(
            tmp_path, "run.sh", f"python3 -m verl.trainer.main_ppo {LEGACY_LINE} trainer.total_training_steps=9\n"
        )
        assert run_migrate("--steps", spelling, script) == 0
        assert "global_profiler.steps=[1,3]" in script.read_text()


@pytest.mark.parametrize("steps", ["", "0,1", "a,b", "1,,2"])
def test_bad_steps_option_is_a_usage_error(tmp_path, steps):
    with pytest.raises(SystemExit) as exit_info:
        run_migrate("--steps", steps, tmp_path / "run.sh")
    assert exit_info.value.code == 2


def test_in_place_write_keeps_mode_line_endings_and_symlinks(tmp_path):
    real = tmp_path / "real.sh"
    real.write_bytes(
        f"python3 -m verl.trainer.main_ppo \\\r\n  {LEGACY_LINE} \\\r\n  trainer.total_training_steps=1\r\n".encode()
    )
    real.chmod(0o750)
    link = tmp_path / "link.sh"
    link.symlink_to(real)

    assert run_migrate(link) == 0
    assert link.is_symlink() and stat.S_IMODE(real.stat().st_mode) == 0o750
    assert real.read_bytes().count(b"\r\n") == 6 and b"\n" not in real.read_bytes().replace(b"\r\n", b"")
    assert sorted(os.listdir(tmp_path)) == ["link.sh", "real.sh"], "no temporary file left behind"


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


def test_console_script_and_module_entry_point(tmp_path):
    script = write(tmp_path, "run.sh", f"python3 -m verl.trainer.main_ppo {LEGACY_LINE}\n")
    console = Path(sys.executable).with_name("verl-compat")
    for command in ([str(console)], [sys.executable, "-m", "verl_compat"]):
        done = run([*command, "migrate", "--check", "--steps", "1", script], cwd=tmp_path, check=False)
        assert (done.returncode, done.stderr) == (1, f"would migrate {script}\n1 to migrate, 0 unchanged, 0 refused\n")


@pytest.mark.parametrize(
    "package, name, text",
    [
        ("ruamel", "x.yaml", "global_profiler:\n  tool: torch_memory\n"),
        ("tree_sitter_bash", "x.sh", f"python3 -m verl.trainer.main_ppo {LEGACY_LINE}\n"),
    ],
)
def test_missing_dependency_is_one_line_and_exit_2(tmp_path, package, name, text):
    """ruamel.yaml and tree-sitter-bash are the optional extra: without one, a pointer to the extra,
    not a traceback, once a file needs it (a file with nothing to migrate needs none of them)."""
    (tmp_path / name).write_text(text)
    block = textwrap.dedent(f"""\
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] == {package!r}:
                    raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        sys.meta_path.insert(0, Block())
        from verl_compat import cli
        sys.exit(cli.main(["migrate", "--check", sys.argv[1]]))
        """)
    done = run_python(block, tmp_path / name, cwd=tmp_path, check=False)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "pip install 'verl-compat[migrate]'" in done.stderr, done.stderr


def test_pre_commit_hook_checks_shell_yaml_and_python():
    from ruamel.yaml import YAML

    (hook,) = YAML(typ="safe").load(REPO / ".pre-commit-hooks.yaml")
    assert hook["id"] == "verl-compat-migrate"
    assert hook["entry"] == "verl-compat migrate --check"
    assert hook["language"] == "python" and set(hook["types_or"]) == {"shell", "yaml", "python"}
    assert any(dependency.startswith("libcst") for dependency in hook["additional_dependencies"])


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


def test_help_is_plain_text_with_exit_codes_and_an_example(capsys):
    with pytest.raises(SystemExit) as exit_info:
        run_migrate("--help")
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    assert "``" not in text and ":ref:" not in text
    assert "exit status:\n  0  nothing left to migrate" in text
    assert "  2  a file was refused" in text
    assert "verl-compat migrate --steps 1,5,10 run_profile.sh" in text
    assert "\n  torch_memory: The legacy actor_rollout_ref.actor.profiler.tool=torch_memory" in text, "the rules"


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


REFUSED = sorted(path.name for path in (DATA / "refused").iterdir())


@pytest.mark.parametrize("name", REFUSED)
def test_a_launch_migrate_cannot_read_with_certainty_is_refused_naming_the_line(tmp_path, capsys, name):
    """Each script under refused/ ends with ``# expected: LINES: REASON``: exit 2, those lines
    named, the file left as it was; never a clean exit with the launch left unmigrated."""
    path = Path(shutil.copy(DATA / "refused" / name, tmp_path))
    before = path.read_bytes()
    lines, reason = path.read_text().rsplit("# expected: ", 1)[1].strip().split(": ", 1)

    assert run_migrate("--check", path) == 2
    assert run_migrate(path) == 2
    assert path.read_bytes() == before
    refusal = capsys.readouterr().err.splitlines()[0]
    where = ", ".join(f"{path}:{line}" for line in lines.split(", "))
    assert refusal.startswith(f"{where}: ") and reason in refusal, refusal


def test_a_legacy_key_in_a_here_document_that_is_not_only_printed_is_refused(tmp_path, capsys):
    script = write(
        tmp_path,
        "submit.sh",
        f"""\
        cat > job.sh <<EOF
        python3 -m verl.trainer.main_ppo {LEGACY_LINE} trainer.total_training_steps=2
        EOF
        sbatch job.sh
        """,
    )
    assert run_migrate("--check", script) == 2
    assert capsys.readouterr().err.startswith(f"{script}:2: ")


VERL_EXAMPLE = DATA / "vendored" / "run_qwen2_5_vl_7b_torch_memory.sh"
IGNORE_MARKER = "# verl-compat: ignore"


def test_verl_own_example_is_refused_and_the_ignore_marker_lets_it_through(tmp_path, capsys):
    """verl's examples/profile/run_qwen2_5_vl_7b_torch_memory.sh (0.8.0 and later) sets
    ``global_profiler.tool=torch_memory`` without steps or a step count: refused. A
    ``# verl-compat: ignore`` comment on the line (or right above the command) leaves it alone."""
    path = shutil.copy(VERL_EXAMPLE, tmp_path)
    assert run_migrate("--check", path) == 2
    assert f"{path}:108: global_profiler.tool=torch_memory without global_profiler.steps" in capsys.readouterr().err

    text = Path(path).read_text()
    tool, launch = "global_profiler.tool=torch_memory\n", '"${LAUNCH[@]}" -m verl.trainer.main_ppo'
    marked = text.replace(tool, f"{tool[:-1]}  {IGNORE_MARKER}\n")
    above = text.replace(launch, f"{IGNORE_MARKER}\n{launch}")
    for variant in (marked, above):
        assert variant != text
        Path(path).write_text(variant)
        assert run_migrate("--check", path) == 0
    assert capsys.readouterr().err == "0 to migrate, 1 unchanged, 0 refused\n" * 2


def test_pre_commit_exclude_documented_for_a_vendored_verl_tree(tmp_path, capsys):
    """docs/migrate.md's hook entry excludes a vendored verl tree with pre-commit's ``exclude``
    (a regex pre-commit searches each path with): verl's own example is not checked, the team's own
    scripts still are, and a refusal in them still fails the hook."""
    import re

    from ruamel.yaml import YAML

    docs = (DOCS / "migrate.md").read_text()
    snippet = re.search(r"```yaml\n(- repo: <verl-compat repository>.*?exclude:.*?)```", docs, re.DOTALL).group(1)
    (hook,) = YAML(typ="safe").load(snippet)[0]["hooks"]
    vendored = tmp_path / "third_party" / "verl" / "examples" / "profile" / VERL_EXAMPLE.name
    vendored.parent.mkdir(parents=True)
    shutil.copy(VERL_EXAMPLE, vendored)
    own = write(tmp_path, "scripts/run_profile.sh", f"python3 -m verl.trainer.main_ppo {LEGACY_LINE}\n")
    relative = {path: path.relative_to(tmp_path).as_posix() for path in (vendored, own)}
    checked = [path for path, name in relative.items() if not re.search(hook["exclude"], name)]

    assert checked == [own]
    assert run_migrate("--check", *checked) == 2
    assert capsys.readouterr().err.startswith(f"{own}:1: ")


@pytest.fixture
def fix_modules(monkeypatch):
    """Registers extra fix modules (from tests/support) the way a contributor would: one more name
    in the registry. migrate's rule discovery reads the registry through ``rulebook.fix_modules``."""
    from verl_compat.migrate import rulebook

    def register(*names):
        registered = (*rulebook.fix_modules(), *names)
        monkeypatch.setattr(rulebook, "fix_modules", lambda: registered)
        rulebook.rules.cache_clear()
        rulebook.defaults.cache_clear()

    yield register
    rulebook.rules.cache_clear()
    rulebook.defaults.cache_clear()


def test_a_fix_adds_its_rules_without_touching_migrate(tmp_path, fix_modules):
    """tests/support/renamed_key_fix has only a migrate_rules module (a renamed and a removed key):
    registered, its rule runs next to torch_memory's on the same launch and YAML file."""
    fix_modules("renamed_key_fix")
    script = write(
        tmp_path,
        "run.sh",
        f"""\
        python3 -m verl.trainer.main_ppo \\
            trainer.old_total_steps=3 \\
            trainer.obsolete_flag=True \\
            {LEGACY_LINE}
        """,
    )
    overlay = write(
        tmp_path,
        "overlay.yaml",
        """\
        trainer:
          old_total_steps: 3  # three steps
          obsolete_flag: true
        """,
    )
    assert run_migrate("--steps", "1,3", script, overlay) == 0
    assert script.read_text() == textwrap.dedent("""\
        python3 -m verl.trainer.main_ppo \\
            trainer.total_training_steps=3 \\
            global_profiler.tool=torch_memory \\
            global_profiler.steps=[1,3] \\
            actor_rollout_ref.actor.profiler.enable=True \\
            actor_rollout_ref.actor.profiler.all_ranks=True
        """)
    assert overlay.read_text() == "trainer:\n  total_training_steps: 3  # three steps\n"
    assert run_migrate("--check", script, overlay) == 0


def test_a_fix_whose_rules_cannot_load_stops_migrate_with_one_line(tmp_path, capsys, fix_modules):
    fix_modules("broken_rules_fix")
    script = write(tmp_path, "run.sh", "python3 -m verl.trainer.main_ppo trainer.total_epochs=1\n")

    assert run_migrate("--check", script) == 2
    assert capsys.readouterr().err == (
        "verl-compat migrate: cannot load the migrate rules of broken_rules_fix (RuntimeError: broken on purpose)\n"
    )


def test_a_file_with_nothing_to_migrate_imports_none_of_the_parsers(tmp_path):
    """What keeps ``--check`` on one file cheap (a pre-commit hook): the parsers (Hydra's, ruamel.yaml,
    bash's grammar) load only once a file mentions a rule's setting; ``import verl_compat`` loads none."""
    script = write(tmp_path, "run.sh", "python3 -m verl.trainer.main_ppo global_profiler.tool=nsys\n")
    block = textwrap.dedent("""\
        import sys
        import verl_compat
        parsers = {"hydra", "ruamel", "omegaconf", "tree_sitter", "tree_sitter_bash"}
        imported = sorted({name.split(".")[0] for name in sys.modules} & parsers)
        from verl_compat import cli
        status = cli.main(["migrate", "--check", sys.argv[1]])
        print(imported, status, sorted({name.split(".")[0] for name in sys.modules} & parsers))
        """)
    assert run_python(block, script, cwd=tmp_path).stdout == "[] 0 []\n"


def test_a_script_is_read_with_bash_grammar_only_once_it_needs_reading(tmp_path):
    script = write(tmp_path, "run.sh", f"python3 -m verl.trainer.main_ppo {LEGACY_LINE}\n")
    block = textwrap.dedent("""\
        import sys
        from verl_compat import cli
        status = cli.main(["migrate", "--check", "--steps", "1", sys.argv[1]])
        print(status, sorted({name.split(".")[0] for name in sys.modules} & {"tree_sitter", "tree_sitter_bash"}))
        """)
    assert run_python(block, script, cwd=tmp_path).stdout == "1 ['tree_sitter', 'tree_sitter_bash']\n"
