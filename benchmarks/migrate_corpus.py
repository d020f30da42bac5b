"""``verl-compat migrate --check`` over a generated corpus shaped like real launch files, or over
real trees (a checkout of verl).

    .venvs/verl-0.9.1/bin/python benchmarks/migrate_corpus.py [--files 2000] [--rounds 3] [--json out.json]
    .venvs/verl-0.9.1/bin/python benchmarks/migrate_corpus.py --tree /tmp/verl-0.7.1 [--tree …]

The corpus (written to ``.bench/migrate``, rebuilt every run, same seed) has the mix of a checkout of
verl's examples, recipes, tests and configs with third-party launch scripts:

- 70 % launch scripts without profiler keys (20-60 overrides, ``\\`` continuations, comments with
  apostrophes, bash arrays);
- 8 % launch scripts with another profiler (nsys, npu, torch), in arrays and on commands;
- 3 % launch scripts with a torch_memory setting (legacy key, or verl's global form with steps);
- 12 % small YAML overlays (a third with a profiler block for another tool);
- 5 % large generated trainer configs: verl's own ``_generated_ppo_trainer.yaml`` of the installed
  release (about 35 KB, which names ``torch_memory`` as a key of its tool configs);
- 2 % Markdown pages (prose with apostrophes, a fenced launch block).

Runs ``migrate.run`` in this process (``--check``: nothing is written) ``--rounds`` times and reports
the best round as files per second, with the split per kind of file from one more timed pass.

Then what a pre-commit hook pays for one file with nothing to migrate: ``verl-compat migrate
--check`` on one launch script of the corpus as a fresh process, next to ``import verl_compat`` and
``python -c pass`` alone (interleaved, ``--process-rounds`` times, medians in ms).

``--tree DIR`` (repeatable) measures real trees instead, each as ``verl-compat migrate --check DIR``
reads it (``files.walk``): files per second in this process (best round, and per CPU second: the
machine is shared; then per kind of file, verl's generated trainer configs apart), then the command
itself as a fresh process (its wall time, start-up included).

Both modes count what migrate does to each file (changed, refused with the reasons counted,
unchanged). ``--record FILE`` keeps each file's outcome (a digest of the new text, or the refusal);
``--compare FILE`` says how many outcomes are identical to such a record: the parity gate of a
change to migrate's engines (record on the code before, compare on the code after).
"""

import argparse
import collections
import contextlib
import hashlib
import io
import json
import random
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

from _envs import clean_env, interleaved, load_average, summary

from verl_compat import cli
from verl_compat.migrate import files, migrate
from verl_compat.migrate_contract import Refusal

REPO = Path(__file__).resolve().parents[1]
WORK = REPO / ".bench/migrate"
MIX = [("plain.sh", 70), ("other_profiler.sh", 8), ("torch_memory.sh", 3), ("overlay.yaml", 12)]
MIX += [("generated.yaml", 5), ("page.md", 2)]

OVERRIDES = [
    "algorithm.adv_estimator=grpo",
    "data.train_files=$HOME/data/gsm8k/train.parquet",
    "data.val_files=$HOME/data/gsm8k/test.parquet",
    "data.train_batch_size=1024",
    "data.max_prompt_length=512",
    "data.max_response_length=1024",
    "data.filter_overlong_prompts=True",
    "data.truncation='error'",
    "actor_rollout_ref.model.path=Qwen/Qwen2.5-3B-Instruct",
    "actor_rollout_ref.actor.optim.lr=1e-6",
    "actor_rollout_ref.model.use_remove_padding=True",
    "actor_rollout_ref.actor.ppo_mini_batch_size=256",
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=16",
    "actor_rollout_ref.actor.use_kl_loss=True",
    "actor_rollout_ref.actor.kl_loss_coef=0.001",
    "actor_rollout_ref.actor.kl_loss_type=low_var_kl",
    "actor_rollout_ref.actor.entropy_coeff=0",
    "actor_rollout_ref.model.enable_gradient_checkpointing=True",
    "actor_rollout_ref.actor.fsdp_config.param_offload=False",
    "actor_rollout_ref.actor.fsdp_config.optimizer_offload=False",
    "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=16",
    "actor_rollout_ref.rollout.tensor_model_parallel_size=2",
    "actor_rollout_ref.rollout.name=vllm",
    "actor_rollout_ref.rollout.gpu_memory_utilization=0.6",
    "actor_rollout_ref.rollout.n=5",
    "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=16",
    "actor_rollout_ref.ref.fsdp_config.param_offload=True",
    "algorithm.use_kl_in_reward=False",
    "trainer.critic_warmup=0",
    'trainer.logger=\'["console","wandb"]\'',
    "trainer.project_name='verl_grpo_example_gsm8k'",
    'trainer.experiment_name="${MODEL_NAME}_function_rm"',
    "trainer.n_gpus_per_node=8",
    "trainer.nnodes=1",
    "trainer.save_freq=20",
    "trainer.test_freq=5",
    "trainer.total_epochs=15",
]
HEADER = """#!/usr/bin/env bash
# Launch {n}: don't run it on a login node; it's meant for the cluster's GPUs.
set -xeuo pipefail

MODEL_NAME=${{MODEL_NAME:-qwen2_5_3b}}
ENGINE=${{1:-vllm}}
"""


