"""`verl-compat doctor` as a user runs it: a subprocess of the installed package, per verl release.

Each subprocess that imports verl costs seconds, so the config variations share one process (the
CLI entry point called once per argument list, as ``python -m verl_compat`` calls it) and many
tests read its output. The runs without auto-load or without verl use ``python -S``: site-packages
(and its ``.pth``) is then not processed, and ``PYTHONPATH`` alone decides what is importable.
"""

import contextlib
import importlib.metadata
import json
import platform
from pathlib import Path

import pytest
from pyrun import SHIM_SETTINGS, run_argv, run_python

RELEASE = importlib.metadata.version("verl")
# What each release offers (read from its verl source): the oracle the reports are checked against.
# A release added to the test environments needs its row here.
RELEASES = {
    "0.6.1": {
        "probes": {
            "stop_profile_takes_run_command": False,
            "profiler_gated_by_enable": False,  # DistProfiler.start/stop always delegate before 0.7.1
            "memory_history_cleared_per_dump": False,
            "has_v1_trainer": False,
        },
        "v1_trainer": False,
        "loads_plugins": False,
        "fit_torch_memory": False,
        "stop": "actor_rollout_wg.stop_profile()",
    },
    "0.8.0": {
        "probes": {
            "stop_profile_takes_run_command": False,
            "profiler_gated_by_enable": True,
            "memory_history_cleared_per_dump": True,
            "has_v1_trainer": False,
        },
        "v1_trainer": False,
        "loads_plugins": False,
        "fit_torch_memory": False,
        "stop": "actor_rollout_wg.stop_profile()",
    },
    "0.7.1": {
        "probes": {
            "stop_profile_takes_run_command": False,
            "profiler_gated_by_enable": True,
            "memory_history_cleared_per_dump": False,
            "has_v1_trainer": False,
        },
        "v1_trainer": False,  # the default of main_ppo from 0.9 on
        "loads_plugins": False,  # verl.plugins entry points, from 0.9 on
        "fit_torch_memory": True,  # the separation trainers' legacy call site, 0.7.1 only
        "stop": "actor_rollout_wg.stop_profile()",
    },
    "0.9.1": {
        "probes": {
            "stop_profile_takes_run_command": True,
            "profiler_gated_by_enable": True,
            "memory_history_cleared_per_dump": True,
            "has_v1_trainer": True,
        },
        "v1_trainer": True,
        "loads_plugins": True,
        "fit_torch_memory": False,
        "stop": "actor_rollout_wg.stop_profile(run_command=N >= total_training_steps)",
    },
}
FACTS = RELEASES[RELEASE]
LEGACY = "actor_rollout_ref.actor.profiler.tool=torch_memory"
# The RayPPOTrainer path on every release (0.9's default v1 trainer is checked on its own).
RAY_TRAINER = ["trainer.use_v1=false"] if FACTS["v1_trainer"] else []
SITE_PACKAGES = Path(importlib.metadata.distribution("verl-compat").locate_file(""))


# torch_memory asks to patch SeparateRayPPOTrainer._fit_torch_memory on every release, but that
# legacy call site exists only up to 0.7.1: doctor rightly reports the skip on later releases. A
# fix-side matter (the patch should be requested only where the method exists); tolerated here
# so the other checks stay meaningful, and named by test_legacy_config_is_healthy.
def doctor(*args, python_flags=(), **env):
    return run_argv([*python_flags, "-m", "verl_compat", "doctor", *args], env=env, drop=SHIM_SETTINGS, check=False)


def problems(report, *codes):
    """The report's problems (optionally only those with these exit codes)."""
    return [p for p in report["problems"] if not codes or p["exit_code"] in codes]


def assert_one_line_reason(result, code):
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("verl-compat doctor: ")


# --- every config, in one process ------------------------------------------------------------

OVERLAY = """\
# new-style torch_memory profiling, as a user overlay
global_profiler:
  tool: torch_memory
  steps: [1, 3]   # the steps to snapshot
actor_rollout_ref:
  actor:
    profiler:
      enable: true
"""

RECIPE = """\
# a recipe config built on verl's own, with the legacy key
hydra:
  searchpath:
    - file://verl/trainer/config
defaults:
  - ppo_trainer
  - _self_
actor_rollout_ref:
  actor:
    profiler:
      tool: torch_memory
trainer:
  total_training_steps: 2
"""

