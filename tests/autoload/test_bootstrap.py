"""The auto-load bootstrap and verl's two plugin hooks, exercised the way a user gets them: a wheel
built from this checkout (``uv build``), installed into fresh small virtualenvs (wrapt only, no
verl), and a fake top-level ``verl`` package written at test time whose ``__init__`` does what
verl's does (``VERL_USE_EXTERNAL_MODULES``, fail-closed; ``verl.plugins`` entry points, 0.9+).
Every check runs in a new interpreter.
"""

import os
import sys
import textwrap
from pathlib import Path

import pytest
import venvs
from pyrun import USER_SHELL, clean_env, last_json, run_python

pytestmark = pytest.mark.once

BOOTSTRAP_FILES = ("verl_compat_autoload.pth", "verl_compat_autoload.py", "verl_compat_autoload.start")
WRAPPED = ("RayPPOTrainer.__init__", "RayPPOTrainer._stop_profiling", "main_ppo.run_ppo")
ACTIVATED_BEFORE_VERL = {"loaded": True, "before_verl": True, "active": True, "wrapped": list(WRAPPED)}

FAKE_VERL = {
    "verl/__init__.py": """
        import importlib, logging, os, sys
        LOADED_BEFORE = "verl_compat" in sys.modules  # was verl-compat imported before verl ran?
        for _name in filter(None, os.environ.get("VERL_USE_EXTERNAL_MODULES", "").split(",")):
            importlib.import_module(_name)  # fail-closed, as in every verl release
        if os.environ.get("VERL_USE_EXTERNAL_PLUGINS", "auto") != "none":  # verl >= 0.9
            from importlib.metadata import entry_points
            for _ep in entry_points(group="verl.plugins"):
                try:
                    _ep.load()
                except Exception as _e:
                    logging.getLogger(__name__).debug("Failed to load plugin %s: %s", _ep.name, _e)
    """,
    "verl/trainer/__init__.py": "",
    "verl/trainer/ppo/__init__.py": "",
    "verl/trainer/ppo/ray_trainer.py": """
        class RayPPOTrainer:
            def __init__(self, config):
                self.config = config

            def _stop_profiling(self, do_profile):
                pass
    """,
    "verl/trainer/main_ppo.py": """
        def run_ppo(config, task_runner_class=None):
            return config
    """,
}

# Prints what happened, without importing wrapt or verl_compat itself.
PROBE = """
import json, sys
import verl
import verl.trainer.ppo.ray_trainer as rt, verl.trainer.main_ppo as mp
objects = {
    "RayPPOTrainer.__init__": rt.RayPPOTrainer.__dict__["__init__"],
    "RayPPOTrainer._stop_profiling": rt.RayPPOTrainer.__dict__["_stop_profiling"],
    "main_ppo.run_ppo": mp.run_ppo,
}
shim = sys.modules.get("verl_compat")
print(json.dumps({
    "loaded": shim is not None,
    "before_verl": verl.LOADED_BEFORE,
    "active": bool(shim and shim.status()["active"]),
    "wrapped": sorted(name for name, obj in objects.items() if type(obj).__name__ == "FunctionWrapper"),
}))
"""


def run(python, code, *flags, env=None, check=True):
    """``code`` in ``python`` with ``flags``, in ``env`` (``clean_env(...)``; a user's shell by default)."""
    return run_python(code, python=python, flags=flags, env=env, drop=USER_SHELL, check=check)


def probe(python, *flags, env=None, prelude=""):
    return last_json(run(python, prelude + PROBE, *flags, env=env))


class Venv:
    """A virtualenv built by ``venvs.venv``: its python and its site-packages."""

    def __init__(self, python: Path):
        self.python = python
        self.site_packages = venvs.site_packages(python)


def make_venv(path: Path, *install) -> Venv:
    return Venv(venvs.venv(path, *install))


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("bootstrap")


@pytest.fixture(scope="module")
def wheel(workdir) -> Path:
    """The wheel a user gets: built from this checkout by the project's own build backend."""
    return venvs.build_wheel(workdir / "dist")


@pytest.fixture(scope="module")
def venv(workdir, wheel) -> Venv:
    return make_venv(workdir / "venv", str(wheel))


@pytest.fixture(scope="module")
def fake_verl(workdir) -> Path:
    root = workdir / "fake"
    for name, text in FAKE_VERL.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))
    return root


def without_autoload(venv, fake_verl) -> tuple:
    """Flags and a prelude for an interpreter where no .pth file runs (``-S``), yet the venv's
    packages and their metadata are importable: only verl's own hooks can load verl-compat."""
    return ("-S",), f"import sys; sys.path[:0] = [{str(fake_verl)!r}, {str(venv.site_packages)!r}]\n"


