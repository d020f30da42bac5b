"""Every verl import of verl's own examples and recipes at v0.4.0-v0.8.0, tried on the installed verl
without and with verl-compat.

    .venvs/verl-0.9.1/bin/python benchmarks/old_imports.py [--tag v0.6.1 …] [--json out.json]

Reads ``benchmarks/data/old_imports.jsonl`` (3,101 imports in 406 files; its README says how it was
made). Each import is run as the statement it was (``from m import n``, ``import m``) in the
interpreter of this environment, once with ``VERL_COMPAT_DISABLE=1`` (verl-compat does nothing,
auto-load included) and once as installed. Imports have side effects (a module that fails halfway,
verl-compat's stand-ins in ``sys.modules``), so each file's imports run in a process of their own:
one interpreter per tag and side imports verl and the modules of that tag's imports that verl has
(read from its files, never an old path), then forks one child per file, which runs that file's
imports in order and reports each. Batching per tag keeps a run to minutes.

Each import is counted as one of:

- ``resolve``: it imports;
- ``explained``: an ``ImportError`` whose message names verl-compat, the verl release and what to
  do (verl-compat's ``RemovedFromVerlError``);
- ``GPU library``: it fails on a library this CPU machine lacks (vllm, Megatron, SGLang,
  flash-attn, …), for reasons verl-compat has nothing to do with;
- ``other library``: it fails on another library of this environment, missing or of another version
  (``pyext``, ``transformers``): an ``ImportError`` that names a module outside verl;
- ``bare``: any other ``ImportError`` (the old path is simply gone, unexplained);
- ``other error``: the import raised something else.

The goal is 0 bare with verl-compat. For every import the table says moved that resolves with
verl-compat, the child also imports its new home and checks that the old path gives the very same
object (``is``).
"""

import argparse
import collections
import json
import os
import subprocess
import sys
from pathlib import Path

from _envs import REPO, clean_env

from verl_compat.fixes.old_imports import installed, resolve

DATA = REPO / "benchmarks/data/old_imports.jsonl"
KINDS = ("resolve", "explained", "gpu", "library", "bare", "other")

# Libraries of GPU machines that verl's modules import (this CPU machine has none of them).
GPU_LIBRARIES = (
    "vllm",
    "sglang",
    "sgl_kernel",
    "megatron",
    "mbridge",
    "transformer_engine",
    "flash_attn",
    "flashinfer",
    "apex",
    "liger_kernel",
    "deep_ep",
    "cupy",
    "pynvml",
    "nvidia",
    "triton",
    "torch_npu",
    "mindspeed",
    "vllm_ascend",
    "xformers",
    "tensorrt_llm",
    "cuda",
)

# Runs in a fresh interpreter: imports what verl has, then one forked child per file.
DRIVER = r"""
import json, os, re, signal, sys, traceback
batch = json.load(sys.stdin)
for module in batch["preload"]:
    try:
        __import__(module)
    except BaseException:
        pass
GPU = tuple(batch["gpu_libraries"])


def gpu_failure(error):
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        name = getattr(error, "name", None) or ""
        text = str(error)
        # A library's own name, never a verl module's last part (verl.single_controller.ray.megatron).
        if name.split(".")[0] in GPU or any(re.search(rf"(?<![\w.]){re.escape(lib)}(?!\w)", text) for lib in GPU):
            return True
        if re.search(r"CUDA|libcuda|libnvidia|NCCL", text):
            return True
        error = error.__cause__ or error.__context__
    return False


def kind_of(error):
    text = str(error)
    if isinstance(error, ImportError) and "verl-compat" in text and re.search(r"verl \d+\.\d+", text):
        return "explained"
    if gpu_failure(error):
        return "gpu"
    if not isinstance(error, ImportError):
        return "other"
    # A library of this environment missing or of another version (pyext, transformers), not verl's path.
    name = getattr(error, "name", None) or "verl"
    return "bare" if name.split(".")[0] == "verl" else "library"


def statement(module, name):
    return f"import {module}" if name is None else f"from {module} import {name}"


def bound(module, name, scope):
    if name is None:
        obj = scope[module.split(".")[0]]
        for part in module.split(".")[1:]:
            obj = getattr(obj, part)
        return obj
    return scope[name]


def run_file(imports):
    out = []
    for entry in imports:
        scope = {}
        try:
            exec(statement(entry["module"], entry["name"]), scope)
            result = {"kind": "resolve"}
            target = entry.get("target")
            if target is not None and entry["name"] != "*":
                new_module, _, new_name = target.partition(":")
                new_scope = {}
                exec(statement(new_module, new_name or None), new_scope)
                old = bound(entry["module"], entry["name"], scope)
                result["same"] = old is bound(new_module, new_name or None, new_scope)
        except BaseException as error:
            first = str(error).splitlines()[0] if str(error) else ""
            result = {"kind": kind_of(error), "error": f"{type(error).__name__}: {first}"[:300]}
        out.append(result)
    return out


for index, imports in enumerate(batch["files"]):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        signal.alarm(300)
        try:
            sys.stderr = open(os.devnull, "w")
            results = run_file(imports)
        except BaseException as error:
            results = [{"kind": "other", "error": f"child: {error!r}"}] * len(imports)
        with os.fdopen(write, "w") as pipe:
            json.dump(results, pipe)
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        text = pipe.read()
    os.waitpid(pid, 0)
    results = json.loads(text) if text else [{"kind": "other", "error": "child died"}] * len(imports)
    print(json.dumps({"file": index, "results": results}), flush=True)
"""


