"""``verl-compat migrate`` on Python files: moved imports rewritten with libcst (formatting and comments
kept, names the file binds kept), removed ones named with exit 2, only files that need it parsed.

The engine is tested on a made-up package (``legacy_lib``) whose rule comes from a fix that exists
only in the test suite (tests/support/moved_import_fix): no verl needed, and the contract shows a fix
adding import rules without touching migrate. verl's own paths through old_imports' rule:
tests/migrate/data/recipe_imports.py (the golden files of test_rewrites.py) and
tests/fixes/old_imports/test_migrate_rules.py."""

import difflib
import shutil
import textwrap
import types
from pathlib import Path

import pytest
from pyrun import run_python

from verl_compat import cli
from verl_compat.migrate import python_imports, rulebook
from verl_compat.migrate_contract import ImportRule

pytestmark = pytest.mark.once

DATA = Path(__file__).parent / "data" / "python"
USER = DATA / "legacy_lib_user.py"
MIGRATED = DATA / "legacy_lib_user.migrated.py"
NAMED = {
    8: "legacy_lib: legacy_lib.old.Gone was removed in 2.0: do without it",
    12: "legacy_lib: legacy_lib.old_mod moved; not rewritten: this file refers to legacy_lib.old_mod by that name, "
    "so write import legacy_lib.new_mod and refer to legacy_lib.new_mod there",
}


@pytest.fixture
def legacy_lib(monkeypatch):
    """moved_import_fix registered next to verl-compat's own fixes, as migrate finds fixes."""
    registered = (*rulebook.fix_modules(), "moved_import_fix")
    monkeypatch.setattr(rulebook, "fix_modules", lambda: registered)
    for cached in (rulebook.rules, rulebook.import_rules, rulebook.defaults):
        cached.cache_clear()
    yield
    for cached in (rulebook.rules, rulebook.import_rules, rulebook.defaults):
        cached.cache_clear()


def run_migrate(*args) -> int:
    return cli.main(["migrate", *map(str, args)])


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def test_moved_imports_rewritten_removed_ones_named_then_idempotent(tmp_path, capsys, legacy_lib):
    path = Path(shutil.copy(USER, tmp_path))
    assert run_migrate(path) == 2
    assert path.read_text() == MIGRATED.read_text()
    err = capsys.readouterr().err
    assert err.splitlines() == [
        *(f"{path}:{line}: {message}" for line, message in NAMED.items()),
        f"migrated {path}, except what is named above",
        "0 migrated, 0 unchanged, 1 refused",
    ]
    assert run_migrate(path) == 2, "what is named stays named"
    assert path.read_text() == MIGRATED.read_text(), "a second run changes nothing"
    assert capsys.readouterr().err.splitlines()[-1] == "0 migrated, 0 unchanged, 1 refused"


def test_the_golden_file_keeps_every_other_byte():
    """Only the lines of the rewritten statements change: comments, blank lines, the relative import,
    the guarded import and the code stay as they were."""
    old, new = USER.read_text().splitlines(), MIGRATED.read_text().splitlines()
    removed = [line[2:] for line in difflib.ndiff(old, new) if line.startswith("- ")]
    assert removed == [
        "from legacy_lib.old import Kept, Moved, Renamed as R  # noqa: F401",
        "    Renamed,  # a class of its own now",
        "from legacy_lib import old_mod",
        "from legacy_lib.old_mod import *",
        "import legacy_lib.old_mod as mod",
        "    if json: from legacy_lib.old import Moved, Kept",
    ]


def test_check_and_diff_write_nothing(tmp_path, capsys, legacy_lib):
    moved = write(tmp_path, "moved.py", "from legacy_lib.old import Moved\n")
    named = Path(shutil.copy(USER, tmp_path))
    assert run_migrate("--check", moved) == 1
    assert run_migrate("--check", named) == 2
    assert run_migrate("--diff", moved) == 0
    assert moved.read_text() == "from legacy_lib.old import Moved\n" and named.read_text() == USER.read_text()
    out, err = capsys.readouterr()
    assert "-from legacy_lib.old import Moved\n+from legacy_lib.new import Moved\n" in out
    assert f"would migrate {named}, except what is named above" in err


@pytest.mark.parametrize(
    "source, expected",
    [
        (
            "from legacy_lib.old import Moved as M, Kept\n",
            "from legacy_lib.new import Moved as M\nfrom legacy_lib.old import Kept\n",
        ),
        ("from legacy_lib.old import Renamed\n", "from legacy_lib.other import NewName as Renamed\n"),
        ("from legacy_lib.old import Renamed as NewName\n", "from legacy_lib.other import NewName\n"),
        ("x = 1; from legacy_lib.old import Moved\n", "x = 1; from legacy_lib.new import Moved\n"),
        (
            "from legacy_lib.old import \\\n    Moved, Kept\n",
            "from legacy_lib.new import \\\n    Moved\nfrom legacy_lib.old import \\\n    Kept\n",
        ),
        (
            "class A:\n    from legacy_lib.old import (\n        Kept,  # k\n        Moved,  # m\n    )\n",
            "class A:\n    from legacy_lib.old import (\n        Kept,  # k\n    )\n    from legacy_lib.new import (\n"
            "        Moved,  # m\n    )\n",
        ),
        ("import legacy_lib.old_mod\n", "import legacy_lib.new_mod\n"),
        ("from legacy_lib import \\\n    old_mod\n", "from legacy_lib import \\\n    new_mod as old_mod\n"),
        ("from legacy_lib.old import Moved", "from legacy_lib.new import Moved"),  # no newline at the end
        ("from legacy_lib.util import Moved\n", "from legacy_lib.util import Moved\n"),  # a path no rule knows
    ],
    ids=[
        "alias",
        "renamed",
        "renamed-as-new",
        "semicolon",
        "continuation",
        "indented",
        "bare",
        "name-on-a-continuation-line",
        "no-eol",
        "unknown",
    ],
)
def test_forms(source, expected):
    from moved_import_fix.migrate_rules import RULES

    assert python_imports.migrate_python(source, RULES) == (expected, [])
    assert python_imports.migrate_python(expected, RULES) == (expected, []), "idempotent"


