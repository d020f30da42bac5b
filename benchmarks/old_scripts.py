"""verl's own old launch scripts (v0.4.0 – v0.8.0) through verl's real CLI on the installed release,
with and without verl-compat: what composes, where Hydra stops, where verl-compat stops with its
own error, whether any value a script sets is lost, and what the translation costs.

Workload: ``verl-own.jsonl`` (one record per ``python -m verl.trainer.main_ppo`` launch in verl's
``examples/`` and ``recipe/`` at each tag: the overrides, ``--config-path/--config-name``, whether it
composed on its own release, and the paths it sets with a plain ``key=value``). Only records that
composed on their own release are run.

Each script runs through ``verl.trainer.main_ppo.main`` (the ``@hydra.main`` function the CLI runs)
with ``sys.argv`` set to the script's arguments and ``--cfg job`` (Hydra composes, prints the
config, and returns), in this one process: a fresh process per script costs a verl import (~8 s)
each. ``--cli N`` also runs N of them as real ``python -m verl.trainer.main_ppo`` processes and
checks that both give the same outcome and the same config.

Scripts that point ``--config-path`` at an example's config folder need that folder as it was at
their tag: ``--verl-git`` names a clone of verl to take it from (else they are counted apart).

    .venvs/verl-0.9.1/bin/python benchmarks/old_scripts.py --data PATH/verl-own.jsonl \\
        [--verl-git PATH] [--cli 10] [--limit N] [--migrate]

``--migrate`` measures ``verl-compat migrate`` instead: each script is rewritten into the installed
verl's keys, then composed by verl alone (verl-compat deactivated): composed, Hydra error, refused
by migrate (a removed key), values lost.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import gc
import io
import json
import os
import random
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from hydra.core.global_hydra import GlobalHydra
from hydra.core.override_parser.overrides_parser import OverridesParser
from verl.trainer import main_ppo

import verl_compat
from verl_compat.fixes.config_keys import global_micro_batches, table, translate

VERL_CONFIG = Path(main_ppo.__file__).parent / "config"
# The header of config_keys' stop: removed keys ("asks for what the installed verl cannot do") or
# an old key and its successor set differently.
STOP = re.compile(r"^verl-compat: this launch config .*\(nothing was started\):$", re.M)
PROJECT_DIR = "$PROJECT_DIR/"


# --- one script ---------------------------------------------------------------------------------


def argv(record: dict, project: Path | None) -> list:
    args = []
    if record["config_path"] is not None:
        path = record["config_path"]
        if path.startswith(PROJECT_DIR):
            path = str(project / record["tag"] / path[len(PROJECT_DIR) :])
        elif path in ("config", "./config"):
            # verl's own config folder, where these scripts' `--config-path` pointed at their tag
            # (Hydra would read `./config` against the working directory or the main module).
            path = str(VERL_CONFIG)
        args += ["--config-path", path]
    if record["config_name"] != "ppo_trainer" or record["config_path"] is not None:
        args += ["--config-name", record["config_name"]]
    return [*args, *record["overrides"], "--cfg", "job"]


def outcome(returncode: int, stdout: str, stderr: str) -> dict:
    """``composed`` with the config, ``verl-compat`` with the keys it names, or ``hydra`` with the
    first key Hydra names."""
    if returncode == 0 and stdout.strip():
        return {"kind": "composed", "config": yaml.load(stdout, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))}
    stop = STOP.search(stderr)
    if stop:
        listed = stderr[stop.start() :]
        return {"kind": "verl-compat", "key": ", ".join(re.findall(r"^  (\S+?)[=:]", listed, re.M))}
    return {"kind": "hydra", "key": hydra_key(stderr)}


def hydra_key(stderr: str) -> str:
    for pattern in (
        r"full_key: (\S+)",
        r"Could not (?:override|append to config|delete from config)[^']*'([^']+)'",
        r"Could not find '([^']+)'",
        r"Could not load '([^']+)'",
    ):
        found = re.search(pattern, stderr)
        if found:
            return found.group(1)
    lines = [line for line in stderr.splitlines() if line.strip() and "HYDRA_FULL_ERROR" not in line]
    return lines[-1][:100] if lines else "?"


def in_process(args: list, shim: bool) -> tuple:
    """Run the CLI's ``main`` in this process; return (outcome, seconds)."""
    (verl_compat.activate if shim else verl_compat.deactivate)()
    GlobalHydra.instance().clear()
    out, err = io.StringIO(), io.StringIO()
    saved, code = sys.argv, 0
    sys.argv = ["main_ppo.py", *args]
    # As in a fresh CLI process: what earlier runs left on the heap (the results kept so far) is
    # out of the cyclic collector's way, so a full collection that falls in this run costs what it
    # would there, not a walk over every config composed before.
    gc.collect()
    gc.freeze()
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main_ppo.main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        seconds = time.perf_counter() - start
        sys.argv = saved
    return outcome(code, out.getvalue(), err.getvalue()), seconds


