"""verl's own old launch scripts (v0.4.0 – v0.8.0) that set legacy reward keys
(``custom_reward_function.*``, ``reward_model.*``, ``sandbox_fusion.*``), through verl's real CLI
on the installed release (``--cfg job``), with and without verl-compat: does each reward value land
where the release reads it (``reward.*``), or does the launch stop naming it, or is it silently
lost?

The expectation is verl's own: the script's legacy reward settings alone, composed by verl without
verl-compat (where they compose: keys the release still declares, and ``+`` additions), then moved
by the release's own ``migrate_legacy_reward_impl`` (verl 0.9.1 still ships it; ``main_ppo`` no
longer calls it, verl#6710). Each leaf of ``reward`` that this migration changes from verl's
default is one value the script asks for; it must be in the ``reward`` of the config the full
script composes to. Legacy keys the release does not declare at all (``reward_model.strategy``,
``micro_batch_size_per_gpu`` …, the reward-model worker's settings, removed in 0.7.1) are
config_keys' ``dropped``/``removed`` rows and are counted apart.

Runs beside ``old_scripts.py`` and reuses its machinery (the in-process CLI, the outcome parser):

    .venvs/verl-0.9.1/bin/python benchmarks/old_reward_keys.py --data PATH/verl-own.jsonl [--json OUT]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import logging
import os
import re
import sys
import tempfile
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import old_scripts
from omegaconf import OmegaConf

import verl_compat

LEGACY = re.compile(r"^[~+]*(custom_reward_function|reward_model|sandbox_fusion)\.")


def legacy_lines(record: dict) -> list:
    return [line for line in record["overrides"] if LEGACY.match(line)]


def verl_default_reward() -> dict:
    with _compose_quietly():
        return OmegaConf.to_container(_compose([]).reward, resolve=False)


def _compose(overrides: list):
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(old_scripts.VERL_CONFIG), version_base=None):
        return compose(config_name="ppo_trainer", overrides=overrides)


@contextlib.contextmanager
def _compose_quietly():
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield


def expected_reward(lines: list) -> tuple:
    """(what verl's own migration makes of the legacy lines that compose without verl-compat,
    the ``reward`` those lines alone compose to without it (what the trainer gets), the lines that
    do not compose there: undeclared legacy keys)."""
    from omegaconf import open_dict
    from verl.experimental.reward_loop import migrate_legacy_reward_impl

    verl_compat.deactivate()
    composable = [line for line in lines if _composes(line)]
    undeclared = [line for line in lines if line not in composable]
    with _compose_quietly():
        config = _compose(composable)
    alone = OmegaConf.to_container(config.reward, resolve=False)
    with open_dict(config):
        migrated = migrate_legacy_reward_impl(config)
    return OmegaConf.to_container(migrated.reward, resolve=False), alone, undeclared


def _composes(line: str) -> bool:
    """Whether verl alone composes ``line`` (a key it declares, or a ``+`` addition)."""
    try:
        with _compose_quietly():
            _compose([line])
    except Exception:
        return False
    return True


def leaves(node, prefix: str = "") -> dict:
    if isinstance(node, dict) and node:
        out = {}
        for key, value in node.items():
            out.update(leaves(value, f"{prefix}.{key}" if prefix else str(key)))
        return out
    return {prefix: node}


def asked(expected: dict, default: dict) -> dict:
    """``reward.<path>`` -> value, for each leaf verl's migration changed from verl's default."""
    before, after = leaves(default), leaves(expected)
    return {f"reward.{path}": value for path, value in after.items() if before.get(path, object()) != value}


def lookup(config: dict, path: str):
    node = config
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return KeyError
        node = node[part]
    return node


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--json", help="write every record's outcome here")
    parser.add_argument("--limit", type=int, default=0)
    options = parser.parse_args()

    with open(options.data) as data:
        records = [json.loads(line) for line in data]
    setting = [r for r in records if legacy_lines(r)]
    records = [r for r in setting if r["own_ok"]]
    if options.limit:
        records = records[: options.limit]
    if any(old_scripts._project(r) for r in records):
        sys.exit("a script needs its example config folder (old_scripts.py --verl-git): not handled here")
    os.chdir(tempfile.mkdtemp(prefix="verl-old-reward-keys-"))
    warnings.simplefilter("ignore")
    logging.disable(logging.WARNING)

    default = verl_default_reward()
    results = []
    for index, record in enumerate(records):
        expected, alone, undeclared = expected_reward(legacy_lines(record))
        wanted = asked(expected, default)
        args = old_scripts.argv(record, None)
        row = {"tag": record["tag"], "path": record["path"], "asked": wanted, "undeclared": undeclared}
        # Without verl-compat, the legacy reward lines alone (the script's other old keys aside):
        # they compose, and the trainer's reward section has none of the values.
        row["alone"] = {
            "kind": "composed",
            "landed": [p for p, v in wanted.items() if old_scripts.same(lookup({"reward": alone}, p), v)],
        }
        row["alone"]["lost"] = [p for p in wanted if p not in row["alone"]["landed"]]
        for shim in (False, True):
            result, _ = old_scripts.in_process(args, shim)
            side = {"kind": result["kind"], "key": result.get("key")}
            if result["kind"] == "composed":
                config = result["config"]
                side["landed"] = [p for p, v in wanted.items() if old_scripts.same(lookup(config, p), v)]
                side["lost"] = [p for p in wanted if p not in side["landed"]]
            row["with" if shim else "without"] = side
        results.append(row)
        if (index + 1) % 25 == 0:
            print(f"  {index + 1}/{len(records)} scripts", file=sys.stderr, flush=True)
    verl_compat.activate()
    report(results, len(setting))
    if options.json:
        Path(options.json).write_text(json.dumps(results, indent=1, default=str))


def report(results: list, setting: int) -> None:
    import verl

    values = sum(len(r["asked"]) for r in results)
    print(
        f"verl {verl.__version__}: {setting} launches set legacy reward keys, {len(results)} of them compose on "
        f"their own release; {values} reward values asked for (verl's own migrate_legacy_reward_impl on the "
        f"script's legacy keys), {sum(bool(r['asked']) for r in results)} launches asking for at least one"
    )
    header = (
        f"{'':8} | {'composed':>8} {'hydra error':>11} {'verl-compat stop':>16} | {'values landed':>13} {'lost':>5}"
    )
    print(header)
    print("-" * len(header))
    for side in ("alone", "without", "with"):
        kinds = collections.Counter(r[side]["kind"] for r in results)
        landed = sum(len(r[side].get("landed", ())) for r in results)
        lost = sum(len(r[side].get("lost", ())) for r in results)
        print(f"{side:8} | {kinds['composed']:8} {kinds['hydra']:11} {kinds['verl-compat']:16} | {landed:13} {lost:5}")
    print(
        "(alone: the script's legacy reward lines alone, without verl-compat; without/with: the whole "
        "script, without/with verl-compat)"
    )
    for side in ("alone", "without", "with"):
        silent = [r for r in results if r[side]["kind"] == "composed" and r[side]["lost"]]
        lost = collections.Counter(p for r in silent for p in r[side]["lost"])
        print(f"\n{side}: {len(silent)} launches compose and silently lose reward values:")
        for path, n in lost.most_common():
            print(f"  {n:4}  {path}")
    stopped = [r for r in results if r["with"]["kind"] != "composed"]
    if stopped:
        print("\nwith verl-compat, launches that do not compose (the keys named):")
        for key, n in collections.Counter(r["with"]["key"] for r in stopped).most_common():
            print(f"  {n:4}  {key}")
    asked_paths = collections.Counter(p for r in results for p in r["asked"])
    print("\nreward values asked for, by where they land:")
    for path, n in asked_paths.most_common():
        print(f"  {n:4}  {path}")
    undeclared = collections.Counter(line.lstrip("+~").split("=")[0] for r in results for line in r["undeclared"])
    print("\nlegacy keys the release does not declare (config_keys' dropped/removed rows since 0.7.1):")
    for key, n in undeclared.most_common():
        print(f"  {n:4}  {key}")


if __name__ == "__main__":
    main()
