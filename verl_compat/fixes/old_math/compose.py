"""Where old_math acts: three wrappers on Hydra's ``ConfigLoaderImpl``, the functions config_keys
wraps too (its module docstring says what each does inside a composition). old_math is registered
after config_keys, so its wrappers are the outer ones: it sees the launch's overrides as written,
and the config once config_keys has translated the old keys.

1. ``_compose_config_from_defaults_list``: is this verl's PPO trainer config (``ppo_trainer`` or
   ``ppo_megatron_trainer`` from verl's directory), and which keys the user's own YAML sets.
2. ``_apply_overrides_to_config``: the launch's override lines; ``verl_compat.launch_release=…``
   is taken out here, so verl never sees it.
3. ``_load_configuration_impl`` returns: the release, the trainer and the rows are decided on the
   composed config (:func:`.decide.decide`, which sets the restoring keys), then warned, or the
   launch stops with one error naming every key V1 (or this verl) cannot honour. Inside
   ``registry.looking()`` (doctor) the decision is recorded instead.
"""

from __future__ import annotations

import dataclasses

from hydra.errors import ConfigCompositionException

from ... import compositions, deprecation, registry
from ...configs import is_users_source, is_verl_source
from ...registry import Patch, Plan, guard, is_looking
from . import decide, findings, messages, releases

NAME = registry.fix_name(__name__)
TRAINER_CONFIGS = ("ppo_trainer", "ppo_megatron_trainer")


class MathStopError(ConfigCompositionException):
    """The launch asks for what the trainer it runs on cannot do. A ``ConfigCompositionException``:
    the Hydra CLI prints its message alone, without a traceback."""


@dataclasses.dataclass
class _Session:
    verl: bool = False
    config_name: str = "ppo_trainer"
    overrides: list[str] = dataclasses.field(default_factory=list)
    yaml_keys: set[str] = dataclasses.field(default_factory=set)
    declared: str | None = None


_sessions = compositions.Sessions(_Session)
_current = _sessions.current


def load_configuration(wrapped, instance, args, kwargs):
    with _sessions.opened() as session:
        cfg = wrapped(*args, **kwargs)
    error = None
    if session.verl:
        with guard(NAME, "load_configuration"):
            error = _decide(cfg, session)
    if error is not None:
        raise MathStopError(error)
    return cfg


def _decide(cfg, session: _Session) -> str | None:
    launch = releases.launch(session.config_name, _paths(cfg), session.overrides, session.declared)
    set_keys = {releases.parse_key(line)[0] for line in session.overrides} | session.yaml_keys
    decision = decide.decide(cfg, launch, set_keys)
    if is_looking():
        findings.record_look(cfg, decision)
        return None
    findings.record(summary(decision))
    if decision.stops:
        return messages.stop_message(decision)
    for key, text in (("trainer", messages.trainer_warning(decision)), ("math", messages.math_warning(decision))):
        if text:
            deprecation.warn_once(f"{NAME}:{key}:{text}", text)
    return None


def summary(decision: decide.Decision) -> dict:
    return {
        "release": decision.launch.said(),
        "trainer": decision.trainer,
        "rows": {outcome.row.name: outcome.action for outcome in decision.outcomes},
    }


def compose_from_defaults(wrapped, instance, args, kwargs):
    cfg = wrapped(*args, **kwargs)
    session = _current()
    if session is None:
        return cfg
    with guard(NAME, "_compose_config_from_defaults_list"):
        defaults, repo = compositions.defaults_and_repo(*args, **kwargs)
        for default in defaults:
            loaded = repo.load_config(default.config_path) if default.config_path else None
            source = loaded.path if loaded is not None else ""
            name = (default.config_path or "").removesuffix(".yaml")
            if name in TRAINER_CONFIGS and is_verl_source(source):
                session.verl, session.config_name = True, name
            elif loaded is not None and is_users_source(source):
                package = default.package if default.package is not None else (loaded.header.get("package") or "")
                session.yaml_keys |= _user_keys(loaded.config, package)
    return cfg


def apply_overrides(wrapped, instance, args, kwargs):
    session = _current()
    if session is not None and session.verl:
        with guard(NAME, "_apply_overrides_to_config"):
            overrides, cfg = compositions.overrides_and_cfg(*args, **kwargs)
            lines = [override.input_line for override in overrides]
            declared = [line for line in lines if releases.is_declaration(line)]
            if declared:
                session.declared = releases.declared_value(declared[-1])
                args, kwargs = ([o for o in overrides if not releases.is_declaration(o.input_line)], cfg), {}
            session.overrides = [line for line in lines if not releases.is_declaration(line)]
    return wrapped(*args, **kwargs)


def _user_keys(config, package: str) -> set[str]:
    from omegaconf import OmegaConf

    keys: set[str] = set()
    _walk(OmegaConf.to_container(config, resolve=False), package, keys)
    return {key for key in keys if not key.startswith(("hydra", "defaults"))}


def _paths(cfg) -> set[str]:
    from omegaconf import OmegaConf

    keys: set[str] = set()
    _walk({k: v for k, v in OmegaConf.to_container(cfg, resolve=False).items() if k != "hydra"}, "", keys)
    return keys


def _walk(node, prefix: str, out: set[str]) -> None:
    if isinstance(node, dict):
        if prefix:
            out.add(prefix)
        for key, value in node.items():
            _walk(value, f"{prefix}.{key}" if prefix else str(key), out)
    elif prefix:
        out.add(prefix)


def plan(module) -> Plan:
    """Three functions of Hydra's ``ConfigLoaderImpl`` (hydra-core 1.3)."""
    return Plan(
        (
            Patch("ConfigLoaderImpl._load_configuration_impl", load_configuration, "decide the math"),
            Patch("ConfigLoaderImpl._compose_config_from_defaults_list", compose_from_defaults, "verl's? user keys"),
            Patch("ConfigLoaderImpl._apply_overrides_to_config", apply_overrides, "the launch's overrides"),
        )
    )
