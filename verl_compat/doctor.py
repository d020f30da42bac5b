"""``verl-compat doctor``: what verl-compat sees in this environment, and what it would do to a config.

The shim changes behaviour inside Ray actors, far from the terminal the user launches from. This
command answers what a launch script cannot tell: which verl is installed and what it can do (the
probes the fixes decide by), whether the shim will reach the trainer process at all (auto-load
routes, env toggles), what it patches, and, for a config, which case the fix detects and exactly
what it changes and calls. It only looks: no config is shipped anywhere, no warning is emitted.

The exit status makes it a CI check: 0 when healthy, else the code of the most serious problem
(the lowest code wins; ``docs/doctor.md``). Input errors (bad overrides, unreadable YAML) exit at
once, before verl is imported, the way Hydra's own command line does.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import importlib.util
import json
import os
import platform
import shutil
import site
import sys
import tempfile
from pathlib import Path

from . import __version__, _toggles, patching, status
from .fixes import oom_snapshot

BAD_INPUT = 2  # argparse's own usage errors exit 2 too
NO_VERL = 3
VERL_LACKS = 4
SHIM_OFF = 5
NOT_REACHED = 6
TRAINER_NOT_SERVED = 7

PACKAGES = ("verl", "ray", "torch", "wrapt")
BOOTSTRAP = "verl_compat_autoload"  # the stdlib-only module the wheel's .pth imports
PTH_FILE = f"{BOOTSTRAP}.pth"
PLUGIN_GROUP = "verl.plugins"
EXTERNAL_MODULES = "VERL_USE_EXTERNAL_MODULES"
EXTERNAL_PLUGINS = "VERL_USE_EXTERNAL_PLUGINS"
ENV = (_toggles.DISABLE, _toggles.DISABLED_FIXES, EXTERNAL_MODULES, EXTERNAL_PLUGINS)
_OUR_MODULES = {"verl_compat", BOOTSTRAP}
_USER_GROUP = "verl_compat_user"  # the config group a --config overlay is composed under


class BadInput(Exception):
    """The overrides or ``--config`` file cannot be composed into a verl config."""


EPILOG = f"""\
exit status (when several apply, the lowest wins):
  0  healthy
  {BAD_INPUT}  bad input: an override or --config file that cannot be composed
  {NO_VERL}  verl is not installed for this interpreter, or fails to import
  {VERL_LACKS}  verl-compat cannot patch what this verl runs
  {SHIM_OFF}  the config needs the shim, but VERL_COMPAT_DISABLE or VERL_COMPAT_DISABLED_FIXES
     turns it off
  {NOT_REACHED}  nothing brings the shim into verl's trainer process
  {TRAINER_NOT_SERVED}  a --trainer class would not be served by the torch_memory fix

examples:
  verl-compat doctor actor_rollout_ref.actor.profiler.tool=torch_memory trainer.total_training_steps=3
  verl-compat doctor --config my_overlay.yaml --json > doctor.json
  verl-compat doctor --trainer my_recipe.trainer:MyTrainer

docs: https://github.com/verl-compat/verl-compat/blob/main/docs/doctor.md"""


def add_arguments(parser) -> None:
    parser.epilog = EPILOG
    parser.add_argument(
        "overrides",
        nargs="*",
        metavar="OVERRIDE",
        help="Hydra overrides, as given to python -m verl.trainer.main_ppo",
    )
    parser.add_argument(
        "--config",
        metavar="FILE.yaml",
        help="a YAML config merged over verl's ppo_trainer.yaml (an overlay or a full config; one with "
        "a Hydra defaults list is composed as a primary config); overrides apply on top",
    )
    parser.add_argument(
        "--trainer",
        action="append",
        default=[],
        metavar="MODULE:CLASS",
        help="a trainer class of your own (or a recipe's) to check: whether and how the torch_memory fix "
        "reaches it; repeatable",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args) -> int:
    config_dir = _verl_config_dir()
    plan = None
    if config_dir is not None and (args.overrides or args.config):
        try:
            plan = _plan(config_dir, args.overrides, args.config)
        except BadInput as exc:
            print(f"verl-compat doctor: {exc}", file=sys.stderr)
            return BAD_INPUT
    try:
        classes = [(name, _import_trainer(name)) for name in args.trainer]
    except BadInput as exc:
        print(f"verl-compat doctor: {exc}", file=sys.stderr)
        return BAD_INPUT
    report = collect(plan, _describe_source(args), classes)
    print(json.dumps(report, indent=2, default=str) if args.json else render(report))
    if report["problems"]:
        print(f"verl-compat doctor: {report['problems'][0]['reason']}", file=sys.stderr)
    return report["exit_code"]


