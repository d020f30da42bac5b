"""What a Python source imports and binds, read with ``ast`` (``verl_compat.source_imports``): the
one import walker (doctor --code, migrate) and the one reader of the names a module binds
(old_imports' ``installed.has``, which tells the table rows that apply without importing verl)."""

import ast
import textwrap

import pytest

from verl_compat import source_imports
from verl_compat.fixes.old_imports import installed

pytestmark = pytest.mark.once


def _bindings(source: str, module: str = "verl.pkg.mod", is_package: bool = False):
    return source_imports.top_level_bindings(ast.parse(textwrap.dedent(source)), module, is_package)


def test_each_kind_of_binding_and_how_it_reads():
    names, stars = _bindings(
        """
        import os.path
        import numpy as np
        from .sibling import helper as aid
        from ..up import thing
        def run(): pass
        class Trainer: pass
        LIMIT: int = 3
        a, (b, *rest) = 1, (2, 3)
        __all__ = ["lazy"] + ["lazier"]
        __all__.append("appended")
        """
    )
    assert names == {
        "os": "import os",
        "np": "import numpy",
        "aid": "from verl.pkg.sibling:helper",
        "thing": "from verl.up:thing",
        "run": "def",
        "Trainer": "class",
        "LIMIT": "assign",
        "a": "assign",
        "b": "assign",
        "rest": "assign",
        "__all__": "assign",
        "lazy": "all",
        "lazier": "all",
        "appended": "all",
    }
    assert stars == []


def test_a_relative_star_import_of_a_package_is_resolved_against_the_package_itself():
    assert _bindings("from .engine import *\nfrom verl.utils import *", "verl.workers", is_package=True)[1] == [
        "verl.workers.engine",
        "verl.utils",
    ]


# Where the two readers of verl-compat (old_imports' own and the release script's) disagreed: the
# old_imports reader took every name inside an assignment target (``table[key] = value`` bound
# ``table`` and ``key``), and did not look into ``for``, ``with … as``, ``try … except*`` or
# ``__all__``. The one reader now answers as Python binds.
DISAGREED = {
    "table[key] = value\nobj.attr = 1\n": (set(), {"key", "attr", "obj", "table"}),
    "for name in ('a', 'b'):\n    ALIAS = name\n": ({"name", "ALIAS"}, set()),
    "with open(__file__) as handle:\n    DATA = 1\n": ({"handle", "DATA"}, set()),
    "try:\n    import torch\nexcept* ImportError:\n    torch = None\n": ({"torch"}, set()),
    "__all__ = ['served_lazily']\ndef __getattr__(name): ...\n": ({"served_lazily", "__getattr__"}, set()),
    "class Holder:\n    inner = 1\ndef f():\n    local = 2\n": ({"Holder", "f"}, {"inner", "local"}),
}


@pytest.mark.parametrize("source", DISAGREED, ids=range(len(DISAGREED)))
def test_only_names_python_binds_at_the_top_level(source):
    bound, unbound = DISAGREED[source]
    names = set(_bindings(source)[0])
    assert bound <= names
    assert not unbound & names


def test_installed_has_reads_a_module_file_with_the_one_reader(tmp_path, monkeypatch):
    """``installed.has`` on a verl tree of files: a name bound by a ``for`` loop is there, a key
    assigned into a dict is not, and a module with a star import may have any name."""
    package = tmp_path / "verl"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "registry.py").write_text("KNOWN = {}\nfor kind in ('a',):\n    KNOWN[kind] = 1\n")
    (package / "starred.py").write_text("from os.path import *\n")
    monkeypatch.setattr(installed, "_root", lambda: package)
    installed._names.cache_clear()
    try:
        assert installed.has("verl.registry:KNOWN") and installed.has("verl.registry:kind")
        assert not installed.has("verl.registry:absent")
        assert installed.has("verl.starred:anything")
    finally:
        installed._names.cache_clear()


def test_imports_of_and_imports_in_agree():
    source = "import verl\ntry:\n    from verl.a import b\nexcept ImportError:\n    b = None\n"
    source += "def f():\n    import verl.c\n"
    tree = ast.parse(source)
    assert source_imports.imports_in(tree, "x.py") == source_imports.imports_of(source, "x.py")
    assert [(i.module, i.name, i.scope, i.guarded) for i in source_imports.imports_of(source, "x.py")] == [
        ("verl", None, "module", False),
        ("verl.a", "b", "module", True),
        ("verl.c", None, "function", False),
    ]
