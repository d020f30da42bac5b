"""Regenerate ``verl_compat/fixes/old_math/release_keys.json``: which keys each verl release's PPO
trainer configs have, the data old_math infers a launch's release from.

For each release tag of verl's history (``--git``: a clone of verl-project/verl) and the installed
verl wheel (the newest, which the tags may not have yet), ``verl/trainer/config`` is composed with
Hydra (``ppo_trainer`` and ``ppo_megatron_trainer``, nothing overridden) and every node path listed,
with the paths whose value is an empty dict (free-form: any key may be added under them).

    python scripts/old_math_release_keys.py --git /path/to/verl [--tags v0.4.0,...]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import io
import json
import subprocess
import tarfile
import tempfile
from pathlib import Path

TAGS = ("v0.4.0", "v0.4.1", "v0.5.0", "v0.6.0", "v0.6.1", "v0.7.0", "v0.7.1", "v0.8.0", "v0.9.0")
CONFIGS = ("ppo_trainer", "ppo_megatron_trainer")
OUT = Path(__file__).resolve().parent.parent / "verl_compat" / "fixes" / "old_math" / "release_keys.json"


def _paths(node, prefix: str, keys: set[str], free: set[str]) -> None:
    if isinstance(node, dict):
        if prefix:
            keys.add(prefix)
            if not node:
                free.add(prefix)
        for key, value in node.items():
            _paths(value, f"{prefix}.{key}" if prefix else str(key), keys, free)
    elif prefix:
        keys.add(prefix)


def compose(config_dir: Path, name: str) -> tuple[set[str], set[str]]:
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from omegaconf import OmegaConf

    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(config_dir), version_base=None):
        config = hydra_compose(config_name=name)
    keys: set[str] = set()
    free: set[str] = set()
    _paths(OmegaConf.to_container(config, resolve=False), "", keys, free)
    return keys, free


def tag_config(git: str, tag: str, into: Path) -> Path:
    archive = subprocess.run(
        ["git", "-C", git, "archive", tag, "verl/trainer/config"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "verl" / "trainer" / "config"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--git", required=True, help="a clone of verl-project/verl")
    parser.add_argument("--tags", default=",".join(TAGS))
    args = parser.parse_args()
    import verl

    releases: list[str] = []
    found: dict[str, list[tuple[set[str], set[str]]]] = {name: [] for name in CONFIGS}
    with tempfile.TemporaryDirectory() as tmp:
        sources = [(tag.removeprefix("v"), tag_config(args.git, tag, Path(tmp) / tag)) for tag in args.tags.split(",")]
        sources.append((importlib.metadata.version("verl"), Path(verl.__file__).parent / "trainer" / "config"))
        for release, config_dir in sources:
            if release in releases:
                continue
            releases.append(release)
            for name in CONFIGS:
                found[name].append(compose(config_dir, name))
    data: dict = {"releases": releases, "configs": {}}
    for name, per_release in found.items():
        every = sorted(set().union(*(keys for keys, _ in per_release)))
        every_free = sorted(set().union(*(free for _, free in per_release)))
        data["configs"][name] = {
            "keys": {key: "".join("1" if key in keys else "0" for keys, _ in per_release) for key in every},
            "free": {key: "".join("1" if key in free else "0" for _, free in per_release) for key in every_free},
        }
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(releases)} releases ({', '.join(releases)})")


if __name__ == "__main__":
    main()
