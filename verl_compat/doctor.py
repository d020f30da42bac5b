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

from . import __version__, _toggles, patching, probes, registry, status
from .probes import EXTERNAL_MODULES

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
  {TRAINER_NOT_SERVED}  a --trainer class would not be served by a fix with trainer hooks

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
        help="a trainer class of your own (or a recipe's) to check: whether and how each fix's trainer "
        "hooks reach it; repeatable",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args) -> int:
    config_dir = probes.verl_config_dir()
    config = None
    if config_dir is not None and (args.overrides or args.config):
        try:
            config = _read_config(config_dir, args.overrides, args.config)
        except BadInput as exc:
            print(f"verl-compat doctor: {exc}", file=sys.stderr)
            return BAD_INPUT
    try:
        classes = [(name, _import_trainer(name)) for name in args.trainer]
    except BadInput as exc:
        print(f"verl-compat doctor: {exc}", file=sys.stderr)
        return BAD_INPUT
    report = collect(config, _describe_source(args), classes)
    print(json.dumps(report, indent=2, default=str) if args.json else render(report))
    if report["problems"]:
        print(f"verl-compat doctor: {report['problems'][0]['reason']}", file=sys.stderr)
    return report["exit_code"]


# --- config -----------------------------------------------------------------------------------


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
        raise BadInput(f"cannot compose the config: {_message(exc)}") from exc


