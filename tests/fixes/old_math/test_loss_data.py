"""The data file of old_math's loss test is what verl 0.7.1's own legacy workers compute today
(``scripts/make_old_loss_weights.py``); on the newest verl, which has no legacy workers, the file is
the only witness of them."""

import importlib.util
import json
import math
import runpy
from pathlib import Path

import pytest

pytestmark = pytest.mark.sides

REPO = Path(__file__).resolve().parents[3]
SCRIPT = REPO / "scripts" / "make_old_loss_weights.py"
DATA = REPO / "tests" / "fixes" / "old_math" / "data" / "loss_weights_0.7.1.json"


def _legacy_actor() -> Path:
    return Path(importlib.util.find_spec("verl").origin).parent / "workers" / "actor" / "dp_actor.py"


def test_data_file_is_what_the_legacy_workers_compute():
    if not _legacy_actor().exists():
        # The newest verl: no legacy worker left to ask (verl#6067), so the file is all there is.
        assert json.loads(DATA.read_text())["verl"] == "0.7.1"
        return
    regenerated = json.loads(json.dumps(runpy.run_path(str(SCRIPT))["generate"]()))
    differs = first_difference(regenerated, json.loads(DATA.read_text()))
    assert differs is None, (
        f"{DATA.name} is stale at {differs}: run .venvs/verl-0.7.1/bin/python {SCRIPT.relative_to(REPO)}"
    )


# float32 sums round differently on another CPU (its vector width): the file made on one machine
# differs from the same computation on another by ~1e-7 relative. Far below what the loss test
# tells apart (the old and new weights differ by 12-88 %).
REL_TOL = 1e-5


def first_difference(made, saved, path: str = "") -> str | None:
    """The first path where ``made`` and ``saved`` differ (floats: beyond ``REL_TOL``); None if none."""
    if isinstance(made, float) and isinstance(saved, (int, float)):
        return None if math.isclose(made, saved, rel_tol=REL_TOL, abs_tol=1e-12) else f"{path}: {made} != {saved}"
    if isinstance(made, dict) and isinstance(saved, dict):
        if made.keys() != saved.keys():
            return f"{path}: keys {sorted(made)} != {sorted(saved)}"
        return next((d for k in made if (d := first_difference(made[k], saved[k], f"{path}/{k}"))), None)
    if isinstance(made, list) and isinstance(saved, list):
        if len(made) != len(saved):
            return f"{path}: {len(made)} items != {len(saved)}"
        return next(
            (
                d
                for i, (a, b) in enumerate(zip(made, saved, strict=True))
                if (d := first_difference(a, b, f"{path}[{i}]"))
            ),
            None,
        )
    return None if made == saved else f"{path}: {made!r} != {saved!r}"
