"""doctor's ``stack`` section: the installed vLLM, SGLang, transformers, torch, Megatron and friends
against what the installed verl declares, ran in its CI, enforces and imports, for the config's path
(``verl_compat.stack``; docs/stack.md).

Versions come from distribution metadata, never from importing the packages. Without overrides the
path is verl's own defaults (its ``ppo_trainer.yaml`` composed as it ships: 0.9's v1 trainer, no
rollout backend named, so no backend is required and every installed one is read).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import stack
from .config import BadInput, compose


def collect(verl: str | None, config: Any, config_dir: Path | None) -> dict[str, Any]:
    """The stack verdict as plain data (``--json``'s ``stack``), plus where the config came from."""
    source = "your config"
    if config is None:
        config, source = _defaults(config_dir), "verl's defaults; give your overrides for your run's path"
    try:
        found = stack.judge(verl, stack.of_config(config))
    except Exception as exc:  # a config doctor composed but cannot read is an answer, not a traceback
        found = stack.Verdict(
            verl, None, f"the stack could not be judged: {type(exc).__name__}: {exc}", stack.RunPath()
        )
    return {**found.as_dict(), "config": source, "launch_check": stack.enabled()}


def _defaults(config_dir: Path | None) -> Any:
    if config_dir is None:
        return None
    try:
        return compose(config_dir, [])
    except BadInput:
        return None


def rows(section: dict[str, Any]) -> list[tuple[str, Any]]:
    """The section's rows: the row and path used, then one line per finding, errors first."""
    path = section["path"]
    row = section["row"] or "none"
    head = [("verl row", f"{row}{'  (' + section['note'] + ')' if section['note'] else ''}")]
    if section["row"] is None:
        return head
    head.append(("path", f"{path['describe']}  (from {section['config']})"))
    head += [("workers", f"may run in another environment, not checked here: {why}") for why in path["elsewhere"]]
    order = {level: i for i, level in enumerate(stack.LEVELS)}
    findings = sorted(section["findings"], key=lambda f: order[f["level"]])
    body = [
        (f["package"], f"{f['level']}: {f['installed'] or 'not installed'}  {f['says']}  [{f['source']}]")
        for f in findings
    ]
    return head + body