# --- the wheel ---------------------------------------------------------------------------------


def test_wheel_puts_the_bootstrap_at_the_site_packages_root(venv):
    site = venv.site_packages
    for name in BOOTSTRAP_FILES:
        assert (site / name).is_file(), name
    assert (site / "verl_compat_autoload.pth").read_text() == "import verl_compat_autoload\n"
    assert (site / "verl_compat_autoload.start").read_text() == "verl_compat_autoload:install\n"
    record = next(site.glob("verl_compat-*.dist-info")).joinpath("RECORD").read_text()
    for name in BOOTSTRAP_FILES:
        assert f"\n{name}," in f"\n{record}", f"{name} missing from RECORD: uninstall would leave it behind"


def test_wheel_registers_the_verl_plugins_entry_point(venv):
    code = (
        "from importlib.metadata import entry_points; "
        "print([(e.name, e.value) for e in entry_points(group='verl.plugins')])"
    )
    assert run(venv.python, code).stdout.strip() == "[('verl_compat', 'verl_compat')]"


def test_pep_829_start_entry_is_an_idempotent_callable(venv):
    code = (
        "import pkgutil, sys; install = pkgutil.resolve_name('verl_compat_autoload:install'); install(); install(); "
        "print(sys.meta_path.count(sys.modules['verl_compat_autoload']))"
    )
    assert run(venv.python, code).stdout.strip() == "1"


# --- start-up cost -----------------------------------------------------------------------------


def test_start_up_loads_nothing_outside_the_standard_library(venv):
    code = "import sys; print(repr(sorted(sys.modules))); print(repr(sys.meta_path[0]))"
    modules_line, finder = run(venv.python, code).stdout.strip().splitlines()
    modules = eval(modules_line)
    outside = {m for m in modules if m.split(".")[0] not in sys.stdlib_module_names} - {"__main__"}
    assert outside == {"verl_compat_autoload"}
    assert finder.startswith("<module 'verl_compat_autoload'")  # the module is the finder

    nested = imported_under("verl_compat_autoload", run(venv.python, "pass", "-X", "importtime").stderr)
    assert all(name.split(".")[0] in sys.stdlib_module_names for name in nested), nested


def imported_under(module: str, importtime: str) -> list:
    """The modules that ``module``'s own import pulled in, from ``-X importtime`` output: the
    entries just above its line that are nested deeper than it."""
    entries = []
    for line in importtime.splitlines():
        fields = line.split("|")
        if line.startswith("import time:") and len(fields) == 3 and fields[0].split(":")[1].strip().isdigit():
            name = fields[2][1:]
            entries.append((len(name) - len(name.lstrip()), name.strip()))
    (index,) = [i for i, (_, name) in enumerate(entries) if name == module]
    nested = []
    for indent, name in reversed(entries[:index]):
        if indent <= entries[index][0]:
            break
        nested.append(name)
    return nested


def test_the_finder_keeps_no_other_module_alive(venv):
    # What sys.meta_path holds outlives shutdown's garbage collection: a module global of the finder
    # (os, say) would be kept alive with it and wiped entry by entry at the end of every process.
    code = (
        "import sys, types; module = sys.modules['verl_compat_autoload']; "
        "print([name for name, value in vars(module).items() if isinstance(value, types.ModuleType)])"
    )
    assert run(venv.python, code).stdout.strip() == "['sys']"


# --- activation, each way in -------------------------------------------------------------------


def test_auto_load_activates_on_first_import_of_verl(venv, fake_verl):
    env = clean_env(PYTHONPATH=str(fake_verl), VERL_USE_EXTERNAL_PLUGINS="none")
    assert probe(venv.python, env=env) == ACTIVATED_BEFORE_VERL


def test_verl_compat_is_not_imported_until_verl_is(venv, fake_verl):
    code = "import sys, json, email.message; print('verl_compat' in sys.modules, 'wrapt' in sys.modules)"
    assert run(venv.python, code, env=clean_env(PYTHONPATH=str(fake_verl))).stdout.strip() == "False False"


def test_verl_already_imported_activates_at_once(venv, fake_verl):
    flags, prelude = without_autoload(venv, fake_verl)
    prelude += "import verl; import verl_compat_autoload\n"
    result = probe(venv.python, *flags, prelude=prelude, env=clean_env(VERL_USE_EXTERNAL_PLUGINS="none"))
    assert result == {"loaded": True, "before_verl": False, "active": True, "wrapped": list(WRAPPED)}


