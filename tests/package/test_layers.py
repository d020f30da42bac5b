"""The package's imports run one way: tools -> fixes -> core -> registry (a leaf), with no cycle and
no function-level import of the package's own modules to hide one. Read from the source (ast), so
it holds for code paths no test runs."""

import ast
import re
from pathlib import Path

import pytest
from paths import PACKAGE_SOURCE

pytestmark = pytest.mark.once

PACKAGE = PACKAGE_SOURCE
TOOLS = ("verl_compat.cli", "verl_compat.__main__", "verl_compat.doctor", "verl_compat.migrate", "verl_compat.view")
FIXES = ("verl_compat.fixes",)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _resolve(importer: str, node: ast.ImportFrom) -> list:
    if node.level:
        base = importer if _is_package(importer) else importer.rpartition(".")[0]
        for _ in range(node.level - 1):
            base = base.rpartition(".")[0]
        base = f"{base}.{node.module}" if node.module else base
    else:
        base = node.module or ""
    found = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in MODULES]
    return found or ([base] if base in MODULES else [])


def _imports(name: str):
    """``(imported module, at module level)`` for each of the package's own modules ``name`` imports."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    top = set(map(id, tree.body))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            targets = _resolve(name, node)
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names if alias.name in MODULES]
        else:
            continue
        for target in targets:
            yield target, id(node) in top


GRAPH = {name: {target for target, _ in _imports(name) if target != name} for name in MODULES}


def _within(name: str, packages: tuple) -> bool:
    """``name`` is one of ``packages`` or below one (``verl_compat.migrate_contract`` is not below
    ``verl_compat.migrate``)."""
    return any(name == package or name.startswith(package + ".") for package in packages)


def _layer(name: str) -> str:
    if name == "verl_compat.registry":
        return "registry"
    if _within(name, TOOLS):
        return "tool"
    if _within(name, FIXES):
        return "fix"
    return "core"


def test_no_import_cycle():
    state = {}

    def visit(name, path):
        if state.get(name) == "done":
            return
        assert state.get(name) != "open", f"import cycle: {' -> '.join([*path, name])}"
        state[name] = "open"
        for target in sorted(GRAPH[name]):
            visit(target, [*path, name])
        state[name] = "done"

    for name in MODULES:
        # A submodule's parent package runs first anyway: an edge to it is no dependency.
        GRAPH[name] -= {parent for parent in MODULES if name.startswith(parent + ".")}
        visit(name, [])


def test_no_function_level_import_of_the_package():
    """Except a package deferring its own submodule (and the third-party import that submodule
    carries: config_keys' Hydra wrappers import Hydra), which can hide no cycle."""
    late = [
        (name, target)
        for name in MODULES
        for target, top in _imports(name)
        if not top and not (_is_package(name) and target.startswith(name + "."))
    ]
    assert late == []


def test_registry_is_a_leaf():
    assert GRAPH["verl_compat.registry"] == set()


@pytest.mark.parametrize(
    "layer, never",
    [("registry", {"core", "fix", "tool"}), ("core", {"fix", "tool"}), ("fix", {"tool"}), ("tool", {"fix"})],
)
def test_imports_run_one_way(layer, never):
    wrong = [
        (name, target)
        for name in MODULES
        if _layer(name) == layer
        for target in GRAPH[name]
        if _layer(target) in never and target != "verl_compat"
    ]
    assert wrong == []


def _fix_of(name: str) -> str | None:
    """The fix folder a module of the fix layer belongs to (``verl_compat.fixes.<fix>...``)."""
    parts = name.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "fixes" else None


def test_a_fix_imports_no_other_fix():
    """One folder per fix, each loaded in its own guard: a fix that imports another would fail with it,
    and be turned off with it. Knowledge two fixes share lives in the core."""
    wrong = [
        (name, target)
        for name in MODULES
        if _fix_of(name)
        for target in GRAPH[name]
        if _fix_of(target) and _fix_of(target) != _fix_of(name)
    ]
    assert wrong == []


def test_the_tools_name_no_fix():
    """doctor (and every tool) knows fixes only through the contract: no fix's NAME appears there."""
    # A fix's NAME is its folder under verl_compat/fixes (registry.fix_name).
    names = {path.relative_to(PACKAGE / "fixes").parts[0] for path in _paths("fix") if path.parent != PACKAGE / "fixes"}
    assert {"torch_memory", "oom_snapshot", "propagation", "config_keys", "old_imports"} <= names
    for path in _paths("tool"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        literals = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)}
        assert not names & literals, f"{path} names a fix"


def test_every_core_module_is_in_the_layer_picture_and_type_checked():
    """docs/fix_contract.md's layer picture names each public core module, and mypy checks it
    (pyproject.toml's [tool.mypy] files): a new core module is placed and typed, or this fails."""
    import tomllib
    from paths import DOCS, REPO

    # A core package (verl_compat/stack/) is placed and typed as one.
    core = {name.split(".")[1] for name in MODULES if _layer(name) == "core" and name != "verl_compat"}
    public = {name for name in core if not name.startswith("_")}
    picture = (DOCS / "fix_contract.md").read_text(encoding="utf-8").partition("\ncore ")[2].partition("\nregistry ")[0]
    assert sorted(name for name in public if not re.search(rf"\b{name}\b", picture)) == []
    typed = {Path(path).stem for path in tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mypy"]["files"]}
    assert sorted(core - typed - {"_version"}) == []


def _paths(layer: str) -> list:
    return [path for name, path in MODULES.items() if _layer(name) == layer]