# --- config -----------------------------------------------------------------------------------


def _verl_config_dir() -> Path | None:
    """verl's own Hydra configs, found without importing verl (that costs seconds, and may fail)."""
    try:
        spec = importlib.util.find_spec("verl")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0], "trainer", "config")


def _describe_source(args) -> str:
    parts = ["verl's ppo_trainer.yaml"]
    if args.config:
        parts.append(args.config)
    if args.overrides:
        parts.append(f"{len(args.overrides)} override{'s' * (len(args.overrides) != 1)}")
    return " + ".join(parts)


def compose(config_dir: Path, overrides: list, config_file: str | None = None):
    """verl's ``ppo_trainer`` config with ``config_file`` merged over it and ``overrides`` applied,
    composed by Hydra itself so that override grammar and merge rules are exactly verl's.

    An overlay (or a full config) becomes a config group option appended after verl's own
    defaults, so it wins over them while the command-line overrides still win over it. A file
    with its own ``defaults`` list (a recipe built on ``ppo_trainer``) is composed as the primary
    config, with verl's config folder added to its search path.
    """
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.errors import HydraException
    from omegaconf import DictConfig, OmegaConf
    from omegaconf.errors import OmegaConfBaseException
    from yaml import YAMLError

    def _compose(primary_dir: Path, name: str, extra: list):
        with initialize_config_dir(config_dir=str(primary_dir), version_base=None):
            return hydra_compose(name, overrides=[*extra, *overrides])

    try:
        if config_file is None:
            return _compose(config_dir, "ppo_trainer", [])
        path = Path(config_file).resolve()
        user = OmegaConf.load(path)
        if not isinstance(user, DictConfig):
            raise BadInput(f"{config_file}: not a YAML mapping")
        if "defaults" in user:
            search = [*(OmegaConf.select(user, "hydra.searchpath") or []), f"file://{config_dir}"]
            quoted = ",".join(f"'{entry}'" for entry in search)
            return _compose(path.parent, path.stem, [f"hydra.searchpath=[{quoted}]"])
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, _USER_GROUP).mkdir()
            shutil.copyfile(path, Path(tmp, _USER_GROUP, "config.yaml"))
            overlay = [f"hydra.searchpath=['file://{tmp}']", f"+{_USER_GROUP}@_global_=config"]
            return _compose(config_dir, "ppo_trainer", overlay)
    except (HydraException, OmegaConfBaseException, YAMLError, OSError) as exc:
        raise BadInput(f"cannot compose the config: {_first_line(exc)}") from exc


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _plan(config_dir: Path, overrides: list, config_file: str | None) -> dict:
    """Everything doctor reads from the config, before verl is imported."""
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    config = compose(config_dir, overrides, config_file)
    try:
        use_v1 = bool(OmegaConf.select(config, "trainer.use_v1"))
        return {
            "v1_trainer_mode": OmegaConf.select(config, "trainer.v1.trainer_mode") if use_v1 else None,
            "torch_memory": torch_memory_plan(config),
        }
    except OmegaConfBaseException as exc:
        raise BadInput(f"the config does not resolve: {_first_line(exc)}") from exc


def torch_memory_plan(config) -> dict:
    """What the torch_memory fix will change in ``config`` (its own ``describe``). The calls it
    makes depend on verl and are added by :func:`torch_memory_calls`."""
    from .fixes import torch_memory

    return torch_memory.describe(config)


def _call_text(method: str, kwargs: dict) -> str:
    return f"actor_rollout_wg.{method}({', '.join(f'{key}={value}' for key, value in kwargs.items())})"


