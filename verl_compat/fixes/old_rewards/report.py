"""What the user is told: the one warning per setup, and doctor's report of the reward path.

Only reads the config (:func:`.resolve.reward_path`, which may import the custom reward file to find
a manager it registers, as the run itself does).
"""

from __future__ import annotations

from ... import registry
from . import contract, resolve

NAME = registry.fix_name(__name__)

PORT_SKETCH = """\
    from verl.experimental.reward_loop.reward_manager import register
    from verl.experimental.reward_loop.reward_manager.base import RewardManagerBase

    @register("{name}")
    class {cls}(RewardManagerBase):
        def __init__(self, config, tokenizer, compute_score, **kwargs):
            super().__init__(config, tokenizer, compute_score)
        async def run_single(self, data):  # one trajectory: score it alone
            ...
            return {{"reward_score": score, "reward_extra_info": {{...}}}}
    (a manager that needs the whole batch, e.g. a uid group, has no equivalent in today's reward loop:
    compute it in the trainer, or keep the old class with verl-compat)"""


def reward_fn_key_warning(path: resolve.Path) -> str:
    cls = path.cls
    where = f"{cls.__module__}.{cls.__qualname__}" if cls is not None else path.name
    column = path.found.partition("=")[2]
    return (
        f"verl-compat: {path.found} with reward.reward_manager.name={path.name}: verl's old {path.name} manager read "
        f"each sample's data source from the {column!r} column; verl 0.7.1+'s reads 'data_source' whatever "
        f"data.reward_fn_key says, so another scorer would run. verl-compat scores with the old class ({where}), "
        "built with the old arguments and called on the whole step batch in the trainer, as before. On today's "
        "verl, write the column into 'data_source' in your dataset, or use a reward function that reads it."
    )


def manager_warning(path: resolve.Path, translated: str | None = None) -> str:
    if path.found.startswith("data.reward_fn_key"):
        return reward_fn_key_warning(path)
    cls = path.cls
    where = f"{cls.__module__}.{cls.__qualname__}" if cls is not None else path.name
    found = {"importlib": "named by reward.reward_manager.source=importlib"}.get(
        path.found, f"registered with the old verl.workers.reward_manager.register ({path.found})"
    )
    lines = [
        f"verl-compat: reward manager {path.name!r} ({where}, {found}) is written against the old contract "
        "(verl <= 0.6: __init__(tokenizer, num_examine, compute_score, reward_fn_key, **kwargs), __call__(data, "
        "return_dict) on the whole batch), which verl 0.7.1+ no longer builds (TypeError: unexpected keyword "
        "'config', or ValueError: Unknown reward manager). verl-compat adapted it: it is built with the old "
        "arguments (num_examine=0 for training, 1 for validation, reward_fn_key=data.reward_fn_key, "
        "**reward.reward_kwargs) and called on the whole step batch in the trainer, as before; the reward loop "
        "workers return a placeholder and do not call it."
    ]
    if translated:
        lines.append(f"  The launcher registered it: the workers import it through {translated}.")
    lines.append("  On today's verl, port it to the new contract (one trajectory per call):")
    lines.append(PORT_SKETCH.format(name=path.name, cls=getattr(cls, "__name__", "MyRewardManager")))
    return "\n".join(lines)


def reward_fn_warning(keys) -> str:
    names = " and ".join(f"{key}=" for key in keys)
    return (
        f"verl-compat: RayPPOTrainer({names}...) was removed in verl 0.7.1 (verl#5237); verl-compat keeps it: "
        "the callable scores each training batch (reward_fn) and validation batch (val_reward_fn, else "
        "reward_fn) on the whole batch in the trainer, as verl 0.6 did. On today's verl, write a reward "
        "function (reward.custom_reward_function.path=<file> reward.custom_reward_function.name=<function>) or "
        "a reward manager (reward.reward_manager.name=<registered name>) instead."
    )


def _row(path: resolve.Path) -> str:
    if path.kind == "old" and path.found.startswith("data.reward_fn_key"):
        return f"manager {path.name} (verl's old class, for {path.found}: whole batch in the driver)"
    if path.kind == "old":
        return f"manager {path.name} (old contract, adapted: whole batch in the driver)"
    if path.kind == "function":
        return "function (custom_reward_function, native)"
    if path.kind == "unknown":
        return f"manager {path.name} (unknown to both registries)"
    if path.name in (None, "naive") and path.kind == "native":
        return f"manager {path.name or 'naive'} (native)"
    return f"manager {path.name} (native)"


def describe(config) -> dict:
    """doctor's report: the reward path the run takes on this verl."""
    try:
        path = resolve.reward_path(config)
    except Exception as exc:  # the run would fail at the same place: say so, as a problem
        return {
            "acts": False,
            "rows": [("reward path", f"cannot resolve: {registry.first_line(exc)}")],
            "cannot": [f"reward manager cannot be resolved: {registry.first_line(exc)}"],
            "path": None,
        }
    custom_path, _, _ = contract.custom_function_settings(config)
    row = f"function + {_row(path)}" if path.kind == "native" and custom_path else _row(path)
    cannot = []
    if path.kind == "unknown":
        cannot.append(f"reward manager {path.name!r} is registered neither in today's nor in the old registry")
    return {"acts": path.kind == "old", "rows": [("reward path", row)], "cannot": cannot, "path": path.kind}
