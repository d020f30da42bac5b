"""The config_keys translation engine, pure: Hydra's override grammar, a config probe, no verl.

The rows here are the test's own (every fate, a subtree row, a group option), so these checks hold
whatever verl's table says; the table's rows are checked against each installed release by the
table's own tests.
"""

import pytest
from omegaconf import OmegaConf

from verl_compat.fixes.config_keys import translate
from verl_compat.fixes.config_keys.table import Row

pytestmark = pytest.mark.once

ROWS = (
    Row("critic.model.fsdp_config", "moved", "critic.fsdp", "0.8.0", "verl#1"),
    Row("trainer.profile_steps", "moved", "global_profiler.steps", "0.6.0", "verl#2"),
    Row("rollout.mode", "remapped", "rollout.async", "0.9.0", "verl#3", values=(("sync", False), ("async", True))),
    Row(
        "rollout.disable_cache",
        "remapped",
        "rollout.engine_kwargs.sglang.cache_gb",
        "0.9.0",
        "verl#9",
        values=((True, 0),),
        inert=(False,),
    ),
    Row("actor.megatron.grad_offload", "dropped", None, "0.9.1", "verl#7544", note="it never had an effect"),
    Row(
        "trainer.use_legacy_worker_impl",
        "removed",
        None,
        "0.9.0",
        "verl#4",
        note="the legacy workers are gone",
        inert=("auto",),
    ),
    Row(
        "model_engine",
        "removed",
        None,
        "0.9.0",
        "verl#5",
        note="no MindSpeed engine",
        values=(("mindspeed", None),),
        group=True,
    ),
    Row("rollout.skip_rollout", "moved", "rollout.skip.enable", "0.8.0", "verl#6"),
    Row("rollout.skip.enable", "moved", "skip.rollout.enable", "0.9.0", "verl#7"),
    Row(
        "rollout.engine_kwargs.sglang.attention_backend",
        "moved",
        "rollout.engine_kwargs.sglang.attention_backend",
        "0.9.0",
        "verl#8",
    ),
)

# The installed release, as the probe sees it: successors present, old paths absent.
NEW = OmegaConf.create(
    {
        "critic": {"fsdp": {"param_offload": False, "optimizer_offload": False}, "model": {"path": None}},
        "global_profiler": {"steps": None},
        "rollout": {"async": False, "engine_kwargs": {"sglang": {}}},
        "skip": {"rollout": {"enable": False}},
        "actor": {"strategy": "fsdp"},
        "trainer": {"n_gpus_per_node": 8},
    }
)
OLD = OmegaConf.create({**OmegaConf.to_container(NEW), "trainer": {"profile_steps": None}})


def probe(config=NEW, options=("dp", "megatron")):
    return translate.ConfigProbe(config, lambda group, option: option in options)


def run(*overrides, config=NEW):
    return translate.translate_overrides(list(overrides), probe(config), ROWS)


@pytest.mark.parametrize(
    "written, expected",
    [
        ("critic.model.fsdp_config.param_offload=True", "critic.fsdp.param_offload=True"),
        ("+critic.model.fsdp_config.param_offload=True", "critic.fsdp.param_offload=True"),
        ("++critic.model.fsdp_config.param_offload=True", "critic.fsdp.param_offload=True"),
        ("~critic.model.fsdp_config.param_offload", "~critic.fsdp.param_offload"),
        ("~critic.model.fsdp_config.param_offload=False", "~critic.fsdp.param_offload=False"),
        ("+critic.model.fsdp_config.new_knob=3", "+critic.fsdp.new_knob=3"),
        ("trainer.profile_steps=[1,2,3]", "global_profiler.steps=[1,2,3]"),
        ("rollout.mode=async", "rollout.async=true"),
        ("rollout.mode=sync", "rollout.async=false"),
    ],
)
def test_each_override_form_lands_at_the_successor(written, expected):
    result = run("data.train_batch_size=8", written)
    assert result.overrides == ("data.train_batch_size=8", expected)
    (finding,) = result.findings
    assert finding.replacement == expected and not finding.stops
    assert expected in finding.warning() and written.lstrip("+~").split("=")[0] in finding.warning()


def test_dropped_key_is_deleted_with_why_it_is_safe():
    result = run("+actor.megatron.grad_offload=True", "actor.strategy=fsdp")
    assert result.overrides == ("actor.strategy=fsdp",)
    (finding,) = result.findings
    assert not finding.stops and "never had an effect" in finding.warning() and "0.9.1" in finding.warning()


