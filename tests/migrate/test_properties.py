"""Properties of ``verl-compat migrate`` over generated legacy configs (hypothesis):

- migrating twice changes nothing more than migrating once;
- the migrated config makes verl's profiler do what the legacy one meant, judged without any of
  verl-compat's own code: both are composed by Hydra from verl's own config files of the installed
  release (``ppo_trainer.yaml`` and its defaults; the YAML overlay as the primary config, the
  script's overrides read by ``shlex``), resolved, and the actor's profiler config turned into
  verl's ``ProfilerConfig`` by verl's ``omega_conf_to_dataclass``; the legacy meaning (a snapshot
  after every step, or the listed steps, on every actor rank unless ranks are listed) is read off
  the first, verl's own rule (the actor dumps at ``global_profiler.steps`` when its tool is
  torch_memory and it is enabled, on all ranks or the listed ones) off the second;
- the shell reader (bash's grammar, tree-sitter-bash) splits words the way POSIX ``shlex`` does,
  wherever the grammar reads the script (where it cannot, migrate refuses near a setting).

A composition takes about a quarter of a second: few examples, each composition cached.
"""

import functools
import itertools
import shlex
import tempfile
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from omegaconf import OmegaConf

from verl_compat import migrate
from verl_compat.fixes.torch_memory import migrate_rules as rule
from verl_compat.migrate import shell_syntax

pytestmark = pytest.mark.once

ACTOR = "actor_rollout_ref.actor.profiler"
UNRELATED = {
    "data.train_batch_size": 256,
    "actor_rollout_ref.actor.optim.lr": 1e-06,
    "actor_rollout_ref.model.path": "Qwen/Qwen2.5-0.5B-Instruct",
    "trainer.project_name": "verl_example",
    "trainer.logger": ["console", "wandb"],
}
SAVE_PATHS = ["/scratch/mem", "outputs/mem_${oc.env:USER,anon}", "$HOME/mem"]

examples = settings(max_examples=6, deadline=None)  # each composes two verl configs with Hydra


@functools.cache  # not a fixture: hypothesis would print all of it with every failing example
def composed(overlay: str | None = None, overrides: tuple = ()):
    """verl's trainer config as ``main_ppo`` composes it: ``ppo_trainer`` with ``overrides``, or the
    YAML ``overlay`` (``defaults: [ppo_trainer, _self_]``) as the primary config."""
    from hydra import compose, initialize_config_dir, initialize_config_module

    if overlay is None:
        with initialize_config_module("verl.trainer.config", version_base=None):
            return compose("ppo_trainer", overrides=list(overrides))
    with tempfile.TemporaryDirectory() as directory:
        search_path = "hydra:\n  searchpath:\n    - pkg://verl.trainer.config\n"
        (Path(directory) / "overlay.yaml").write_text(search_path + overlay)
        with initialize_config_dir(directory, version_base=None):
            return compose("overlay")


def profiler_inputs(config):
    """What verl's profiler objects receive: the actor's ``ProfilerConfig`` (verl's own
    ``omega_conf_to_dataclass``) and ``global_profiler``'s tool and steps, resolved."""
    from verl.utils.config import omega_conf_to_dataclass

    actor = omega_conf_to_dataclass(OmegaConf.select(config, ACTOR))
    global_profiler = OmegaConf.to_container(config.global_profiler, resolve=True)
    return actor, global_profiler


def legacy_meaning(config, steps):
    """What the legacy config asked for: the actor's torch_memory snapshots after every step
    (1..total_training_steps, or the ``--steps`` given) or the steps listed, on every rank unless
    the actor lists its ranks; a config that already enables the actor's profiler with steps
    asks verl itself (a leftover legacy key only repeats the tool)."""
    actor, global_profiler = profiler_inputs(config)
    assert actor.tool == "torch_memory"
    if actor.enable and global_profiler["steps"]:
        return verl_behaviour(config)
    listed = global_profiler["steps"] or steps or list(range(1, config.trainer.total_training_steps + 1))
    ranks = "all" if actor.all_ranks or not actor.ranks else sorted(actor.ranks)
    return {"tool": actor.tool, "steps": sorted(listed), "ranks": ranks, "save_path": actor.save_path}


