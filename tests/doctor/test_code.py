"""``verl-compat doctor --code``: the verl imports of a user's own files, read without importing them,
and what each comes to on the installed verl, with the exit status when one fails at import.

The paths are ones every release of the suite (0.6.1 on) lacks in the same way, so the expectations
hold in each: ``verl.trainer.ppo.ray_trainer.Worker`` and ``verl.utils.reward_score.math`` moved in
0.6.0, ``verl.single_controller.base.decorator.dispatch_megatron_compute`` and
``verl.workers.rollout.async_server`` were removed in 0.6.0, ``verl.trainer.ppo.mismatch_helper``
replaced in 0.6.1. One subprocess runs doctor for every
argument list (verl is imported once)."""

import json
import textwrap

import pytest
from pyrun import SHIM_SETTINGS, run_python

TRAINER = """\
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer, Worker
    import verl.utils.reward_score.math as math_score

    try:
        from verl.single_controller.base.decorator import dispatch_megatron_compute
    except ImportError:  # old code that falls back
        dispatch_megatron_compute = None


    class MyTrainer(RayPPOTrainer):
        def helper(self):
            from verl.trainer.ppo import mismatch_helper

            return mismatch_helper
    """
ROLLOUT = """\
    import verl.workers.rollout.async_server
    """
REWARD = """\
    from verl.utils.reward_score import math


    def compute_score(data_source, solution_str, ground_truth, extra_info=None):
        return math.compute_score(solution_str, ground_truth)
    """

DRIVER = """
import contextlib, io, json, os, sys
from verl_compat import cli

results = []
for env, argv in json.loads(sys.argv[1]):
    os.environ.update(env)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["doctor", *argv])
    results.append({"exit_code": code, "stdout": out.getvalue(), "stderr": err.getvalue()})
sys.__stdout__.write(json.dumps(results))
"""


def reward_key() -> str:
    """Where the composed config holds the reward function's path: config_keys moves the legacy
    ``custom_reward_function.path`` into ``reward.*`` where verl's main_ppo no longer migrates it
    (0.9); 0.7.1/0.8.0 migrate it in main() itself, after composition."""
    from verl_config import verl_compose

    from verl_compat.fixes.config_keys import readers

    moves = "reward" in verl_compose([]) and not readers.calls("trainer/main_ppo.py", "migrate_legacy_reward_impl")
    return "reward.custom_reward_function.path" if moves else "custom_reward_function.path"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tree = tmp_path_factory.mktemp("code")
    for name, text in {"recipe/trainer.py": TRAINER, "rollout/server.py": ROLLOUT, "my_reward.py": REWARD}.items():
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text(textwrap.dedent(text))
    (tree / "recipe" / "broken.py").write_text("def (\n")
    reward = ["custom_reward_function.path=my_reward.py", "custom_reward_function.name=compute_score"]
    runs = {
        "all": ({}, ["--json", *reward, "--code", "recipe", "rollout"]),
        "text": ({}, [*reward, "--code", "recipe", "rollout"]),
        "healthy": ({}, ["--json", *reward, "--code", "recipe/trainer.py"]),
        "missing": ({}, ["--code", "no_such_dir"]),
        "disabled": ({"VERL_COMPAT_DISABLED_FIXES": "old_imports"}, ["--json", "--code", "recipe/trainer.py"]),
    }
    result = run_python(DRIVER, json.dumps(list(runs.values())), cwd=tree, drop=SHIM_SETTINGS)
    outputs = dict(zip(runs, json.loads(result.stdout), strict=True))
    for output in outputs.values():
        if output["stdout"].startswith("{"):
            output["report"] = json.loads(output["stdout"])
    return outputs


def _imports(report) -> dict:
    """``(file, line, statement) -> entry`` of the fix that answers for verl imports."""
    (answer,) = [entry for entry in report["code"]["fixes"].values() if "imports" in entry]
    return {(entry["file"], entry["line"], entry["statement"]): entry for entry in answer["imports"]}