def test_moved_key_set_to_an_inert_value_is_dropped_not_moved():
    # disable_mm_preprocessor_cache=False must not become mm_processor_cache_gb=False (0 to vLLM:
    # the cache off, the opposite of what it asked).
    result = run("rollout.disable_cache=False")
    assert result.overrides == ()
    (finding,) = result.findings
    assert finding.inert and not finding.stops and "asked for what the release does anyway" in finding.warning()
    assert run("rollout.disable_cache=True").overrides == ("+rollout.engine_kwargs.sglang.cache_gb=0",)
    config = OmegaConf.create({**OmegaConf.to_container(NEW), "rollout": {"disable_cache": False}})
    (finding,) = translate.translate_config(config, probe(), ROWS)
    assert finding.inert and translate.node_at(config, "rollout.engine_kwargs.sglang.cache_gb") is None


def test_an_addition_of_a_key_verl_added_since_becomes_the_plain_key():
    lines = ["+trainer.n_gpus_per_node=4", "++trainer.n_gpus_per_node=4", "+trainer.new_knob=1", "+profiler@x=y"]
    result = translate.settle_additions(lines, probe())
    assert result.overrides == ("trainer.n_gpus_per_node=4", *lines[1:])
    (finding,) = result.findings
    assert not finding.stops and "Write instead: trainer.n_gpus_per_node=4" in finding.warning()


def test_removed_key_and_group_option_stop_with_one_message_naming_each():
    result = run("trainer.use_legacy_worker_impl=disable", "model_engine=mindspeed", "model_engine=dp")
    assert result.overrides == ("model_engine=dp",)
    assert [f.stops for f in result.findings] == [True, True]
    message = translate.stop_message(result.findings)
    assert "trainer.use_legacy_worker_impl=disable" in message and "model_engine=mindspeed" in message
    assert "0.9.0" in message and translate.ALLOW_REMOVED in message


def test_a_removed_key_set_to_what_the_release_does_anyway_is_dropped_with_a_warning():
    (finding,) = run("trainer.use_legacy_worker_impl=auto").findings
    assert not finding.stops and "does anyway" in finding.warning()


def test_a_chain_of_renames_goes_as_far_as_the_release():
    assert run("rollout.skip_rollout=True").overrides == ("skip.rollout.enable=True",)


def test_a_key_that_left_the_schema_goes_into_its_free_form_dict():
    assert run("rollout.engine_kwargs.sglang.attention_backend=fa3").overrides == (
        "+rollout.engine_kwargs.sglang.attention_backend=fa3",
    )


def test_old_and_new_agreeing_is_fine_and_conflicting_is_an_error():
    agree = run("critic.model.fsdp_config.param_offload=True", "critic.fsdp.param_offload=true")
    assert agree.overrides == ("critic.fsdp.param_offload=true",)
    assert not agree.findings[0].stops
    clash = run("critic.model.fsdp_config.param_offload=True", "critic.fsdp.param_offload=False")
    assert clash.findings[0].stops
    message = translate.stop_message(clash.findings)
    assert "conflicts with critic.fsdp.param_offload=False" in message
    # The switch lets removed keys through, never a conflict: the message does not offer it.
    assert "sets an old key and its successor to different values" in message
    assert translate.ALLOW_REMOVED not in message


def test_a_release_that_still_has_the_old_path_is_left_alone():
    result = run("trainer.profile_steps=[1]", "critic.model.fsdp_config.param_offload=True", config=OLD)
    assert result.overrides == ("trainer.profile_steps=[1]", "critic.fsdp.param_offload=True")


def test_a_release_without_the_successor_is_left_alone():
    bare = OmegaConf.create({"critic": {"model": {}}, "trainer": {}})
    assert run("critic.model.fsdp_config.param_offload=True", config=bare).overrides == (
        "critic.model.fsdp_config.param_offload=True",
    )


def test_keys_outside_the_table_and_hydra_overrides_pass_through():
    written = ("critic.model.path=x", "hydra.run.dir=/tmp/x", "+extra.key=1", "~actor.strategy")
    assert run(*written).overrides == written and not run(*written).findings


def test_yaml_body_old_keys_move_into_the_composed_config():
    user = OmegaConf.merge(
        NEW,
        {"critic": {"model": {"fsdp_config": {"param_offload": True}}}, "actor": {"megatron": {"grad_offload": True}}},
    )
    findings = translate.translate_config(user, probe(), ROWS)
    assert user.critic.fsdp.param_offload is True and "fsdp_config" not in user.critic.model
    assert "megatron" not in user.actor  # left empty, and not in verl's config: it goes too
    assert [(f.key, f.row.fate) for f in findings] == [
        ("critic.model.fsdp_config.param_offload", "moved"),
        ("actor.megatron.grad_offload", "dropped"),
    ]


def test_yaml_body_old_and_new_set_differently_is_a_conflict():
    user = OmegaConf.merge(
        NEW,
        {"critic": {"fsdp": {"param_offload": False, "optimizer_offload": True}}},
        {"critic": {"model": {"fsdp_config": {"optimizer_offload": False}}}},
    )
    (finding,) = translate.translate_config(user, probe(), ROWS)
    assert finding.stops and finding.conflict == "true"