def launch_script(rng: random.Random, n: int, profiler: list) -> str:
    overrides = rng.sample(OVERRIDES, rng.randint(20, len(OVERRIDES))) + profiler
    if rng.random() < 0.3:  # part of the overrides in a bash array, as verl's e2e tests do
        cut = rng.randint(5, 15)
        array = "".join(f"    {word}\n" for word in overrides[:cut])
        return (
            HEADER.format(n=n)
            + f'\nCOMMON=(\n{array})\n\npython3 -m verl.trainer.main_ppo \\\n    "${{COMMON[@]}}" \\\n'
            + "".join(f"    {word} \\\n" for word in overrides[cut:])
            + "    $@\n"
        )
    return (
        HEADER.format(n=n)
        + "\npython3 -m verl.trainer.main_ppo \\\n"
        + "".join(f"    {word} \\\n" for word in overrides)
        + "    $@\n"
    )


def other_profiler(rng: random.Random) -> list:
    tool = rng.choice(["nsys", "npu", "torch"])
    return [
        f"global_profiler.tool={tool}",
        "global_profiler.steps=[1,2,5]",
        "actor_rollout_ref.actor.profiler.enable=True",
        "actor_rollout_ref.actor.profiler.all_ranks=False",
    ]


def torch_memory_profiler(rng: random.Random) -> list:
    if rng.random() < 0.5:
        return ["actor_rollout_ref.actor.profiler.tool=torch_memory", "trainer.total_training_steps=5"]
    return ["global_profiler.tool=torch_memory", "global_profiler.steps=[1,2]", "global_profiler.save_path=./mem"]


def overlay(rng: random.Random) -> str:
    text = "defaults:\n  - ppo_trainer\n  - _self_\n\ndata:\n  train_batch_size: 256\n  max_prompt_length: 512\n"
    text += "actor_rollout_ref:\n  model:\n    path: Qwen/Qwen2.5-0.5B-Instruct  # the model's path\n"
    text += "  actor:\n    optim:\n      lr: 1e-6\n"
    if rng.random() < 0.33:
        text += "    profiler:\n      enable: True\n      all_ranks: False\n      ranks: [0]\n"
        text += f"global_profiler:\n  tool: {rng.choice(['nsys', 'torch'])}\n  steps: [1, 3]\n"
    return text + "trainer:\n  total_epochs: 15\n  project_name: verl_example\n"


def page(rng: random.Random, n: int) -> str:
    prose = "vLLM's rollout doesn't need it; here's how verl's trainer is launched.\n\n"
    block = "```bash\npython3 -m verl.trainer.main_ppo \\\n" + "".join(
        f"    {word} \\\n" for word in rng.sample(OVERRIDES, 10)
    )
    return f"# Recipe {n}\n\n" + prose * 5 + block + "    trainer.total_epochs=1\n```\n\n" + prose * 3


