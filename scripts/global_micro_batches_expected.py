"""Write what verl 0.7.1's own FSDP worker makes of the deprecated global micro-batch sizes, per GPU,
for the cases below, to ``tests/fixes/config_keys/data/global_micro_batches_v0_7_1.json``, which the
0.8.0+ tests compare verl-compat's conversion with.

verl 0.7.1 divides them in ``ActorRolloutRefWorker.__init__`` (``verl/workers/fsdp_workers.py``,
"normalize config"), which needs a torch device mesh of the world size. The script runs those very
statements, taken from the installed file with :mod:`ast`, on the composed config of each case, with
the mesh's size and the worker's Ulysses size given. Run in the 0.7.1 environment, verl alone:

    .venvs/verl-0.7.1/bin/python scripts/global_micro_batches_expected.py [--check]
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "fixes" / "config_keys" / "data" / "global_micro_batches_v0_7_1.json"
PER_GPU = (
    "actor.ppo_micro_batch_size_per_gpu",
    "rollout.log_prob_micro_batch_size_per_gpu",
    "ref.log_prob_micro_batch_size_per_gpu",
)
# (n_gpus_per_node, nnodes, actor Ulysses size, actor global, rollout global, ref global); verl's own
# launches: 116/116/116 on one GPU (examples/tuning/0.5b), 8 GPUs with 256 / 320.
CASES = (
    (1, 1, 1, 116, 116, 116),
    (8, 1, 1, 256, 320, 320),
    (4, 2, 2, 16, 32, 32),
    (8, 2, 1, 64, 128, 64),
)


def normalize_statements() -> list[ast.stmt]:
    """The ``if self._is_actor`` / ``_is_rollout`` / ``_is_ref`` statements of the worker's
    ``__init__`` that divide the micro-batch sizes."""
    import verl.workers.fsdp_workers as workers

    tree = ast.parse(Path(workers.__file__).read_text(encoding="utf-8"))
    worker = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ActorRolloutRefWorker")
    init = next(n for n in worker.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    chosen = [
        statement
        for statement in init.body
        if isinstance(statement, ast.If)
        and "_is_" in ast.unparse(statement.test)
        and "micro_batch_size" in ast.unparse(statement)
        and "//=" in ast.unparse(statement)
    ]
    assert len(chosen) == 3, [ast.unparse(s.test) for s in chosen]
    return chosen


def run_case(case, statements) -> dict:
    import verl
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    n_gpus, nnodes, sp, actor, rollout, ref = case
    overrides = [
        f"trainer.n_gpus_per_node={n_gpus}",
        f"trainer.nnodes={nnodes}",
        f"actor_rollout_ref.actor.ulysses_sequence_parallel_size={sp}",
        f"actor_rollout_ref.actor.ppo_micro_batch_size={actor}",
        f"actor_rollout_ref.rollout.log_prob_micro_batch_size={rollout}",
        f"actor_rollout_ref.ref.log_prob_micro_batch_size={ref}",
        # one micro-batch per mini-batch: the worker's own checks on the result hold
        f"actor_rollout_ref.actor.ppo_mini_batch_size={actor}",
    ]
    with initialize_config_dir(config_dir=str(Path(verl.__file__).parent / "trainer" / "config"), version_base=None):
        config = compose(config_name="ppo_trainer", overrides=overrides)
    worker = types.SimpleNamespace(
        config=config.actor_rollout_ref,
        device_mesh=types.SimpleNamespace(size=lambda: n_gpus * nnodes),
        ulysses_sequence_parallel_size=sp,
        _is_actor=True,
        _is_rollout=True,
        _is_ref=True,
    )
    module = ast.Module(body=statements, type_ignores=[])
    exec(compile(module, "verl/workers/fsdp_workers.py", "exec"), {"self": worker})
    return {
        "trainer.n_gpus_per_node": n_gpus,
        "trainer.nnodes": nnodes,
        "actor_rollout_ref.actor.ulysses_sequence_parallel_size": sp,
        "actor_rollout_ref.actor.ppo_micro_batch_size": actor,
        "actor_rollout_ref.rollout.log_prob_micro_batch_size": rollout,
        "actor_rollout_ref.ref.log_prob_micro_batch_size": ref,
        "per_gpu": {f"actor_rollout_ref.{key}": OmegaConf.select(config.actor_rollout_ref, key) for key in PER_GPU},
    }


def expectations() -> dict:
    import verl

    statements = normalize_statements()
    return {
        "made_by": "scripts/global_micro_batches_expected.py",
        "verl": verl.__version__,
        "cases": [run_case(case, statements) for case in CASES],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the data file instead of writing it")
    options = parser.parse_args()
    if os.environ.get("VERL_COMPAT_DISABLE") != "1":
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "VERL_COMPAT_DISABLE": "1"})
    try:
        made = expectations()
    except ImportError:
        print("this verl has no verl/workers/fsdp_workers.py: run it in the 0.7.1 environment", file=sys.stderr)
        return 2
    text = json.dumps(made, indent=1) + "\n"
    if options.check:
        same = DATA.read_text() == text
        print("the same" if same else f"{DATA} differs from what this verl makes")
        return 0 if same else 1
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(text)
    print(f"wrote {DATA.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
