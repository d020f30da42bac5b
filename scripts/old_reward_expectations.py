"""Write what verl 0.6.1's own ``load_reward_manager`` builds for the cases of
``tests/support/old_load_reward_manager.py`` (the manager's class, its ``compute_score``, its scores
on the fixed batch) to that module's ``DATA`` file, which the 0.9.1 tests compare verl-compat with.

Run in the 0.6.1 environment, with verl alone (the script restarts itself with
``VERL_COMPAT_DISABLE=1`` when it is not set):

    .venvs/verl-0.6.1/bin/python scripts/old_reward_expectations.py
"""

from __future__ import annotations

import inspect
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    if os.environ.get("VERL_COMPAT_DISABLE") != "1":
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "VERL_COMPAT_DISABLE": "1"})
    sys.path.insert(0, str(ROOT / "tests" / "support"))
    import old_load_reward_manager as cases
    from harness import tiny_model_dir
    from verl.trainer.ppo.reward import load_reward_manager
    from verl.utils import hf_tokenizer

    if "num_examine" not in inspect.signature(load_reward_manager).parameters:
        print("this verl's load_reward_manager takes no num_examine: run it in the 0.6.1 environment", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        tokenizer = hf_tokenizer(str(tiny_model_dir(Path(folder) / "model")))
        built = {}
        for name, case in cases.CASES.items():
            manager = cases.call(load_reward_manager, cases.compose(case), tokenizer, case)
            built[name] = cases.describe_manager(manager, tokenizer)
    import verl

    data = {"verl": verl.__version__, "made_by": "scripts/old_reward_expectations.py", "cases": built}
    cases.DATA.parent.mkdir(parents=True, exist_ok=True)
    cases.DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {cases.DATA.relative_to(ROOT)} ({len(built)} cases, verl {verl.__version__})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
