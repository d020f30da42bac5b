"""torch_memory, as ``verl-compat doctor`` shows it: what the fix does to a config on this verl, and
whether its trainer hooks serve a trainer class (the ``describe`` and ``describe_trainer`` parts of
the fix contract, docs/fix_contract.md).

Reads the config with :mod:`.translate` (exactly what the run-time fix reads), the installed verl
through :mod:`.probes`, and what is wrapped through :mod:`verl_compat.wrapping` and
:mod:`verl_compat.reach`. Only looks: nothing is patched, shipped or warned.
"""

from __future__ import annotations

from typing import Any

from ... import reach, registry, wrapping
from ...probes import verl_importable
from . import probes
from . import translate as config_step
from .runtime import LEGACY_CALL, step_calls
from .translate import Case

NAME = registry.fix_name(__name__)

DoctorRow = tuple[str, str | list[str]]  # (label, value or values), as doctor prints them

CASES = {
    Case.NONE: "tool is not torch_memory: nothing to do",
    Case.LEGACY: "tool=torch_memory, no global_profiler.steps",
    Case.NEW_STYLE: "global_profiler.steps set, actor profiler enabled",
    Case.MIXED: "global_profiler.steps set, actor profiler enable=False: verl #6181",
}


def _stop_takes_run_command() -> bool | None:
    """Whether this verl's ``stop_profile`` takes ``run_command``; None where verl does not import."""
    try:
        return probes.stop_profile_takes_run_command()
    except Exception:
        return None


def _call_text(method: str, kwargs: dict[str, object]) -> str:
    return f"actor_rollout_wg.{method}({', '.join(f'{key}={value}' for key, value in kwargs.items())})"


def calls(case: Case, stop_takes_run_command: bool | None) -> dict[str, list[str]]:
    """The calls the fix makes in ``case`` on this verl (the same ``step_calls`` that drive them,
    with symbolic arguments), and the legacy calls it turns into no-ops."""
    if case == Case.NONE:
        return {"per_step": [], "neutralised": []}
    per_step = []
    if case == Case.LEGACY:
        per_step = [_call_text(m, kw) for m, kw in step_calls("N", "N >= total_training_steps", stop_takes_run_command)]
        if stop_takes_run_command is None:  # verl not importable: the stop arguments are unknown
            per_step[-1] = "actor_rollout_wg.stop_profile(...)"
    legacy = [entry.label for entry in wrapping.applied(NAME) if entry.path.endswith("._fit_torch_memory")]
    return {"per_step": per_step, "neutralised": [f"actor_rollout_wg.{LEGACY_CALL}", *legacy]}


def _trainer(config) -> dict[str, str | bool | None]:
    """The trainer class ``python -m verl.trainer.main_ppo`` builds for ``config``, and whether the
    fix patches it or a class it inherits from."""
    try:
        trainer = probes.trainer_class_for(config)
    except Exception as exc:
        return {"class": None, "patched": False, "error": registry.first_line(exc)}
    owners = {entry.owner for entry in wrapping.applied(NAME)}
    return {
        "class": f"{trainer.__module__}.{trainer.__qualname__}",
        "patched": any(cls in owners for cls in trainer.__mro__),
        "error": None,
    }


def describe(config) -> dict[str, Any]:
    """What the fix will do to ``config`` on this verl: the config edits, the calls, the trainer that runs
    it; ``acts``, ``rows`` and ``cannot`` for doctor."""
    report = config_step.describe(config)
    acts = report["case"] != Case.NONE
    report.update(calls(Case(report["case"]), _stop_takes_run_command()))
    report["trainer"] = _trainer(config) if acts and verl_importable() else None
    report["acts"] = acts
    report["rows"] = _rows(report)
    report["cannot"] = _cannot(report)
    return report


def _cannot(report: dict[str, Any]) -> list[str]:
    trainer = report["trainer"]
    if not trainer:
        return []
    if trainer["error"]:
        return [f"cannot import the trainer this config runs: {trainer['error']}"]
    if not trainer["patched"]:
        return [f"torch_memory does not patch the trainer this config runs: {trainer['class']}"]
    return []


def _rows(report: dict[str, Any]) -> list[DoctorRow]:
    rows: list[DoctorRow] = [("torch_memory case", f"{report['case']} ({CASES[Case(report['case'])]})")]
    trainer = report["trainer"]
    if trainer:
        patched = "patched" if trainer["patched"] else "NOT patched by torch_memory"
        rows.append(("trainer", f"{trainer['class']} ({patched})" if trainer["class"] else trainer["error"]))
    if report["acts"]:
        steps = ",".join(map(str, report["steps"])) if report["steps"] else "every step (trainer.total_training_steps)"
        rows += [("config edits", report["edits"] or "none"), ("profiled steps", steps)]
        if report["per_step"]:
            rows.append(("after each step N", report["per_step"]))
        else:
            rows.append(("per-step calls", "none added: verl's own _start/_stop_profiling run at these steps"))
        rows += [
            ("legacy no-ops", report["neutralised"]),
            ("dumps", f"{report['dumps']}  (actor ranks: {report['ranks']})"),
            ("warning", "once per process (VerlCompatDeprecationWarning)" if report["warns"] else "none"),
        ]
        if report["replacement_overrides"]:
            rows.append(("replace with", report["replacement_overrides"]))
    if report["problems"]:
        rows.append(("config problems", report["problems"]))
    return rows


def _legacy_call_places(cls: type, found: dict[str, dict[str, Any]]) -> list[str]:
    """The methods of ``cls`` whose own code (or a method it calls) makes the legacy call."""
    places = []
    stop_owner, fit_owner = found["_stop_profiling"]["owner"], found["fit"]["owner"]
    if stop_owner is not None and reach.calls(cls, vars(stop_owner)["_stop_profiling"], LEGACY_CALL, depth=1):
        places.append("_stop_profiling")
    if fit_owner is not None and reach.calls(cls, vars(fit_owner)["fit"], LEGACY_CALL, depth=0):
        places.append("fit")
    return places


def describe_trainer(cls: type) -> dict[str, Any]:
    """Whether a legacy config is served on ``cls`` (its hooks reach it), where it makes the
    legacy call and why that is harmless, and the calls made after each step."""
    coverage = reach.coverage(cls, NAME, needs=(reach.INIT, reach.STOP))
    places = _legacy_call_places(cls, reach.hooks_reach(cls, NAME))
    fit = coverage["fit"] + ("; makes the legacy dump_memory_snapshot call" if "fit" in places else "")
    legacy = "not made by this class's own code"
    if places and coverage["served"]:
        legacy = (
            f"made in {' and '.join(places)}: a no-op on the trainer's worker groups from the start of "
            "each step end (before _stop_profiling's body runs), so it neither crashes nor dumps twice"
        )
    elif places:
        legacy = f"made in {' and '.join(places)}: not neutralised, no step end of this class is reached"
    served = "yes" if coverage["served"] else f"NO: {coverage['why']}"
    rows: list[DoctorRow] = [
        ("legacy config served", served),
        ("__init__", coverage["__init__"]),
        ("_stop_profiling", coverage["_stop_profiling"]),
        ("fit", fit),
        ("legacy call", legacy),
    ]
    if coverage["served"]:
        per_step = calls(Case.LEGACY, _stop_takes_run_command())["per_step"]
        rows += [("after each step N", per_step), ("legacy no-ops", f"actor_rollout_wg.{LEGACY_CALL}")]
    return {"served": coverage["served"], "why": coverage["why"], "fit": fit, "legacy_call": legacy, "rows": rows}