def verl_behaviour(config):
    """What verl alone does with the config: the actor dumps at ``global_profiler.steps`` when its
    tool is torch_memory and its profiler is enabled, on all ranks, the listed ones, or rank 0
    (verl's ``DistProfiler``)."""
    actor, global_profiler = profiler_inputs(config)
    assert actor.enable and global_profiler["steps"], "verl would dump nothing"
    ranks = "all" if actor.all_ranks else sorted(actor.ranks) or [0]
    return {"tool": actor.tool, "steps": sorted(global_profiler["steps"]), "ranks": ranks, "save_path": actor.save_path}


@st.composite
def legacy_configs(draw):
    """``(settings, steps)``: a config the shim acts on (cases 1-3, legacy key or not), and the
    ``--steps`` argument or None when ``trainer.total_training_steps`` is in the config."""
    form = draw(st.sampled_from(["legacy", "legacy via global tool", "mixed (#6181)", "new plus leftover key"]))
    total = draw(st.integers(1, 6))
    config = {}
    if form == "legacy":
        config[rule.LEGACY_KEY] = "torch_memory"
        global_tool = draw(st.sampled_from(["unset", None, "torch_memory"]))
        if global_tool != "unset":
            config[rule.TOOL] = global_tool
    else:
        config[rule.TOOL] = "torch_memory"
    if form.startswith("legacy"):
        empty_steps = draw(st.sampled_from(["unset", None, []]))
        if empty_steps != "unset":
            config[rule.STEPS] = empty_steps
        if draw(st.booleans()):
            config[rule.ENABLE] = draw(st.booleans())  # ignored by the legacy dump, forced by the shim
    else:
        config[rule.STEPS] = sorted(draw(st.sets(st.integers(1, total), min_size=1)))
    if form == "new plus leftover key":
        config[rule.LEGACY_KEY] = "torch_memory"
        config[rule.ENABLE] = True
    ranks = draw(st.sampled_from(["unset", "all", "not all", "listed"]))
    if ranks in ("all", "not all"):
        config[rule.ALL_RANKS] = ranks == "all"
    elif ranks == "listed":
        config[rule.RANKS] = [0, 1]
    save_path = draw(st.sampled_from(SAVE_PATHS))
    where = draw(st.sampled_from(["unset", "actor", "global", "both"]))
    if where in ("actor", "both"):
        config[rule.ACTOR_SAVE_PATH] = save_path
    if where in ("global", "both"):
        config[rule.SAVE_PATH] = save_path
    steps = None
    if draw(st.booleans()):
        config[rule.TOTAL_STEPS] = total
    elif form.startswith("legacy"):
        steps = list(range(1, total + 1))
    for key in draw(st.sets(st.sampled_from(sorted(UNRELATED)))):
        config[key] = UNRELATED[key]
    keys = draw(st.permutations(sorted(config)))
    return {key: config[key] for key in keys}, steps


def hydra_value(value) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "True", False: "False", None: "null"}[value]
    if isinstance(value, list):
        return "[" + ",".join(hydra_value(item) if not isinstance(item, str) else f'"{item}"' for item in value) + "]"
    return str(value)


@st.composite
def launch_scripts(draw, config):
    """A launch script in one of the layouts verl users write, with varied quoting and prefixes."""
    words = []
    for key, value in config.items():
        text = hydra_value(value)
        prefix = draw(st.sampled_from(["", "++"])) if key.startswith(("global_profiler", ACTOR)) else ""
        if "${oc." in text or '"' in text:
            style = "single"  # the only spelling that reaches Hydra intact
        else:
            style = draw(st.sampled_from(["plain", "double"] if "$" in text else ["plain", "single", "double"]))
        word = f"{prefix}{key}={text}"
        words.append({"plain": word, "single": shlex.quote(word), "double": f'{prefix}{key}="{text}"'}[style])
    layout = draw(st.sampled_from(["continued", "array", "one line"]))
    header = "#!/usr/bin/env bash\n# generated legacy launch script\nset -x\n\n"
    if layout == "continued":
        return (
            header
            + "python3 -m verl.trainer.main_ppo \\\n"
            + "".join(f"    {word} \\\n" for word in words)
            + "    $@\n"
        )
    if layout == "array":  # some overrides in an array, the others on the command that uses it
        cut = draw(st.integers(0, len(words)))
        array = "".join(f"    {word}\n" for word in words[:cut])
        return (
            header + f'ARGS=(\n{array})\npython3 -m verl.trainer.main_ppo "${{ARGS[@]}}" {" ".join(words[cut:])} $@\n'
        )
    return header + "python3 -m verl.trainer.main_ppo " + " ".join(words) + "\n"