# What `python -m verl_compat doctor ARGS` runs (verl_compat/__main__.py), once per ARGS.
DRIVER = """
import contextlib, io, json, os, sys
from verl_compat import cli

results = []
for env, argv in json.loads(sys.argv[1]):
    os.environ.update(env)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["doctor", *argv])
    results.append({"exit_code": code, "stdout": out.getvalue()})
sys.__stdout__.write(json.dumps(results))
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """doctor's output for each config, from one process (verl is imported once)."""
    folder = tmp_path_factory.mktemp("configs")
    overlay, recipe = folder / "overlay.yaml", folder / "my_trainer.yaml"
    overlay.write_text(OVERLAY)
    recipe.write_text(RECIPE)
    runs = {
        "legacy": ({}, ["--json", LEGACY, "trainer.total_training_steps=3", *RAY_TRAINER]),
        "none": ({}, ["--json", "trainer.total_training_steps=3", *RAY_TRAINER]),
        "global_tool_only": ({}, ["--json", "global_profiler.tool=torch_memory", *RAY_TRAINER]),
        "mixed_6181": ({}, [LEGACY, "global_profiler.steps=[2,4]", *RAY_TRAINER]),
        "malformed": ({}, [LEGACY, "global_profiler.steps='2,4'", "actor_rollout_ref.actor.profiler.ranks=[0,9]"]),
        "overlay": ({}, ["--json", "--config", str(overlay), *RAY_TRAINER]),
        "overlay_then_override": ({}, ["--json", "--config", str(overlay), "global_profiler.steps=[2]"]),
        "recipe": ({}, ["--json", "--config", str(recipe), *RAY_TRAINER]),
        "default_trainer": ({"VERL_USE_EXTERNAL_MODULES": "other_plugin, verl_compat"}, ["--json", LEGACY]),
    }
    result = run_python(DRIVER, json.dumps(list(runs.values())), drop=SHIM_SETTINGS)
    outputs = dict(zip(runs, json.loads(result.stdout), strict=True))
    for output in outputs.values():
        with contextlib.suppress(json.JSONDecodeError):
            output["report"] = json.loads(output["stdout"])
    return outputs


def test_versions_and_verl(runs):
    report = runs["legacy"]["report"]
    versions = report["versions"]
    assert versions["python"] == platform.python_version()
    assert versions["verl"] == RELEASE
    assert all(versions[name] for name in ("ray", "torch", "wrapt", "verl-compat"))
    assert report["verl"]["importable"] is True and report["verl"]["error"] is None


def test_probes(runs):
    assert runs["legacy"]["report"]["probes"].items() >= FACTS["probes"].items()


def test_autoload_and_env(runs):
    report = runs["legacy"]["report"]
    autoload = report["autoload"]
    assert autoload["pth"] == str(SITE_PACKAGES / "verl_compat_autoload.pth")
    assert autoload["pth_active"] is True
    plugins = FACTS["loads_plugins"]
    assert autoload["verl_loads_plugins"] is plugins
    assert [(ep["name"], ep["usable"]) for ep in autoload["entry_points"]] == [("verl_compat", plugins)]
    assert autoload["routes"] == (["pth", "entry_point"] if plugins else ["pth"])
    assert report["env"] == dict.fromkeys(
        ["VERL_COMPAT_DISABLE", "VERL_COMPAT_DISABLED_FIXES", "VERL_USE_EXTERNAL_MODULES", "VERL_USE_EXTERNAL_PLUGINS"]
    )
    named = runs["default_trainer"]["report"]
    assert named["env"]["VERL_USE_EXTERNAL_MODULES"] == "other_plugin, verl_compat"
    assert named["autoload"]["routes"][-1] == "VERL_USE_EXTERNAL_MODULES"


def test_patches(runs):
    report = runs["legacy"]["report"]
    torch_memory = report["status"]["fixes"]["torch_memory"]
    assert {
        "verl.trainer.ppo.ray_trainer:RayPPOTrainer.__init__",
        "verl.trainer.ppo.ray_trainer:RayPPOTrainer._stop_profiling",
    } <= set(torch_memory["patched"])
    separation = "verl.experimental.separation.ray_trainer:SeparateRayPPOTrainer._fit_torch_memory"
    assert (separation in torch_memory["patched"]) is FACTS["fit_torch_memory"]
    assert report["target_modules"]["verl.trainer.ppo.ray_trainer"] == "imported"


