"""The ``verl-compat migrate`` command: ``--check`` / ``--diff``, folders, ``--steps``, atomic in-place
writes, the entry points and the pre-commit hook, the missing-dependency message, ``--help``, and
what it parses (nothing, for a file with nothing to migrate)."""

import os
import shutil
import stat
import sys
import textwrap
from pathlib import Path

import pytest
from migrate_cases import DATA, LEGACY_LINE, golden_output, run_migrate, write
from paths import REPO
from pyrun import run, run_python

pytestmark = pytest.mark.once


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