def build(files: int, seed: int = 0) -> dict:
    """Writes the corpus; answers the paths by kind."""
    import verl.trainer.config

    generated = (Path(verl.trainer.config.__file__).parent / "_generated_ppo_trainer.yaml").read_text()
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    rng, kinds = random.Random(seed), {}
    names = rng.choices([name for name, _ in MIX], weights=[weight for _, weight in MIX], k=files)
    for n, kind in enumerate(names):
        if kind == "plain.sh":
            text = launch_script(rng, n, [])
        elif kind == "other_profiler.sh":
            text = launch_script(rng, n, other_profiler(rng))
        elif kind == "torch_memory.sh":
            text = launch_script(rng, n, torch_memory_profiler(rng))
        elif kind == "overlay.yaml":
            text = overlay(rng)
        elif kind == "generated.yaml":
            text = generated
        else:
            text = page(rng, n)
        path = WORK / f"{n:05d}_{kind}"
        path.write_text(text)
        kinds.setdefault(kind, []).append(path)
    return kinds


def timed(paths: list[Path]) -> tuple[float, float]:
    """Wall and CPU seconds of one ``verl-compat migrate --check`` over ``paths`` in this process."""
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        start, cpu = time.perf_counter(), time.process_time()
        cli.main(["migrate", "--check", *map(str, paths)])
        return time.perf_counter() - start, time.process_time() - cpu


# A refusal's reason without the keys and values it names, to count them.
REASONS = {
    "was removed in verl": "a key verl removed",
    "the number of steps is not in this file": "no step count",
    " differ": "old and new keys differ",
    "bash's grammar cannot read": "where bash's grammar fails",
    "in a form migrate cannot read": "a setting in a form migrate cannot read",
    "in text given to a program": "a setting in text given to a program",
    "in a here-document": "a setting in a here-document",
    "not a block-style mapping": "a flow-style YAML mapping",
    "cannot read:": "unreadable",
}


