"""What verl 0.6.1's recipe-shaped DAPO fit gives natively, step by step: the expectation of
``tests/fits/test_old_reward_recipes.py``, in ``tests/fits/data/recipe_dapo_v0_6_1.json``
(``tests/support/recipe_dapo.py`` says what is recorded).

Run with the 0.6.1 environment, verl-compat turned off (``VERL_COMPAT_DISABLE=1``, set here), so that
the numbers are old verl's alone::

    .venvs/verl-0.6.1/bin/python scripts/recipe_dapo_expected.py           # writes the data file
    .venvs/verl-0.6.1/bin/python scripts/recipe_dapo_expected.py --stdout  # prints it as one JSON line

The run takes about a minute on two cores. It refuses a verl that no longer calls old reward code
itself (0.7.1+): the expectation must come from a release that ran the recipe natively.
"""

import argparse
import inspect
import json
import os
import sys
import tempfile
from pathlib import Path

SUPPORT = Path(__file__).resolve().parents[1] / "tests" / "support"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stdout", action="store_true", help="print the record as one JSON line, write nothing")
    args = parser.parse_args()

    os.environ["VERL_COMPAT_DISABLE"] = "1"  # before verl is imported: the shim's auto-load reads it
    sys.path.insert(0, str(SUPPORT))
    import pyrun

    os.environ.update(pyrun.RAY_SETTINGS)
    import recipe_dapo
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    if "reward_fn" not in inspect.signature(RayPPOTrainer.__init__).parameters:
        print("this verl's trainer no longer takes reward_fn: run with .venvs/verl-0.6.1/bin/python", file=sys.stderr)
        return 2
    record = recipe_dapo.run(tempfile.mkdtemp(prefix="recipe-dapo-"))
    if args.stdout:
        print(json.dumps(record, sort_keys=True))
    else:
        recipe_dapo.EXPECTED.parent.mkdir(parents=True, exist_ok=True)
        recipe_dapo.EXPECTED.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
        print(f"wrote {recipe_dapo.EXPECTED}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