def test_a_file_no_rule_may_concern_is_not_parsed(monkeypatch):
    from moved_import_fix.migrate_rules import RULES

    def no_parse(*args, **kwargs):
        raise AssertionError("parsed")

    monkeypatch.setattr(python_imports, "ast", types.SimpleNamespace(parse=no_parse))
    RULES[0].asked.clear()
    for text in ("import os\n", "from legacy_lib.util import helper  # legacy_lib.tools\n", "x = 'legacy_lib'\n"):
        assert python_imports.migrate_python(text, RULES) == (text, [])
    assert RULES[0].asked == []


def test_libcst_is_imported_only_for_a_file_with_an_import_to_rewrite(tmp_path):
    plain = write(tmp_path, "plain.py", "import os\nfrom verl.protocol import DataProto\n")
    block = textwrap.dedent("""\
        import sys
        from verl_compat import cli
        status = cli.main(["migrate", "--check", sys.argv[1]])
        print(status, "libcst" in sys.modules)
        """)
    assert run_python(block, plain, cwd=tmp_path).stdout == "0 False\n"
    moved = write(tmp_path, "moved.py", "from verl.trainer.ppo.ray_trainer import Worker\n")  # moved in verl 0.6.0
    assert run_python(block, moved, cwd=tmp_path).stdout == "1 True\n"


def test_a_directory_reads_python_files_for_their_imports(tmp_path, capsys, legacy_lib):
    moved = write(tmp_path, "pkg/trainer.py", "from legacy_lib.old import Moved\n")
    gone = write(tmp_path, "pkg/reward.py", "import legacy_lib.gone_mod\n")
    write(tmp_path, "pkg/launch.py", "ARGS = ['actor_rollout_ref.actor.profiler.tool=torch_memory']\n")
    write(tmp_path, ".hidden/skipped.py", "from legacy_lib.old import Moved\n")
    write(tmp_path, "notes.txt", "from legacy_lib.old import Moved\n")
    assert run_migrate("--check", tmp_path) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{gone}:1: legacy_lib: legacy_lib.gone_mod was removed in 2.0: do without it",
        f"would migrate {moved}",
        "1 to migrate, 1 unchanged, 1 refused",
    ]


def test_a_setting_in_a_string_of_a_python_file_the_user_names_is_named(tmp_path, capsys):
    launcher = write(
        tmp_path,
        "launch.py",
        """\
        # actor_rollout_ref.actor.profiler.tool=torch_memory was the legacy key: a comment is no setting
        ARGS = ["actor_rollout_ref.actor.profiler.tool=torch_memory", "trainer.total_training_steps=2"]
        """,
    )
    assert run_migrate(launcher) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{launcher}:2: sets torch_memory in a Python file: migrate it by hand",
        "0 migrated, 0 unchanged, 1 refused",
    ]


def test_a_file_that_is_not_python_cannot_be_read(tmp_path, capsys, legacy_lib):
    broken = write(tmp_path, "broken.py", "from legacy_lib.old import (Moved\n")
    assert run_migrate(broken) == 2
    assert "cannot read: not Python" in capsys.readouterr().err


def test_an_import_rule_is_found_like_the_other_rules_and_listed_in_help(capsys, legacy_lib):
    names = [rule.name for rule in rulebook.import_rules()]
    assert names[-1] == "legacy_lib" and all(isinstance(rule, ImportRule) for rule in rulebook.import_rules())
    assert "legacy_lib" not in [rule.name for rule in rulebook.rules()], "config rules and import rules apart"
    with pytest.raises(SystemExit):
        cli.main(["migrate", "--help"])
    assert "legacy_lib: legacy_lib's moved names and modules, and its removed ones." in capsys.readouterr().out


def test_a_fix_without_import_rules_leaves_python_files_to_the_others(tmp_path, monkeypatch):
    """tests/support/renamed_key_fix offers config rules only: registered, migrate still reads the
    imports of Python files with every other fix's import rules."""
    registered = (*rulebook.fix_modules(), "renamed_key_fix")
    monkeypatch.setattr(rulebook, "fix_modules", lambda: registered)
    for cached in (rulebook.rules, rulebook.import_rules, rulebook.defaults):
        cached.cache_clear()
    try:
        assert "renamed_key" in [rule.name for rule in rulebook.rules()]
        assert "renamed_key" not in [rule.name for rule in rulebook.import_rules()]
        path = write(tmp_path, "plain.py", "import os\n")
        assert run_migrate("--check", path) == 0
    finally:
        for cached in (rulebook.rules, rulebook.import_rules, rulebook.defaults):
            cached.cache_clear()
