"""Old entry points: ``python -m verl.trainer.main_generation`` and ``python -m
verl.trainer.fsdp_sft_trainer``, both deleted by verl#5382 (4c8101dd2) in verl 0.7.1.

``main_generation`` runs its successor, ``verl.trainer.main_generation_server``: the same job (a
parquet of chat prompts in, the same file with a ``responses`` column of n strings per row out), on
rollout servers and verl's ``ppo_trainer`` config. Every old override is translated to that config
(verl's own ``examples/generation/run_deepseek_llm_7b.sh`` on main does the same translation by
hand), the old script's defaults are kept where the installed config's differ (``load_format`` was
``auto``, it is ``dummy``: random weights; ``top_p`` 0.7 became 1.0; ``data.n_samples`` 5 became
``rollout.n`` 1, ...), and all of it is said in one warning with the command to write instead. An
override with no equivalent stops the launch before anything starts, naming it.

``fsdp_sft_trainer`` stops with the command to write instead: its successor
``verl.trainer.sft_trainer`` reads another config (``sft_trainer_engine``) and has no single-turn
prompt/response dataset (the default of the old trainer; verl.utils.dataset.sft_dataset went in the
same change), and six defaults changed under it (``optim.lr`` 1e-5 -> 1e-3, ...). A translated run
that misread one of them would train a different model without failing, so verl-compat maps what it
can, names what it cannot, and starts nothing.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
import sys
from typing import Any

from ... import deprecation, probes
from .resolve import row

GENERATION = "verl.trainer.main_generation"
GENERATION_SERVER = "verl.trainer.main_generation_server"
SFT = "verl.trainer.fsdp_sft_trainer"
SFT_SUCCESSOR = "verl.trainer.sft_trainer"

_ABSENT = object()
_OVERRIDE = re.compile(r"^(\+\+|\+|~)?([A-Za-z_][\w.@/-]*)(?:=(.*))?$", re.S)
# Hydra's own flags that take the next argument as their value (``--info`` only some words).
_FLAGS_WITH_VALUE = (
    "--config-path",
    "-cp",
    "--config-name",
    "-cn",
    "--config-dir",
    "-cd",
    "--cfg",
    "-c",
    "--package",
    "-p",
    "--experimental-rerun",
)
_INFO_VALUES = ("all", "config", "defaults", "defaults-tree", "plugins", "searchpath")
_CONFIG_FLAGS = ("--config-path", "-cp", "--config-name", "-cn", "--config-dir", "-cd")

# verl's verl/trainer/config/generation.yaml at v0.7.0, the last release with main_generation: what an
# old launch got for every key it did not set (flattened; the ``actor`` and ``ray_kwargs`` parts are
# ignored or refused below, so they are not listed).
GENERATION_DEFAULTS: dict[str, object] = {
    "trainer.nnodes": 1,
    "trainer.n_gpus_per_node": 8,
    "trainer.device": "cuda",
    "data.path": "~/data/rlhf/math/test.parquet",
    "data.prompt_key": "prompt",
    "data.n_samples": 5,
    "data.output_path": "/opt/tiger/math_Qwen2-7B-Instruct.parquet",
    "model.path": "~/models/Qwen2-7B-Instruct",
    "model.external_lib": None,
    "rollout.name": "vllm",
    "rollout.mode": "async",
    "rollout.temperature": 1.0,
    "rollout.top_k": 50,
    "rollout.top_p": 0.7,
    "rollout.prompt_length": 1536,
    "rollout.response_length": 512,
    "rollout.dtype": "bfloat16",
    "rollout.gpu_memory_utilization": 0.5,
    "rollout.ignore_eos": False,
    "rollout.enforce_eager": True,
    "rollout.free_cache_engine": True,
    "rollout.load_format": "auto",
    "rollout.tensor_model_parallel_size": 1,
    "rollout.data_parallel_size": 1,
    "rollout.max_num_batched_tokens": 8192,
    "rollout.max_model_len": None,
    "rollout.max_num_seqs": 1024,
    "rollout.do_sample": True,
    "rollout.disable_log_stats": True,
    "rollout.enable_chunked_prefill": True,
    "rollout.calculate_log_probs": False,
}
TOP_K_NOTE = (
    "main_generation_server does not send top_k to the server (verl 0.9.1 main_generation_server.py:138), which "
    "samples without top-k"
)

# verl's verl/trainer/config/sft_trainer.yaml at v0.7.0 (fsdp_sft_trainer's config) -> the successor's
# sft_trainer_engine: key or prefix renames, in order (the first that matches).
SFT_RENAMES: tuple[tuple[str, str], ...] = (
    ("model.partial_pretrain", "model.path"),
    ("model.fsdp_config.offload_params", "engine.param_offload"),
    ("model.fsdp_config", "engine"),
    ("model.strategy", "engine.strategy"),
    ("ulysses_sequence_parallel_size", "engine.ulysses_sequence_parallel_size"),
    ("use_remove_padding", "model.use_remove_padding"),
    ("optim.lr_scheduler", "optim.lr_scheduler_type"),
    ("trainer.checkpoint", "checkpoint"),
    ("data.micro_batch_size", "data.micro_batch_size_per_gpu"),
    ("data.multiturn.messages_key", "data.messages_key"),
    ("data.multiturn.tools_key", "data.tools_key"),
    ("data.multiturn.enable_thinking_key", "data.enable_thinking_key"),
)
SFT_SINGLE_TURN = ("data.prompt_key", "data.response_key", "data.prompt_dict_keys", "data.response_dict_keys")
# The old defaults a run relied on without saying so, where the successor's changed (v0.7.0 sft_trainer.yaml
# and optim/fsdp.yaml).
SFT_DEFAULTS: dict[str, object] = {
    "optim.lr": 1e-5,
    "optim.betas": [0.9, 0.95],
    "optim.lr_warmup_steps_ratio": 0.1,
    "optim.lr_scheduler": "cosine",
    "model.strategy": "fsdp2",
    "use_remove_padding": False,
}


@dataclasses.dataclass
class Translation:
    """An old launch's overrides in the successor's config: ``args`` to pass (flags kept), each
    translated override (``changes``), each old default kept (``pinned``), ignored overrides with
    why (``ignored``), things to know (``notes``), and overrides with no equivalent (``problems``)."""

    args: list[str] = dataclasses.field(default_factory=list)
    changes: list[str] = dataclasses.field(default_factory=list)
    pinned: list[str] = dataclasses.field(default_factory=list)
    ignored: list[str] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)
    problems: list[str] = dataclasses.field(default_factory=list)


def value_text(value: object) -> str:
    """A config value as a Hydra override writes it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ",".join(value_text(item) for item in value) + "]"
    return str(value)


