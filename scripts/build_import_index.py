#!/usr/bin/env python3
"""Index verl's public modules and top-level names at each release, statically, and list what old releases had
that newer ones lack. The reproducible half of ``verl_compat/fixes/old_imports/table.py``: its rows were decided
from verl's diffs, starting from the lists this script prints.

Inputs: a git directory of verl (``--verl-git``; a bare clone of github.com/verl-project/verl with its tags) and,
optionally, installed verl packages (``--wheel 0.9.1=/path/to/site-packages/verl``), which stand for releases the
git history has no tag for.

For every snapshot (each tag of ``--tags``, ``main``, each wheel) every ``.py`` file of the ``verl/`` package is
parsed with :mod:`ast` (never imported). A module's names are the ones bound at its top level: ``def``, ``class``,
assignments (also annotated and augmented), ``import`` / ``from … import`` (``import a.b`` binds ``a``),
``__all__`` entries, and ``from … import *`` of another verl module of the same snapshot (resolved transitively).
Statements under ``if`` / ``try`` / ``with`` / ``for`` / ``while`` at top level count as binding (the names exist on
at least one path). A name ``N`` of module ``M`` is also present when ``M.N`` is a module (``from verl.utils import
torch_functional`` works either way). A directory of ``.py`` files counts as a module (a namespace package in a
git tree; a wheel ships only what its build included, which the wheel snapshot shows as it is).

Public: no component of the module path and no name starts with ``_`` (``__init__`` excepted), and no component is
``tests`` / ``test`` or a ``test_*`` file.

Output (JSON, stdout or ``--out``):

- ``snapshots``: label -> source (commit sha or wheel dir) and module count;
- ``lacks``: for each target release X (``--targets``): the public modules some tag older than X (and at most
  ``--old-max``) had and X lacks (``missing_modules``: module -> ``{"last_seen": tag, "names": [...]}``), and the
  public names of modules X still has that X lacks (``missing_names``: module -> {name: {"last_seen": tag,
  "origin": how the last old tag bound it}}). Names an old module bound by importing another library
  (``import torch``) are only counted (``missing_foreign_names``).

``--imports-jsonl PATH`` also writes one line per verl import statement of the ``.py`` files under ``examples/``
and ``recipe/`` of each tag of ``--import-tags`` (fields: tag, path, lineno, module, name (null for ``import
module``; ``"*"`` for a star import), scope ``module``/``function``, guarded: inside a ``try`` whose handlers catch
ImportError (``ImportError``, ``ModuleNotFoundError``, ``Exception``, ``BaseException`` or bare ``except``)).
A directory that is a git submodule in the tag (``recipe`` from v0.7.1) is not followed.

It reads the sources with verl-compat's own reader (``verl_compat.source_imports``: ``top_level_bindings`` for the
names, ``imports_in`` for the imports), so it runs under any release environment of ``.venvs``. Usage::

    .venvs/verl-0.9.1/bin/python scripts/build_import_index.py --verl-git /path/to/verl.git \\
        --wheel 0.9.1=/path/to/venv/lib/python3.11/site-packages/verl --out index.json \\
        --imports-jsonl benchmarks/data/old_imports.jsonl
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import warnings

from verl_compat.source_imports import imports_in, top_level_bindings

DEFAULT_TAGS = ("v0.4.0", "v0.4.1", "v0.5.0", "v0.6.0", "v0.6.1", "v0.7.0", "v0.7.1", "v0.8.0", "v0.9.0")
DEFAULT_IMPORT_TAGS = ("v0.4.0", "v0.4.1", "v0.5.0", "v0.6.0", "v0.6.1", "v0.7.0", "v0.7.1", "v0.8.0")


def version_key(label: str) -> tuple:
    """Order labels: "v0.7.1" / "0.7.1" by number, "main" last."""
    if label == "main":
        return (99,)
    return tuple(int(p) for p in re.findall(r"\d+", label))


def release(label: str) -> str:
    return label[1:] if label.startswith("v") else label


# ---------------------------------------------------------------------------------------------------------------
# Reading snapshots


class Git:
    def __init__(self, git_dir: str):
        self.git_dir = git_dir
        self._cat = None

    def run(self, *args: str) -> str:
        return subprocess.run(
            ["git", "--git-dir", self.git_dir, *args], check=True, capture_output=True, text=True
        ).stdout

    def rev(self, ref: str) -> str:
        return self.run("rev-parse", f"{ref}^{{commit}}").strip()

    def ls(self, ref: str, prefix: str) -> list[tuple[str, str, str]]:
        """(mode, sha, path) of every entry under prefix, recursively."""
        out = []
        for line in self.run("ls-tree", "-r", ref, "--", prefix).splitlines():
            meta, path = line.split("\t", 1)
            mode, _type, sha = meta.split()
            out.append((mode, sha, path))
        return out

    def blob(self, sha: str) -> bytes:
        if self._cat is None:
            self._cat = subprocess.Popen(
                ["git", "--git-dir", self.git_dir, "cat-file", "--batch"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
        self._cat.stdin.write(sha.encode() + b"\n")
        self._cat.stdin.flush()
        header = self._cat.stdout.readline().split()
        size = int(header[2])
        data = self._cat.stdout.read(size)
        self._cat.stdout.read(1)
        return data


def module_name(relpath: str) -> str | None:
    """verl/a/b.py -> verl.a.b; verl/a/__init__.py -> verl.a (relpath from the directory above verl/)."""
    if not relpath.endswith(".py"):
        return None
    parts = relpath[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if not all(p.isidentifier() for p in parts):
        return None
    return ".".join(parts)


def is_public_module(mod: str) -> bool:
    return not any(p.startswith(("_", "test_")) or p in ("tests", "test") for p in mod.split("."))


def is_public_name(name: str) -> bool:
    return not name.startswith("_")


def parse(source: bytes, label: str) -> ast.Module | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source)
    except (SyntaxError, ValueError) as e:
        print(f"warning: {label}: {e}", file=sys.stderr)
        return None


class Snapshot:
    """modules: name -> {top-level name: origin} (after star resolution)."""

    def __init__(self, label: str, source: str, files: dict[str, bytes]):
        self.label = label
        self.source = source
        raw: dict[str, tuple[dict, list]] = {}
        for relpath, data in files.items():
            mod = module_name(relpath)
            if mod is None:
                continue
            tree = parse(data, f"{label}:{relpath}")
            if tree is None:
                raw[mod] = ({}, [])
                continue
            raw[mod] = top_level_bindings(tree, mod, relpath.endswith("__init__.py"))
        # Directories of modules (namespace packages in a git tree) are modules too.
        for mod in list(raw):
            parts = mod.split(".")
            for i in range(1, len(parts)):
                raw.setdefault(".".join(parts[:i]), ({}, []))
        self.modules: dict[str, dict] = {}
        for mod in raw:
            self.modules[mod] = self._resolve(mod, raw, set())

    def _resolve(self, mod, raw, seen) -> dict:
        names, stars = raw[mod]
        out = dict(names)
        for src in stars:
            if src in raw and src not in seen:
                seen.add(src)
                for n, origin in self._resolve(src, raw, seen).items():
                    if not n.startswith("_"):
                        # a star import re-exports the source's own objects; a library it imported stays foreign
                        out.setdefault(n, origin if is_foreign(origin) else f"from {src}:{n}")
        return out

    def has_name(self, mod: str, name: str) -> bool:
        return name in self.modules.get(mod, ()) or f"{mod}.{name}" in self.modules


def git_snapshot(git: Git, ref: str) -> Snapshot:
    files = {}
    for mode, sha, path in git.ls(ref, "verl"):
        if mode.startswith("100") and path.endswith(".py"):
            files[path] = git.blob(sha)
    return Snapshot(ref, git.rev(ref), files)


def wheel_files(pkg_dir: str) -> dict[str, bytes]:
    """The ``.py`` files of an installed package, by their path from the directory above it."""
    pkg_dir = os.path.abspath(pkg_dir)
    top = os.path.dirname(pkg_dir)
    files = {}
    for root, dirs, fnames in os.walk(pkg_dir):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in fnames:
            if f.endswith(".py"):
                p = os.path.join(root, f)
                with open(p, "rb") as fh:
                    files[os.path.relpath(p, top).replace(os.sep, "/")] = fh.read()
    return files


def wheel_snapshot(label: str, pkg_dir: str) -> Snapshot:
    return Snapshot(label, os.path.abspath(pkg_dir), wheel_files(pkg_dir))


# ---------------------------------------------------------------------------------------------------------------
# What old releases had that a newer one lacks


def is_foreign(origin: str) -> bool:
    """A name bound by importing something that is not verl (torch, os, ...): not verl's to list."""
    if origin.startswith("import "):
        src = origin[len("import ") :]
    elif origin.startswith("from "):
        src = origin[len("from ") :].split(":")[0]
    else:
        return False
    return not (src == "verl" or src.startswith("verl."))


