"""Where Hydra composes verl's config: four wrappers on Hydra's ``ConfigLoaderImpl``, one
composition at a time (a per-thread stack of sessions).

Every way a verl config is composed goes through ``ConfigLoaderImpl._load_configuration_impl``:
``@hydra.main`` (``python -m verl.trainer.main_ppo …``, ``--cfg job``, ``--config-path``) and the
compose API (``hydra.compose``). Inside it, in order:

1. ``_parse_overrides_and_create_caching_repo`` parses the overrides and builds the search path:
   the first moment the search path says whether verl's ``verl/trainer/config`` is in it. Config
   group options are translated here, before the defaults list is built from them.
2. ``_compose_config_from_defaults_list`` merges the config files: the defaults list says whether
   this is verl's PPO trainer config (``ppo_trainer`` / ``ppo_megatron_trainer`` from verl's
   directory, as the primary config or in a user's defaults chain). Old keys in a user's own
   YAML are moved here, before struct mode makes them unreachable.
3. ``_apply_overrides_to_config`` (a staticmethod) applies the key overrides to the composed
   config: they are translated here against it, before Hydra rejects the first old one; a
   ``+key=`` addition of a key verl has since added becomes ``key=``.
4. When ``_load_configuration_impl`` returns, the legacy reward block gets the default old verl
   gave it where the release leaves it null (:mod:`.legacy_defaults`), and the deprecated global
   micro-batch sizes are divided per GPU where no legacy worker does it
   (:mod:`.global_micro_batches`), and a role's ``use_torch_compile=false`` reaches its FSDP engine
   (:mod:`.torch_compile`), the critic's micro-batching reaches its engine (:mod:`.critic_batches`),
   and an old process-group timeout is put in the workers' environment
   (:mod:`.nccl_timeout`); each finding is warned
   once; keys that ask for what this verl cannot do stop the composition with one error that
   lists them all.

Another Hydra application composes through the same functions: without verl's config directory
in its search path and verl's trainer config in its defaults, nothing is touched.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from hydra.core.override_parser.overrides_parser import OverridesParser
from hydra.errors import ConfigCompositionException

from ... import compositions, deprecation, registry
from ...configs import is_users_source, is_verl_source
from ...registry import Patch, Plan, guard, is_looking
from . import (
    critic_batches,
    findings,
    global_micro_batches,
    legacy_defaults,
    nccl_timeout,
    table,
    torch_compile,
    translate,
)

if TYPE_CHECKING:
    from hydra.core.override_parser.types import Override

NAME = registry.fix_name(__name__)


class RemovedConfigKeysError(ConfigCompositionException):
    """The launch config sets keys the installed verl removed, or sets a renamed key and its
    successor differently. A ``ConfigCompositionException``: the Hydra CLI prints its message
    alone, without a traceback."""


@dataclasses.dataclass
class _Session:
    verl: bool = False
    findings: list[translate.Finding] = dataclasses.field(default_factory=list)


_sessions = compositions.Sessions(_Session)
_current = _sessions.current


def _source(repo, config_path) -> str:
    loaded = repo.load_config(config_path) if config_path else None
    return loaded.path if loaded is not None else ""


# --- the wrappers --------------------------------------------------------------------------------


def load_configuration(wrapped, instance, args, kwargs):
    """One composition: collect findings through the inner wrappers, then warn, or stop."""
    with _sessions.opened() as session:
        cfg = wrapped(*args, **kwargs)
    if session.verl:
        with guard(NAME, "legacy defaults"):
            session.findings.extend(legacy_defaults.apply(cfg))
        with guard(NAME, "global micro-batch sizes"):
            session.findings.extend(global_micro_batches.apply(cfg))
        with guard(NAME, "use_torch_compile"):
            session.findings.extend(torch_compile.apply(cfg))
        with guard(NAME, "critic micro-batches"):
            session.findings.extend(critic_batches.apply(cfg))
        with guard(NAME, "nccl_timeout"):
            session.findings.extend(nccl_timeout.apply(cfg))
    error = None
    with guard(NAME, "load_configuration"):
        if is_looking():
            findings.record_look(cfg, tuple(session.findings))
        else:
            error = report(session.findings)
    if error is not None:
        raise RemovedConfigKeysError(error)
    return cfg


_GROUP_ROWS = tuple(row for row in table.ROWS if row.group)  # config-group options


def parse_overrides(wrapped, instance, args, kwargs):
    """Mark the composition as verl's when verl's config directory is in the search path, and
    translate config group options."""
    parsed, repo = wrapped(*args, **kwargs)
    session = _current()
    if session is None:
        return parsed, repo
    with guard(NAME, "_parse_overrides_and_create_caching_repo"):
        session.verl = any(is_verl_source(source.full_path()) for source in repo.get_sources())
        if session.verl and _GROUP_ROWS:
            lines = [override.input_line for override in parsed]
            probe = _RepoProbe(repo)
            translation = translate.translate_overrides(lines, probe, _GROUP_ROWS)
            session.findings.extend(translation.findings)
            if list(translation.overrides) != lines:
                parsed = _reparsed(parsed, translation.overrides)
    return parsed, repo


def compose_from_defaults(wrapped, instance, args, kwargs):
    """Confirm the config is verl's PPO trainer config, and move old keys a user's YAML sets."""
    cfg = wrapped(*args, **kwargs)
    session = _current()
    if session is None or not session.verl:
        return cfg
    verl_only = None
    with guard(NAME, "_compose_config_from_defaults_list"):
        defaults, repo = compositions.defaults_and_repo(*args, **kwargs)
        sources = {d.config_path: _source(repo, d.config_path) for d in defaults}
        session.verl = any(
            _name(d.config_path) in table.TRAINER_CONFIGS and is_verl_source(sources[d.config_path]) for d in defaults
        )
        user = [d for d in defaults if is_users_source(sources[d.config_path])]
        if session.verl and user and _users_set_old_key(user, repo):
            verl_only = [d for d in defaults if d not in user]
    if verl_only is not None:
        # The installed release's own config, from the same Hydra function without the user's
        # files: the probe says which of the user's keys verl no longer has. Only composed when
        # a user's YAML sets a key of the table; a second call made only to look, so under the
        # guard (the user's composition is the first call's, returned as it is).
        # A fresh repository: Hydra merges the files' nodes without copying them, so the cached
        # ones now hold the user's keys (a user's `trainer.profile_steps` lands in the cached
        # ppo_trainer.yaml's own `trainer` node).
        with guard(NAME, "_compose_config_from_defaults_list"):
            own = wrapped(defaults=verl_only, repo=_fresh(repo))
            session.findings.extend(translate.translate_config(cfg, translate.ConfigProbe(own)))
    return cfg


def apply_overrides(wrapped, instance, args, kwargs):
    """Translate the key overrides against the composed config, before Hydra applies them."""
    session = _current()
    if session is not None and session.verl:
        with guard(NAME, "_apply_overrides_to_config"):
            overrides, cfg = compositions.overrides_and_cfg(*args, **kwargs)
            lines = [override.input_line for override in overrides]
            probe = translate.ConfigProbe(cfg)
            translation = translate.translate_overrides(lines, probe)
            settled = translate.settle_additions(translation.overrides, probe)
            session.findings.extend(translation.findings + settled.findings)
            if list(settled.overrides) != lines:
                args, kwargs = (_reparsed(overrides, settled.overrides), cfg), {}
    return wrapped(*args, **kwargs)


def _reparsed(parsed: Iterable[Override], lines: Sequence[str]) -> list[Override]:
    """``lines`` as Hydra ``Override`` objects: those already parsed kept, the new ones parsed."""
    known = {override.input_line: override for override in parsed}
    new = [line for line in lines if line not in known]
    known.update(zip(new, OverridesParser.create().parse_overrides(overrides=new), strict=True))
    return [known[line] for line in lines]


def _fresh(repo):
    """The same config sources without the loaded (and merged into) configs: a new
    ``CachingConfigRepository`` over its delegate."""
    return type(repo)(repo.delegate)


def _name(config_path) -> str:
    """``ppo_trainer`` for ``ppo_trainer`` and ``ppo_trainer.yaml`` (``--config-name`` takes both)."""
    return (config_path or "").removesuffix(".yaml")


def _users_set_old_key(user, repo) -> bool:
    """Whether a user's own file sets a path of the table, read in the file itself (the repository
    has it loaded): only then can the merged config hold an old key that verl's own files lack. The
    merged config cannot say: verl 0.8.0's own files still have many of the table's paths, and
    composing verl's files alone to tell costs about as much as the composition itself."""
    for default in user:
        loaded = repo.load_config(config_path=default.config_path)
        if loaded is None:
            return True  # cannot tell: compose verl's files alone and look
        package = default.package if default.package is not None else (loaded.header.get("package") or "")
        if any(_sets(loaded.config, package, row.old) for row in table.ROWS if not row.group):
            return True
    return False