def test_sitecustomize_line_loads_it_where_pth_files_do_not_run(workdir, wheel, fake_verl):
    # `--target` installs, like PYTHONPATH entries, are not site dirs: their .pth files never run.
    target = workdir / "target"
    venvs.uv("pip", "install", "-q", "--target", target, wheel)
    bare = make_venv(workdir / "bare")
    custom = workdir / "sitecustomize"
    custom.mkdir()
    path = os.pathsep.join([str(target), str(fake_verl)])
    env = clean_env(PYTHONPATH=path, VERL_USE_EXTERNAL_PLUGINS="none")
    assert probe(bare.python, env=env)["loaded"] is False

    (custom / "sitecustomize.py").write_text("import verl_compat_autoload\n")
    env["PYTHONPATH"] = os.pathsep.join([str(custom), path])
    assert probe(bare.python, env=env) == ACTIVATED_BEFORE_VERL


def test_verl_plugins_entry_point_alone_activates(venv, fake_verl):
    flags, prelude = without_autoload(venv, fake_verl)
    result = probe(venv.python, *flags, prelude=prelude, env=clean_env())
    assert result == {"loaded": True, "before_verl": False, "active": True, "wrapped": list(WRAPPED)}


def test_verl_use_external_modules_alone_activates(venv, fake_verl):
    flags, prelude = without_autoload(venv, fake_verl)
    env = clean_env(VERL_USE_EXTERNAL_MODULES="verl_compat", VERL_USE_EXTERNAL_PLUGINS="none")
    result = probe(venv.python, *flags, prelude=prelude, env=env)
    assert result == {"loaded": True, "before_verl": False, "active": True, "wrapped": list(WRAPPED)}


def test_disable_patches_nothing_on_any_way_in(venv, fake_verl):
    env = clean_env(PYTHONPATH=str(fake_verl), VERL_COMPAT_DISABLE="1", VERL_USE_EXTERNAL_MODULES="verl_compat")
    code = "import sys; print(any(getattr(f, '__name__', None) == 'verl_compat_autoload' for f in sys.meta_path))"
    assert run(venv.python, code, env=env).stdout.strip() == "False"
    result = probe(venv.python, env=env)
    assert result == {"loaded": True, "before_verl": False, "active": False, "wrapped": []}


def test_the_finder_never_hides_the_finders_after_it(venv, fake_verl):
    # The import system iterates sys.meta_path while calling find_spec: a finder that removed
    # itself there would make the next one be skipped for `verl` (e.g. an editable install's).
    prelude = textwrap.dedent(
        """
        import sys
        class Recorder:
            seen = []
            def find_spec(self, name, path=None, target=None):
                self.seen.append(name)
        sys.meta_path.insert(1, Recorder())
        """
    )
    code = prelude + "import verl; print('verl' in Recorder.seen, 'verl_compat' in sys.modules)"
    assert run(venv.python, code, env=clean_env(PYTHONPATH=str(fake_verl))).stdout.split() == ["True", "True"]


def test_a_broken_install_never_breaks_import_verl(workdir, wheel, fake_verl):
    # Installed without its dependency: activating verl_compat fails (no wrapt); verl must not.
    broken = make_venv(workdir / "broken")
    venvs.uv("pip", "install", "-q", "--no-deps", "-p", broken.python, wheel)
    result = run(broken.python, "import verl; print('ok')", env=clean_env(PYTHONPATH=str(fake_verl)))
    assert result.stdout.strip() == "ok"
    assert "verl-compat: activation failed; verl runs without the shim" in result.stderr
    assert "verl-compat needs wrapt, which is not installed" in result.stderr


def test_uninstall_removes_the_bootstrap_and_the_entry_point(workdir, wheel, fake_verl):
    gone = make_venv(workdir / "uninstalled", str(wheel))
    venvs.uv("pip", "uninstall", "-q", "-p", gone.python, "verl-compat")
    for name in BOOTSTRAP_FILES:
        assert not (gone.site_packages / name).exists(), name
    code = "from importlib.metadata import entry_points; print(list(entry_points(group='verl.plugins')))"
    assert run(gone.python, code).stdout.strip() == "[]"
    code = "import verl, sys; print('verl_compat' in sys.modules)"
    result = run(gone.python, code, env=clean_env(PYTHONPATH=str(fake_verl)))
    assert (result.stdout.strip(), result.stderr) == ("False", "")


# --- the toggle --------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["", "0", "false", "No", " off ", "1", "true", "yes", "anything"])
def test_bootstrap_reads_verl_compat_disable_like_the_package(monkeypatch, value):
    import verl_compat_autoload
    from verl_compat import _toggles

    monkeypatch.setenv("VERL_COMPAT_DISABLE", value)
    assert verl_compat_autoload.disabled() == _toggles.disabled()
