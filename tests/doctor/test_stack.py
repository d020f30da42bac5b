"""The stack check (``verl_compat.stack``, doctor's ``stack`` section, the launch line): versions read
as verl meant them, each kind of verdict on a made-up environment (distribution metadata only, in a
temporary folder), no false alarm on verl's own CI stacks, and the real installed environment.

The made-up environments are folders of ``NAME-VERSION.dist-info/METADATA`` read through the same
``importlib.metadata`` lookup as the real one (``paths`` replaces ``sys.path``): nothing is imported
and nothing installed.
"""

import json
import logging
from pathlib import Path

import pytest

from verl_compat import stack
from verl_compat.stack import versions
from verl_compat.stack.path import RunPath


def made_up(tmp_path, dists):
    """A folder holding only the metadata of ``dists`` (name -> version); its path list."""
    for name, version in dists.items():
        folder = tmp_path / f"{name.replace('-', '_')}-{version}.dist-info"
        folder.mkdir()
        (folder / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    return [str(tmp_path)]


CORE_091 = {"torch": "2.11.0", "ray": "2.54.1", "tensordict": "0.10.0", "numpy": "2.2.6", "hydra-core": "1.3.2"}
VLLM_091 = {**CORE_091, "vllm": "0.24.0", "transformers": "5.9.0", "TransferQueue": "0.1.11"}


def levels(verdict):
    return {(f.package, f.level) for f in verdict.findings}


# --- versions as verl meant them ---------------------------------------------------------------


@pytest.mark.once
@pytest.mark.parametrize(
    "spec, version, allowed",
    [
        ("<=0.8.5", "0.8.5.post1", True),  # what verl 0.4's install script installs
        ("==0.5.6", "0.5.6.post2", True),  # what verl 0.7.0's sglang image ran
        ("==2.6.0", "2.6.0+cu124", True),  # local labels are builds
        ("<=0.10.0", "0.10.0+rocm6.4", True),
        (">=0.18.0", "0.19.0rc1", True),  # pre-releases allowed explicitly (packaging 25 and 26 differ)
        (">=0.18.0", "0.18.0rc1", False),  # ... and they sort below their release
        (">=0.18.0", "0.18.0.dev3+gabc123", False),
        ("<=0.8.5", "0.8.6", False),
        (">=0.13.0", "0.9.1", False),  # a string compare says "0.9.1" >= "0.13.0"
        ("<0.5.6", "0.5.10", False),  # a string compare says "0.5.10" < "0.5.6"
        ("", "1.2.3", True),  # unpinned
        (">=1.0", "not a version", False),
    ],
)
def test_versions_are_read_as_verl_meant(spec, version, allowed):
    assert versions.allows(spec, version) is allowed


@pytest.mark.once
def test_floors_compare_as_verls_own_checks_do():
    assert versions.at_least("0.18.0+cu130", "0.18.0")  # verl's gate: version.parse(...) >= parse("0.18.0")
    assert not versions.at_least("0.18.0rc1", "0.18.0")
    assert not versions.at_least("0.9.2", "0.18.0")
    assert versions.same_build("0.8.5.post1", "0.8.5") and versions.same_build("2.6", "2.6.0+cu124")
    assert not versions.same_build("0.24.0rc1", "0.24.0")


@pytest.mark.once
@pytest.mark.parametrize(
    "verl, row, noted",
    [("0.9.1", "0.9.1", False), ("0.9.1.post1", "0.9.1", False), ("0.7.0", "0.7.0", False),
     ("0.8.0.dev0", "0.7.1", True), ("0.10.0.dev0", "0.9.1", True), ("0.11.0", "0.9.1", True),
     ("0.3.0", None, True), (None, None, True)],
)  # fmt: skip
def test_the_row_is_the_release_or_said_not_to_be(verl, row, noted):
    found, note = stack.row_for(verl)
    assert (found.verl if found else None, bool(note)) == (row, noted)


# --- each kind of verdict, on made-up environments ---------------------------------------------


@pytest.mark.once
def test_the_release_pins_pass(tmp_path):
    verdict = stack.judge("0.9.1", RunPath("vllm", "fsdp", v1=True), made_up(tmp_path, VLLM_091))
    assert {f.level for f in verdict.findings} == {stack.OK}
    assert {"vllm", "torch", "transformers", "TransferQueue"} <= {f.package for f in verdict.findings}


@pytest.mark.once
def test_a_module_the_path_imports_is_an_error_only_on_that_path(tmp_path):
    paths = made_up(tmp_path, {k: v for k, v in VLLM_091.items() if k != "TransferQueue"})
    v1 = stack.judge("0.9.1", RunPath("vllm", v1=True), paths)
    assert [(f.package, f.installed) for f in v1.errors] == [("TransferQueue", None)]
    assert "transfer_queue" in v1.errors[0].says and "main_ppo.py:137" in v1.errors[0].source
    assert stack.judge("0.9.1", RunPath("vllm", v1=False), paths).errors == []
    sglang = stack.judge("0.9.1", RunPath("sglang", v1=True), paths)
    assert {f.package for f in sglang.errors} == {"TransferQueue", "sglang"}


@pytest.mark.once
def test_a_floor_verl_enforces_is_an_error(tmp_path):
    paths = made_up(tmp_path, {**VLLM_091, "vllm": "0.17.0", "tensordict": "0.9.1"})
    verdict = stack.judge("0.9.1", RunPath("vllm", v1=True), paths)
    assert {(f.package, f.installed) for f in verdict.errors} == {("vllm", "0.17.0"), ("tensordict", "0.9.1")}
    assert any("third_party/vllm/__init__.py:46" in f.source for f in verdict.errors)


@pytest.mark.once
def test_verls_own_escape_from_a_floor_makes_it_a_warning(tmp_path):
    # verl's vLLM gate lets an old vLLM pass when SGLang is importable; the vLLM path still fails.
    paths = made_up(tmp_path, {**VLLM_091, "vllm": "0.17.0", "sglang": "0.5.12"})
    verdict = stack.judge("0.9.1", RunPath("vllm", v1=True), paths)
    assert verdict.errors == [] and ("vllm", stack.WARNING) in levels(verdict)


@pytest.mark.once
def test_a_module_gone_from_its_distribution_is_an_error(tmp_path):
    core = {"torch": "2.6.0", "ray": "2.46.0", "tensordict": "0.6.2", "numpy": "1.26.4", "hydra-core": "1.3.2"}
    gone = stack.judge("0.4.1", RunPath(), made_up(tmp_path / "a", {**core, "setuptools": "82.0.0"}))
    assert [f.package for f in gone.errors] == ["setuptools"] and "pkg_resources" in gone.errors[0].says
    kept = stack.judge("0.4.1", RunPath(), made_up(tmp_path / "b", {**core, "setuptools": "80.9.0"}))
    assert kept.errors == []


@pytest.fixture
def tmp_path(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    return tmp_path


@pytest.mark.once
@pytest.mark.parametrize(
    "verl, vllm, level",
    [
        ("0.8.0", "0.20.2", stack.INFO),  # above the declared <=0.12.0 cap: what verl's own image ran
        ("0.8.0", "0.11.0", stack.INFO),  # inside the declared range, not what CI ran
        ("0.8.0", "0.12.0", stack.INFO),
        ("0.8.0", "0.13.0", stack.WARNING),  # outside both: still never an error
        ("0.8.0", "0.99.0", stack.WARNING),
        ("0.7.1", "0.17.0", stack.INFO),
        ("0.4.0", "0.8.5.post1", stack.OK),  # <=0.8.5 and what the image ran
        ("0.9.1", "0.24.0+cu130", stack.OK),
    ],
)
def test_ranges_give_info_or_warning_never_an_error(tmp_path, verl, vllm, level):
    core = {"torch": "2.11.0", "ray": "2.54.1", "tensordict": "0.10.0", "numpy": "1.26.4", "hydra-core": "1.3.2"}
    verdict = stack.judge(verl, RunPath("vllm"), made_up(tmp_path, {**core, "vllm": vllm}))
    assert [f.level for f in verdict.findings if f.package == "vllm"] == [level]
    assert not [f for f in verdict.errors if f.package == "vllm"]


@pytest.mark.once
def test_each_line_names_the_package_the_version_what_verl_needs_and_the_source(tmp_path):
    paths = made_up(tmp_path, {**VLLM_091, "vllm": "0.25.0"})
    (line,) = [f.line() for f in stack.judge("0.9.1", RunPath("vllm", v1=True), paths).findings if f.package == "vllm"]
    assert line.startswith("vllm 0.25.0: outside verl 0.9.1's declared ==0.24.0")
    assert "METADATA:81" in line


@pytest.mark.once
def test_a_known_bad_pair_is_a_warning_with_its_report(tmp_path):
    paths = made_up(tmp_path, {**CORE_091, "megatron-core": "0.18.0", "mbridge": "0.15.1", "TransferQueue": "0.1.11"})
    verdict = stack.judge("0.9.1", RunPath(None, "megatron", v1=True), paths)
    bad = [f for f in verdict.findings if f.source == "verl#6936"]
    assert [(f.package, f.level) for f in bad] == [("mbridge", stack.WARNING)]
    assert verdict.errors == []


@pytest.mark.once
def test_without_a_backend_none_is_required_and_each_installed_one_is_read(tmp_path):
    verdict = stack.judge("0.9.1", RunPath(None, v1=True), made_up(tmp_path, {**VLLM_091, "vllm": "0.17.0"}))
    assert verdict.errors == [] and ("vllm", stack.WARNING) in levels(verdict)


@pytest.mark.once
def test_workers_in_another_environment_turn_errors_into_warnings(tmp_path):
    config = {
        "actor_rollout_ref": {"rollout": {"name": "vllm"}, "actor": {"strategy": "fsdp"}},
        "trainer": {"use_v1": True},
        "ray_kwargs": {"ray_init": {"runtime_env": {"py_executable": "uv run --extra vllm"}}},
    }
    path = stack.of_config(config)
    assert path.tags == {"vllm", "fsdp", "v1"} and "py_executable" in path.elsewhere[0]
    verdict = stack.judge("0.9.1", path, made_up(tmp_path, CORE_091))
    assert verdict.errors == [] and ("TransferQueue", stack.WARNING) in levels(verdict)


@pytest.mark.once
def test_the_launch_line_says_only_certain_failures_once_and_can_be_turned_off(tmp_path, monkeypatch, caplog):
    config = {"actor_rollout_ref": {"rollout": {"name": "vllm"}}, "trainer": {"use_v1": True}}
    broken = made_up(tmp_path / "a", {**CORE_091, "verl": "0.9.1", "vllm": "0.24.0"})
    fine = made_up(tmp_path / "b", {**VLLM_091, "verl": "0.9.1", "vllm": "0.30.0"})  # a mere difference
    stack.reset()
    try:
        with caplog.at_level(logging.ERROR, logger="verl_compat"):
            assert stack.check(config, fine) is None
            line = stack.check(config, broken)
            assert stack.check(config, broken) is None  # once per process
            stack.reset()
            monkeypatch.setenv(stack.ENV, "0")
            assert stack.check(config, broken) is None
    finally:
        stack.reset()
    assert "\n" not in line and "TransferQueue missing" in line and f"{stack.ENV}=0" in line
    assert [r.getMessage() for r in caplog.records if r.name == "verl_compat"] == [line]


# --- no false alarm: verl's own CI stacks on their own release -----------------------------------

# What pip resolves, on top of an image's pins, for what the image does not pin (within each release's
# declared range; the 0.4/0.5 images ran tensordict 0.6.2).
RESOLVED = {"ray": "2.54.1", "hydra-core": "1.3.2", "tensordict": "0.10.0", "setuptools": "80.9.0"}
NUMPY = {"<2.0.0": "1.26.4", ">=2.0.0": "2.2.6", "": "1.26.4"}
TRANSFORMERS = {"0.4.0": "4.51.3", "0.4.1": "4.51.3", "0.5.0": "4.51.3", "0.6.1": "4.56.2", "0.7.0": "4.57.1",
                "0.7.1": "4.57.1", "0.8.0": "5.3.0", "0.9.0": "5.5.3", "0.9.1": "5.9.0"}  # fmt: skip
STACKS = [
    (row, ci, strategy)
    for row in stack.RELEASES
    for ci in row.stacks
    for strategy in ("fsdp", "megatron")
    if strategy == "fsdp" or "megatron-core" in ci.versions
]


def ci_stack(row, ci):
    numpy = next(d.spec for d in row.declared if d.package == "numpy")
    extra = {"numpy": NUMPY[numpy], "transformers": TRANSFORMERS.get(row.verl, "4.56.1"), "TransferQueue": "0.1.11"}
    if row.verl in ("0.4.0", "0.4.1", "0.5.0"):
        extra["tensordict"] = "0.6.2"
    # An image that pins no torch (TensorRT-LLM's NGC base) has one its CI also ran elsewhere.
    extra["torch"] = row.tested_versions("torch")[0][0]
    return {**RESOLVED, **extra, **ci.versions}


@pytest.mark.once
@pytest.mark.parametrize("row, ci, strategy", STACKS, ids=[f"{r.verl}-{c.name}-{s}" for r, c, s in STACKS])
def test_verls_own_ci_stacks_give_no_error_and_no_warning_on_their_release(tmp_path, row, ci, strategy):
    versions_ = ci_stack(row, ci)
    path = RunPath(ci.backend, strategy, v1=row.verl.startswith("0.9"))
    verdict = stack.judge(row.verl, path, made_up(tmp_path, versions_))
    assert verdict.note == ""
    assert [f.line() for f in verdict.findings if f.level in (stack.ERROR, stack.WARNING)] == []


@pytest.mark.once
def test_every_release_in_the_ci_matrix_has_its_stacks():
    rows = {row.verl: row for row in stack.RELEASES}
    for release, backends in {"0.6.1": 2, "0.7.1": 3, "0.8.0": 3, "0.9.0": 3, "0.9.1": 2}.items():
        assert len(rows[release].stacks) == backends, release
    assert all(row.needs and row.declared for row in stack.RELEASES)


# --- the real installed environment ------------------------------------------------------------


def test_the_installed_environment_runs_the_harness_config_without_an_error():
    """verl's own config with the suite's CPU rollout stand-in, on this release's test venv: the
    stand-in names no backend, so what must be installed is verl's own imports."""
    import standins
    from verl_config import verl_compose

    config = verl_compose([f"actor_rollout_ref.rollout.name={standins.ROLLOUT_NAME}"])
    verdict = stack.verdict(config)
    assert verdict.row is not None and verdict.errors == []
    assert {"torch", "ray", "tensordict"} <= {f.package for f in verdict.findings}


@pytest.mark.once
def test_doctor_names_a_backend_the_config_needs_and_this_environment_lacks(capsys):
    """The test environments have no vLLM (CPU): a config that asks for it exits 8, naming it; the
    same doctor without overrides (verl's defaults name no backend) has no stack error."""
    from verl_compat import cli

    assert cli.main(["doctor", "--json", "actor_rollout_ref.rollout.name=vllm"]) == 8
    vllm = json.loads(capsys.readouterr().out)
    (error,) = [f for f in vllm["stack"]["findings"] if f["level"] == "error"]
    assert (error["package"], error["installed"]) == ("vllm", None)
    assert "vllm_rollout/__init__.py:30" in error["source"]
    assert [p["exit_code"] for p in vllm["problems"]] == [8]
    assert cli.main(["doctor", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert plain["stack"]["path"]["rollout"] is None and plain["stack"]["counts"]["error"] == 0


class Stop(Exception):
    """Raised by the stubbed ray.init: the launch stops where Ray would start."""


@pytest.fixture
def launch_until_ray(monkeypatch, caplog):
    """verl's real ``run_ppo`` on a real composed config, with ``ray.init`` recording which
    verl-compat log lines were there when it was called, and stopping the run."""
    import ray
    from verl.trainer import main_ppo
    from verl_config import verl_compose

    import verl_compat

    seen, start = [], [0]

    def init(**kwargs):
        new = caplog.records[start[0] :]
        seen.append([r.getMessage() for r in new if r.name == "verl_compat" and r.levelno >= logging.ERROR])
        raise Stop

    monkeypatch.setattr(ray, "init", init)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    verl_compat.deactivate()
    verl_compat.activate()

    def launch(*overrides):
        start[0] = len(caplog.records)
        with caplog.at_level(logging.ERROR, logger="verl_compat"), pytest.raises(Stop):
            main_ppo.run_ppo(verl_compose(overrides), task_runner_class=None)
        return seen[-1]

    yield launch
    verl_compat.deactivate()
    verl_compat.activate()


def test_the_launcher_says_a_missing_backend_once_before_ray_starts(launch_until_ray, monkeypatch):
    """The test environments have no vLLM: a launch that asks for it gets one line before ray.init,
    once per process; the suite's own CPU stand-in gets none; the switch turns it off."""
    assert launch_until_ray("actor_rollout_ref.rollout.name=cpu_stub") == []
    (line,) = launch_until_ray("actor_rollout_ref.rollout.name=vllm")
    assert line.startswith("verl-compat: this run will fail on this environment's stack: vllm missing")
    assert launch_until_ray("actor_rollout_ref.rollout.name=vllm") == []  # said once per process
    import verl_compat

    verl_compat.deactivate()
    verl_compat.activate()
    monkeypatch.setenv(stack.ENV, "0")
    assert launch_until_ray("actor_rollout_ref.rollout.name=vllm") == []


# --- real reported breakages: what doctor says for each (the table of docs/stack.md) ---------------

_PIP = {"ray": "2.49.0", "tensordict": "0.10.0", "hydra-core": "1.3.2", "setuptools": "80.9.0"}
_OLD = {"torch": "2.6.0", "numpy": "1.26.4", "transformers": "4.51.3"}
# (report, verl, path, the reporter's versions, verdict in docs/stack.md, the package that broke, its level)
REPORTS = [
    ("verl#7320", "0.9.0", RunPath("vllm", v1=True), {"torch": "2.11.0", "numpy": "2.2.6", "vllm": "0.24.0",
     "transformers": "5.5.3"}, "named", "TransferQueue", stack.ERROR),
    ("verl#3842", "0.6.0", RunPath("vllm"), {**_OLD, "vllm": "0.9.1"}, "named", "vllm", stack.WARNING),
    ("verl#4202", "0.6.1", RunPath("vllm"), {**_OLD, "vllm": "0.8.4"}, "named", "vllm", stack.WARNING),
    ("agent-lightning#208", "0.5.0", RunPath("vllm"), {**_OLD, "torch": "2.8.0", "vllm": "0.11.0",
     "tensordict": "0.9.1"}, "named", "vllm", stack.WARNING),
    ("agent-lightning#144", "0.5.0", RunPath("vllm"), {**_OLD, "torch": "2.8.0", "vllm": "0.11.0",
     "transformers": "4.56.1", "tensordict": "0.9.1"}, "named", "vllm", stack.WARNING),
    ("verl#6936", "0.9.0", RunPath(None, "megatron", v1=True), {"torch": "2.11.0", "numpy": "2.2.6",
     "transformers": "5.5.3", "TransferQueue": "0.1.8", "megatron-core": "0.18.0", "mbridge": "0.15.1"},
     "named", "mbridge", stack.WARNING),
    ("UserRL#2", "0.4.0", RunPath("sglang"), {**_OLD, "torch": "2.7.1", "sglang": "0.4.7", "tensordict": "0.6.2"},
     "named", "sglang", stack.WARNING),
    ("verl-omni#531", "0.10.0.dev0", RunPath("vllm", v1=True), {"torch": "2.11.0", "numpy": "2.2.6",
     "vllm": "0.24.0", "transformers": "5.13.0", "TransferQueue": "0.1.11"}, "named", "transformers", stack.WARNING),
    ("agent-lightning#589", "0.7.1", RunPath("vllm"), {**_OLD, "vllm": "0.8.5"}, "half-named", "vllm", stack.INFO),
    ("verl#4996", "0.6.1", RunPath("vllm"), {**_OLD, "torch": "2.5.1", "vllm": "0.11.0"}, "half-named", "torch",
     stack.INFO),
    ("verl#2213", "0.4.1", RunPath("vllm"), {**_OLD, "vllm": "0.8.5.post1", "transformers": "4.53.0",
     "tensordict": "0.6.2"}, "missed", "transformers", stack.OK),
    ("verl#2968", "0.5.0", RunPath("vllm"), {**_OLD, "vllm": "0.8.5.post1", "tensordict": "0.6.2"}, "missed",
     "transformers", stack.OK),
    ("verl#3271", "0.5.0", RunPath("vllm"), {**_OLD, "vllm": "0.8.5.post1", "tensordict": "0.6.2"}, "missed",
     "vllm", stack.OK),
    ("verl#5654", "0.8.0.dev0", RunPath("vllm"), {**_OLD, "torch": "2.9.0", "vllm": "0.17.0+empty",
     "transformers": "5.3.0"}, "missed", "vllm", stack.INFO),
    ("SimpleTIR#29", "0.5.0", RunPath("vllm"), {**_OLD, "vllm": "0.8.5", "flash-attn": "2.8.3",
     "tensordict": "0.9.1"}, "missed", "flash-attn", stack.INFO),
    ("verl#4958", "0.7.0", RunPath("vllm"), {**_OLD, "torch": "2.9.0", "vllm": "0.12.0", "transformers": "4.57.1"},
     "missed", "qwen-vl-utils", None),
    ("verl#6931", "0.8.0.dev0", RunPath("vllm", "megatron"), {**_OLD, "torch": "2.8.0", "vllm": "0.18.0+empty",
     "transformers": "4.57.1", "megatron-core": "0.16.0"}, "missed", "megatron-bridge", None),
]  # fmt: skip
STACK_DOC = Path(__file__).resolve().parents[2] / "docs" / "stack.md"


@pytest.mark.once
@pytest.mark.parametrize("report, verl, path, found, verdict, package, level", REPORTS, ids=[r[0] for r in REPORTS])
def test_each_reported_breakage_gets_what_docs_stack_md_says(
    tmp_path, report, verl, path, found, verdict, package, level
):
    result = stack.judge(verl, path, made_up(tmp_path, {**_PIP, **found}))
    levels_of = sorted({f.level for f in result.findings if f.package == package}, key=stack.LEVELS.index)
    assert (levels_of[0] if levels_of else None) == level
    row = next(line for line in STACK_DOC.read_text().splitlines() if line.startswith(f"| {report} "))
    assert f"| {verdict} |" in row


@pytest.mark.once
def test_the_docs_table_has_at_least_15_reports():
    assert len(REPORTS) >= 15
