#!/usr/bin/env python3
"""Follow a new verl release: propose every table's rows for it from verl's history and the new wheel.

One command, for the maintainer who has a new verl wheel (docs/new_release.md has the steps)::

    .venvs/verl-0.9.1/bin/python scripts/follow_release.py --verl-git /path/to/verl.git \\
        --old v0.9.0 --new 0.10.0=.venvs/verl-0.10.0 --out /tmp/follow-0.10.0

``--verl-git`` is a bare clone of github.com/verl-project/verl with its tags; ``--old`` the previous release's
tag; ``--new LABEL=SOURCE`` the new release: a virtual environment, a ``site-packages/verl`` folder, a ``.whl``
file, or a tag of the clone. It runs under a Python with Hydra (any release environment of ``.venvs``) and never
imports verl. What it compares, each release read the same way:

- **module paths and names** (``verl_compat/fixes/old_imports/table.py``): every public module and top-level name
  some tag up to ``--old`` had and the new release lacks (``scripts/build_import_index.py`` reads the trees with
  ``ast``), traced in ``--old..--history`` to the commit that deleted, renamed or unbound it;
- **keyword arguments** (``KEYWORD_ROWS``): parameters of a verl callable that verl's own examples, recipes and
  code (its trainers, which recipes copy) up to ``--old`` passed by keyword and the new signature lacks;
- **config keys** (``verl_compat/fixes/config_keys/table.py``): both releases' ``ppo_trainer`` and
  ``ppo_megatron_trainer`` (with each ``model_engine`` option) composed with Hydra from verl's own config folder
  (the tag's through ``git archive``, the wheel's as installed), every node path listed, the vanished ones traced
  with ``git log -S``; and the config-group options a release no longer ships;
- **trainer classes** (``verl_compat/trainers.py`` ``TRAINERS``): each listed class present, the shape of its own
  ``_stop_profiling``, and classes of the new release that have one and are not listed.

What is mechanical is written as rows; everything else goes to the judgment list with its evidence (pull
request, commit, the diff lines), never with a guessed fate. Mechanical means: a name whose very definition (the
same ``ast`` of its ``def``/``class``) is at another path of the new release, a re-export whose source still binds
it, a module that git records as renamed unchanged (R100) to a module the new release has, a known row whose
target moved mechanically (the row's ``new`` follows it), and a config path (or subtree) whose one successor has
the same last key and the same default value (the same subtree).

Output (``--out``): ``old_imports.diff`` and ``config_keys.diff`` (unified diffs against the committed tables:
new rows added at the end of ``ROWS``, an old_imports row whose target moved rewritten on its line),
``judgment.md`` (what needs a person, each with its evidence), ``figures.json``. With ``--known-until X`` the
committed rows with ``since`` later than X are set aside and compared with what the run finds (the dry run of
docs/new_release.md: ``--known-until 0.8.0 --old v0.8.0 --new 0.9.1=...``); ``compare.md`` lists each.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import difflib
import functools
import glob
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

# Before verl_compat is imported (build_import_index reads sources with it): the shim would translate
# the configs this script composes from verl's old config folders.
os.environ["VERL_COMPAT_DISABLE"] = "1"
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
sys.path.append(str(REPO / "tests" / "support"))  # verl_config: the suite's config-path walker
import build_import_index as index  # noqa: E402

from verl_compat.source_imports import top_level_bindings  # noqa: E402

OLD_IMPORTS = REPO / "verl_compat" / "fixes" / "old_imports" / "table.py"
CONFIG_KEYS = REPO / "verl_compat" / "fixes" / "config_keys" / "table.py"
TRAINERS = REPO / "verl_compat" / "trainers.py"
CONFIG_PREFIX = "verl/trainer/config"
PR = re.compile(r"\(#(\d+)\)")


def vkey(label: str) -> tuple[int, ...]:
    return index.version_key(label)


def load_file(path: Path, name: str):
    """A table module by its path: the tables are plain data (dataclasses, typing), so the package (whose import
    activates verl-compat) is never imported."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------------------------------------------------
# verl's history


@dataclasses.dataclass(frozen=True)
class Commit:
    sha: str
    subject: str

    @property
    def evidence(self) -> str:
        """The tables' one evidence format: "verl#PR (first 9 hex digits)"."""
        found = PR.findall(self.subject)
        return f"verl#{found[-1]} ({self.sha[:9]})" if found else f"verl {self.sha[:9]}"