def torch_memory_calls(plan: dict, stop_takes_run_command: bool | None, patched: list) -> dict:
    """The calls the torch_memory fix makes for ``plan`` on this verl (the same ``step_calls`` that
    drive them, with symbolic arguments), and the legacy calls it turns into no-ops."""
    from .fixes.torch_memory import Case
    from .fixes.torch_memory.runtime import step_calls

    if plan["case"] == Case.NONE:
        return {"per_step": [], "neutralised": []}
    per_step = []
    if plan["case"] == Case.LEGACY:
        calls = step_calls("N", "N >= total_training_steps", stop_takes_run_command)
        per_step = [_call_text(method, kwargs) for method, kwargs in calls]
        if stop_takes_run_command is None:  # verl not importable: the stop arguments are unknown
            per_step[-1] = "actor_rollout_wg.stop_profile(...)"
    legacy = [target.split(":", 1)[1] for target in patched if target.endswith("._fit_torch_memory")]
    return {"per_step": per_step, "neutralised": ["actor_rollout_wg.dump_memory_snapshot", *legacy]}


# --- --trainer --------------------------------------------------------------------------------


def _import_trainer(name: str):
    """The class named ``module:Class`` (or ``module.Class``), imported with verl-compat active, as
    a launcher or the TaskRunner actor would import it."""
    module_name, sep, qualname = name.partition(":")
    if not sep:
        module_name, _, qualname = name.rpartition(".")
    if not module_name or not qualname:
        raise BadInput(f"--trainer {name}: expected MODULE:CLASS")
    try:
        with contextlib.redirect_stdout(sys.stderr):
            owner = importlib.import_module(module_name)
        for part in qualname.split("."):
            owner = getattr(owner, part)
    except Exception as exc:  # the user's module: anything it raises is the answer
        raise BadInput(f"cannot import {name}: {type(exc).__name__}: {_first_line(exc)}") from None
    if not isinstance(owner, type):
        raise BadInput(f"--trainer {name}: not a class")
    return owner


def trainer_report(name: str, cls, stop_takes_run_command: bool | None) -> dict:
    """Whether the torch_memory fix serves a legacy config on ``cls``, and how it reaches it."""
    from . import trainers

    reach = trainers.coverage(cls, "torch_memory")
    from .fixes.torch_memory import Case

    legacy = {"case": Case.LEGACY}
    calls = torch_memory_calls(legacy, stop_takes_run_command, []) if reach["served"] else {}
    return {"name": name, **reach, "per_step": calls.get("per_step", []), "neutralised": calls.get("neutralised", [])}


# --- environment ------------------------------------------------------------------------------


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def _import_verl() -> dict:
    try:
        verl = importlib.import_module("verl")
    except Exception as exc:  # a broken verl is an answer, not a traceback
        return {"importable": False, "error": f"{type(exc).__name__}: {exc}", "path": None}
    return {"importable": True, "error": None, "path": str(Path(verl.__file__).parent)}


def _fix_modules() -> list:
    return [importlib.import_module(name) for name in patching.FIX_MODULES]


def _import_targets() -> dict:
    """Import every module a fix patches: patches are applied by post-import hooks, so only an
    imported module shows in ``status()`` what the shim does to this verl."""
    modules = {}
    for fix in _fix_modules():
        for name in patching.targets(fix):
            try:
                try:
                    found = importlib.util.find_spec(name) is not None
                except ModuleNotFoundError:  # a parent package this release does not ship
                    found = False
                if not found:
                    modules[name] = "absent"
                    continue
                importlib.import_module(name)
                modules[name] = "imported"
            except Exception as exc:
                modules[name] = f"import failed: {type(exc).__name__}: {exc}"
    return modules


def _site_dirs() -> list:
    """The folders whose ``.pth`` files Python runs at start-up (not every ``sys.path`` entry)."""
    dirs = list(site.getsitepackages())
    if site.ENABLE_USER_SITE:
        dirs.append(site.getusersitepackages())
    return dirs


def _verl_loads_plugins() -> bool:
    """verl >= 0.9 loads ``verl.plugins`` entry points at ``import verl``; earlier releases
    do not. Read from verl's ``__init__`` source, so it is known even when verl fails to import."""
    try:
        spec = importlib.util.find_spec("verl")
        return spec is not None and PLUGIN_GROUP in Path(spec.origin).read_text(encoding="utf-8")
    except (ImportError, ValueError, OSError, TypeError):
        return False


