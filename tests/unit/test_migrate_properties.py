"""Properties of ``verl-compat migrate`` over generated legacy configs (hypothesis):

- migrating twice changes nothing more than migrating once;
- the migrated config resolves to the same actor profiler behaviour as the legacy one does with
  the shim's own translation: verl's real ``ppo_trainer`` config of the installed release, composed
  with Hydra, then the YAML overlay merged (OmegaConf) or the script's overrides applied (Hydra);
- the shell tokenizer splits words the way POSIX ``shlex`` does.
"""

import copy
import functools
import itertools
import shlex

from hypothesis import given, settings
from hypothesis import strategies as st
from omegaconf import OmegaConf

from verl_compat import migrate
from verl_compat.fixes import torch_memory
from verl_compat.fixes.torch_memory import Case

ACTOR = "actor_rollout_ref.actor.profiler"
UNRELATED = {
    "data.train_batch_size": 256,
    "actor_rollout_ref.actor.optim.lr": 1e-06,
    "actor_rollout_ref.model.path": "Qwen/Qwen2.5-0.5B-Instruct",
    "trainer.project_name": "verl_example",
    "trainer.logger": ["console", "wandb"],
}
SAVE_PATHS = ["/scratch/mem", "outputs/mem_${oc.env:USER,anon}", "$HOME/mem"]

examples = settings(max_examples=40, deadline=None)  # each resolves two verl configs


@functools.cache  # not a fixture: hypothesis would print all of it with every failing example
def ppo_trainer():
    """verl's own trainer config of the installed release, as ``main_ppo`` composes it, cut down to
    the subtrees these examples set: their interpolations are absolute paths, so they resolve the
    same, and a merge takes milliseconds instead of most of a second."""
    from hydra import compose, initialize_config_module

    with initialize_config_module("verl.trainer.config", version_base=None):
        full = compose("ppo_trainer")
    config = OmegaConf.create({})
    for parent in sorted({key.rpartition(".")[0] for key in (*migrate.KEYS, *UNRELATED)}):
        OmegaConf.update(config, parent, OmegaConf.select(full, parent))
    OmegaConf.set_struct(config, True)
    return config


@st.composite
def legacy_configs(draw):
    """``(settings, steps)``: a config the shim acts on (cases 1-3, legacy key or not), and the
    ``--steps`` argument or None when ``trainer.total_training_steps`` is in the config."""
    form = draw(st.sampled_from(["legacy", "legacy via global tool", "mixed (#6181)", "new plus leftover key"]))
    total = draw(st.integers(1, 6))
    config = {}
    if form == "legacy":
        config[migrate.LEGACY_KEY] = "torch_memory"
        global_tool = draw(st.sampled_from(["unset", None, "torch_memory"]))
        if global_tool != "unset":
            config[migrate.TOOL] = global_tool
    else:
        config[migrate.TOOL] = "torch_memory"
    if form.startswith("legacy"):
        empty_steps = draw(st.sampled_from(["unset", None, []]))
        if empty_steps != "unset":
            config[migrate.STEPS] = empty_steps
        if draw(st.booleans()):
            config[migrate.ENABLE] = draw(st.booleans())  # ignored by the legacy dump, forced by the shim
    else:
        config[migrate.STEPS] = sorted(draw(st.sets(st.integers(1, total), min_size=1)))
    if form == "new plus leftover key":
        config[migrate.LEGACY_KEY] = "torch_memory"
        config[migrate.ENABLE] = True
    ranks = draw(st.sampled_from(["unset", "all", "not all", "listed"]))
    if ranks in ("all", "not all"):
        config[migrate.ALL_RANKS] = ranks == "all"
    elif ranks == "listed":
        config[migrate.RANKS] = [0, 1]
    save_path = draw(st.sampled_from(SAVE_PATHS))
    where = draw(st.sampled_from(["unset", "actor", "global", "both"]))
    if where in ("actor", "both"):
        config[migrate.ACTOR_SAVE_PATH] = save_path
    if where in ("global", "both"):
        config[migrate.SAVE_PATH] = save_path
    steps = None
    if draw(st.booleans()):
        config[migrate.TOTAL_STEPS] = total
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