class History(index.Git):
    def __init__(self, git_dir: str, old: str, head: str):
        super().__init__(git_dir)
        self.range = f"{old}..{head}"
        self._touching: dict[str, list[Commit]] = {}

    def commits(self, *args: str) -> list[Commit]:
        out = self.run("log", "--reverse", "--format=%H%x09%s", self.range, *args)
        return [Commit(*line.split("\t", 1)) for line in out.splitlines() if "\t" in line]

    def show(self, ref: str, path: str) -> str | None:
        try:
            return self.run("show", f"{ref}:{path}")
        except subprocess.CalledProcessError:
            return None

    def touching(self, path: str) -> list[Commit]:
        if path not in self._touching:
            self._touching[path] = self.commits("--", path)
        return self._touching[path]

    def lines(self, commit: Commit, path: str, word: str, limit: int = 8) -> list[str]:
        """The diff lines of ``commit`` under ``path`` that mention ``word``."""
        diff = self.run("show", "--format=", commit.sha, "--", path)
        pattern = re.compile(rf"(?<![\w.]){re.escape(word)}(?!\w)")
        found = [line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")]
        return [line[:160] for line in found if pattern.search(line)][:limit]


# ---------------------------------------------------------------------------------------------------------------
# Reading the releases


def wheel_dir(source: str, scratch: str) -> str:
    """The ``verl`` package folder of a virtual environment, a site-packages/verl folder or a .whl file."""
    if source.endswith(".whl"):
        target = os.path.join(scratch, "wheel")
        with zipfile.ZipFile(source) as whl:
            whl.extractall(target)
        return os.path.join(target, "verl")
    if os.path.isdir(os.path.join(source, "verl")) and not os.path.isfile(os.path.join(source, "__init__.py")):
        return os.path.join(source, "verl")
    found = glob.glob(os.path.join(source, "lib", "python*", "site-packages", "verl"))
    return found[0] if found else source


@dataclasses.dataclass
class Release:
    label: str  # "0.9.1", "v0.9.0"
    snapshot: index.Snapshot
    files: dict[str, bytes]  # "verl/a/b.py" -> source
    config_dir: str

    @functools.cached_property
    def definitions(self) -> dict[str, dict[str, str]]:
        """module -> {top-level def/class name -> its ast, dumped without positions}."""
        out: dict[str, dict[str, str]] = {}
        for relpath, data in self.files.items():
            module = index.module_name(relpath)
            tree = index.parse(data, f"{self.label}:{relpath}") if module else None
            if tree is None:
                continue
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    out.setdefault(module, {})[node.name] = ast.dump(node)
        return out

    @functools.cached_property
    def by_definition(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for module, names in self.definitions.items():
            for name, dump in names.items():
                out.setdefault(dump, []).append(f"{module}:{name}")
        return out

    def has(self, path: str) -> bool:
        module, _, name = path.partition(":")
        if not name:
            return module in self.snapshot.modules
        return self.snapshot.has_name(module, name)

    def file_of(self, module: str) -> str | None:
        base = module.replace(".", "/")
        for candidate in (f"{base}.py", f"{base}/__init__.py"):
            if candidate in self.files:
                return candidate
        return None


def git_release(git: index.Git, tag: str, scratch: str) -> Release:
    files = {}
    for mode, sha, path in git.ls(tag, "verl"):
        if mode.startswith("100") and path.endswith(".py"):
            files[path] = git.blob(sha)
    target = os.path.join(scratch, tag)
    os.makedirs(target, exist_ok=True)
    archive = subprocess.run(
        ["git", "--git-dir", git.git_dir, "archive", tag, CONFIG_PREFIX], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(target)
    return Release(tag, index.Snapshot(tag, git.rev(tag), files), files, os.path.join(target, CONFIG_PREFIX))


def wheel_release(label: str, pkg_dir: str) -> Release:
    files = index.wheel_files(pkg_dir)
    snapshot = index.Snapshot(label, os.path.abspath(pkg_dir), files)
    return Release(label, snapshot, files, os.path.join(pkg_dir, "trainer", "config"))


def first_lacking(path: str, later: list[Release], new: Release, has=None) -> str:
    """``since``: the first release after the old one whose tree lacks the path (the new one at the latest)."""
    for release in later:
        if not (has(release, path) if has else release.has(path)):
            return index.release(release.label)
    return index.release(new.label)


# ---------------------------------------------------------------------------------------------------------------
# Module paths and names


@dataclasses.dataclass
class Finding:
    """One path the new release lacks: a row (``fate`` set: mechanical) or an item for judgment."""

    table: str
    old: str
    since: str
    evidence: str
    fate: str | None = None
    new: str | None = None
    why: str = ""  # for judgment: what the run saw
    lines: list[str] = dataclasses.field(default_factory=list)  # the diff lines


def _binding(history: History, ref: str, relpath: str, name: str) -> str | None:
    """How ``relpath`` at ``ref`` binds ``name``: "defines" (def, class, assignment), "imports" or None."""
    text = history.show(ref, relpath)
    tree = index.parse(text.encode(), relpath) if text is not None else None
    if tree is None:
        return None
    names, _ = top_level_bindings(tree, index.module_name(relpath), relpath.endswith("__init__.py"))
    origin = names.get(name)
    return None if origin is None else "imports" if origin.startswith(("from ", "import ")) else "defines"


def name_commit(history: History, old: str, relpath: str, name: str) -> Commit | None:
    """The verl change that took ``name`` from ``relpath``: the last commit of the range after which the file no
    longer defines it, where the old release defined it there (a definition moved out and an import of it left
    behind is still that change); else the last after which it no longer binds it. None where the old release did
    not bind it line by line (a star import) or nothing in the range changed that."""
    before = _binding(history, old, relpath, name)
    if before is None:
        return None
    found, state = None, before
    for commit in history.touching(relpath):
        now = _binding(history, commit.sha, relpath, name)
        if state == before and now != before:
            found = commit
        state = now
    return found if state != before else None


def module_commit(history: History, relpath: str) -> tuple[Commit | None, str | None, int]:
    """The commit that deleted (or renamed) ``relpath``, the path it was renamed to and git's similarity."""
    for commit in history.commits("--diff-filter=D", "--", relpath)[-1:]:
        status = history.run("show", "-M", "--name-status", "--format=", commit.sha)
        for line in status.splitlines():
            parts = line.split("\t")
            if parts[0].startswith("R") and parts[1] == relpath:
                return commit, parts[2], int(parts[0][1:] or 0)
        return commit, None, 0
    return None, None, 0


def covered(path: str, rows: dict) -> bool:
    """A known row speaks for the path: its own row, or a module row of its module or a package above it."""
    if path in rows:
        return True
    module = path.partition(":")[0]
    parts = module.split(".")
    return any(".".join(parts[:end]) in rows for end in range(2, len(parts) + 1) if ".".join(parts[:end]) != path)


def follow_imports(
    olds: list[Release], later: list[Release], new: Release, history: History, known: dict
) -> list[Finding]:
    lacks = index.lacks([r.snapshot for r in olds], new.snapshot, olds[-1].label)
    last = {r.label: r for r in olds}
    out: list[Finding] = []

    def moved_to(old_release: Release, module: str, name: str) -> list[str]:
        dump = old_release.definitions.get(module, {}).get(name)
        return [p for p in new.by_definition.get(dump, []) if p != f"{module}:{name}"] if dump else []

    def same_name(name: str) -> list[str]:
        return sorted(f"{m}:{name}" for m, names in new.definitions.items() if name in names)

    for module, entry in lacks["missing_modules"].items():
        release = last[entry["last_seen"]]
        relpath = release.file_of(module)
        mechanical_module = renamed_to = None
        if not covered(module, known):
            commit, renamed, similarity = module_commit(history, relpath) if relpath else (None, None, 0)
            finding = Finding(
                "old_imports",
                module,
                first_lacking(module, later, new),
                commit.evidence if commit else f"verl {index.release(new.label)} wheel",
            )
            target = renamed_to = index.module_name(renamed) if renamed else None
            if target and similarity == 100 and new.has(target):
                finding.fate, finding.new = "moved", target
                mechanical_module = target
            else:
                finding.why = (
                    f"module deleted by {commit.sha[:9]} {commit.subject!r}" if commit else "no commit in the range"
                ) + (f"; git: renamed to {renamed} (similarity {similarity}%)" if renamed else "")
                if commit and relpath:
                    finding.lines = [f"D {relpath}"]
            out.append(finding)
        for name in entry["names"]:
            path = f"{module}:{name}"
            if covered(module, known) or (mechanical_module and new.has(f"{mechanical_module}:{name}")):
                continue
            targets = moved_to(release, module, name)
            if renamed_to and targets == [f"{renamed_to}:{name}"]:
                continue  # it follows its module, whose row (for judgment: git saw a rename with edits) speaks for it
            if len(targets) == 1:
                commit, _, _ = module_commit(history, relpath) if relpath else (None, None, 0)
                out.append(
                    Finding(
                        "old_imports",
                        path,
                        first_lacking(path, later, new),
                        commit.evidence if commit else f"verl {index.release(new.label)} wheel",
                        "moved",
                        targets[0],
                    )
                )
    for module, names in lacks["missing_names"].items():
        for name, info in names.items():
            path = f"{module}:{name}"
            if covered(path, known):
                continue
            release = last[info["last_seen"]]
            relpath = release.file_of(module)
            origin = info["origin"]
            source = origin[len("from ") :].split(":")[0] if origin.startswith("from ") else None
            # A re-export leaves with its source's definition, traced where that was defined (a star import of
            # a package's __init__ binds nothing there, line by line).
            defined = release.file_of(source) if source and source != module else None
            commit = name_commit(history, release.label, relpath, name) if relpath else None
            if commit is None and defined:
                commit = name_commit(history, release.label, defined, name)
            finding = Finding(
                "old_imports",
                path,
                first_lacking(path, later, new),
                commit.evidence if commit else f"verl {index.release(new.label)} wheel",
            )
            targets = moved_to(release, module, name)
            if source and new.has(f"{source}:{name}") and new.definitions.get(source, {}).get(name):
                finding.fate, finding.new = "moved", f"{source}:{name}"
            elif len(targets) == 1:
                finding.fate, finding.new = "moved", targets[0]
            else:
                candidates = targets or same_name(name)
                finding.why = (
                    f"{origin} in {info['last_seen']}; "
                    + (f"same name in the new release: {', '.join(candidates[:5])}" if candidates else "no same name")
                    + (f"; unbound by {commit.sha[:9]} {commit.subject!r}" if commit else "")
                )
                if commit and relpath:
                    finding.lines = history.lines(commit, relpath, name)
            out.append(finding)
    return out


def follow_targets(known_rows, findings: list[Finding], new: Release) -> list[Finding]:
    """Known moved/replaced rows whose target the new release lacks: the row's ``new`` follows a mechanical move
    of the target; otherwise a person decides."""
    moves = {f.old: f for f in findings if f.fate == "moved"}
    out = []
    for row in known_rows:
        if row.new is None or new.has(row.new):
            continue
        found = moves.get(row.new)
        item = Finding("old_imports", row.old, row.since, row.evidence, why=f"its target {row.new} left too")
        if found is not None and row.fate == "moved":
            item.fate, item.new = "moved", found.new
            item.why = f"target moved by {found.evidence}"
        out.append(item)
    return out


# ---------------------------------------------------------------------------------------------------------------
# Keyword arguments


def parameters(node) -> tuple[list[str], bool]:
    """Parameter names of a def (a class: its __init__), and whether it takes **kwargs."""
    if isinstance(node, ast.ClassDef):
        init = next((n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
        if init is None:
            return [], True
        node = init
    args = node.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    return names, args.kwarg is not None


def keyword_calls(git: index.Git, tags: list[str]) -> set[tuple[str, str]]:
    """(callable name, keyword) of every call with keywords in examples/, recipe/ and verl/ of the tags (verl's own
    trainers are what recipes copy and subclass)."""
    out = set()
    for tag in tags:
        for top in ("examples", "recipe", "verl"):
            for mode, sha, path in git.ls(tag, top):
                if mode.startswith("100") and path.endswith(".py"):
                    tree = index.parse(git.blob(sha), f"{tag}:{path}")
                    for node in ast.walk(tree) if tree else ():
                        if isinstance(node, ast.Call) and node.keywords:
                            func = node.func
                            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                            out.update((name, k.arg) for k in node.keywords if name and k.arg)
    return out


def follow_keywords(old: Release, new: Release, history: History, calls, known: set) -> list[Finding]:
    out = []
    for relpath, data in sorted(old.files.items()):
        module = index.module_name(relpath)
        new_path = new.file_of(module) if module else None
        if new_path is None or not index.is_public_module(module):
            continue
        old_tree, new_tree = index.parse(data, relpath), index.parse(new.files[new_path], new_path)
        if old_tree is None or new_tree is None:
            continue
        new_defs = {n.name: n for n in new_tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        for node in old_tree.body:
            if not isinstance(node, (ast.FunctionDef, ast.ClassDef)) or node.name not in new_defs:
                continue
            before, _ = parameters(node)
            after, takes_any = parameters(new_defs[node.name])
            if takes_any:
                continue
            for keyword in before:
                if keyword in after or keyword == "self" or (node.name, keyword) not in calls:
                    continue
                if (f"{module}:{node.name}", keyword) in known:
                    continue
                commits = history.commits(f"-S{keyword}", "--", new_path)
                commit = commits[0] if commits else None
                finding = Finding(
                    "keywords",
                    f"{module}:{node.name}({keyword}=)",
                    index.release(new.label),
                    commit.evidence if commit else f"verl {index.release(new.label)} wheel",
                    why=f"parameters now ({', '.join(after)})",
                )
                if commit:
                    finding.lines = history.lines(commit, new_path, keyword)
                out.append(finding)
    return out


# ---------------------------------------------------------------------------------------------------------------
# Config keys


@functools.cache
def _config_paths(config_dir: str, options: tuple[str, ...] | None, name: str | None) -> dict:
    return _compose_paths(config_dir, options, name)


def config_paths(config_dir: str, options: list[str] | None = None, name: str | None = None) -> dict:
    """Every node path of the PPO configs of a config folder (each model_engine option, or the ones given), to its
    value."""
    return dict(_config_paths(config_dir, tuple(options) if options is not None else None, name))


def option_commit(history: History, option: str) -> Commit | None:
    group, _, name = option.partition("=")
    commits = history.commits("--diff-filter=D", "--", f"{CONFIG_PREFIX}/{group}/{name}.yaml")
    return commits[-1] if commits else None


def _compose_paths(config_dir: str, options, name) -> dict:
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from omegaconf import OmegaConf
    from verl_config import node_paths

    root = Path(config_dir)
    if options is None:
        engines = sorted(p.stem for p in (root / "model_engine").glob("*.yaml"))
        variants = [(n, []) for n in ("ppo_trainer", "ppo_megatron_trainer") if (root / f"{n}.yaml").exists()]
        variants += [("ppo_trainer", [f"model_engine={engine}"]) for engine in engines]
    else:
        variants = [(name or "ppo_trainer", list(options))]
    out: dict = {}
    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(root.resolve()), version_base=None):
        for config, overrides in variants:
            try:
                node_paths(
                    OmegaConf.to_container(compose(config_name=config, overrides=overrides), resolve=False), "", out
                )
            except Exception as error:  # noqa: PERF203 (an option of an old release that does not compose alone)
                print(f"warning: {config_dir}: {config} {overrides}: {error}", file=sys.stderr)
    return {p: v for p, v in out.items() if not p.endswith("._target_") and p != "_target_"}


def groups(config_dir: str) -> set[str]:
    root = Path(config_dir)
    return {f"{p.parent.name}={p.stem}" for p in root.glob("model_engine/*.yaml")}


def _strip(value):
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k != "_target_"}
    return value


def shared(a: str, b: str) -> int:
    """How many leading dotted components two config paths share."""
    count = 0
    for x, y in zip(a.split("."), b.split("."), strict=False):
        if x != y:
            break
        count += 1
    return count


def key_commit(history: History, key: str) -> Commit | None:
    """The last commit of the range whose diff of verl's config removes a line setting ``key``."""
    removed = re.compile(rf"^-\s*{re.escape(key)}:", re.M)
    for commit in reversed(history.commits(f"-G{key}", "--", CONFIG_PREFIX)):
        if removed.search(history.run("show", "--format=", commit.sha, "--", CONFIG_PREFIX)):
            return commit
    return None


def follow_config(old: Release, later: list[Release], new: Release, history: History, known) -> list[Finding]:
    after = config_paths(new.config_dir)
    later_paths = [(r, config_paths(r.config_dir)) for r in later]
    # The keys of the old release and of every release between (a key 0.9.0 added and 0.9.1 dropped has a row).
    before = config_paths(old.config_dir)
    for _, paths in later_paths:
        before.update({p: v for p, v in paths.items() if p not in before})
    vanished = sorted(p for p in before if p not in after)
    appeared = {p: v for p, v in after.items() if p not in before}
    roots = [p for p in vanished if p.rpartition(".")[0] not in vanished or not p.rpartition(".")[0]]
    gone_options = sorted(groups(old.config_dir) - groups(new.config_dir))
    option_paths = {o: config_paths(old.config_dir, [o]) for o in sorted(groups(old.config_dir))}
    option_paths["(none)"] = {
        **config_paths(old.config_dir, [], "ppo_trainer"),
        **config_paths(old.config_dir, [], "ppo_megatron_trainer"),
    }
    out = []
    for path in roots:
        if any(path == row.old or path.startswith(row.old + ".") for row in known):
            continue
        since = next((index.release(r.label) for r, paths in later_paths if path not in paths), None)
        since = since or index.release(new.label)
        key = path.rpartition(".")[2]
        commit = key_commit(history, key)
        option = next((o for o in gone_options if path in option_paths[o]), None)
        if option is not None and all(path not in paths for o, paths in option_paths.items() if o != option):
            # composed only under a config option the new release no longer ships: that option's removal
            commit = option_commit(history, option) or commit
        finding = Finding("config_keys", path, since, commit.evidence if commit else f"verl {since} wheel")
        value = _strip(before[path])
        candidates = [p for p, v in appeared.items() if p.rpartition(".")[2] == key]
        same = [p for p in candidates if _strip(appeared[p]) == value]
        # The nearest (the longest common prefix: the same role) of the candidates with the same value.
        nearest = max((shared(p, path) for p in same), default=0)
        same = [p for p in same if shared(p, path) == nearest]
        if len(same) == 1 and nearest > 0 and len([p for p in candidates if shared(p, path) >= nearest]) == 1:
            finding.fate, finding.new = "moved", same[0]
        else:
            finding.why = (
                f"default {value!r}" if not isinstance(value, dict) else f"a subtree of {len(value)} keys"
            ) + (f"; same last key in the new release: {', '.join(candidates[:5])}" if candidates else "")
            if commit:
                finding.lines = history.lines(commit, CONFIG_PREFIX, key)
        out.append(finding)
    for option in gone_options:
        group, _, name = option.partition("=")
        commit = option_commit(history, option)
        out.append(
            Finding(
                "config_keys",
                group,
                index.release(new.label),
                commit.evidence if commit else "",
                why=f"config group option {option} ({group}/{name}.yaml) no longer shipped (a group row)",
            )
        )
    return out


# ---------------------------------------------------------------------------------------------------------------
# Trainer classes


def stop_shape(node) -> str | None:
    if node is None or isinstance(node, ast.AsyncFunctionDef):
        return None
    names = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
    if names[1:2] == ["do_profile"]:
        return "do_profile"
    return "no_args" if names == ["self"] and not node.args.kwonlyargs else None


@dataclasses.dataclass(frozen=True)
class TrainerRow:
    module: str
    name: str
    stop: str | None


def trainer_rows() -> list[TrainerRow]:
    """``TRAINERS`` of verl_compat/trainers.py, read with ``ast`` (the module imports the package)."""
    tree = ast.parse(TRAINERS.read_text())
    table = next(n for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "TRAINERS")
    rows = []
    for call in table.value.elts:
        keywords = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
        rows.append(TrainerRow(*(ast.literal_eval(a) for a in call.args[:2]), keywords.get("stop")))
    return rows


def follow_trainers(rows, new: Release) -> tuple[list[str], list[Finding]]:
    report, judge = [], []
    listed = set()
    for row in rows:
        if not row.module.startswith("verl."):
            continue
        listed.add((row.module, row.name))
        relpath = new.file_of(row.module)
        tree = index.parse(new.files[relpath], relpath) if relpath else None
        cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == row.name), None) if tree else None
        if cls is None:
            report.append(
                f"- {row.module}:{row.name}: absent from {new.label} (expected where the row's release has it)"
            )
            continue
        own = next(
            (
                n
                for n in cls.body
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == "_stop_profiling"
            ),
            None,
        )
        shape = stop_shape(own) if own else None
        ok = shape == row.stop
        report.append(
            f"- {row.module}:{row.name}: present; own _stop_profiling shape {shape} (table: {row.stop})"
            + ("" if ok else " **differs**")
        )
        if not ok:
            judge.append(
                Finding(
                    "trainers",
                    f"{row.module}:{row.name}",
                    index.release(new.label),
                    "",
                    why=f"_stop_profiling shape {shape}, TRAINERS says {row.stop}",
                )
            )
    for relpath, data in sorted(new.files.items()):
        module = index.module_name(relpath)
        tree = index.parse(data, relpath) if module else None
        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)) if tree else ():
            own = [
                n
                for n in cls.body
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == "_stop_profiling"
            ]
            if own and (module, cls.name) not in listed:
                report.append(
                    f"- {module}:{cls.name}: not listed; own _stop_profiling shape {stop_shape(own[0])}"
                    " (a subclass of a listed class is wrapped by the structural rule; check the others)"
                )
    return report, judge


