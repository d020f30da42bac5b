"""The data file of old_math's loss test is what verl 0.7.1's own legacy workers compute today
(``scripts/make_old_loss_weights.py``); on the newest verl, which has no legacy workers, the file is
the only witness of them."""

import importlib.util
import json
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
    assert regenerated == json.loads(DATA.read_text()), (
        f"{DATA.name} is stale: run .venvs/verl-0.7.1/bin/python {SCRIPT.relative_to(REPO)}"
    )