def lacks(snaps: list[Snapshot], target: Snapshot, old_max: str) -> dict:
    """Public modules / names that some old snapshot had and target lacks.

    Names bound by importing a non-verl module (``import torch``) are left out (only counted): they are another
    library's names. Each name keeps the origin it had in the last old snapshot that had it ("def", "class",
    "assign", "from verl.x:N" for a re-export of another verl module's object, ...).
    """
    tkey = version_key(target.label)
    olds = [s for s in snaps if version_key(s.label) < tkey and version_key(s.label) <= version_key(old_max)]
    missing_modules: dict[str, dict] = {}
    missing_names: dict[str, dict] = {}
    foreign: dict[str, set] = {}
    for s in olds:  # ascending: later tags overwrite last_seen / origin
        for mod, names in s.modules.items():
            if not is_public_module(mod):
                continue
            if mod not in target.modules:
                entry = missing_modules.setdefault(mod, {"first_seen": s.label, "last_seen": s.label, "names": {}})
                entry["last_seen"] = s.label
                for n, origin in names.items():
                    if is_public_name(n) and not is_foreign(origin):
                        entry["names"][n] = origin
                continue
            for n, origin in names.items():
                if is_public_name(n) and not target.has_name(mod, n):
                    if is_foreign(origin):
                        foreign.setdefault(mod, set()).add(n)
                    else:
                        missing_names.setdefault(mod, {})[n] = {"last_seen": s.label, "origin": origin}
    return {
        "old_snapshots": [s.label for s in olds],
        "missing_modules": {
            m: {**e, "names": dict(sorted(e["names"].items()))} for m, e in sorted(missing_modules.items())
        },
        "missing_names": {m: dict(sorted(v.items())) for m, v in sorted(missing_names.items())},
        "missing_foreign_names": sum(len(v) for v in foreign.values()),
    }