def test_the_legacy_key_is_reported_with_the_edits_and_calls(runs):
    report = runs["legacy"]["report"]
    torch_memory = report["config"]["fixes"]["torch_memory"]
    assert torch_memory["case"] == "legacy"
    assert torch_memory["edits"] == [
        "actor_rollout_ref.actor.profiler.enable=True",
        "actor_rollout_ref.actor.profiler.all_ranks=True",
    ]
    assert torch_memory["steps"] == [1, 2, 3]
    assert torch_memory["per_step"] == ["actor_rollout_wg.start_profile(profile_step=N)", FACTS["stop"]]
    separation = ["SeparateRayPPOTrainer._fit_torch_memory"] if FACTS["fit_torch_memory"] else []
    assert torch_memory["neutralised"] == ["actor_rollout_wg.dump_memory_snapshot", *separation]
    assert torch_memory["dumps"] == "outputs/profile/step{N}/torch_memory_rank{R}_pid{P}.pickle"
    assert torch_memory["ranks"] == "all" and torch_memory["warns"] is True
    assert torch_memory["replacement_overrides"] == [
        "global_profiler.tool=torch_memory",
        "global_profiler.save_path=outputs/profile",
        "global_profiler.steps=[1,2,3]",
        "actor_rollout_ref.actor.profiler.enable=True",
        "actor_rollout_ref.actor.profiler.all_ranks=True",
    ]
    assert report["config"]["fixes"]["torch_memory"]["trainer"] == {
        "class": "verl.trainer.ppo.ray_trainer.RayPPOTrainer",
        "patched": True,
        "error": None,
    }


def test_legacy_config_is_healthy(runs):
    run = runs["legacy"]
    report = run["report"]
    assert (run["exit_code"], report["exit_code"], report["problems"]) == (0, 0, [])


def test_another_tool_changes_nothing(runs):
    report = runs["none"]["report"]
    torch_memory = report["config"]["fixes"]["torch_memory"]
    assert (torch_memory["case"], torch_memory["edits"], torch_memory["per_step"], torch_memory["neutralised"]) == (
        "none",
        [],
        [],
        [],
    )
    assert torch_memory["replacement_overrides"] == [] and torch_memory["warns"] is False
    assert report["config"]["fixes"]["torch_memory"]["trainer"] is None
    assert problems(report) == []


def test_global_tool_alone_is_legacy_through_interpolation(runs):
    torch_memory = runs["global_tool_only"]["report"]["config"]["fixes"]["torch_memory"]
    assert torch_memory["case"] == "legacy"
    assert torch_memory["steps"] is None  # every step: total_training_steps is computed by the trainer
    assert (
        "global_profiler.steps=[<the steps you want a snapshot of, e.g. 1,2,3>]"
        in torch_memory["replacement_overrides"]
    )


def test_the_6181_shape_is_reported_as_mixed(runs):
    run = runs["mixed_6181"]
    rows = [" ".join(line.split()) for line in run["stdout"].splitlines()]
    assert f"verl {RELEASE} (importable, {SITE_PACKAGES / 'verl'})" in rows
    assert f"stop_profile_takes_run_command {FACTS['probes']['stop_profile_takes_run_command']}" in rows
    assert f".pth {SITE_PACKAGES / 'verl_compat_autoload.pth'}, active in this interpreter: yes" in rows
    assert "VERL_COMPAT_DISABLE (unset)" in rows
    assert "torch_memory case mixed (global_profiler.steps set, actor profiler enable=False: verl #6181)" in rows
    assert "trainer verl.trainer.ppo.ray_trainer.RayPPOTrainer (patched)" in rows
    assert "config edits actor_rollout_ref.actor.profiler.enable=True" in rows
    assert "actor_rollout_ref.actor.profiler.all_ranks=True" in rows
    assert "profiled steps 2,4" in rows
    assert "per-step calls none added: verl's own _start/_stop_profiling run at these steps" in rows
    assert "global_profiler.steps=[2,4]" in rows
    assert not any("start_profile" in row for row in rows)
    assert (rows[-1] == "healthy") is (run["exit_code"] == 0)


def test_config_problems_are_listed(runs):
    rows = [" ".join(line.split()) for line in runs["malformed"]["stdout"].splitlines()]
    first = rows.index(
        "config problems global_profiler.steps is '2,4', not a list: verl fails at its first step "
        "(`global_steps in steps`). Write global_profiler.steps=[2,4]. verl-compat reads it as the "
        "steps [2,4] to pick the case and changes nothing."
    )
    assert rows[first + 1].startswith("actor_rollout_ref.actor.profiler.ranks holds [9], not ranks of the actor's")
    assert runs["legacy"]["report"]["config"]["fixes"]["torch_memory"]["problems"] == []


def test_a_new_style_overlay_is_left_as_it_is(runs):
    report = runs["overlay"]["report"]
    torch_memory = report["config"]["fixes"]["torch_memory"]
    assert (torch_memory["case"], torch_memory["steps"]) == ("new_style", [1, 3])
    assert torch_memory["edits"] == [] and torch_memory["per_step"] == [] and torch_memory["warns"] is False
    assert torch_memory["neutralised"][0] == "actor_rollout_wg.dump_memory_snapshot"
    assert torch_memory["ranks"] == [0]
    assert report["config"]["source"].endswith("overlay.yaml + 1 override" if RAY_TRAINER else "overlay.yaml")
    assert problems(report) == []