def lookup(config: dict, key: str) -> object:
    """``config``'s value at the dotted ``key`` (a plain nested dict), or ``_ABSENT``."""
    node: object = config
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return _ABSENT
        node = node[part]
    return node


def _same(old: object, new: object) -> bool:
    if isinstance(old, float) or isinstance(new, float):
        try:
            return float(old) == float(new)
        except (TypeError, ValueError):
            return False
    return old == new


def _split_flags(argv: list[str], out: Translation) -> list[str]:
    """Hydra's flags go through as they are, except a config of the old schema (it cannot be composed
    as the new one: refused); the overrides are returned."""
    overrides, i = [], 0
    while i < len(argv):
        arg, following = argv[i], argv[i + 1 : i + 2]
        if not arg.startswith("-"):
            overrides.append(arg)
            i += 1
            continue
        flag = arg.split("=", 1)[0]
        takes_next = (
            "=" not in arg
            and bool(following)
            and (flag in _FLAGS_WITH_VALUE or (flag in ("--info", "-i") and following[0] in _INFO_VALUES))
        )
        given = [arg, *following] if takes_next else [arg]
        if flag in _CONFIG_FLAGS:
            out.problems.append(
                f"{' '.join(given)}: a config written for the old script's schema cannot be composed as the "
                "successor's; pass its settings as overrides"
            )
        else:
            out.args.extend(given)
        i += len(given)
    return overrides