def outcome(path: Path) -> str:
    """What migrate does to ``path``: ``changed <digest>``, ``unchanged``, or ``refused <lines> <message>``."""
    try:
        _, old = files.read(path)
        new = migrate(old, files.kind_of(path, old))
    except Refusal as refusal:
        return f"refused {refusal.lines} {refusal.message}"
    except (OSError, files.Unreadable) as error:
        return f"refused cannot read: {error}"
    if new == old:
        return "unchanged"
    return "changed " + hashlib.sha256(new.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def outcomes(paths: list[Path], root: Path) -> tuple[dict[str, str], dict[str, object]]:
    """Each file's outcome by its path below ``root``, and the counts (refusals by reason)."""
    found = {path.relative_to(root).as_posix(): outcome(path) for path in paths}
    counts = collections.Counter(value.split(" ", 1)[0] for value in found.values())
    reasons = collections.Counter(
        next((reason for needle, reason in REASONS.items() if needle in value), value[8:90])
        for value in found.values()
        if value.startswith("refused")
    )
    summary_ = {"changed": counts["changed"], "refused": counts["refused"], "unchanged": counts["unchanged"]}
    return found, {**summary_, "refused_reasons": dict(reasons.most_common())}


def parity(found: dict[str, str], args: argparse.Namespace) -> dict[str, object]:
    """Writes ``--record``; against ``--compare``, the outcomes identical to the recorded ones."""
    result = {}
    if args.compare:
        recorded = json.loads(args.compare.read_text())
        same = [name for name in recorded if found.get(name) == recorded[name]]
        result["identical_to_record"] = f"{len(same)} of {len(recorded)}"
        result["different"] = {name: [recorded[name], found.get(name)] for name in recorded if name not in same}
    if args.record:
        args.record.write_text(json.dumps(found, indent=0, sort_keys=True) + "\n")
    return result


def fresh_process(*trees: Path) -> tuple[float, float]:
    """Wall and CPU seconds of ``verl-compat migrate --check TREE…`` as a fresh process, start-up,
    imports and verl's probe included (CPU: the machine is shared, the wall time waits for it)."""
    console = str(Path(sys.executable).with_name("verl-compat"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([console, "migrate", "--check", *map(str, trees)], env=clean_env(), capture_output=True, check=False)
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def by_kind(paths: list[Path]) -> dict[str, list[Path]]:
    """The files of a tree by the kind migrate reads them as; verl's generated trainer configs
    (``_generated_*.yaml``, 20-35 KB each) apart from the other YAML files."""
    kinds: dict[str, list[Path]] = {}
    for path in paths:
        kind = files.kind_of(path, files.read(path)[1])
        kind = "yaml (generated)" if kind == "yaml" and path.name.startswith("_generated") else kind
        kinds.setdefault(kind, []).append(path)
    return dict(sorted(kinds.items()))


def trees(args: argparse.Namespace) -> dict[str, object]:
    """Real trees: each as ``verl-compat migrate --check DIR`` reads it."""
    report = {"load_average_before": load_average()}
    found_all = {}
    for tree in args.tree:
        paths = files.walk(tree)
        timed(paths[:40])  # imports (hydra's parser, ruamel.yaml, tree-sitter) and verl's probe, untimed
        rounds = [timed(paths) for _ in range(args.rounds)]
        wall, cpu = min(rounds)[0], min(cpu for _, cpu in rounds)
        per_kind = {kind: [timed(group) for _ in range(args.rounds)] for kind, group in by_kind(paths).items()}
        cli_seconds, cli_cpu = fresh_process(tree)
        found, counts = outcomes(paths, tree)
        found_all.update({f"{tree.name}/{name}": value for name, value in found.items()})
        report[tree.name] = {
            "files": len(paths),
            "files_per_second": round(len(paths) / wall, 1),
            "files_per_cpu_second": round(len(paths) / cpu, 1),
            "per_kind": {
                kind: {
                    "files": len(group),
                    "files_per_second": round(len(group) / min(per_kind[kind])[0], 1),
                    "files_per_cpu_second": round(len(group) / min(cpu for _, cpu in per_kind[kind]), 1),
                }
                for kind, group in by_kind(paths).items()
            },
            "cli_seconds": round(cli_seconds, 3),
            "cli_files_per_second": round(len(paths) / cli_seconds, 1),
            "cli_cpu_seconds": round(cli_cpu, 3),
            "cli_files_per_cpu_second": round(len(paths) / cli_cpu, 1),
            **counts,
        }
    if len(args.tree) > 1:  # one process for all: its start-up and verl's probe paid once
        wall, cpu = fresh_process(*args.tree)
        files_ = sum(report[tree.name]["files"] for tree in args.tree)
        report["all_trees_cli"] = {
            "files": files_,
            "cli_seconds": round(wall, 3),
            "cli_files_per_second": round(files_ / wall, 1),
            "cli_cpu_seconds": round(cpu, 3),
            "cli_files_per_cpu_second": round(files_ / cpu, 1),
        }
    report["load_average_after"] = load_average()
    return {**report, **parity(found_all, args)}


def corpus(args: argparse.Namespace) -> dict[str, object]:
    kinds = build(args.files)
    paths = sorted(path for group in kinds.values() for path in group)
    timed(paths[:5])  # imports (hydra's parser, ruamel.yaml) once, outside the timed rounds
    best = min(timed(paths)[0] for _ in range(args.rounds))
    result = {"files": len(paths), "seconds": round(best, 3), "files_per_second": round(len(paths) / best, 1)}
    result["per_kind_files_per_second"] = {
        kind: round(len(group) / timed(group)[0], 1) for kind, group in sorted(kinds.items())
    }
    found, counts = outcomes(paths, WORK)
    result.update(counts)
    result.update(parity(found, args))
    console = str(Path(sys.executable).with_name("verl-compat"))
    one_file = [console, "migrate", "--check", str(kinds["plain.sh"][0])]
    commands = {"check_one_file": one_file, "import_verl_compat": [sys.executable, "-c", "import verl_compat"]}
    commands["python"] = [sys.executable, "-c", "pass"]
    times = interleaved(commands, args.process_rounds)
    result["one_file_ms"] = {name: round(summary(samples)["median_ms"], 1) for name, samples in times.items()}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--process-rounds", type=int, default=20)
    parser.add_argument("--tree", type=Path, action="append", help="a real tree to measure instead (repeatable)")
    parser.add_argument("--record", type=Path, help="write each file's outcome here")
    parser.add_argument("--compare", type=Path, help="count the outcomes identical to this record")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    result = trees(args) if args.tree else corpus(args)
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