# ---------------------------------------------------------------------------------------------------------------
# Output


def old_imports_line(f: Finding) -> str:
    new = "None" if f.new is None else f'"{f.new}"'
    return f'        ("{f.old}", "{f.fate}", {new}),'


def old_imports_patch(text: str, rows: list[Finding], updates: list[Finding]) -> str:
    """The committed table with the rows added as changes at the end of ROWS and followed targets rewritten."""
    lines = text.splitlines(keepends=True)
    for f in updates:
        for i, line in enumerate(lines):
            if line.lstrip().startswith(f'("{f.old}",'):
                lines[i] = re.sub(r'^(\s*\("[^"]+", "[a-z]+", )"[^"]+"', rf'\1"{f.new}"', line)
    return _with_changes(lines, rows, lambda f: old_imports_line(f) + "\n")


def config_patch(text: str, rows: list[Finding]) -> str:
    """The committed table with the rows added as changes at the end of ROWS (the shape of docs/tables.md)."""
    return _with_changes(
        text.splitlines(keepends=True), rows, lambda f: f'        ("{f.old}", "{f.fate}", "{f.new}"),\n'
    )


def _with_changes(lines: list[str], rows: list[Finding], row_line) -> str:
    """A table's lines with ``rows`` added at the end of ROWS, one ``_change`` per change (``row_line``: a row)."""
    by_change: dict[tuple[str, str], list[Finding]] = {}
    for f in rows:
        by_change.setdefault((f.evidence, f.since), []).append(f)
    block = []
    for (evidence, since), found in sorted(by_change.items(), key=lambda kv: (vkey(kv[0][1]), kv[0][0])):
        block.append(f"    # proposed by scripts/follow_release.py: {evidence}\n")
        block.append(f'    *_change("{evidence}", "{since}", "",\n')
        block += [row_line(f) for f in sorted(found, key=lambda f: f.old)]
        block.append("    ),\n")
    end = next(i for i, line in enumerate(lines) if line.startswith("ROWS:"))
    end = next(i for i in range(end, len(lines)) if lines[i].rstrip() == ")")
    return "".join(lines[:end] + block + lines[end:])


