"""Each way in, against the installed verl release, in a fresh interpreter: auto-load, verl's
``VERL_USE_EXTERNAL_MODULES`` (every release) and ``verl.plugins`` entry points (verl >= 0.9), and
``VERL_COMPAT_DISABLE=1`` closing all of them. ``-S`` (no ``.pth`` file runs) isolates verl's own
hooks from the auto-load.
"""

import sysconfig

import pytest
from pyrun import last_json, run_python

SITE = sysconfig.get_paths()["purelib"]
WRAPPED = ["RayPPOTrainer.__init__", "RayPPOTrainer._stop_profiling", "main_ppo.run_ppo"]

PROBE = """
import json, sys
import verl
shim = sys.modules.get("verl_compat")  # imported by the time `import verl` returned?
import verl.trainer.ppo.ray_trainer as rt, verl.trainer.main_ppo as mp
objects = {
    "RayPPOTrainer.__init__": rt.RayPPOTrainer.__dict__["__init__"],
    "RayPPOTrainer._stop_profiling": rt.RayPPOTrainer.__dict__["_stop_profiling"],
    "main_ppo.run_ppo": mp.run_ppo,
}
print(json.dumps({
    "loaded": shim is not None,
    "plugins": hasattr(verl, "_plugins_policy"),  # this verl loads verl.plugins entry points
    "active": bool(shim and shim.status()["active"]),
    "wrapped": sorted(name for name, obj in objects.items() if type(obj).__name__ == "FunctionWrapper"),
}))
"""


def probe(*flags, **env) -> dict:
    prelude = f"import sys; sys.path.append({SITE!r})\n" if "-S" in flags else ""
    return last_json(run_python(prelude + PROBE, flags=flags, env=env, drop=("VERL_", "PYTHONPATH")))


def test_auto_load():
    report = probe()
    assert (report["loaded"], report["active"], report["wrapped"]) == (True, True, WRAPPED)


def test_verl_use_external_modules():
    report = probe("-S", VERL_USE_EXTERNAL_MODULES="verl_compat", VERL_USE_EXTERNAL_PLUGINS="none")
    assert (report["loaded"], report["active"], report["wrapped"]) == (True, True, WRAPPED)


def test_verl_plugins_entry_point():
    report = probe("-S")
    if report["plugins"]:
        assert (report["loaded"], report["active"], report["wrapped"]) == (True, True, WRAPPED)
    else:  # releases before 0.9 have no plugin hook
        assert (report["loaded"], report["wrapped"]) == (False, [])


@pytest.mark.parametrize("flags", [(), ("-S",)], ids=["site", "no-site"])
def test_disable_closes_every_way_in(flags):
    report = probe(*flags, VERL_COMPAT_DISABLE="1", VERL_USE_EXTERNAL_MODULES="verl_compat")
    assert (report["loaded"], report["active"], report["wrapped"]) == (True, False, [])