def _message(exc: Exception) -> str:
    """The first line of a Hydra or OmegaConf error's message (their type names tell a user nothing)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _read_config(config_dir: Path, overrides: list, config_file: str | None):
    """The composed config, checked to resolve, before verl is imported."""
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    with registry.looking():  # a fix that would stop the launch records why, for its describe()
        config = compose(config_dir, overrides, config_file)
    try:
        OmegaConf.to_container(config, resolve=True)
    except OmegaConfBaseException as exc:
        raise BadInput(f"the config does not resolve: {_message(exc)}") from exc
    return config


def _ask(fixes: list, hook: str, subject) -> dict:
    """Each fix's ``hook(subject)`` (``describe(config)``, ``describe_trainer(cls)``: the fix
    contract), by fix name; a failing one is shown as failed. verl prints at import: stdout is kept
    for the report."""
    answers = {}
    for fix in fixes:
        if callable(getattr(fix, hook, None)):
            with contextlib.redirect_stdout(sys.stderr):
                answer = registry.run_hook(fix, hook, subject)
            answers[fix.NAME] = answer if isinstance(answer, dict) else _failed_entry(fix, hook)
    return answers


def _failed_entry(fix, hook: str) -> dict:
    reason = f"{fix.NAME}.{hook}() failed (see the log above)"
    return {"acts": False, "served": False, "why": reason, "rows": [(fix.NAME, reason)], "cannot": [reason]}


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
        raise BadInput(f"cannot import {name}: {registry.first_line(exc)}") from None
    if not isinstance(owner, type):
        raise BadInput(f"--trainer {name}: not a class")
    return owner


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


def _import_targets() -> dict:
    """Import every module a fix patches: patches are applied by post-import hooks, so only an
    imported module shows in ``status()`` what the shim does to this verl."""
    modules = {}
    for fix in patching.loaded():
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


def collect(config=None, source: str = "", classes: list = ()) -> dict:
    """The whole report as plain data (what ``--json`` prints)."""
    versions = {"python": platform.python_version(), **{name: _version(name) for name in PACKAGES}}
    versions["verl-compat"] = __version__
    probe_values = modules = None
    probe_error = None
    # verl and its dependencies may print at import; keep stdout for the report (--json).
    with contextlib.redirect_stdout(sys.stderr):
        verl = _import_verl()
        if verl["importable"]:
            try:
                probe_values = probes.values()
            except Exception as exc:
                probe_error = f"{type(exc).__name__}: {exc}"
            modules = _import_targets()
    fixes = patching.loaded()
    report = {
        "versions": versions,
        "python_executable": sys.executable,
        "verl": verl,
        "probes": probe_values,
        "probe_error": probe_error,
        "autoload": _autoload(),
        "env": {name: os.environ.get(name) for name in ENV},
        "status": status(),
        "target_modules": modules,
        "fix_rows": {fix.NAME: _rows_of(fix) for fix in fixes} if verl["importable"] else {},
        "config": None,
    }
    if config is not None:
        report["config"] = {"source": source, "fixes": _ask(fixes, "describe", config)}
    if classes:
        report["trainers"] = [{"name": name, "fixes": _ask(fixes, "describe_trainer", cls)} for name, cls in classes]
    report["problems"] = sorted(_problems(report), key=lambda problem: problem["exit_code"])
    report["exit_code"] = report["problems"][0]["exit_code"] if report["problems"] else 0
    return report


def _rows_of(fix) -> list:
    """A fix's own rows for the "patches" section (``doctor_rows``, optional)."""
    rows = registry.run_hook(fix, "doctor_rows") if callable(getattr(fix, "doctor_rows", None)) else None
    return list(rows or [])


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
    shim = report["status"]
    for name, entry in (report["config"] or {}).get("fixes", {}).items():
        if entry.get("acts") and shim["disabled"]:
            yield _problem(SHIM_OFF, f"the config needs verl-compat, but {_toggles.DISABLE} turns it off")
        elif entry.get("acts") and name in shim["disabled_fixes"]:
            yield _problem(SHIM_OFF, f"the config needs {name}, but {_toggles.DISABLED_FIXES} turns it off")
        else:
            for reason in entry.get("cannot", ()):
                yield _problem(VERL_LACKS, reason)
    for module, state in (report["target_modules"] or {}).items():
        if state.startswith("import failed"):
            yield _problem(VERL_LACKS, f"cannot patch {module}: {state}")
    for fix, state in shim["fixes"].items():
        if "failed" in state:
            reason = f"the {fix} fix cannot be loaded, verl-compat runs without it: {state['failed']}"
            yield _problem(VERL_LACKS, reason)
        for target, reason in state["skipped"].items():
            yield _problem(VERL_LACKS, f"{fix} cannot patch {target}: {reason}")
        for where, count in state["errors"].items():
            yield _problem(VERL_LACKS, f"{fix} failed {count}x in {where} (see the log above)")
    for trainer in report.get("trainers", ()):
        for fix, verdict in trainer["fixes"].items():
            if fix in shim["disabled_fixes"] or shim["disabled"]:
                yield _problem(SHIM_OFF, f"{trainer['name']}: {fix} is turned off in this environment")
            elif not verdict.get("served"):
                yield _problem(TRAINER_NOT_SERVED, f"{fix} does not serve {trainer['name']}: {verdict.get('why')}")
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
        if "failed" in state:
            rows.append((fix, f"FAILED to load: {state['failed']}"))
            continue
        skipped = [f"skipped {target}: {reason}" for target, reason in state["skipped"].items()]
        rows.append((fix, [f"patched {target}" for target in state["patched"]] + skipped))
    rows += [(name, f"disabled by {_toggles.DISABLED_FIXES}") for name in shim["disabled_fixes"]]
    for module, state in report["target_modules"].items():
        if state == "absent":
            rows.append(("absent", f"{module} (not in this verl)"))
        elif state != "imported":
            rows.append(("import failed", f"{module}: {state}"))
    for fix_rows in report["fix_rows"].values():
        rows += [tuple(row) for row in fix_rows]
    return _section("patches", rows)


def _render_plan(config: dict) -> list:
    rows = [tuple(row) for entry in config["fixes"].values() for row in entry.get("rows", ())]
    return _section(f"config: {config['source']}", rows)


def _render_trainer(trainer: dict) -> list:
    rows = [tuple(row) for verdict in trainer["fixes"].values() for row in verdict.get("rows", ())]
    return _section(f"trainer: {trainer['name']}", rows)