def unified(path: Path, before: str, after: str) -> str:
    rel = path.relative_to(REPO)
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), f"a/{rel}", f"b/{rel}"))


def judgment_md(items: list[Finding], trainers: list[str], args) -> str:
    out = [
        f"# Following verl {args.new_label}: what needs a person\n",
        f"From {args.old} (history {args.history}). Each item: the path, the release that lacks it first, the "
        "change that did it and what the run saw; decide its fate (docs/tables.md) and write the row.\n",
    ]
    for table in ("old_imports", "keywords", "config_keys", "trainers"):
        found = [f for f in items if f.table == table]
        out.append(f"\n## {table} ({len(found)})\n")
        for f in found:
            out.append(f"- `{f.old}` since {f.since}, {f.evidence or 'no commit found'}: {f.why}")
            out += [f"      {line}" for line in f.lines]
    out.append("\n## trainer classes (verl_compat/trainers.py TRAINERS)\n")
    out += trainers
    return "\n".join(out) + "\n"


def compare(committed: list, mechanical: list[Finding], judged: list[Finding], key=lambda r: r.fate) -> dict:
    """Each committed row the run should have found: reproduced (same fate, new, since, evidence), differing,
    listed for judgment, or not found."""
    rows = {f.old: f for f in mechanical}
    asked = {f.old: f for f in judged}
    out: dict[str, list] = {"reproduced": [], "differing": [], "judgment": [], "missed": []}
    # differing: [old, committed (fate, new, since, evidence), the run's]
    for row in committed:
        f = rows.get(row.old)
        if f is not None:
            same = (f.fate, f.new, f.since, f.evidence) == (key(row), row.new, row.since, row.evidence)
            out["reproduced" if same else "differing"].append(
                [row.old, [key(row), row.new, row.since, row.evidence], [f.fate, f.new, f.since, f.evidence]]
            )
        elif row.old in asked or any(row.old.startswith((a + ".", a + ":")) for a in asked):
            match = asked.get(row.old) or next(a for k, a in asked.items() if row.old.startswith((k + ".", k + ":")))
            out["judgment"].append([row.old, row.evidence, match.evidence, row.evidence == match.evidence])
        else:
            out["missed"].append([row.old, key(row), row.since, row.evidence])
    known = {row.old for row in committed}
    out["extra"] = [[f.old, f.fate, f.new, f.evidence] for f in mechanical if f.old not in known]
    return out


