"""What the old_rewards adapter costs per training step, beside verl's own reward loop on the same batch.

    .venvs/verl-0.9.1/bin/python benchmarks/old_rewards_cost.py [--prompts 64] [--n 4] [--rounds 7]
        [--json out.json]

One step batch (``--prompts`` prompts x ``--n`` responses, gsm8k-style, the suite's tiny tokenizer),
on a local Ray cluster, in a process where verl-compat is active. Medians over ``--rounds``:

- ``verl reward loop``: verl 0.9.1's own ``NaiveRewardManager`` (new contract) through a real
  ``RewardLoopManager(reward.num_workers=1).compute_rm_score(batch)``: what a native setup pays;
- ``old manager, called directly``: verl's old ``NaiveRewardManager`` (``verl.workers.reward_manager``)
  called on the batch, as verl 0.6 did in the driver;
- ``driver pass``: the same old manager through the shim's whole-batch pass (``driver.score_batch``:
  pop ``rm_scores``, call, set ``rm_scores`` and the extra info), the time ``extract_reward`` gains;
- ``placeholders in the reward workers``: ``compute_score_batch`` on a reward worker whose adapter
  returns the neutral placeholder (what the agent loop still asks per trajectory while the driver
  pass scores).

The shim's own overhead per step is ``driver pass - old manager, called directly`` plus the
placeholder pass (which runs during rollout, not in the driver).
"""

import argparse
import copy
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests/support"))

import verl_compat  # noqa: E402

verl_compat.activate()

import harness  # noqa: E402
import ray  # noqa: E402
from old_reward_batches import step_batch  # noqa: E402
from verl.utils import hf_tokenizer  # noqa: E402
from verl_config import verl_compose  # noqa: E402

from verl_compat.fixes.old_rewards import adapter, driver  # noqa: E402


def timed(function, rounds: int) -> dict:
    samples = []
    for _ in range(rounds + 1):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    samples = samples[1:]  # the first round warms caches (imports, Ray actor start)
    return {"median_ms": statistics.median(samples) * 1e3, "min_ms": min(samples) * 1e3, "n": len(samples)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--prompts", type=int, default=64)
    parser.add_argument("--n", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json")
    args = parser.parse_args()

    from verl.experimental.reward_loop.reward_loop import RewardLoopManager
    from verl.workers.reward_manager.naive import NaiveRewardManager as OldNaive

    model = harness.tiny_model_dir(Path(tempfile.mkdtemp()) / "model")
    tokenizer = hf_tokenizer(str(model))
    batch = step_batch(tokenizer, n=args.n, prompts=args.prompts)
    base = [f"actor_rollout_ref.model.path={model}", "reward.num_workers=1"]
    harness.ray_session()

    def kill_workers(manager) -> None:  # its workers are named actors: one manager at a time
        for handle in manager.reward_loop_workers:
            ray.kill(handle)

    results = {}
    native = RewardLoopManager(verl_compose(base))
    results["verl reward loop (NaiveRewardManager, 1 worker)"] = timed(
        lambda: native.compute_rm_score(batch), args.rounds
    )
    kill_workers(native)

    old_config = verl_compose(
        [
            *base,
            "reward.reward_manager.source=importlib",
            "reward.reward_manager.module.path=pkg://verl.workers.reward_manager.naive",
            "reward.reward_manager.name=NaiveRewardManager",
        ]
    )
    verl_compat.configs.set_key(old_config, adapter.SCORED_IN_DRIVER, True)
    adapted = RewardLoopManager(old_config)
    assert adapter.adapted_class(adapted.reward_manager_cls) is OldNaive
    old = OldNaive(tokenizer=tokenizer, num_examine=0, compute_score=None, reward_fn_key="data_source")
    scorer = driver.Scorer(old_config, tokenizer, old_class=OldNaive)
    worker = adapted.reward_loop_workers[0]
    results["old manager, called directly"] = timed(lambda: old(copy.deepcopy(batch), return_dict=True), args.rounds)
    results["driver pass (old manager + shim)"] = timed(
        lambda: driver.score_batch(scorer, copy.deepcopy(batch)), args.rounds
    )
    results["copy of the batch (in both rows above)"] = timed(lambda: copy.deepcopy(batch), args.rounds)
    results["placeholders in the reward worker"] = timed(
        lambda: ray.get(worker.compute_score_batch.remote(batch)), args.rounds
    )
    kill_workers(adapted)
    report = {"rows": len(batch), "rounds": args.rounds, "results": results}
    width = max(len(name) for name in results)
    print(f"step batch: {len(batch)} rows ({args.prompts} prompts x {args.n}), medians of {args.rounds} rounds")
    for name, row in results.items():
        print(f"  {name:<{width}}  {row['median_ms']:9.1f} ms  (min {row['min_ms']:.1f})")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
