"""Malformed and contradictory configs: each gets one clear message naming the key and what
verl-compat did, and the shim never turns a config verl would accept into a crash.

Configs are verl's own ``ppo_trainer.yaml`` of the installed release composed with Hydra overrides
(``harness.compose_config``), except the rows that are about non-OmegaConf configs. "verl accepts"
is checked with verl's own pieces: the actor's profiler block converted to verl's ``ProfilerConfig``
(as every actor worker does at construction) and the trainer's ``global_steps in steps`` test.
The precedence these messages state is documented in docs/torch_memory.md.
"""

import copy
import dataclasses
import logging

import pytest
from expectations import LEGACY
from harness import compose_config
from omegaconf import OmegaConf

import verl_compat
from verl_compat.fixes import torch_memory
from verl_compat.fixes.torch_memory import Case

ACTOR = "actor_rollout_ref.actor.profiler"
TOOL = f"{ACTOR}.tool"
STEPS = "global_profiler.steps"


def _file(tmp_path):
    path = tmp_path / "a-file"
    path.write_text("not a folder")
    return path


# id: (overrides (a list, or a function of tmp_path), the key named, words in the message, Case, edits made)
ROWS = {
    "tool_with_a_dash": (
        [f"{TOOL}=torch-memory"],
        TOOL,
        ["'torch-memory'", "Did you mean torch_memory?"],
        Case.NONE,
        [],
    ),
    "tool_in_capitals": (
        [f"{TOOL}=Torch_Memory"],
        TOOL,
        ["'Torch_Memory'", "Did you mean torch_memory?"],
        Case.NONE,
        [],
    ),
    "tool_misspelt_in_global": (
        ["global_profiler.tool=torch_memroy"],
        TOOL,
        ["'torch_memroy'", "from global_profiler.tool"],
        Case.NONE,
        [],
    ),
    "steps_a_string": (
        [*LEGACY, f"{STEPS}='1,2'"],
        STEPS,
        ["is '1,2', not a list", f"Write {STEPS}=[1,2]"],
        Case.MIXED,
        [f"{ACTOR}.enable=True", f"{ACTOR}.all_ranks=True"],
    ),
    "steps_a_number": (
        [*LEGACY, f"{STEPS}=2"],
        STEPS,
        ["is 2, not a list", f"{STEPS}=[2]"],
        Case.MIXED,
        [f"{ACTOR}.enable=True", f"{ACTOR}.all_ranks=True"],
    ),
    "steps_zero_and_negative": (
        [*LEGACY, f"{STEPS}=[0,-1,2]", f"{ACTOR}.enable=True"],
        STEPS,
        ["[0, -1]", "from 1"],
        Case.NEW_STYLE,
        [],
    ),
    "steps_listed_twice": (
        [*LEGACY, f"{STEPS}=[1,1,2]", f"{ACTOR}.enable=True", f"{ACTOR}.all_ranks=True"],
        STEPS,
        ["[1] more than once", "profiled once"],
        Case.NEW_STYLE,
        [],
    ),
    "steps_past_the_run": (
        [*LEGACY, f"{STEPS}=[2,7]", f"{ACTOR}.enable=True", f"{ACTOR}.all_ranks=True"],
        STEPS,
        ["[7]", "3 steps (trainer.total_training_steps)"],
        Case.NEW_STYLE,
        [],
    ),
    "steps_not_numbers": (
        [*LEGACY, f"{STEPS}=[1,two]", f"{ACTOR}.enable=True", f"{ACTOR}.all_ranks=True"],
        STEPS,
        ["['two']", "not step numbers"],
        Case.NEW_STYLE,
        [],
    ),
    "ranks_out_of_range": (
        [*LEGACY, f"{ACTOR}.ranks=[0,5]"],
        f"{ACTOR}.ranks",
        ["[5]", "actor's 2"],
        Case.LEGACY,
        [f"{ACTOR}.enable=True"],
    ),
    "ranks_all_negative": (
        [*LEGACY, f"{ACTOR}.ranks=[-1]"],
        f"{ACTOR}.ranks",
        ["[-1]", "no rank dumps a snapshot"],
        Case.LEGACY,
        [f"{ACTOR}.enable=True"],
    ),
    "ranks_and_all_ranks": (
        [*LEGACY, f"{ACTOR}.ranks=[0]", f"{ACTOR}.all_ranks=True"],
        f"{ACTOR}.ranks",
        ["all_ranks wins"],
        Case.LEGACY,
        [f"{ACTOR}.enable=True"],
    ),
    "ranks_a_string": (
        [*LEGACY, f"{ACTOR}.ranks='0,1'"],
        f"{ACTOR}.ranks",
        ["is '0,1', not a list", "verl rejects it"],
        Case.LEGACY,
        [f"{ACTOR}.enable=True"],
    ),
    "save_path_is_a_file": (
        lambda tmp: [*LEGACY, f"global_profiler.save_path={_file(tmp)}"],
        f"{ACTOR}.save_path",
        ["which is a file, not a folder"],
        Case.LEGACY,
        [f"{ACTOR}.enable=True", f"{ACTOR}.all_ranks=True"],
    ),
    "save_path_under_a_file": (
        lambda tmp: [*LEGACY, f"global_profiler.save_path={_file(tmp)}/profile"],
        f"{ACTOR}.save_path",
        ["cannot be created", "a-file is a file"],
        Case.LEGACY,
        [f"{ACTOR}.enable=True", f"{ACTOR}.all_ranks=True"],
    ),
    "save_paths_contradict": (
        lambda tmp: [*LEGACY, f"global_profiler.save_path={tmp}/global", f"{ACTOR}.save_path={tmp}/actor"],
        f"{ACTOR}.save_path",
        ["the actor's own key wins", "go to", "/actor'"],
        Case.LEGACY,
        [f"{ACTOR}.enable=True", f"{ACTOR}.all_ranks=True"],
    ),
    "tool_does_not_resolve": (
        ["global_profiler.tool=${no_such.key}"],
        TOOL,
        ["cannot be read", "InterpolationKeyError"],
        Case.NONE,
        [],
    ),
}


