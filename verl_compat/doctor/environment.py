"""What doctor finds in this interpreter: versions, verl itself, and the routes into the trainer.

The trainer runs in a Ray actor that imports nothing from verl-compat, so doctor has to say whether
anything will bring the shim there: the wheel's ``.pth`` (active in this interpreter?), the
``verl.plugins`` entry point (does this verl load plugins, and does ``VERL_USE_EXTERNAL_PLUGINS``
let it?), and ``VERL_USE_EXTERNAL_MODULES``. It also imports every module a fix patches, because
patches are applied on import: only then does ``status()`` show what the shim does to this verl.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import platform
import site
import sys
from pathlib import Path
from typing import Any

from .. import __version__, _toggles, patching
from ..probes import EXTERNAL_MODULES

PACKAGES = ("verl", "ray", "torch", "wrapt")
BOOTSTRAP = "verl_compat_autoload"  # the stdlib-only module the wheel's .pth imports
PTH_FILE = f"{BOOTSTRAP}.pth"
PLUGIN_GROUP = "verl.plugins"
EXTERNAL_PLUGINS = "VERL_USE_EXTERNAL_PLUGINS"
ENV = (_toggles.DISABLE, _toggles.DISABLED_FIXES, EXTERNAL_MODULES, EXTERNAL_PLUGINS)
_OUR_MODULES = {"verl_compat", BOOTSTRAP}


def versions() -> dict[str, str | None]:
    """Python's version, and each package's from its metadata (``None``: not installed)."""
    found = {"python": platform.python_version(), **{name: _version(name) for name in PACKAGES}}
    found["verl-compat"] = __version__
    return found


def env() -> dict[str, str | None]:
    """Each toggle's raw value (``None``: unset)."""
    return {name: os.environ.get(name) for name in ENV}


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def import_verl() -> dict[str, Any]:
    try:
        verl = importlib.import_module("verl")
    except Exception as exc:  # a broken verl is an answer, not a traceback
        return {"importable": False, "error": f"{type(exc).__name__}: {exc}", "path": None}
    return {"importable": True, "error": None, "path": str(Path(verl.__file__).parent)}


def import_targets() -> dict[str, str]:
    """Import every module a fix patches: patches are applied by post-import hooks, so only an
    imported module shows in ``status()`` what the shim does to this verl."""
    modules = {}
    for fix in patching.loaded():
        for name in patching.targets(fix):
            try:
                try:
                    found = importlib.util.find_spec(name) is not None
                except ModuleNotFoundError:  # a parent package this release does not ship
                    found = False
                if not found:
                    modules[name] = "absent"
                    continue
                importlib.import_module(name)
                modules[name] = "imported"
            except Exception as exc:
                modules[name] = f"import failed: {type(exc).__name__}: {exc}"
    return modules


def _site_dirs() -> list[str]:
    """The folders whose ``.pth`` files Python runs at start-up (not every ``sys.path`` entry)."""
    dirs = list(site.getsitepackages())
    if site.ENABLE_USER_SITE:
        dirs.append(site.getusersitepackages())
    return dirs


def _verl_loads_plugins() -> bool:
    """verl >= 0.9 loads ``verl.plugins`` entry points at ``import verl``; earlier releases
    do not. Read from verl's ``__init__`` source, so it is known even when verl fails to import."""
    try:
        spec = importlib.util.find_spec("verl")
        return spec is not None and PLUGIN_GROUP in Path(spec.origin).read_text(encoding="utf-8")
    except (ImportError, ValueError, OSError, TypeError):
        return False


def autoload() -> dict[str, Any]:
    """The three routes by which the shim reaches a trainer process that imports nothing from it."""
    pth = next((str(Path(d, PTH_FILE)) for d in _site_dirs() if Path(d, PTH_FILE).is_file()), None)
    loads_plugins = _verl_loads_plugins()
    policy = os.environ.get(EXTERNAL_PLUGINS, "auto").strip().lower()
    allowed = None if policy == "auto" else {name.strip() for name in policy.split(",")}
    entry_points = [
        {
            "name": ep.name,
            "value": ep.value,
            "usable": loads_plugins and policy != "none" and (allowed is None or ep.name in allowed),
        }
        for ep in importlib.metadata.entry_points(group=PLUGIN_GROUP)
        if ep.module.partition(".")[0] in _OUR_MODULES
    ]
    named = {name.strip() for name in os.environ.get(EXTERNAL_MODULES, "").split(",")}
    found = {
        "pth": pth,
        "pth_active": BOOTSTRAP in sys.modules,
        "entry_points": entry_points,
        "verl_loads_plugins": loads_plugins,
        "external_modules": bool(named & _OUR_MODULES),
    }
    found["routes"] = [
        route
        for route, ok in (
            ("pth", found["pth_active"]),
            ("entry_point", any(ep["usable"] for ep in entry_points)),
            (EXTERNAL_MODULES, found["external_modules"]),
        )
        if ok
    ]
    return found