def _autoload() -> dict:
    """The three routes by which the shim reaches a trainer process that imports nothing from it."""
    pth = next((str(Path(d, PTH_FILE)) for d in _site_dirs() if Path(d, PTH_FILE).is_file()), None)
    loads_plugins = _verl_loads_plugins()
    policy = os.environ.get(EXTERNAL_PLUGINS, "auto").strip().lower()
    allowed = None if policy == "auto" else {name.strip() for name in policy.split(",")}
    entry_points = [
        {
            "name": ep.name,
            "value": ep.value,
            "usable": loads_plugins and policy != "none" and (allowed is None or ep.name in allowed),
        }
        for ep in importlib.metadata.entry_points(group=PLUGIN_GROUP)
        if ep.module.partition(".")[0] in _OUR_MODULES
    ]
    named = {name.strip() for name in os.environ.get(EXTERNAL_MODULES, "").split(",")}
    autoload = {
        "pth": pth,
        "pth_active": BOOTSTRAP in sys.modules,
        "entry_points": entry_points,
        "verl_loads_plugins": loads_plugins,
        "external_modules": bool(named & _OUR_MODULES),
    }
    autoload["routes"] = [
        route
        for route, ok in (
            ("pth", autoload["pth_active"]),
            ("entry_point", any(ep["usable"] for ep in entry_points)),
            (EXTERNAL_MODULES, autoload["external_modules"]),
        )
        if ok
    ]
    return autoload


def _trainer(v1_trainer_mode: str | None) -> dict:
    """The trainer class ``python -m verl.trainer.main_ppo`` builds for the config (a v1 trainer
    chosen by name where the config selects ``trainer.use_v1``, verl >= 0.9; else
    ``RayPPOTrainer``), and whether torch_memory patches it or a class it inherits from."""
    try:
        if v1_trainer_mode is not None:
            from verl.trainer.ppo.v1 import get_trainer_cls

            trainer = get_trainer_cls(v1_trainer_mode)
        else:
            from verl.trainer.ppo.ray_trainer import RayPPOTrainer as trainer
    except Exception as exc:
        return {"class": None, "patched": False, "error": f"{type(exc).__name__}: {exc}"}
    patched = status()["fixes"].get("torch_memory", {}).get("patched", [])
    return {
        "class": f"{trainer.__module__}.{trainer.__qualname__}",
        "patched": any(cls in trainer.__mro__ for cls in _patched_classes(patched)),
        "error": None,
    }


def _patched_classes(patched: list):
    for target in patched:
        module, path = target.split(":", 1)
        owner = sys.modules.get(module)
        for part in path.split(".")[:-1]:
            owner = getattr(owner, part, None)
        if isinstance(owner, type):
            yield owner


def collect(plan: dict | None, source: str = "", classes: list = ()) -> dict:
    """The whole report as plain data (what ``--json`` prints)."""
    versions = {"python": platform.python_version(), **{name: _version(name) for name in PACKAGES}}
    versions["verl-compat"] = __version__
    probes = modules = None
    probe_error = None
    # verl and its dependencies may print at import; keep stdout for the report (--json).
    with contextlib.redirect_stdout(sys.stderr):
        verl = _import_verl()
        if verl["importable"]:
            from . import probes as probes_module

            try:
                probes = probes_module.values()
            except Exception as exc:
                probe_error = f"{type(exc).__name__}: {exc}"
            modules = _import_targets()
    shim = status()
    oom = oom_snapshot.provider() if verl["importable"] else None
    report = {
        "versions": versions,
        "python_executable": sys.executable,
        "verl": verl,
        "probes": probes,
        "probe_error": probe_error,
        "autoload": _autoload(),
        "env": {name: os.environ.get(name) for name in ENV},
        "status": shim,
        "target_modules": modules,
        "oom_snapshot": oom,
        "config": None,
    }
    if plan is not None:
        torch_memory = plan["torch_memory"]
        patched = shim["fixes"].get("torch_memory", {}).get("patched", [])
        calls = torch_memory_calls(torch_memory, (probes or {}).get("stop_profile_takes_run_command"), patched)
        report["config"] = {"source": source, "torch_memory": {**torch_memory, **calls}, "trainer": None}
        if torch_memory["case"] and verl["importable"]:
            with contextlib.redirect_stdout(sys.stderr):
                report["config"]["trainer"] = _trainer(plan["v1_trainer_mode"])
    if classes:
        takes = (probes or {}).get("stop_profile_takes_run_command")
        report["trainers"] = [trainer_report(name, cls, takes) for name, cls in classes]
    report["problems"] = sorted(_problems(report), key=lambda problem: problem["exit_code"])
    report["exit_code"] = report["problems"][0]["exit_code"] if report["problems"] else 0
    return report


