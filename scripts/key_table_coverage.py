#!/usr/bin/env python3
"""How much of real launch scripts the config-keys table covers, on the installed verl.

Input: a JSON-lines file of launches, one per line, with ``config_name``, ``overrides`` (Hydra
override strings), ``own_ok`` (whether the launch composed on the release it was written for) and
``own_paths`` (the paths it sets with a plain ``key=value``). Every path such a launch sets
(``own_paths``, and the key of each ``+key=`` / ``++key=`` override) is looked up in the installed
release's composed config (``ppo_trainer``, ``ppo_megatron_trainer`` for Megatron configs, with the
launch's ``model_engine=`` option when the release ships it). A path that is not there is either
covered by a row of ``verl_compat.fixes.config_keys.table`` or not; an uncovered ``+key`` is a key
the user added (verl reads it from an open dict or not at all), listed apart.

    .venvs/verl-0.9.1/bin/python scripts/key_table_coverage.py LAUNCHES.jsonl [--list]

Runs in a release environment (it needs that release's verl and Hydra).
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import re
import sys
from pathlib import Path

from omegaconf import OmegaConf

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.append(str(Path(__file__).resolve().parents[1] / "tests" / "support"))  # verl_config: the config walker
from verl_config import node_paths, verl_compose

from verl_compat.fixes.config_keys.table import ROWS

CONFIG_DIR = Path(importlib.util.find_spec("verl").submodule_search_locations[0]) / "trainer" / "config"
ADDITION = re.compile(r"^\+\+?([^=]+)=")


_composed: dict = {}


def release_paths(name: str, engine: str | None) -> set:
    key = (name, engine)
    if key not in _composed:
        overrides = [f"model_engine={engine}"] if engine else []
        _composed[key] = set(
            node_paths(OmegaConf.to_container(verl_compose(overrides, name, CONFIG_DIR), resolve=False))
        )
    return _composed[key]


def base_of(record: dict) -> tuple:
    """The release config a launch composes over, and whether its model_engine option is gone."""
    name = "ppo_megatron_trainer" if "megatron" in (record["config_name"] or "") else "ppo_trainer"
    engine = next((o.split("=", 1)[1] for o in record["overrides"] if o.startswith("model_engine=")), None)
    if engine and not (CONFIG_DIR / "model_engine" / f"{engine}.yaml").exists():
        return name, None, engine
    return name, engine, None


def covered(path: str) -> bool:
    return any(not row.group and (path == row.old or path.startswith(row.old + ".")) for row in ROWS)


def group_covered(option: str) -> bool:
    return any(row.group and row.old == "model_engine" and option in dict(row.values) for row in ROWS)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("launches", type=Path)
    parser.add_argument("--list", action="store_true", help="list every absent path and its fate")
    args = parser.parse_args()

    records = [json.loads(line) for line in args.launches.read_text().splitlines() if line.strip()]
    records = [r for r in records if r["own_ok"]]
    fate = collections.defaultdict(collections.Counter)  # fate -> path -> launches
    launches_absent = launches_uncovered = 0
    for record in records:
        name, engine, gone_engine = base_of(record)
        have = release_paths(name, engine)
        absent, uncovered = False, False
        if gone_engine:
            absent = True
            fate["covered (group)" if group_covered(gone_engine) else "uncovered"][f"model_engine={gone_engine}"] += 1
            uncovered |= not group_covered(gone_engine)
        plain = set(record["own_paths"] or [])
        added = {m.group(1) for o in record["overrides"] if (m := ADDITION.match(o))}
        for path in sorted(plain | added):
            if path in have:
                continue
            if covered(path):
                fate["covered"][path] += 1
                absent = True
            elif path in plain:
                fate["uncovered"][path] += 1
                absent = uncovered = True
            else:
                fate["addition"][path] += 1
        launches_absent += absent
        launches_uncovered += uncovered

    print(f"verl config: {CONFIG_DIR}")
    print(f"launches that composed on their own release: {len(records)}")
    print(f"  setting at least one path absent here: {launches_absent}")
    print(f"  with a path the table does not cover:  {launches_uncovered}")
    for kind in ("covered", "covered (group)", "uncovered", "addition"):
        paths = fate[kind]
        print(f"{kind}: {len(paths)} distinct paths, {sum(paths.values())} settings")
        if args.list or kind == "uncovered":
            for path, n in sorted(paths.items()):
                print(f"  {n:4d}  {path}")
    return 1 if fate["uncovered"] else 0


if __name__ == "__main__":
    sys.exit(main())
