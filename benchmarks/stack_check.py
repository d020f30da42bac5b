"""The launch-time stack check's cost in the launcher, beside ``import verl``.

    .venvs/verl-0.9.1/bin/python benchmarks/stack_check.py [--rounds 20]

``propagation`` runs ``verl_compat.stack.check(config)`` once in the launcher, in ``run_ppo``,
after ``import verl`` (which imports ``importlib.metadata`` and ``packaging`` itself). Each round is
a fresh process of this interpreter that times ``import verl``, then the check's whole work on a
config asking for the vLLM rollout and the v1 trainer (the installed verl read, ~15 distributions
looked up by name, the row judged), then the same again (warm). Medians over the rounds.
"""

import argparse
import json
import statistics
import subprocess
import sys

ROUND = """
import json, time
t0 = time.perf_counter()
import verl
t1 = time.perf_counter()
from verl_compat import stack
config = {"actor_rollout_ref": {"rollout": {"name": "vllm"}}, "trainer": {"use_v1": True}}
t2 = time.perf_counter()
stack.verdict(config)
t3 = time.perf_counter()
stack.verdict(config)
t4 = time.perf_counter()
print(json.dumps({"import_verl": t1 - t0, "check": t3 - t2, "check_again": t4 - t3}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    samples: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        out = subprocess.run([sys.executable, "-c", ROUND], capture_output=True, text=True, check=True).stdout
        for key, value in json.loads(out.strip().splitlines()[-1]).items():
            samples.setdefault(key, []).append(value * 1000)
    medians = {key: statistics.median(values) for key, values in samples.items()}
    for key, value in medians.items():
        print(f"{key:12} median {value:8.2f} ms  (min {min(samples[key]):.2f}, max {max(samples[key]):.2f})")
    print(f"check / import verl: {medians['check'] / medians['import_verl']:.4f}")


if __name__ == "__main__":
    main()