def _problems(report: dict):
    """Each thing that would stop the shim from working, with its exit code and one-line reason
    (the config's own first: among problems of one code, the first is the one-line reason)."""
    verl = report["verl"]
    if report["versions"]["verl"] is None and not verl["importable"]:
        yield _problem(NO_VERL, f"verl is not installed for {report['python_executable']}")
    elif not verl["importable"]:
        yield _problem(NO_VERL, f"verl fails to import: {verl['error']}")
    if report["probe_error"]:
        yield _problem(VERL_LACKS, f"a verl feature probe fails: {report['probe_error']}")
    config = report["config"]
    needed = bool(config and config["torch_memory"]["case"])
    if needed and report["status"]["disabled"]:
        yield _problem(SHIM_OFF, f"the config needs verl-compat, but {_toggles.DISABLE} turns it off")
    elif needed and "torch_memory" in report["status"]["disabled_fixes"]:
        yield _problem(SHIM_OFF, f"the config needs torch_memory, but {_toggles.DISABLED_FIXES} turns it off")
    elif needed and config["trainer"] and config["trainer"]["error"]:
        yield _problem(VERL_LACKS, f"cannot import the trainer this config runs: {config['trainer']['error']}")
    elif needed and config["trainer"] and not config["trainer"]["patched"]:
        trainer = config["trainer"]["class"]
        yield _problem(VERL_LACKS, f"torch_memory does not patch the trainer this config runs: {trainer}")
    for module, state in (report["target_modules"] or {}).items():
        if state.startswith("import failed"):
            yield _problem(VERL_LACKS, f"cannot patch {module}: {state}")
    for fix, state in report["status"]["fixes"].items():
        for target, reason in state["skipped"].items():
            yield _problem(VERL_LACKS, f"{fix} cannot patch {target}: {reason}")
        for where, count in state["errors"].items():
            yield _problem(VERL_LACKS, f"{fix} failed {count}x in {where} (see the log above)")
    for trainer in report.get("trainers", ()):
        if "torch_memory" in report["status"]["disabled_fixes"] or report["status"]["disabled"]:
            yield _problem(SHIM_OFF, f"{trainer['name']}: torch_memory is turned off in this environment")
        elif not trainer["served"]:
            yield _problem(TRAINER_NOT_SERVED, f"torch_memory does not serve {trainer['name']}: {trainer['why']}")
    if not report["autoload"]["routes"]:
        yield _problem(
            NOT_REACHED,
            f"verl-compat will not reach verl's trainer process: no active {PTH_FILE}, no usable "
            f"{PLUGIN_GROUP} entry point, and {EXTERNAL_MODULES} does not name verl_compat",
        )


def _problem(code: int, reason: str) -> dict:
    return {"exit_code": code, "reason": reason}


# --- table ------------------------------------------------------------------------------------


def _section(title: str, rows: list) -> list:
    width = max((len(key) for key, _ in rows), default=0)
    lines = [title]
    for key, value in rows:
        values = value if isinstance(value, list) else [value]
        for i, text in enumerate(values or ["-"]):
            lines.append(f"  {(key if i == 0 else ''):<{width}}  {text}")
    return lines + [""]


def _yes(flag) -> str:
    return "yes" if flag else "no"