def _generation_rule(key: str, value: str | None) -> tuple[str, str | None, str]:
    """``(kind, new key, why)`` for one old override of main_generation: kind "rename", "add" (a
    key outside the schema, added with +), "ignore" or "refuse"."""
    exact = {
        "data.path": "data.train_files",
        "data.prompt_key": "data.prompt_key",
        "data.n_samples": "actor_rollout_ref.rollout.n",
        "data.trust_remote_code": "actor_rollout_ref.model.trust_remote_code",
    }
    if key in exact:
        return "rename", exact[key], ""
    if key == "data.output_path":
        return "add", "data.output_path", ""
    if key == "data.batch_size":
        return "ignore", None, "main_generation_server sends every prompt at once; the batch size changes no output"
    if key.startswith("data."):
        return "refuse", None, "main_generation_server reads only data.train_files, data.prompt_key, data.output_path"
    if key.startswith("model."):
        return "rename", f"actor_rollout_ref.{key}", ""
    if key == "rollout.n":
        if value is not None and value.strip() == "1":
            return "ignore", None, "data.n_samples sets the number of responses per prompt (rollout.n stays 1)"
        return "refuse", None, "the number of responses per prompt is data.n_samples (rollout.n was 1 per sample)"
    if key == "rollout.top_k":
        if value is None or value.strip() in ("50", "-1", "0"):
            return "rename", "actor_rollout_ref.rollout.top_k", TOP_K_NOTE
        return "refuse", None, TOP_K_NOTE
    if key.startswith("rollout."):
        return "rename", f"actor_rollout_ref.{key}", ""
    if key.startswith("actor."):
        return "ignore", None, "settings of the old in-process FSDP rollout worker; the rollout server loads the model"
    if key == "ray_kwargs.timeline_json_file":
        return "ignore", None, "main_generation never wrote a timeline"
    if key.startswith(("ray_kwargs.", "ray_init.")):
        return (
            "refuse",
            None,
            (
                "main_generation_server calls ray.init() with fixed arguments (main_generation_server.py:124): start "
                "Ray yourself (ray start ...) and set RAY_ADDRESS instead"
            ),
        )
    if key.startswith("trainer."):
        return "rename", key, ""
    return "refuse", None, "not a key of the old generation config"


def translate_generation(argv: list[str], installed: dict) -> Translation:
    """main_generation's overrides (``argv``) in main_generation_server's terms, against the installed
    ``ppo_trainer`` config (a plain nested dict, values not resolved)."""
    out, flags = Translation(), Translation()
    given = set()
    for arg in _split_flags(argv, flags):
        match = _OVERRIDE.match(arg)
        if match is None:
            out.problems.append(f"{arg}: not an override verl-compat can read")
            continue
        prefix, key, value = match.group(1) or "", match.group(2), match.group(3)
        if key == "hydra" or key.startswith("hydra."):
            out.args.append(arg)
            continue
        given.add(key)
        kind, new, why = _generation_rule(key, value)
        if kind == "ignore":
            out.ignored.append(f"{arg}: {why}")
            continue
        if kind == "refuse":
            out.problems.append(f"{arg}: {why}")
            continue
        if why and why not in out.notes:
            out.notes.append(why)
        exists = lookup(installed, new) is not _ABSENT
        if prefix == "~":
            written = f"~{new}" + (f"={value}" if value is not None else "")
        elif exists:
            written = f"{new}={value}"
        elif kind == "add" or prefix in ("+", "++"):
            written = f"+{new}={value}"
        else:
            out.problems.append(f"{arg}: the installed verl's config has no {new}")
            continue
        out.args.append(written)
        if written != arg:
            out.changes.append(f"{arg} -> {written}")
    for key, old in GENERATION_DEFAULTS.items():
        if key in given:
            continue
        kind, new, why = _generation_rule(key, value_text(old))
        if kind not in ("rename", "add"):
            continue
        current = lookup(installed, new)
        if current is not _ABSENT and _same(old, current):
            continue
        written = f"{new}={value_text(old)}" if current is not _ABSENT else f"+{new}={value_text(old)}"
        if why and why not in out.notes:
            out.notes.append(why)
        out.args.append(written)
        out.pinned.append(written)
    out.args += flags.args
    out.problems = flags.problems + out.problems
    return out