# ---------------------------------------------------------------------------------------------------------------
# Imports of verl in examples/ and recipe/


def import_rows(git: Git, tags) -> list[dict]:
    rows = []
    for tag in tags:
        for top in ("examples", "recipe"):
            for mode, sha, path in git.ls(tag, top):
                if not (mode.startswith("100") and path.endswith(".py")):
                    continue
                tree = parse(git.blob(sha), f"{tag}:{path}")
                if tree is None:
                    continue
                rows += [
                    {
                        "tag": tag,
                        "path": path,
                        "lineno": found.line,
                        "module": found.module,
                        "name": found.name,
                        "scope": found.scope,
                        "guarded": found.guarded,
                    }
                    for found in imports_in(tree, path)
                ]
    return rows


# ---------------------------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verl-git", required=True, help="git dir of verl (bare clone with tags)")
    ap.add_argument("--tags", nargs="+", default=list(DEFAULT_TAGS))
    ap.add_argument("--no-main", action="store_true", help="do not index the main branch")
    ap.add_argument("--wheel", action="append", default=[], metavar="RELEASE=DIR", help="an installed verl package dir")
    ap.add_argument("--targets", nargs="+", help="releases to list lacks for (default: every snapshot after v0.7.0)")
    ap.add_argument("--old-max", default="v0.8.0", help="newest tag whose modules count as old (default v0.8.0)")
    ap.add_argument("--out", help="write the JSON here instead of stdout")
    ap.add_argument("--dump-modules", action="store_true", help="also include every snapshot's full index")
    ap.add_argument("--imports-jsonl", help="write verl imports of examples/ and recipe/ here")
    ap.add_argument("--import-tags", nargs="+", default=list(DEFAULT_IMPORT_TAGS))
    args = ap.parse_args(argv)

    git = Git(args.verl_git)
    snaps = [git_snapshot(git, t) for t in args.tags]
    if not args.no_main:
        snaps.append(git_snapshot(git, "main"))
    for spec in args.wheel:
        label, _, d = spec.partition("=")
        snaps.append(wheel_snapshot(label, d))
    snaps.sort(key=lambda s: (version_key(s.label), not s.label.startswith("v")))
    by_label = {s.label: s for s in snaps}
    targets = args.targets or [s.label for s in snaps if version_key(s.label) > version_key("v0.7.0")]

    result = {
        "snapshots": {s.label: {"source": s.source, "modules": len(s.modules)} for s in snaps},
        "public": "no module path component or name starting with '_' (__init__ aside); no tests",
        "lacks": {t: lacks([s for s in snaps if s.label.startswith("v")], by_label[t], args.old_max) for t in targets},
    }
    if args.dump_modules:
        result["modules"] = {s.label: {m: dict(sorted(n.items())) for m, n in sorted(s.modules.items())} for s in snaps}
    text = json.dumps(result, indent=1)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text + "\n")
    else:
        print(text)
    for t in targets:
        lk = result["lacks"][t]
        n_names = sum(len(v) for v in lk["missing_names"].values())
        print(
            f"{t}: lacks {len(lk['missing_modules'])} public modules and {n_names} public names of kept modules "
            f"(old: {', '.join(lk['old_snapshots'])})",
            file=sys.stderr,
        )

    if args.imports_jsonl:
        rows = import_rows(git, args.import_tags)
        with open(args.imports_jsonl, "w") as fh:
            for r in rows:
                fh.write(json.dumps(r) + "\n")
        print(f"{args.imports_jsonl}: {len(rows)} verl imports", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