def yaml_value(value) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return "null" if value is None else str(value)


def yaml_overlay(config: dict, comments) -> str:
    """A user overlay on verl's ppo_trainer, nested in the order given, with comments."""
    tree = {}
    for key, value in config.items():
        *parents, leaf = key.split(".")
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value

    def rows(node, indent):
        for key, value in node.items():
            if next(comments):
                yield f"{indent}# about {key}"
            if isinstance(value, dict):
                yield f"{indent}{key}:"
                yield from rows(value, indent + "  ")
            else:
                yield f"{indent}{key}: {yaml_value(value)}" + ("  # set by hand" if next(comments) else "")

    return "# generated overlay\ndefaults:\n  - ppo_trainer\n  - _self_\n\n" + "".join(
        f"{row}\n" for row in rows(tree, "")
    )


def overrides(script: str) -> tuple:
    """The script's Hydra overrides, read by the standard library's POSIX shell lexer."""
    words = shlex.split(script.replace("\\\n", " "), comments=True)
    keys = ("global_profiler.", "actor_rollout_ref.", "trainer.", "data.", "+")
    return tuple(word for word in words if word.startswith(keys))


@examples
@given(data=st.data())
def test_yaml_migration_is_idempotent_and_keeps_the_behaviour(data):
    config, steps = data.draw(legacy_configs())
    old = yaml_overlay(config, itertools.cycle(data.draw(st.lists(st.booleans(), min_size=1))))
    new = migrate.migrate(old, "yaml", steps=steps)

    assert migrate.migrate(new, "yaml") == new
    assert OmegaConf.select(OmegaConf.create(new), rule.LEGACY_KEY) is None
    assert verl_behaviour(composed(overlay=new)) == legacy_meaning(composed(overlay=old), steps), new


@examples
@given(data=st.data())
def test_script_migration_is_idempotent_and_keeps_the_behaviour(data):
    config, steps = data.draw(legacy_configs())
    old = data.draw(launch_scripts(config))
    new = migrate.migrate(old, "shell", steps=steps)

    assert migrate.migrate(new, "shell") == new
    assert rule.LEGACY_KEY + "=" not in new
    before = legacy_meaning(composed(overrides=overrides(old)), steps)
    assert verl_behaviour(composed(overrides=overrides(new))) == before, new


RESERVED_WORDS = ("if", "then", "elif", "else", "fi", "case", "esac", "do", "done", "in", "!", "{", "}")


@settings(max_examples=150)
@given(
    # shlex performs no expansion, so $ and ` (which only mark a word as expanded) are left out.
    words=st.lists(
        st.text(st.characters(codec="ascii", exclude_characters="\x00\r$`"), min_size=1).filter(
            lambda word: word not in RESERVED_WORDS  # if/case/… open arms: words of the grammar, not of a command
        ),
        max_size=6,
    ),
    quote=st.sampled_from([shlex.quote, lambda word: '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"']),
    separator=st.sampled_from([" ", " \\\n    ", "\n", " \t"]),
)
def test_shell_words_split_like_posix_shlex(words, quote, separator):
    """The oracle: shlex in POSIX mode, which knows no line continuations (taken out of its input).
    tree-sitter-bash reads a few command names bash accepts as errors (``1%=`` starting a line):
    those scripts have an unread part, which migrate refuses near a setting, and are left out."""
    quoted = list(map(quote, words))
    script = "cmd" + separator + separator.join(quoted) + "  # a comment\n"
    plain = separator.replace("\\\n", "")
    read = shell_syntax.read(script)
    assume(not read.unread)
    assert [word.text for word in read.words] == shlex.split(
        "cmd" + plain + plain.join(quoted) + "  # a comment\n", comments=True
    )
