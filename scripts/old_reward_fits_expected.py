"""Write tests/fits/data/old_reward_fits_v0_6_1.json: what verl 0.6.1 itself gives each old reward
setup of tests/support/old_reward_oracle.py (its real RayPPOTrainer.fit, which builds and calls old
managers and reward_fn itself), for the reward fits on newer verl to compare with.

Run with the 0.6.1 environment's Python, verl-compat turned off (this script turns it off):

    source scripts/_envs.sh && ensure_env 0.6.1
    .venvs/verl-0.6.1/bin/python scripts/old_reward_fits_expected.py [SETUP ...]

Without arguments every setup runs (about a minute each on 2 cores); naming setups rewrites only
theirs. The file records the verl release that produced it.
"""

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

os.environ["VERL_COMPAT_DISABLE"] = "1"  # old verl as released, in this process and its Ray workers
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

import pyrun

os.environ.update(pyrun.RAY_SETTINGS)

import old_reward_oracle as oracle
import verl


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("setups", nargs="*", help=f"default: all of {', '.join(oracle.SETUPS)}")
    args = parser.parse_args(argv)
    unknown = set(args.setups) - set(oracle.SETUPS)
    if unknown:
        parser.error(f"unknown setups: {sorted(unknown)}")
    if not oracle.NATIVE:
        parser.error(f"verl {verl.__version__} no longer runs old reward code itself: use the 0.6.1 environment")
    data = oracle.load() if oracle.DATA_FILE.exists() else {"setups": {}}
    data["verl"] = verl.__version__
    for name in args.setups or list(oracle.SETUPS):
        with tempfile.TemporaryDirectory(prefix=f"old-reward-{name}-") as workdir:
            result, found = oracle.run_setup(name, Path(workdir))
            if found is None:
                raise SystemExit(f"{name}: the fit failed: {result.error!r}") from result.error
        data["setups"][name] = found
        print(f"{name}: {len(found['steps'])} steps in {result.wall_s:.0f} s", flush=True)
    oracle.DATA_FILE.parent.mkdir(parents=True, exist_ok=True)
    oracle.DATA_FILE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {oracle.DATA_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
