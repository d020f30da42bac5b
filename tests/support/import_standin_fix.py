"""A fix that exists only in the test suite and does nothing but answer the import plumbing of the
core (``verl_compat.importing``): old paths of a made-up package, ``standin_old``, that moved to
``standin_new`` (tests/support/import_standin), so that the plumbing is tested on its own, without
verl and without old_imports' table, and on every Python the core supports
(tests/support/import_hook_check.py). Standard library only, like the plumbing.

    standin_old                a removed package that still has a moved name (a stub)
    standin_old.moved          moved: standin_new.sub (the same module object)
    standin_old.pkg            a moved package: standin_new (its submodules follow)
    standin_old.gone           removed: the fix's ModuleNotFoundError
    standin_old.entry          ``python -m standin_old.entry`` runs standin_new.sub.main
    standin_new.OLD_VALUE      moved: standin_new.VALUE
    standin_new.gone           removed: the fix's ImportError
    standin_old.moved_name     moved: standin_new.VALUE (asked of the stub)

``FAIL["resolve_module"]`` makes ``resolve_module`` raise, for the fail-open checks.
"""

import importlib

from verl_compat import registry

NAME = "import_standin"
TARGETS = ()
IMPORT_PACKAGES = ("standin_old",)
NAME_TARGETS = ("standin_new",)
FAIL = {"resolve_module": False}

GONE_MODULE = "standin_old.gone was removed: import standin_new instead"
GONE_NAME = "standin_new.gone was removed: use standin_new.VALUE"


def resolve_module(fullname):
    if FAIL["resolve_module"]:
        raise RuntimeError("injected fault in the import stand-in fix's resolve_module")
    if fullname == "standin_old":
        return registry.Resolution(stub=True)
    if fullname == "standin_old.moved":
        return registry.Resolution(value=importlib.import_module("standin_new.sub"))
    if fullname == "standin_old.pkg":
        return registry.Resolution(value=importlib.import_module("standin_new"))
    if fullname == "standin_old.gone":
        return registry.Resolution(error=ModuleNotFoundError(GONE_MODULE, name=fullname))
    if fullname == "standin_old.entry":
        new = importlib.import_module("standin_new.sub")
        return registry.Resolution(value=new, main=new.main)
    return None


def resolve_name(module, name):
    if (module, name) == ("standin_new", "OLD_VALUE") or (module, name) == ("standin_old", "moved_name"):
        return registry.Resolution(value=importlib.import_module("standin_new").VALUE)
    if (module, name) == ("standin_new", "gone"):
        return registry.Resolution(error=ImportError(GONE_NAME, name=name))
    return None