def test_overrides_win_over_the_config_file(runs):
    torch_memory = runs["overlay_then_override"]["report"]["config"]["fixes"]["torch_memory"]
    assert (torch_memory["case"], torch_memory["steps"]) == ("new_style", [2])


def test_recipe_config_with_defaults_list(runs):
    report = runs["recipe"]["report"]
    torch_memory = report["config"]["fixes"]["torch_memory"]
    assert (torch_memory["case"], torch_memory["steps"]) == ("legacy", [1, 2])
    assert problems(report) == []


def test_default_trainer_of_the_release(runs):
    """0.9's main_ppo runs a v1 trainer: doctor says which, and whether torch_memory covers it."""
    report = runs["default_trainer"]["report"]
    trainer = report["config"]["fixes"]["torch_memory"]["trainer"]
    if not FACTS["v1_trainer"]:
        assert trainer["class"] == "verl.trainer.ppo.ray_trainer.RayPPOTrainer" and trainer["patched"]
        return
    assert trainer["class"] == "verl.trainer.ppo.v1.trainer_sync.PPOTrainerSync"
    uncovered = [p for p in problems(report, 4) if "does not patch the trainer" in p["reason"]]
    assert bool(uncovered) is (not trainer["patched"])


# --- the shim off, and no way into the trainer: python -S skips site-packages and its .pth ---


def test_disabled_shim_and_no_autoload_route():
    result = doctor(
        "--json",
        LEGACY,
        *RAY_TRAINER,
        python_flags=["-S"],
        PYTHONPATH=str(SITE_PACKAGES),
        VERL_COMPAT_DISABLE="1",
        VERL_USE_EXTERNAL_PLUGINS="none",
    )
    report = json.loads(result.stdout)
    assert_one_line_reason(result, 5)
    assert result.stderr.splitlines()[-1] == (
        "verl-compat doctor: the config needs verl-compat, but VERL_COMPAT_DISABLE turns it off"
    )
    assert report["status"]["disabled"] is True and report["status"]["fixes"]["torch_memory"]["patched"] == []
    assert report["env"]["VERL_COMPAT_DISABLE"] == "1"
    assert report["autoload"]["pth_active"] is False
    assert not any(ep["usable"] for ep in report["autoload"]["entry_points"])
    assert report["autoload"]["routes"] == []
    assert [p["exit_code"] for p in report["problems"]] == [5, 6]
    assert "will not reach verl's trainer process" in report["problems"][1]["reason"]


# --- bad input: one line, exit 2, before verl is imported ------------------------------------


@pytest.mark.parametrize(
    "args, reason",
    [
        (["global_profiler.steps=[1,"], "cannot compose the config: no viable alternative"),
        (["trainer.no_such_key=1"], "Could not override 'trainer.no_such_key'"),
        (["--config", "/nonexistent/overlay.yaml"], "No such file or directory"),
    ],
    ids=["grammar", "unknown-key", "missing-file"],
)
def test_bad_input_exits_2(args, reason):
    result = doctor("--json", *args)
    assert_one_line_reason(result, 2)
    assert reason in result.stderr.splitlines()[-1]
    assert result.stdout == ""


# --- verl absent ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def without_verl(tmp_path_factory):
    """A PYTHONPATH with only verl-compat and wrapt (code and metadata), for ``python -S``."""
    folder = tmp_path_factory.mktemp("no-verl")
    for distribution in ("verl-compat", "wrapt"):
        dist = importlib.metadata.distribution(distribution)
        tops = {Path(str(f)).parts[0] for f in dist.files if not str(f).startswith("..")}
        for top in tops:
            source = SITE_PACKAGES / top
            if source.exists() and not (folder / top).exists():
                (folder / top).symlink_to(source)
    return str(folder)


def test_without_verl_json(without_verl):
    result = doctor("--json", LEGACY, python_flags=["-S"], PYTHONPATH=without_verl)
    report = json.loads(result.stdout)
    assert_one_line_reason(result, 3)
    assert report["versions"]["verl"] is None and report["versions"]["wrapt"]
    assert report["verl"]["importable"] is False and report["verl"]["path"] is None
    assert report["probes"] is None and report["config"] is None
    assert [p["exit_code"] for p in report["problems"]] == [3, 6]
    assert report["problems"][0]["reason"].startswith("verl is not installed")


def test_without_verl_table(without_verl):
    result = doctor(python_flags=["-S"], PYTHONPATH=without_verl)
    assert_one_line_reason(result, 3)
    rows = [" ".join(line.split()) for line in result.stdout.splitlines()]
    assert "verl not installed" in rows
    assert "none verl is not importable" in rows
    assert result.stderr.splitlines()[-1].startswith("verl-compat doctor: verl is not installed")
