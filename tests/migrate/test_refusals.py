"""``verl-compat migrate`` refuses rather than guesses: the refusal names the lines and leaves the
file as it was, a launch it cannot read with certainty is refused naming the line, and the ignore
marker and the pre-commit exclude let verl's own vendored examples through."""

import re
import shutil
from pathlib import Path

import pytest
from migrate_cases import DATA, LEGACY_LINE, REFUSALS, run_migrate, write
from paths import DOCS

pytestmark = pytest.mark.once


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
