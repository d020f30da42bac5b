#!/usr/bin/env python3
"""What old_math finds in verl's own old launches: per change, the launches it holds for, and what
verl-compat does about each (restored by keys, patched, stopped, named).

    .venvs/verl-0.9.1/bin/python benchmarks/old_math.py --data PATH/verl-own.jsonl [--json OUT]

Workload: ``verl-own.jsonl`` (one record per ``python -m verl.trainer.main_ppo`` launch of verl's own
``examples/`` and ``recipe/`` scripts at each tag, v0.4.0–v0.8.0). Only records that composed on
their own release are read, and those whose ``--config-path`` is verl's own config folder (a
script's own example folder is not in the wheel). Each launch is composed twice on the installed
verl, as ``verl-compat doctor`` composes it (Hydra's compose API inside ``registry.looking()``: a
stop is recorded, not raised):

- **declared**: ``verl_compat.launch_release=<its tag>``; every row that applies, by what was done
  (``set``: its keys set, or the patch's switch; ``kept``: the launch sets those keys itself;
  ``stops``; ``named``);
- **undeclared**: as a user launches it (``VERL_COMPAT_LAUNCH_RELEASE`` is cleared for the run); the
  release range inferred from the keys it sets, and the rows that apply to every release in it (the
  trainer's ``set``, the others ``holds``).

The cost of the loss patch beside verl's own loss is
``benchmarks/old_math_loss_cost.py``'s (``--loss-cost`` runs it after the tables).
"""

from __future__ import annotations

import argparse
import collections
import json
import logging
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import verl_compat
from verl_compat import probes, registry
from verl_compat.doctor.config import BadInput, compose
from verl_compat.fixes.old_math import findings, releases

OWN_CONFIG_PATHS = (None, "config", "./config")


def readable(record: dict) -> bool:
    return record.get("own_ok", True) and record.get("config_path") in OWN_CONFIG_PATHS


def decision(record: dict, declared: bool):
    """old_math's decision for the launch, composed on the installed verl as doctor composes it."""
    overrides = list(record["overrides"])
    if declared:
        overrides.append(f"+{releases.DECLARE_KEY}={record['tag'].lstrip('v')}")
    config_dir = probes.verl_config_dir()
    name = record.get("config_name", "ppo_trainer").removesuffix(".yaml")
    config_file = None if name == "ppo_trainer" else str(config_dir / f"{name}.yaml")
    with registry.looking():
        config = compose(config_dir, overrides, config_file)
    return findings.decision_for(config)


def measure(records: list) -> dict:
    """Per launch: the rows that apply and what was done, declared and undeclared."""
    results, failed = [], collections.Counter()
    start = time.perf_counter()
    for record in records:
        row = {"tag": record["tag"], "path": record["path"]}
        for mode in ("declared", "undeclared"):
            try:
                found = decision(record, mode == "declared")
            except BadInput as error:
                failed[str(error)] += 1
                found = None
            row[mode] = (
                None
                if found is None
                else {
                    "release": found.launch.said(),
                    "trainer": found.trainer,
                    "rows": {outcome.row.name: [outcome.row.fate, outcome.action] for outcome in found.outcomes},
                }
            )
        results.append(row)
        if len(results) % 100 == 0:
            print(f"  {len(results)}/{len(records)} launches", file=sys.stderr, flush=True)
    return {"launches": results, "failed": dict(failed), "seconds": time.perf_counter() - start}


def tables(measured: dict) -> str:
    launches = measured["launches"]
    declared = [launch["declared"] for launch in launches if launch["declared"] is not None]
    undeclared = [launch["undeclared"] for launch in launches if launch["undeclared"] is not None]
    per_row: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    fates: dict[str, str] = {}
    for found in declared:
        for name, (fate, action) in found["rows"].items():
            per_row[name][action] += 1
            fates[name] = fate
    applies_undeclared = collections.Counter(name for found in undeclared for name in found["rows"])
    hit = sum(bool(found["rows"]) for found in declared)
    actions = ("set", "kept", "stops", "named")
    lines = [
        f"{len(launches)} launches of verl's own scripts; declared as written for their tag: {len(declared)} "
        f"composed, {hit} hit by at least one change; undeclared: {len(undeclared)} composed, "
        f"{sum(bool(found['rows']) for found in undeclared)} with rows that hold whatever their release",
        "",
        "| change (row) | fate | " + " | ".join(actions) + " | undeclared: applies |",
        "|---|---|" + "---:|" * (len(actions) + 1),
    ]
    for name in sorted(per_row, key=lambda n: -sum(per_row[n].values())):
        counts = " | ".join(str(per_row[name][action]) for action in actions)
        lines.append(f"| `{name}` | {fates[name]} | {counts} | {applies_undeclared[name]} |")
    per_fate = collections.Counter()
    for found in declared:
        for fate in {fate for fate, _ in found["rows"].values()}:
            per_fate[fate] += 1
    lines += ["", "launches hit, per fate: " + ", ".join(f"{fate} {n}" for fate, n in per_fate.most_common())]
    trainers = collections.Counter(found["trainer"] or "-" for found in declared)
    lines.append("trainer (declared): " + ", ".join(f"{name} {n}" for name, n in trainers.most_common()))
    if measured["failed"]:
        lines.append(f"not composed: {dict(measured['failed'])}")
    per_launch = measured["seconds"] / max(1, 2 * len(launches))
    lines.append(f"{2 * len(launches)} compositions in {measured['seconds']:.1f} s ({per_launch * 1000:.0f} ms each)")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, help="verl-own.jsonl")
    parser.add_argument("--json", help="write each launch's rows here")
    parser.add_argument("--loss-cost", action="store_true", help="then run benchmarks/old_math_loss_cost.py")
    options = parser.parse_args()

    with open(options.data) as data:
        records = [json.loads(line) for line in data]
    readable_records = [record for record in records if readable(record)]
    os.environ.pop(releases.DECLARE_ENV, None)  # each launch declared by its own override, or not at all
    warnings.simplefilter("ignore")  # the compositions' deprecation warnings: one per key, every launch
    logging.disable(logging.WARNING)
    verl_compat.activate()
    measured = measure(readable_records)
    print(f"{len(records)} records, {len(readable_records)} composed on their own release with verl's config folder")
    print(tables(measured))
    if options.json:
        Path(options.json).write_text(json.dumps(measured, indent=1))
    if options.loss_cost:
        return subprocess.call([sys.executable, str(Path(__file__).with_name("old_math_loss_cost.py"))])
    return 0


if __name__ == "__main__":
    sys.exit(main())