def as_process(args: list, shim: bool, cwd: str) -> dict:
    env = dict(os.environ)
    if not shim:
        env["VERL_COMPAT_DISABLE"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "verl.trainer.main_ppo", *args], env=env, cwd=cwd, capture_output=True, text=True
    )
    return outcome(done.returncode, done.stdout, done.stderr)


# --- values lost --------------------------------------------------------------------------------


def set_values(record: dict) -> dict:
    """path -> value, for each path the script set with a plain ``key=value`` (the last one)."""
    parser = OverridesParser.create()
    values = {}
    wanted = set(record.get("own_paths") or ())
    for line in record["overrides"]:
        key = line.split("=", 1)[0]
        if key in wanted:
            try:
                values[key] = parser.parse_override(line).value()
            except Exception:
                values[key] = line.split("=", 1)[1]
    return values


def where_now(path: str, config: dict) -> tuple:
    """(successor path, fate) by the table where the installed config lacks ``path``."""
    probe = translate.ConfigProbe(_as_config(config))
    row = translate.row_for(path)
    if row is None or not translate.applies(row, probe, table.ROWS):
        return path, None
    if probe.has_key(path) and row.reader is None:  # a declared-but-unread key is still declared
        return path, None
    if row.fate in ("dropped", "removed"):
        return None, row.fate
    last, new = translate.resolve(row, path, probe, table.ROWS)
    return new, last.fate


def lookup(config: dict, path: str):
    node = config
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            raise KeyError(path)
        node = node[part]
    return node


def same(a, b) -> bool:
    if a == b:
        return True
    return str(a).strip().lower() == str(b).strip().lower()


def converted(path: str, value, config: dict) -> bool:
    """A global micro-batch size config_keys divided per GPU: cleared, its ``_per_gpu`` key holding
    the quotient (``global_micro_batches``)."""
    per_gpu = dict(global_micro_batches.GLOBAL_TO_PER_GPU).get(path)
    if per_gpu is None:
        return False
    parts = global_micro_batches.divisor(_as_config(config))
    try:
        return lookup(config, path) is None and parts is not None and lookup(config, per_gpu) == int(value) // parts
    except (KeyError, TypeError, ValueError):
        return False


def lost(record: dict, config: dict) -> list:
    """Each value the script set that is not at its successor path (dropped keys are explained,
    not lost)."""
    missing = []
    for path, value in set_values(record).items():
        if converted(path, value, config):
            continue  # explained: divided per GPU as the release the script was written for did
        now, kind = where_now(path, config)
        if now is None:
            continue
        row = translate.row_for(path)
        if kind is not None and translate.is_inert(row, translate.value_text(value)):
            continue  # explained: it asked for what the release does anyway
        if kind == "remapped":
            value = translate.mapped_value(row, translate.value_text(value), value)
        try:
            found = lookup(config, now)
        except KeyError:
            missing.append(path)
            continue
        if not same(found, value):
            missing.append(path)
    return missing


_configs: dict = {}


def _as_config(config: dict):
    from omegaconf import OmegaConf

    key = id(config)
    if key not in _configs:
        _configs.clear()
        _configs[key] = OmegaConf.create(config)
    return _configs[key]


# --- the run ------------------------------------------------------------------------------------


