"""verl 0.6.1's own ``load_reward_manager`` on fixed launches, as data: the cases, and what it built
(the manager class, its ``compute_score``, its scores on a fixed batch).

``scripts/old_reward_expectations.py`` runs each case on verl 0.6.1 (``VERL_COMPAT_DISABLE=1``) and
writes :data:`DATA`; the tests run the same launch on today's verl with verl-compat and compare
with it. A case's overrides are the keys a 0.6-era launch wrote (translated by config_keys today);
``{custom_file}`` stands for ``old_reward_file.py``'s path on this machine.
"""

import copy
import functools
import json
from pathlib import Path

from old_reward_batches import CUSTOM_FILE, step_batch
from omegaconf import OmegaConf
from verl_config import verl_compose

DATA = Path(__file__).resolve().parents[1] / "fixes" / "old_rewards" / "data" / "load_reward_manager_v0_6_1.json"

SANDBOX_URL = "http://127.0.0.1:9/run_code"  # never called: the fixed batch has no code data source
DAPO_OVERLONG = {"enable": True, "len": 4, "penalty_factor": 1.0, "log": True}

# name -> the launch's overrides and the load_reward_manager call (num_examine positional, as the recipe
# launchers wrote it, or as a keyword, as 0.6.1's main_ppo did; the call's own **reward_kwargs)
CASES = {
    "naive": {"overrides": [], "num_examine": 0, "positional": True, "kwargs": {}},
    "naive_validation_keyword": {"overrides": [], "num_examine": 1, "positional": False, "kwargs": {}},
    "sandbox": {
        "overrides": [
            f"reward_model.sandbox_fusion.url={SANDBOX_URL}",
            "reward_model.sandbox_fusion.max_concurrent=8",
            "reward_model.sandbox_fusion.memory_limit_mb=2048",
        ],
        "num_examine": 0,
        "positional": True,
        "kwargs": {},
    },
    "sandbox_defaults": {
        "overrides": [f"reward_model.sandbox_fusion.url={SANDBOX_URL}"],
        "num_examine": 0,
        "positional": True,
        "kwargs": {},
    },
    "custom_function_kwargs": {
        "overrides": [
            "custom_reward_function.path={custom_file}",
            "+custom_reward_function.reward_kwargs.scale=0.5",
            f"reward_model.sandbox_fusion.url={SANDBOX_URL}",  # a custom function wins over the sandbox
        ],
        "num_examine": 0,
        "positional": True,
        "kwargs": {},
    },
    "custom_file_manager": {
        "overrides": [
            "custom_reward_function.path={custom_file}",
            "reward_model.reward_manager=old_file_manager",
        ],
        "num_examine": 0,
        "positional": False,
        "kwargs": {"bonus": 0.25},
    },
    "dapo_recipe": {  # v0.6.1 recipe/dapo/main_dapo.py
        "overrides": ["reward_model.reward_manager=dapo"],
        "num_examine": 0,
        "positional": True,
        "kwargs": {"max_resp_len": 8, "overlong_buffer_cfg": DAPO_OVERLONG},
    },
}


def overrides(case: dict) -> list[str]:
    return [line.replace("{custom_file}", str(CUSTOM_FILE)) for line in case["overrides"]]


def compose(case: dict):
    return verl_compose(overrides(case))


def call(load_reward_manager, config, tokenizer, case: dict):
    """``load_reward_manager`` called as the case's old code called it."""
    kwargs = {k: OmegaConf.create(v) if isinstance(v, dict) else v for k, v in case["kwargs"].items()}
    if case["positional"]:
        return load_reward_manager(config, tokenizer, case["num_examine"], **kwargs)
    return load_reward_manager(config, tokenizer, num_examine=case["num_examine"], **kwargs)


def _name(value) -> str:
    return f"{value.__module__}.{value.__qualname__}"


def semaphore_value(semaphore) -> int:
    """How many holders a ``multiprocessing.Manager().Semaphore`` admits (it has no getter)."""
    taken = 0
    while taken < 10_000 and semaphore.acquire(blocking=False):
        taken += 1
    for _ in range(taken):
        semaphore.release()
    return taken


def describe_score(score) -> dict:
    """A ``compute_score`` as data: the function (a partial's own by name only: verl's
    ``_call_with_kwargs`` and verl-compat's are the same function in two modules), the partial's
    arguments and keywords, and its semaphore's value instead of the object."""
    if not isinstance(score, functools.partial):
        return {"function": _name(score)}
    keywords = dict(score.keywords)
    semaphore = keywords.pop("concurrent_semaphore", None)
    described = {
        "partial": score.func.__name__ if score.args else _name(score.func),
        "args": [_name(arg) if callable(arg) else arg for arg in score.args],
        "keywords": keywords,
    }
    if semaphore is not None:
        described["semaphore_value"] = semaphore_value(semaphore)
    return described


def _plain(value):
    """JSON-able: numpy and torch scalars as Python numbers, arrays as lists."""
    if hasattr(value, "tolist"):
        return _plain(value.tolist())
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float):
        return round(value, 6)
    return value


def describe_manager(manager, tokenizer) -> dict:
    """The manager as data: its class, how it was built, and what it gives on the fixed batch."""
    result = manager(copy.deepcopy(step_batch(tokenizer)), return_dict=True)
    return {
        "class": _name(type(manager)),
        "num_examine": manager.num_examine,
        "reward_fn_key": manager.reward_fn_key,
        "compute_score": describe_score(manager.compute_score),
        "reward_tensor": _plain(result["reward_tensor"]),
        "reward_extra_info": _plain(dict(result.get("reward_extra_info", {}) or {})),
    }


def load() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))