def render(report: dict) -> str:
    """The report as a compact table for a person."""
    versions, verl, autoload = report["versions"], report["verl"], report["autoload"]
    verl_line = versions["verl"] or "not installed"
    if verl["importable"]:
        verl_line += f"  (importable, {verl['path']})"
    elif versions["verl"]:
        verl_line += f"  (fails to import: {verl['error']})"
    lines = _section(
        f"verl-compat {versions['verl-compat']} doctor",
        [
            ("python", f"{versions['python']}  ({report['python_executable']})"),
            ("verl", verl_line),
            *((name, versions[name] or "not installed") for name in PACKAGES[1:]),
        ],
    )
    if report["probes"] is not None:
        lines += _section("verl probes", sorted(report["probes"].items()))
    elif report["probe_error"]:
        lines += _section("verl probes", [("error", report["probe_error"])])

    pth = "not installed"
    if autoload["pth"]:
        pth = f"{autoload['pth']}, active in this interpreter: {_yes(autoload['pth_active'])}"
    eps = [
        f"{ep['name']} = {ep['value']}, loaded by this verl: {_yes(ep['usable'])}"
        for ep in autoload["entry_points"]
    ]
    loader = " (this verl loads no plugins)" if versions["verl"] and not autoload["verl_loads_plugins"] else ""
    lines += _section(
        "auto-load",
        [
            (".pth", pth),
            (PLUGIN_GROUP, eps or f"not installed{loader}"),
            *((name, "(unset)" if value is None else value) for name, value in report["env"].items()),
            ("routes", ", ".join(autoload["routes"]) or "none"),
        ],
    )
    lines += _render_patches(report)
    if report["config"]:
        lines += _render_plan(report["config"])
    for trainer in report.get("trainers", ()):
        lines += _render_trainer(trainer)
    if report["problems"]:
        lines += _section("problems", [(f"exit {p['exit_code']}", p["reason"]) for p in report["problems"]])
    else:
        lines.append("healthy")
    return "\n".join(lines).rstrip()


def _render_patches(report: dict) -> list:
    shim = report["status"]
    if shim["disabled"]:
        return _section("patches", [("disabled", f"{_toggles.DISABLE} is set: nothing is patched")])
    if report["target_modules"] is None:
        return _section("patches", [("none", "verl is not importable")])
    rows = []
    for fix, state in shim["fixes"].items():
        skipped = [f"skipped {target}: {reason}" for target, reason in state["skipped"].items()]
        rows.append((fix, [f"patched {target}" for target in state["patched"]] + skipped))
    rows += [(name, f"disabled by {_toggles.DISABLED_FIXES}") for name in shim["disabled_fixes"]]
    for module, state in report["target_modules"].items():
        if state == "absent":
            rows.append(("absent", f"{module} (not in this verl)"))
        elif state != "imported":
            rows.append(("import failed", f"{module}: {state}"))
    if report["oom_snapshot"]:
        rows.append(("OOM snapshot", f"{report['oom_snapshot']['provider']}: {report['oom_snapshot']['why']}"))
    return _section("patches", rows)


_CASES = {
    0: "tool is not torch_memory: nothing to do",
    1: "legacy: tool=torch_memory, no global_profiler.steps",
    2: "new style: global_profiler.steps set, actor profiler enabled",
    3: "mixed (verl #6181): global_profiler.steps set, actor profiler enable=False",
}


def _render_plan(config: dict) -> list:
    plan, trainer = config["torch_memory"], config["trainer"]
    rows = [("torch_memory case", f"{plan['case']} ({_CASES[plan['case']]})")]
    if trainer:
        patched = "patched" if trainer["patched"] else "NOT patched by torch_memory"
        rows.append(("trainer", f"{trainer['class']} ({patched})" if trainer["class"] else trainer["error"]))
    if plan["case"]:
        steps = ",".join(map(str, plan["steps"])) if plan["steps"] else "every step (trainer.total_training_steps)"
        rows += [
            ("config edits", plan["edits"] or "none"),
            ("profiled steps", steps),
        ]
        if plan["per_step"]:
            rows.append(("after each step N", plan["per_step"]))
        else:
            rows.append(("per-step calls", "none added: verl's own _start/_stop_profiling run at these steps"))
        rows += [
            ("legacy no-ops", plan["neutralised"]),
            ("dumps", f"{plan['dumps']}  (actor ranks: {plan['ranks']})"),
            ("warning", "once per process (VerlCompatDeprecationWarning)" if plan["warns"] else "none"),
        ]
        if plan["replacement_overrides"]:
            rows.append(("replace with", plan["replacement_overrides"]))
    if plan["problems"]:
        rows.append(("config problems", plan["problems"]))
    return _section(f"config: {config['source']}", rows)


def _render_trainer(trainer: dict) -> list:
    served = "yes" if trainer["served"] else f"NO: {trainer['why']}"
    rows = [
        ("legacy config served", served),
        ("__init__", trainer["__init__"]),
        ("_stop_profiling", trainer["_stop_profiling"]),
        ("fit", trainer["fit"]),
    ]
    if trainer["per_step"]:
        rows += [("after each step N", trainer["per_step"]), ("legacy no-ops", trainer["neutralised"])]
    return _section(f"trainer: {trainer['name']}", rows)