def test_each_import_and_its_fate(runs):
    found = _imports(runs["all"]["report"])
    fates = {key: (entry["fate"], entry["scope"], entry["guarded"]) for key, entry in found.items()}
    assert fates == {
        ("my_reward.py", 1, "from verl.utils.reward_score import math"): ("moved", "module", False),
        ("recipe/trainer.py", 1, "from verl.trainer.ppo.ray_trainer import RayPPOTrainer"): (
            "resolves",
            "module",
            False,
        ),
        ("recipe/trainer.py", 1, "from verl.trainer.ppo.ray_trainer import Worker"): ("moved", "module", False),
        ("recipe/trainer.py", 2, "import verl.utils.reward_score.math"): ("moved", "module", False),
        ("recipe/trainer.py", 5, "from verl.single_controller.base.decorator import dispatch_megatron_compute"): (
            "removed",
            "module",
            True,
        ),
        ("recipe/trainer.py", 12, "from verl.trainer.ppo import mismatch_helper"): ("replaced", "function", False),
        ("rollout/server.py", 1, "import verl.workers.rollout.async_server"): ("removed", "module", False),
    }
    worker = found["recipe/trainer.py", 1, "from verl.trainer.ppo.ray_trainer import Worker"]
    assert worker["instead"] == "from verl.single_controller.base import Worker"
    assert found["my_reward.py", 1, "from verl.utils.reward_score import math"]["instead"] == (
        "from verl.utils.reward_score import math_reward"
    )
    removed = found["rollout/server.py", 1, "import verl.workers.rollout.async_server"]["message"]
    assert removed.startswith("verl-compat: verl.workers.rollout.async_server was removed in verl 0.6.0 (verl#")


def test_a_failing_import_is_a_problem_unless_guarded(runs):
    report = runs["all"]["report"]
    assert report["exit_code"] == 4
    code_problems = [p["reason"] for p in report["problems"] if p["reason"].startswith(("recipe/", "rollout/"))]
    assert [reason.split(":")[0] + ":" + reason.split(":")[1] for reason in code_problems] == [
        "recipe/trainer.py:12",
        "rollout/server.py:1",
    ]
    assert "dispatch_megatron_compute" not in " ".join(code_problems), "a guarded import falls back on purpose"
    assert runs["healthy"]["report"]["exit_code"] == 4, "the replaced import in a function fails when it runs"


def test_files_config_path_and_unreadable_files(runs):
    code = runs["all"]["report"]["code"]
    assert code["source"] == f"recipe, rollout, {reward_key()} my_reward.py"
    assert code["files"] == ["recipe/broken.py", "recipe/trainer.py", "rollout/server.py", "my_reward.py"]
    assert [entry["file"] for entry in code["unreadable"]] == ["recipe/broken.py"]
    assert code["unreadable"][0]["error"].startswith("SyntaxError")


def test_text_report(runs):
    text = runs["text"]["stdout"]
    section = text[text.index("code: ") :].split("\n\n")[0].splitlines()
    assert section[0] == f"code: recipe, rollout, {reward_key()} my_reward.py (4 files)"
    assert "7 verl imports: 1 resolves, 3 moved, 1 replaced, 2 removed" in section[1]
    assert any("write instead: from verl.single_controller.base import Worker" in line for line in section)
    assert any(
        "import dispatch_megatron_compute: removed: fails, and its try block's except clause runs" in line
        for line in section
    )
    assert any("mismatch_helper: replaced (in a function): fails when the function runs" in line for line in section)
    assert any(
        line.split()[0] == "recipe/broken.py" and "unreadable, its imports unknown: SyntaxError" in line
        for line in section
    )
    assert runs["text"]["exit_code"] == 4


def test_a_missing_path_is_bad_input(runs):
    assert runs["missing"]["exit_code"] == 2
    assert runs["missing"]["stderr"].strip() == "verl-compat doctor: --code no_such_dir: no such file or folder"


def test_moved_imports_need_the_fix(runs):
    report = runs["disabled"]["report"]
    reasons = [p["reason"] for p in report["problems"] if p["exit_code"] == 5]
    assert reasons == ["the code needs old_imports, but VERL_COMPAT_DISABLED_FIXES turns it off"]
    assert report["exit_code"] == 5, "with the fix off, what it cannot do is not the question"


def test_a_fix_without_describe_code_leaves_the_others_answering(monkeypatch, tmp_path):
    """The throwaway fix (tests/support/throwaway_fix.py) has no describe_code: doctor asks the
    fixes that have it, and lists no entry for it."""
    from verl_compat import doctor, registry
    from verl_compat.doctor import code

    monkeypatch.setattr(registry, "FIX_MODULES", (*registry.FIX_MODULES, "throwaway_fix"))
    (tmp_path / "a.py").write_text("from verl.trainer.ppo.ray_trainer import Worker\n")
    report = doctor.collect(None, code=code.read([str(tmp_path / "a.py")]))
    assert "throwaway" not in report["code"]["fixes"]
    assert [entry["fate"] for entry in _imports(report).values()] == ["moved"]