def overrides(script: str) -> list:
    """The script's Hydra overrides, read by the standard library's POSIX shell lexer."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    words = shlex.split(script.replace("\\\n", " "), comments=True)
    keys = ("global_profiler.", "actor_rollout_ref.", "trainer.", "data.", "+")
    return OverridesParser.create().parse_overrides([word for word in words if word.startswith(keys)])


def behaviour(config, steps):
    """What the actor's DistProfiler will do with ``config``, after the shim's translation."""
    detection = torch_memory.detect(config)
    torch_memory.translate(config, detection)
    if detection.case == Case.LEGACY:
        dumped = steps or list(range(1, detection.total_steps + 1))
    else:
        dumped = sorted(detection.steps)
    profiler = OmegaConf.to_container(OmegaConf.select(config, ACTOR), resolve=True)
    fields = ("tool", "enable", "all_ranks", "ranks", "save_path")
    return {"case is NONE": detection.case == Case.NONE, "steps": dumped, **{name: profiler[name] for name in fields}}


@examples
@given(data=st.data())
def test_yaml_migration_is_idempotent_and_keeps_the_behaviour(data):
    config, steps = data.draw(legacy_configs())
    old = yaml_overlay(config, itertools.cycle(data.draw(st.lists(st.booleans(), min_size=1))))
    new = migrate.migrate(old, yaml=True, steps=steps)

    assert migrate.migrate(new, yaml=True) == new
    assert OmegaConf.select(OmegaConf.create(new), migrate.LEGACY_KEY) is None

    def resolved(text):
        overlay = OmegaConf.create(text)
        overlay.pop("defaults")
        return OmegaConf.merge(ppo_trainer(), overlay)

    before, after = behaviour(resolved(old), steps), behaviour(resolved(new), None)
    assert after == before and not before["case is NONE"]
    assert torch_memory.detect(resolved(new)).case == Case.NEW_STYLE, new


@examples
@given(data=st.data())
def test_script_migration_is_idempotent_and_keeps_the_behaviour(data):
    from hydra._internal.config_loader_impl import ConfigLoaderImpl

    config, steps = data.draw(legacy_configs())
    old = data.draw(launch_scripts(config))
    new = migrate.migrate(old, yaml=False, steps=steps)

    assert migrate.migrate(new, yaml=False) == new
    assert migrate.LEGACY_KEY + "=" not in new

    def resolved(text):
        composed = copy.deepcopy(ppo_trainer())
        ConfigLoaderImpl._apply_overrides_to_config(overrides(text), composed)
        return composed

    before, after = behaviour(resolved(old), steps), behaviour(resolved(new), None)
    assert after == before and not before["case is NONE"]
    assert torch_memory.detect(resolved(new)).case == Case.NEW_STYLE, new


@settings(max_examples=150)
@given(
    # shlex performs no expansion, so $ and ` (which only mark a word as expanded) are left out.
    words=st.lists(st.text(st.characters(codec="ascii", exclude_characters="\x00\r$`"), min_size=1), max_size=6),
    quote=st.sampled_from([shlex.quote, lambda word: '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"']),
    separator=st.sampled_from([" ", " \\\n    ", "\n", " \t"]),
)
def test_shell_words_split_like_posix_shlex(words, quote, separator):
    """The oracle: shlex in POSIX mode, which knows no line continuations (taken out of its input)."""
    quoted = list(map(quote, words))
    script = "cmd" + separator + separator.join(quoted) + "  # a comment\n"
    plain = separator.replace("\\\n", "")
    assert [word.text for word in migrate._shell_words(script)] == shlex.split(
        "cmd" + plain + plain.join(quoted) + "  # a comment\n", comments=True
    )
