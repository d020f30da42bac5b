"""The repository's snapshot generator (``scripts/make_snapshots.py``) for the tests: a run's
memory snapshots in torch's pickle format, without a GPU."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _load():
    spec = importlib.util.spec_from_file_location("make_snapshots", ROOT / "scripts" / "make_snapshots.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


make_snapshots = _load()
write_run = make_snapshots.write_run
GiB = make_snapshots.GiB