def load(tags: list[str] | None) -> dict[str, dict[str, list[dict]]]:
    """tag -> path -> its imports, in file order."""
    found: dict[str, dict[str, list[dict]]] = collections.defaultdict(lambda: collections.defaultdict(list))
    with open(DATA) as lines:
        for line in lines:
            row = json.loads(line)
            if tags is None or row["tag"] in tags:
                found[row["tag"]][row["path"]].append(row)
    return found


def fate_of(row: dict) -> resolve.Fate | None:
    name = None if row["name"] in (None, "*") else row["name"]
    return resolve.fate(row["module"], name, installed.has)


def run_tag(files: dict[str, list[dict]], side: str) -> list[tuple[dict, dict]]:
    """``(row, result)`` for each import of one tag, run on ``side`` ("without" or "with")."""
    batches, preload = [], set()
    for rows in files.values():
        imports = []
        for row in rows:
            fate = fate_of(row)
            target = fate.target if fate is not None and fate.kind == "moved" and side == "with" else None
            imports.append({"module": row["module"], "name": row["name"], "target": target})
            if installed.has(row["module"]):
                preload.add(row["module"])
        batches.append(imports)
    env = clean_env()
    if side == "without":
        env["VERL_COMPAT_DISABLE"] = "1"
    payload = json.dumps({"files": batches, "preload": sorted(preload), "gpu_libraries": GPU_LIBRARIES})
    done = subprocess.run(
        [sys.executable, "-c", DRIVER], input=payload, capture_output=True, text=True, env=env, timeout=3600
    )
    results: dict[int, list] = {}
    for line in done.stdout.splitlines():
        if line.startswith('{"file"'):
            entry = json.loads(line)
            results[entry["file"]] = entry["results"]
    if len(results) != len(batches):
        raise SystemExit(f"the driver stopped ({done.returncode}): {done.stderr[-2000:]}")
    return [
        (row, result)
        for index, rows in enumerate(files.values())
        for row, result in zip(rows, results[index], strict=True)
    ]


def _cells(without: dict, with_: dict) -> str:
    return (
        f"{without['resolve']} / {without['bare']} / {without['gpu']} / {without['library']} / {without['other']} | "
        f"{with_['resolve']} / {with_['explained']} / {with_['bare']} / {with_['gpu']} / {with_['library']} / "
        f"{with_['other']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tag", action="append", help="only these tags (default: all)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--errors", type=int, default=5, help="show this many of the most common errors per kind")
    args = parser.parse_args()
    import importlib.metadata

    release = importlib.metadata.version("verl")
    table, record = [], {"verl": release, "tags": {}}
    errors: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    same = collections.Counter()
    for tag, files in load(args.tag).items():
        entry = {"files": len(files), "imports": sum(map(len, files.values()))}
        for side in ("without", "with"):
            counts = collections.Counter()
            for _, result in run_tag(files, side):
                counts[result["kind"]] += 1
                if "error" in result:
                    errors[f"{side} {result['kind']}"][result["error"]] += 1
                if side == "with" and "same" in result:
                    same[result["same"]] += 1
            entry[side] = {kind: counts[kind] for kind in KINDS}
        record["tags"][tag] = entry
        table.append((tag, entry))
        print(f"{tag}: {json.dumps(entry)}", file=sys.stderr, flush=True)
    record["moved_same_object"] = {"same": same[True], "different": same[False]}
    print(f"verl {release}: each import of verl's own examples and recipes, without / with verl-compat")
    print(
        "| tag | files | imports | without: resolve / bare / GPU library / other library / other error "
        "| with: resolve / explained / bare / GPU library / other library / other error |"
    )
    print("|---|---:|---:|---|---|")
    totals = {side: collections.Counter() for side in ("without", "with")}
    for tag, entry in table:
        for side in totals:
            totals[side].update(entry[side])
        print(f"| {tag} | {entry['files']} | {entry['imports']} | {_cells(entry['without'], entry['with'])} |")
    print(f"| all | | {sum(e['imports'] for _, e in table)} | {_cells(totals['without'], totals['with'])} |")
    print(
        f"moved paths that resolve with verl-compat: {same[True]} the very object of their new home, {same[False]} not"
    )
    for key, counter in sorted(errors.items()):
        if key.endswith(("bare", "other", "gpu", "library")):
            print(f"  {key}: " + "; ".join(f"{n}x {text}" for text, n in counter.most_common(args.errors)))
    record["errors"] = {key: dict(counter.most_common(20)) for key, counter in errors.items()}
    if args.json:
        args.json.write_text(json.dumps(record, indent=2))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    main()