def example_configs(records: list, verl_git: str | None) -> Path | None:
    """Each tag's example config folders that scripts point at, from a verl clone."""
    if not verl_git:
        return None
    root = Path(tempfile.mkdtemp(prefix="verl-old-scripts-"))
    for tag, folder in {(r["tag"], r["config_path"][len(PROJECT_DIR) :]) for r in records if _project(r)}:
        target = root / tag
        target.mkdir(exist_ok=True)
        archive = subprocess.run(["git", "-C", verl_git, "archive", tag, folder], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    # Their `hydra.searchpath` is `file://verl/trainer/config`, relative to a verl checkout.
    (root / "verl" / "trainer").mkdir(parents=True)
    (root / "verl" / "trainer" / "config").symlink_to(VERL_CONFIG)
    return root


def _project(record: dict) -> bool:
    return (record["config_path"] or "").startswith(PROJECT_DIR)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--verl-git", help="a verl clone, for scripts that use an example's config folder")
    parser.add_argument("--cli", type=int, default=0, help="also run N scripts as real CLI processes")
    parser.add_argument("--limit", type=int, default=0, help="at most N scripts (a spread sample)")
    parser.add_argument("--json", help="write every record's outcome here")
    parser.add_argument(
        "--migrate",
        action="store_true",
        help="instead: migrate each script (verl-compat migrate), then compose it with verl alone",
    )
    options = parser.parse_args()

    with open(options.data) as data:
        records = [json.loads(line) for line in data]
    records = [r for r in records if r["own_ok"]]
    if options.limit:
        records = random.Random(0).sample(records, min(options.limit, len(records)))
    project = example_configs(records, options.verl_git)
    unmeasured = [r for r in records if _project(r) and project is None]
    records = [r for r in records if r not in unmeasured]
    workdir = str(project or tempfile.mkdtemp(prefix="verl-old-scripts-"))
    os.chdir(workdir)

    import logging
    import warnings

    warnings.simplefilter("ignore")
    logging.disable(logging.WARNING)

    results = []
    try:
        (run_migrated if options.migrate else run_all)(records, project, results)
    except KeyboardInterrupt:
        print(f"interrupted: {len(results)} of {len(records)} scripts measured", file=sys.stderr)
        records = records[: len(results)]

    if options.migrate:
        print_migrated(results)
        if options.json:
            Path(options.json).write_text(json.dumps(results, indent=1))
        return
    print_tables(results, unmeasured)
    print_timing(results)
    if options.cli:
        check_cli(records, results, options.cli, project, workdir)
    if options.json:
        Path(options.json).write_text(json.dumps(results, indent=1))


def run_all(records: list, project, results: list) -> None:
    """Each script in process, with and without verl-compat, in alternating order."""
    for index, record in enumerate(records):
        args = argv(record, project)
        row = {"tag": record["tag"], "path": record["path"]}
        order = (False, True) if index % 2 else (True, False)
        for shim in order:
            result, seconds = in_process(args, shim)
            result["seconds"] = seconds
            if result["kind"] == "composed":
                result["lost"] = lost(record, result.pop("config"))
            row["with" if shim else "without"] = result
        results.append(row)
        if (index + 1) % 25 == 0:
            print(f"  {index + 1}/{len(records)} scripts", file=sys.stderr, flush=True)


# --- migrate ------------------------------------------------------------------------------------


def as_script(overrides: list) -> str:
    """A launch script holding the overrides, one a line, as verl's own scripts write them."""
    lines = ["python3 -m verl.trainer.main_ppo", *(f"    {shlex.quote(line)}" for line in overrides)]
    return " \\\n".join(lines) + "\n"


def overrides_of(script: str) -> list:
    return shlex.split(script.replace("\\\n", " "))[3:]


def run_migrated(records: list, project, results: list) -> None:
    """Each script rewritten by ``verl-compat migrate`` (in this process, into the installed verl's
    keys), then composed by verl alone (verl-compat deactivated)."""
    from verl_compat import migrate

    for index, record in enumerate(records):
        row = {"tag": record["tag"], "path": record["path"]}
        GlobalHydra.instance().clear()
        try:
            script = migrate.migrate(as_script(record["overrides"]), "shell")
        except migrate.Refused as refusal:
            row["migrated"] = {"kind": "refused", "key": refusal.message.split("=")[0].split(" ")[0]}
        else:
            config_args = argv({**record, "overrides": []}, project)[:-2]
            result, _ = in_process([*config_args, *overrides_of(script), "--cfg", "job"], shim=False)
            if result["kind"] == "composed":
                result["lost"] = lost(record, result.pop("config"))
            row["migrated"] = result
        results.append(row)
        if (index + 1) % 25 == 0:
            print(f"  {index + 1}/{len(records)} scripts", file=sys.stderr, flush=True)


def print_migrated(results: list) -> None:
    import verl

    print(f"verl {verl.__version__}: {len(results)} scripts migrated by verl-compat, then composed by verl alone")
    header = (
        f"{'tag':8} {'scripts':>7} | {'composed':>8} {'hydra error':>11} {'migrate refused':>15} {'values lost':>11}"
    )
    print(header)
    print("-" * len(header))
    by_tag = collections.defaultdict(list)
    for row in results:
        by_tag[row["tag"]].append(row)
    for tag in [*sorted(by_tag), "all"]:
        rows = results if tag == "all" else by_tag[tag]
        count = collections.Counter(r["migrated"]["kind"] for r in rows)
        lost_n = sum(len(r["migrated"].get("lost", ())) for r in rows)
        print(f"{tag:8} {len(rows):7} | {count['composed']:8} {count['hydra']:11} {count['refused']:15} {lost_n:11}")
    for kind, title in (("hydra", "first key Hydra rejects"), ("refused", "keys migrate refuses")):
        keys = collections.Counter(r["migrated"]["key"] for r in results if r["migrated"]["kind"] == kind)
        if keys:
            print(f"\n{title}:")
            for key, n in keys.most_common():
                print(f"  {n:4}  {key}")


def print_tables(results: list, unmeasured: list) -> None:
    import verl

    print(
        f"verl {verl.__version__}: {len(results)} scripts that compose on their own release "
        f"(table: {len(table.ROWS)} rows)"
    )
    if unmeasured:
        print(f"not measured: {len(unmeasured)} scripts whose example config folder needs --verl-git")
    header = (
        f"{'tag':8} {'scripts':>7} | {'without: composed':>17} {'hydra error':>11} | "
        f"{'with: composed':>14} {'hydra error':>11} {'verl-compat stop':>16} {'values lost':>11}"
    )
    print(header)
    print("-" * len(header))
    by_tag = collections.defaultdict(list)
    for row in results:
        by_tag[row["tag"]].append(row)
    for tag in [*sorted(by_tag), "all"]:
        rows = results if tag == "all" else by_tag[tag]
        count = collections.Counter((side, r[side]["kind"]) for r in rows for side in ("without", "with"))
        lost_n = sum(len(r["with"].get("lost", ())) for r in rows)
        print(
            f"{tag:8} {len(rows):7} | {count['without', 'composed']:17} {count['without', 'hydra']:11} | "
            f"{count['with', 'composed']:14} {count['with', 'hydra']:11} {count['with', 'verl-compat']:16} "
            f"{lost_n:11}"
        )
    for side in ("without", "with"):
        keys = collections.Counter(r[side]["key"] for r in results if r[side]["kind"] == "hydra")
        if keys:
            print(f"\nfirst key Hydra rejects, {side} verl-compat:")
            for key, n in keys.most_common():
                print(f"  {n:4}  {key}")
    stops = collections.Counter(
        key for r in results if r["with"]["kind"] == "verl-compat" for key in r["with"]["key"].split(", ")
    )
    if stops:
        print("\nkeys verl-compat stops on (removed, or old and new set differently):")
        for key, n in stops.most_common():
            print(f"  {n:4}  {key}")
    lost_keys = collections.Counter(key for r in results for key in r["with"].get("lost", ()))
    if lost_keys:
        print("\nvalues lost with verl-compat (not at their successor path):")
        for key, n in lost_keys.most_common():
            print(f"  {n:4}  {key}")


def print_timing(results: list) -> None:
    """Paired over the scripts that compose both ways (the same work: a script Hydra stops at its
    first key does less of it)."""
    pairs = [
        (r["without"]["seconds"], r["with"]["seconds"])
        for r in results
        if r["without"]["kind"] == r["with"]["kind"] == "composed"
    ]
    if not pairs:
        return
    without, with_ = [p[0] for p in pairs], [p[1] for p in pairs]
    ratios = [w / wo for wo, w in pairs if wo > 0]
    print(
        f"\ncomposition time, paired over the {len(pairs)} scripts that compose both ways (order alternated): "
        f"without {statistics.median(without) * 1000:.0f} ms, with {statistics.median(with_) * 1000:.0f} ms "
        f"(medians); total {sum(without):.1f} s -> {sum(with_):.1f} s, ratio {sum(with_) / sum(without):.3f}; "
        f"median per-script ratio {statistics.median(ratios):.3f}"
    )


def check_cli(records: list, results: list, n: int, project, workdir: str) -> None:
    """The in-process loop against the real CLI, one process per script, on a spread sample that
    takes every outcome seen."""
    by_outcome = collections.defaultdict(list)
    for record, row in zip(records, results, strict=True):
        by_outcome[(row["without"]["kind"], row["with"]["kind"])].append((record, row))
    sample = []
    while len(sample) < n and any(by_outcome.values()):
        for group in by_outcome.values():
            if group and len(sample) < n:
                sample.append(group.pop(0))
    agree = 0
    for record, _row in sample:
        args = argv(record, project)
        for shim in (False, True):
            cli = as_process(args, shim, workdir)
            mine, _ = in_process(args, shim)
            ok = (
                cli["kind"] == mine["kind"]
                and cli.get("key") == mine.get("key")
                and cli.get("config") == mine.get("config")
            )
            agree += ok
            if not ok:
                print(
                    f"  DIFFERS {record['tag']} {record['path']} shim={shim}: cli {cli['kind']} {cli.get('key')}, "
                    f"in-process {mine['kind']} {mine.get('key')}"
                )
    print(
        f"\nreal CLI (one process per script) vs the in-process loop: {agree}/{2 * len(sample)} runs "
        f"give the same outcome, first key and composed config"
    )


if __name__ == "__main__":
    main()