def translate_sft(argv: list[str], installed: dict) -> Translation:
    """fsdp_sft_trainer's overrides in sft_trainer's terms (``sft_trainer_engine``), for the message."""
    out, flags = Translation(), Translation()
    given = set()
    for arg in _split_flags(argv, flags):
        match = _OVERRIDE.match(arg)
        if match is None:
            out.problems.append(f"{arg}: not an override verl-compat can read")
            continue
        prefix, key, value = match.group(1) or "", match.group(2), match.group(3)
        given.add(key)
        if key.startswith(SFT_SINGLE_TURN) or (key == "data.multiturn.enable" and str(value).lower() != "true"):
            out.problems.append(f"{arg}: single-turn prompt/response data has no reader in {SFT_SUCCESSOR}")
            continue
        if key == "data.multiturn.enable":
            out.ignored.append(f"{arg}: {SFT_SUCCESSOR} reads multi-turn data only")
            continue
        new = next((n + key[len(o) :] for o, n in SFT_RENAMES if key == o or key.startswith(f"{o}.")), key)
        if key.startswith("hydra.") or lookup(installed, new) is not _ABSENT:
            written = f"{prefix}{new}" + (f"={value}" if value is not None else "")
            out.args.append(written)
            if written != arg:
                out.changes.append(f"{arg} -> {written}")
        elif prefix in ("+", "++"):
            out.args.append(f"+{new}={value}")
        else:
            out.problems.append(f"{arg}: {SFT_SUCCESSOR}'s config has no {new}")
    if not any(key == "data.multiturn.enable" or key.startswith("data.custom_cls") for key in given):
        out.notes.append(
            "the old trainer's default dataset was single-turn (data.prompt_key/response_key columns): convert it "
            "to a messages column for MultiTurnSFTDataset, or load your own class with data.custom_cls"
        )
    for key, old in SFT_DEFAULTS.items():
        new = next((n + key[len(o) :] for o, n in SFT_RENAMES if key == o or key.startswith(f"{o}.")), key)
        current = lookup(installed, new)
        if key in given or current is _ABSENT or _same(old, current):
            continue
        written = f"{new}={value_text(old)}"
        out.args.append(written)
        out.pinned.append(f"{written} (this verl's default: {value_text(current)})")
    out.args += flags.args
    out.problems = flags.problems + out.problems
    return out


def _installed(config_name: str) -> dict[str, Any]:
    """The installed verl's own ``config_name``, composed by Hydra, as a plain dict (unresolved)."""
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    with initialize_config_dir(config_dir=str(probes.verl_config_dir()), version_base=None):
        return OmegaConf.to_container(compose(config_name), resolve=False)


def _removed_line(path: str) -> str:
    old = row(path)
    return f"verl-compat: python -m {path} was removed in verl {old.since} ({old.evidence})"


def generation_message(out: Translation) -> str:
    lines = [
        f"{_removed_line(GENERATION)}; running python -m {GENERATION_SERVER}, which does the same job on rollout "
        "servers with the ppo_trainer config, with the old overrides translated:"
    ]
    lines += [f"  {change}" for change in out.changes]
    lines += [f"  {pin} (the old script's default; this verl's differs)" for pin in out.pinned]
    lines += [f"  ignored {ignored}" for ignored in out.ignored]
    lines += [f"  note: {note}" for note in out.notes]
    lines.append(f"Write instead: python -m {GENERATION_SERVER} {shlex.join(out.args)}")
    return "\n".join(lines)


def main_generation() -> None:
    """``python -m verl.trainer.main_generation ...``: main_generation_server with the overrides
    translated, or a stop before anything starts."""
    out = translate_generation(sys.argv[1:], _installed("ppo_trainer"))
    if out.problems:
        raise SystemExit(
            f"{_removed_line(GENERATION)}; its successor python -m {GENERATION_SERVER} has no equivalent for "
            "(nothing was started):\n" + "\n".join(f"  {problem}" for problem in out.problems)
        )
    deprecation.warn_once(GENERATION, generation_message(out), at_user_code=True)
    from verl.trainer import main_generation_server

    sys.argv = [main_generation_server.__file__, *out.args]
    main_generation_server.main()


def fsdp_sft_trainer() -> None:
    """``python -m verl.trainer.fsdp_sft_trainer ...`` (torchrun): a stop with the command to write."""
    out = translate_sft(sys.argv[1:], _installed("sft_trainer_engine"))
    lines = [
        f"{_removed_line(SFT)}; nothing was started. Its successor {SFT_SUCCESSOR} does the same job with another "
        "config (sft_trainer_engine) and reads multi-turn data (a messages column) or data.custom_cls.",
        "Your overrides in its keys:" if out.changes else "None of your overrides needs a new key.",
        *(f"  {change}" for change in out.changes),
        *(["The old trainer's defaults that changed, kept in the command below:"] if out.pinned else []),
        *(f"  {pin}" for pin in out.pinned),
        *(f"  ignored {ignored}" for ignored in out.ignored),
        *(f"  no equivalent: {problem}" for problem in out.problems),
        *(f"  note: {note}" for note in out.notes),
        f"Write instead: torchrun ... -m {SFT_SUCCESSOR} {shlex.join(out.args)}",
    ]
    raise SystemExit("\n".join(lines))


MAINS = {GENERATION: main_generation, SFT: fsdp_sft_trainer}