def verl_accepts(config) -> bool:
    """What verl itself does with these keys: the actor worker's ProfilerConfig and the trainer's
    per-step ``global_steps in steps`` test."""
    from verl.utils.config import omega_conf_to_dataclass
    from verl.utils.profiler import ProfilerConfig

    try:
        omega_conf_to_dataclass(OmegaConf.select(config, ACTOR), dataclass_type=ProfilerConfig)
        steps = OmegaConf.select(config, STEPS)
        if steps is not None:
            _ = 1 in steps
    except Exception:
        return False
    return True


@pytest.mark.parametrize("row", ROWS, ids=list(ROWS))
def test_malformed_config_gets_one_clear_message(row, shim, tmp_path, caplog):
    overrides, key, words, case, edits = ROWS[row]
    if callable(overrides):
        overrides = overrides(tmp_path)
    config = compose_config(overrides, tmp_path)
    original = copy.deepcopy(config)

    with caplog.at_level(logging.WARNING, logger="verl_compat"):
        detection, made = torch_memory.prepare(config)
        torch_memory.prepare(config)  # a second trainer in the same process: said once

    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith(f"verl-compat: {key} ")]
    assert len(said) == 1, [r.getMessage() for r in caplog.records]
    assert all(word in said[0] for word in words), said[0]
    assert detection.case == case
    assert [f"{key}={value}" for key, value in made] == edits
    assert verl_compat.status()["fixes"]["torch_memory"]["errors"] == {}, "no shim error: every value was read"
    assert said[0] in verl_compat.status()["fixes"]["torch_memory"]["problems"]
    if verl_accepts(original):
        assert verl_accepts(config), "verl-compat turned a config verl accepts into one it rejects"


def test_a_plain_dict_config_is_translated_like_an_omegaconf_one(shim, shim_warnings, tmp_path):
    composed = compose_config(LEGACY, tmp_path)
    config = OmegaConf.to_container(composed, resolve=True)
    # as a YAML loader without a schema may leave it
    config["actor_rollout_ref"]["actor"]["profiler"]["enable"] = "false"

    detection, edits = torch_memory.prepare(config)

    assert detection.case == torch_memory.Case.LEGACY
    assert detection.problems == ()
    assert edits == [(f"{ACTOR}.enable", True), (f"{ACTOR}.all_ranks", True)]
    assert config["actor_rollout_ref"]["actor"]["profiler"]["enable"] is True
    assert len(shim_warnings()) == 1


def test_a_config_without_actor_rollout_ref_is_left_alone_and_said_so(shim, shim_warnings, caplog):
    with caplog.at_level(logging.WARNING, logger="verl_compat"):
        for config in ({"trainer": {"total_training_steps": 3}}, None):
            detection, edits = torch_memory.prepare(config)
            assert (detection.case, edits) == (torch_memory.Case.NONE, [])

    said = [r.getMessage() for r in caplog.records]
    assert said == [
        "verl-compat: actor_rollout_ref is missing from the config: the torch_memory fix has nothing "
        "to read; verl-compat leaves this config as it is"
    ]
    assert shim_warnings() == []


@dataclasses.dataclass(frozen=True)
class _Frozen:
    tool: str = "torch_memory"
    enable: bool = False
    all_ranks: bool = False
    ranks: tuple = ()
    save_path: str | None = None


def test_a_config_that_cannot_be_edited_is_named_with_the_override_to_set(shim, caplog):
    actor = type("Actor", (), {"profiler": _Frozen()})
    config = type("Config", (), {"actor_rollout_ref": type("ActorRolloutRef", (), {"actor": actor})})

    with caplog.at_level(logging.WARNING, logger="verl_compat"):
        detection, edits = torch_memory.prepare(config)

    assert (detection.case, edits) == (torch_memory.Case.LEGACY, [])
    said = [r.getMessage() for r in caplog.records if "cannot be set" in r.getMessage()]
    keys = [line.split(" cannot be set")[0].removeprefix("verl-compat: ") for line in said]
    assert keys == [f"{ACTOR}.enable", f"{ACTOR}.all_ranks"]
    assert f"set {ACTOR}.enable=True yourself" in said[0]
    assert verl_compat.status()["fixes"]["torch_memory"]["errors"] == {}


def test_a_well_formed_config_has_no_problems(shim, tmp_path):
    for overrides in ([], LEGACY, [*LEGACY, f"{STEPS}=[1,2]", f"{ACTOR}.enable=True", f"{ACTOR}.all_ranks=True"]):
        assert torch_memory.prepare(compose_config(overrides, tmp_path))[0].problems == ()
        assert verl_compat.status()["fixes"]["torch_memory"]["problems"] == []