def _sets(config, package: str, path: str) -> bool:
    """Whether ``config``, a file's own config placed at ``package``, sets ``path`` (or, for a file
    placed inside ``path``, anything)."""
    if not package:
        return translate.node_at(config, path) is not None
    if path.startswith(package + "."):
        return translate.node_at(config, path[len(package) + 1 :]) is not None
    return (package == path or package.startswith(path + ".")) and bool(config)


@dataclasses.dataclass(frozen=True)
class _RepoProbe:
    """Config group options, from the composition's config repository."""

    repo: object

    def has_key(self, path: str) -> bool:
        return True

    def is_free_form(self, path: str) -> bool:
        return False

    def has_option(self, group: str, option: str) -> bool:
        return self.repo.config_exists(f"{group}/{option}")

    def calls(self, entry: str, function: str) -> bool:
        return True  # group options only: no row here has a reader


# --- what the user is told -----------------------------------------------------------------------


def report(found) -> str | None:
    """Warn once per key; return the error text when a finding stops the run."""
    stops = translate.stopping(found)
    for finding in found:
        findings.record(finding.key, finding.new_key or finding.row.fate)
        if finding not in stops:
            deprecation.warn_once(f"{NAME}:{finding.key}", finding.warning())
    return translate.stop_message(stops) if stops else None


def plan(module) -> Plan:
    """The four functions of Hydra's ``ConfigLoaderImpl`` (hydra-core 1.3)."""
    return Plan(
        (
            Patch("ConfigLoaderImpl._load_configuration_impl", load_configuration, "one composition"),
            Patch("ConfigLoaderImpl._parse_overrides_and_create_caching_repo", parse_overrides, "verl's? groups"),
            Patch("ConfigLoaderImpl._compose_config_from_defaults_list", compose_from_defaults, "a user's YAML"),
            Patch("ConfigLoaderImpl._apply_overrides_to_config", apply_overrides, "key overrides"),
        )
    )