def compare_md(compared: dict, args) -> str:
    """The dry run's comparison, one line per committed row the run should have found."""
    out = [
        f"# {args.old} -> {args.new_label}, knowing the rows up to {args.known_until}: the run vs the committed rows\n"
    ]
    for table in ("old_imports", "config_keys"):
        found = compared[table]
        counts = ", ".join(f"{k} {len(v)}" for k, v in found.items())
        out.append(f"\n## {table}: {counts}\n")
        for kind in ("differing", "missed", "extra"):
            out += [f"- {kind}: `{item[0]}` {item[1:]}" for item in found[kind]]
        out += [
            f"- judgment, other evidence: `{old}` committed {mine} run {theirs}"
            for old, mine, theirs, same in found["judgment"]
            if not same
        ]
    out.append("\n## keywords\n")
    out += [
        f"- `{call}({old}=)` {ev}: {'found' if hit else 'not found'}" for call, old, ev, hit in compared["keywords"]
    ]
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verl-git", required=True)
    ap.add_argument("--old", required=True, help="the previous release's tag (v0.9.0)")
    ap.add_argument("--new", required=True, metavar="LABEL=SOURCE", help="0.10.0=.venvs/verl-0.10.0 (or a .whl)")
    ap.add_argument("--history", default="main", help="the ref whose history is traced from --old (default main)")
    ap.add_argument("--known-until", help="set aside committed rows with a later since (the dry run)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    args.new_label, _, source = args.new.partition("=")
    os.makedirs(args.out, exist_ok=True)
    clock = {}
    start = time.monotonic()
    git = index.Git(args.verl_git)
    history = History(args.verl_git, args.old, args.history)
    tags = sorted((t for t in git.run("tag", "--list", "v*").split() if re.fullmatch(r"v\d+\.\d+\.\d+", t)), key=vkey)
    old_tags = [t for t in tags if vkey(t) <= vkey(args.old)]
    later_tags = [t for t in tags if vkey(args.old) < vkey(t) < vkey(args.new_label)]
    with tempfile.TemporaryDirectory() as scratch:
        olds = [git_release(git, t, scratch) for t in old_tags]
        later = [git_release(git, t, scratch) for t in later_tags]
        try:
            git.rev(source)
            new = git_release(git, source, scratch)
            new.label = args.new_label
        except subprocess.CalledProcessError:
            new = wheel_release(args.new_label, wheel_dir(source, scratch))
        clock["read releases"] = time.monotonic() - start

        imports_table = load_file(OLD_IMPORTS, "_follow_old_imports")
        keys_table = load_file(CONFIG_KEYS, "_follow_config_keys")
        until = vkey(args.known_until) if args.known_until else (99,)
        known_rows = [r for r in imports_table.ROWS if vkey(r.since) <= until]
        t = time.monotonic()
        found = follow_imports(olds, later, new, history, {r.old: r for r in known_rows})
        found += follow_targets(known_rows, found, new)
        clock["module paths and names"] = time.monotonic() - t
        t = time.monotonic()
        known_keywords = {(k.callable, k.old) for k in imports_table.KEYWORD_ROWS if vkey(k.since) <= until}
        found += follow_keywords(olds[-1], new, history, keyword_calls(git, old_tags), known_keywords)
        clock["keyword arguments"] = time.monotonic() - t
        t = time.monotonic()
        known_keys = [r for r in keys_table.ROWS if vkey(r.since) <= until and not r.group]
        found += follow_config(olds[-1], later, new, history, known_keys)
        clock["config keys"] = time.monotonic() - t
        t = time.monotonic()
        trainers_report, trainer_items = follow_trainers(trainer_rows(), new)
        found += trainer_items
        clock["trainer classes"] = time.monotonic() - t

    committed_imports = {r.old: r for r in imports_table.ROWS}
    committed_keys = {r.old: r for r in keys_table.ROWS}
    updates = [
        f
        for f in found
        if f.fate
        and f.old in committed_imports
        and f.table == "old_imports"
        and vkey(committed_imports[f.old].since) <= until
    ]
    new_imports = [
        f
        for f in found
        if f.fate
        and f.table == "old_imports"
        and f not in updates
        and (f.old not in committed_imports or args.known_until)
    ]
    new_keys = [f for f in found if f.fate and f.table == "config_keys"]
    judged = [f for f in found if not f.fate]

    # Rows the committed tables already hold as proposed are not repeated in the diff.
    def same_import(f):
        r = committed_imports.get(f.old)
        return r is not None and (r.fate, r.new, r.since, r.evidence) == (f.fate, f.new, f.since, f.evidence)

    def same_key(f):
        r = committed_keys.get(f.old)
        return r is not None and (r.fate, r.new, r.since, r.evidence) == (f.fate, f.new, f.since, f.evidence)

    imports_text, keys_text = OLD_IMPORTS.read_text(), CONFIG_KEYS.read_text()
    diff_imports = unified(
        OLD_IMPORTS,
        imports_text,
        old_imports_patch(imports_text, [f for f in new_imports if not same_import(f)], updates),
    )
    diff_keys = unified(CONFIG_KEYS, keys_text, config_patch(keys_text, [f for f in new_keys if not same_key(f)]))
    Path(args.out, "old_imports.diff").write_text(diff_imports)
    Path(args.out, "config_keys.diff").write_text(diff_keys)
    Path(args.out, "judgment.md").write_text(judgment_md(judged, trainers_report, args))
    figures = {
        "old": args.old,
        "new": args.new_label,
        "history": args.history,
        "known_until": args.known_until,
        "mechanical": {
            "old_imports": len(new_imports),
            "old_imports_targets_followed": len(updates),
            "config_keys": len(new_keys),
        },
        "judgment": {
            t: sum(f.table == t for f in judged) for t in ("old_imports", "keywords", "config_keys", "trainers")
        },
        "seconds": {k: round(v, 1) for k, v in clock.items()},
    }
    if args.known_until:
        later_imports = [r for r in imports_table.ROWS if vkey(r.since) > until]
        later_keys = [r for r in keys_table.ROWS if vkey(r.since) > until]
        later_kw = [k for k in imports_table.KEYWORD_ROWS if vkey(k.since) > until]
        figures["compare"] = {
            "old_imports": compare(later_imports, new_imports, [f for f in judged if f.table == "old_imports"]),
            "config_keys": compare(later_keys, new_keys, [f for f in judged if f.table == "config_keys"]),
            "keywords": [
                [k.callable, k.old, k.evidence, any(f.old == f"{k.callable}({k.old}=)" for f in judged)]
                for k in later_kw
            ],
        }
    Path(args.out, "figures.json").write_text(json.dumps(figures, indent=1) + "\n")
    if args.known_until:
        Path(args.out, "compare.md").write_text(compare_md(figures["compare"], args))
    total = time.monotonic() - start
    print(
        f"follow_release {args.old} -> {args.new_label}: {len(new_imports)} old_imports rows, {len(updates)} targets "
        f"followed, {len(new_keys)} config_keys rows written; {len(judged)} items for judgment "
        f"({', '.join(f'{k} {v}' for k, v in figures['judgment'].items())}); {total:.0f} s; see {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
