"""Which top-level sections of verl's composed trainer config nothing in verl reads: a check built
from verl's installed code, not guessed.

Run with a release's Python (``.venvs/verl-0.9.1/bin/python scripts/unread_config_sections.py``).
It composes verl's ``ppo_trainer`` (Hydra, verl's own config folder), then reads every ``.py``
file of the installed verl package with :mod:`ast` (nothing imported) and collects each read of a
top-level section from the config root: ``<root>.section``, ``<root>.get("section")``,
``<root>["section"]`` and ``OmegaConf.select(<root>, "section…")``, where ``<root>`` is a name or
attribute called ``config``/``cfg``/``conf`` (``self.config``, ``full_config``, ``trainer_config``…).
A read under another section (``config.reward.reward_model``: 0.9's own nested key) or off a data
batch (``non_tensor_batch["reward_model"]``: the dataset's column) is not a read of the section.
Reads inside the functions that only migrate a section away (``migrate_legacy_reward_impl``) are
listed apart: they move the keys, they do not use them.

The output lists, per section: the files that read it, the migrating functions that read it, and
whether the release's ``main_ppo`` calls those functions. ``--json`` gives the same as data;
``--markdown`` one table row for docs/config_keys.md.
"""

from __future__ import annotations

import argparse
import ast
import collections
import importlib.util
import json
import re
import sys
from pathlib import Path

MIGRATORS = ("migrate_legacy_reward_impl",)  # functions that only move a section into another
ROOT = re.compile(r"(^|_)(config|cfg|conf)$", re.IGNORECASE)


def verl_dir() -> Path:
    spec = importlib.util.find_spec("verl")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("verl is not installed in this Python")
    return Path(next(iter(spec.submodule_search_locations)))


def top_level_sections(package: Path) -> list[str]:
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(package / "trainer" / "config"), version_base=None):
        config = compose(config_name="ppo_trainer")
    return sorted(key for key in config if not str(key).startswith("_"))


def _chain(node: ast.AST) -> list[str] | None:
    """``self.config`` -> ["self", "config"]; None for anything but names and attributes."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id, *reversed(parts)]
    return None


def _is_root(node: ast.AST) -> bool:
    chain = _chain(node)
    return chain is not None and bool(ROOT.search(chain[-1]))


def _string(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def reads(tree: ast.AST, sections: set[str]):
    """(section, line, enclosing function) for each read of a top-level section off a config root."""
    functions: list[tuple[int, int, str]] = [
        (n.lineno, n.end_lineno or n.lineno, n.name)
        for n in ast.walk(tree)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]

    def enclosing(line: int) -> str:
        inside = [f for f in functions if f[0] <= line <= f[1]]
        return max(inside, key=lambda f: f[0])[2] if inside else ""

    for node in ast.walk(tree):
        section = None
        if isinstance(node, ast.Attribute) and node.attr in sections and _is_root(node.value):
            section = node.attr
        elif isinstance(node, ast.Subscript) and _is_root(node.value):
            section = _string(node.slice)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            if node.func.attr in ("get", "pop") and _is_root(node.func.value):
                section = _string(node.args[0])
            elif node.func.attr == "select" and len(node.args) > 1 and _is_root(node.args[0]):
                path = _string(node.args[1])
                section = path.split(".")[0] if path else None
        if section in sections:
            yield section, node.lineno, enclosing(node.lineno)


def scan(package: Path) -> dict:
    sections = top_level_sections(package)
    readers: dict[str, dict[str, list]] = {s: collections.defaultdict(list) for s in sections}
    migrating: dict[str, set] = {s: set() for s in sections}
    for path in sorted(package.rglob("*.py")):
        relative = str(path.relative_to(package))
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for section, line, function in reads(tree, set(sections)):
            if function in MIGRATORS:
                migrating[section].add(f"{relative}:{function}")
            else:
                readers[section][relative].append(line)
    main_ppo = ast.parse((package / "trainer" / "main_ppo.py").read_text(encoding="utf-8"))
    called = {
        n.func.id if isinstance(n.func, ast.Name) else n.func.attr
        for n in ast.walk(main_ppo)
        if isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute))
    }
    return {
        "sections": {
            s: {
                "read_by": dict(sorted(readers[s].items())),
                "migrated_by": sorted(migrating[s]),
                "unread": not readers[s],
            }
            for s in sections
        },
        "main_ppo_calls": sorted(m for m in MIGRATORS if m in called),
        "callers": sorted(
            str(p.relative_to(package))
            for p in package.rglob("*.py")
            if any(
                re.search(rf"(?<!def )\b{m}\s*\(", p.read_text(encoding="utf-8", errors="replace")) for m in MIGRATORS
            )
            and not p.name.startswith("test")
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--markdown", action="store_true", help="one table row for docs/config_keys.md")
    options = parser.parse_args()
    import verl

    found = scan(verl_dir())
    unread = [s for s, info in found["sections"].items() if info["unread"]]
    if options.json:
        print(json.dumps({"verl": verl.__version__, **found}, indent=1))
        return
    if options.markdown:
        migrated = ", ".join(f"`{s}`" for s in unread if found["sections"][s]["migrated_by"]) or "none"
        others = ", ".join(f"`{s}`" for s in unread if not found["sections"][s]["migrated_by"]) or "none"
        calls = "yes" if found["main_ppo_calls"] else "no"
        print(f"| {verl.__version__} | {len(found['sections'])} | {migrated} | {calls} | {others} |")
        return
    print(f"verl {verl.__version__}: {len(found['sections'])} top-level sections of ppo_trainer")
    print(f"main_ppo calls: {', '.join(found['main_ppo_calls']) or 'none of ' + ', '.join(MIGRATORS)}")
    print(f"migrators called from: {', '.join(found['callers']) or 'nowhere'}")
    for section, info in found["sections"].items():
        files = ", ".join(f"{f} ({len(lines)})" for f, lines in list(info["read_by"].items())[:4])
        more = len(info["read_by"]) - 4
        state = "UNREAD" if info["unread"] else "read"
        moved = f"; migrated by {', '.join(info['migrated_by'])}" if info["migrated_by"] else ""
        print(f"  {section:28} {state:6} {files}{f' +{more} files' if more > 0 else ''}{moved}")


if __name__ == "__main__":
    main()
