"""Old reward setups as old verl itself ran them: what verl 0.6.1's own ``RayPPOTrainer.fit`` gave,
kept as data (``tests/fits/data/old_reward_fits_v0_6_1.json``, written by
``scripts/old_reward_fits_expected.py``), and the same record taken from a run on any release.

A record, per setup, from verl's real 3-step fit (``harness.run_fit``) on fixed inputs:

- ``steps``: each training step's rows as verl dumps them (``trainer.rollout_data_dir``,
  ``{step}.jsonl``): prompt, response, ground truth, ``score`` (``token_level_scores.sum(-1)``) and
  the ``reward_extra_info`` values;
- ``val``: the validation metrics verl logged (``val-core/…``, ``val-aux/…``; its file logger), by step;
- ``columns``: for the setups whose old manager or callable records its batches
  (``old_reward_managers.record``), per call (``train``, ``val``), the non-tensor column names it
  received and, per row, the values of every column but ``uid``.

Rows are compared as sorted multisets: the batch order (``balance_batch``) and the uid strings are
the run's own, the groups (a prompt's ``rollout.n`` responses in one step) are not. Every input is
fixed: the same prompts in the same order on every release (``data.shuffle=False``: verl <= 0.6.0
shuffled with a hidden seed, later releases unseeded), and the stand-in rollout answers as a pure
function of the prompt (``standins.answer_for``).
"""

import contextlib
import gc
import inspect
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import reward_standins
from harness import compose_config, run_fit
from old_reward_managers import recorded, user_reward_fn
from omegaconf import DictConfig
from verl.trainer.ppo.ray_trainer import RayPPOTrainer

SUPPORT = Path(__file__).resolve().parent
DATA_FILE = SUPPORT.parent / "fits" / "data" / "old_reward_fits_v0_6_1.json"
CUSTOM_FILE = SUPPORT / "old_reward_file.py"
N = 2  # responses per prompt in the setups that score groups
DIGITS = 6  # floats are kept to 6 decimals: float32 scores, float64 metrics
# verl <= 0.6: the trainer builds old managers and calls them and reward_fn itself.
NATIVE = "reward_fn" in inspect.signature(RayPPOTrainer.__init__).parameters
RM_LAYOUTS = ("standalone", "colocated")  # verl 0.9's two reward model layouts (enable_resource_pool)


def _custom_file(function="compute_score", manager=None) -> list[str]:
    """The legacy keys of an old custom reward file (``group_setup_overrides`` of the reward fits)."""
    keys = [f"custom_reward_function.path={CUSTOM_FILE}", f"custom_reward_function.name={function}"]
    return [*keys, f"reward_model.reward_manager={manager}"] if manager else keys


def _reward_model(workdir: Path, layout: str | None) -> list[str]:
    """An enabled reward model, in the legacy keys; on verl 0.9 also the keys it has no old form of
    (``reward_model_serving``) and the layout."""
    keys = ["reward_model.enable=True", f"reward_model.model.path={workdir / 'model'}"]
    if NATIVE:
        return [*keys, "reward_model.micro_batch_size_per_gpu=1"]
    return [*keys, f"reward_model.enable_resource_pool={layout == 'standalone'}", *reward_model_serving()]


def reward_model_serving() -> list[str]:
    """verl 0.9's reward model serving keys: the engine (verl's /classify client speaks vLLM's) and
    one-GPU replicas, so that a standalone pool of one bundle holds one."""
    keys = ("rollout.name=vllm", "rollout.tensor_model_parallel_size=1", "n_gpus_per_node=1", "nnodes=1")
    return [f"reward.reward_model.{key}" for key in keys]


@dataclass(frozen=True)
class Setup:
    """One old reward setup: its launch keys (``overrides(workdir, rm_layout)``) and how it runs."""

    name: str
    overrides: Callable[[Path, str | None], list[str]]
    kinds: tuple[str, ...] = ()  # what its recording manager or callable records as
    reward_fns: bool = False  # RayPPOTrainer(reward_fn=user_reward_fn, val_reward_fn=user_reward_fn)
    reward_model: bool = False  # an enabled reward model: one run per 0.9 layout
    columns: bool = False  # the dataset with ability, index and a custom column


SETUPS = {
    setup.name: setup
    for setup in (
        # (a) the whole-batch manager the custom reward file registers, named with the legacy keys
        Setup(
            "group",
            lambda w, rm: [*_custom_file(manager="old_group_manager"), f"actor_rollout_ref.rollout.n={N}"],
            kinds=("file_group",),
        ),
        # (b) a user's reward_fn and val_reward_fn
        Setup("reward_fn", lambda w, rm: [], kinds=("reward_fn",), reward_fns=True),
        # (c) a reward model, with verl's old NaiveRewardManager (returns rm_scores when present)...
        Setup(
            "rm_naive",
            lambda w, rm: [
                *_reward_model(w, rm),
                *(
                    ["reward_model.reward_manager=naive"]
                    if NATIVE
                    else [
                        "reward.reward_manager.source=importlib",
                        "reward.reward_manager.module.path=pkg://verl.workers.reward_manager.naive",
                        "reward.reward_manager.name=NaiveRewardManager",
                    ]
                ),
            ],
            reward_model=True,
        ),
        # ...and with a user manager adding the RM's rm_scores to its rule score
        Setup(
            "rm_plus_rule",
            lambda w, rm: [*_reward_model(w, rm), *_custom_file(manager="old_rm_plus_rule")],
            kinds=("rm_plus_rule",),
            reward_model=True,
        ),
        # (d) data.reward_fn_key=ability: verl's old naive passes that column as data_source...
        Setup(
            "reward_fn_key_naive",
            lambda w, rm: [*_custom_file("compute_score_by_source", "naive"), "data.reward_fn_key=ability"],
            columns=True,
        ),
        # ...and a manager reading the dataset's columns (.get("raw_prompt"), .get("index"), level)
        Setup(
            "columns",
            lambda w, rm: [*_custom_file(manager="old_column_manager"), "data.reward_fn_key=ability"],
            kinds=("columns",),
            columns=True,
        ),
    )
}


def setup_config(setup: Setup, workdir: Path, rm_layout: str | None = None) -> DictConfig:
    """The installed release's config for ``setup``: fixed order, verl's dumps and file logger on."""
    common = [
        "data.shuffle=False",
        "data.validation_shuffle=False",
        f"trainer.rollout_data_dir={workdir / 'rollout'}",
        "trainer.logger=[console,file]",
        # Off: its metrics are tensors on 0.6.1, which verl 0.6.1's own file logger cannot write
        # (TypeError at step 1). It only orders the batch, which the records do not depend on.
        "trainer.balance_batch=False",
    ]
    if not NATIVE:
        common.append(
            "++actor_rollout_ref.rollout.agent.agent_loop_manager_class=reward_standins.RewardLoopAgentLoopManager"
        )
    config = compose_config([*common, *setup.overrides(workdir, rm_layout)], workdir)
    if setup.columns:
        config.data.custom_cls.path = "pkg://reward_standins"
        config.data.custom_cls.name = config.data.custom_cls.name.replace("TinyGSM8K", "TinyGSM8KColumns")
    return config


@contextlib.contextmanager
def _file_logger(path: Path):
    """verl's ``file`` logger writes where ``VERL_FILE_LOGGER_PATH`` says (read when fit() starts)."""
    before = os.environ.get("VERL_FILE_LOGGER_PATH")
    os.environ["VERL_FILE_LOGGER_PATH"] = str(path)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("VERL_FILE_LOGGER_PATH")
        else:
            os.environ["VERL_FILE_LOGGER_PATH"] = before


def run_setup(setup: Setup | str, workdir: Path, rm_layout: str | None = None):
    """Run a setup's fit (one of ``SETUPS`` or its name) on the installed release; returns
    ``(FitResult, record)``, the record None where the fit failed."""
    setup = SETUPS[setup] if isinstance(setup, str) else setup
    workdir = Path(workdir)
    config = setup_config(setup, workdir, rm_layout)
    if setup.reward_model and not NATIVE:
        reward_standins.register_classify_replica()
    with _file_logger(workdir / "metrics.jsonl"):
        result = run_fit(
            config,
            reward_fns={"reward_fn": user_reward_fn, "val_reward_fn": user_reward_fn} if setup.reward_fns else None,
            reward_model_worker=reward_standins.StubRewardModelWorker if setup.reward_model else None,
        )
    if result.error is not None:
        return result, None
    return result, record(result, setup, workdir)


# ----------------------------------------------------------------------------------- the record
def plain(value):
    """``value`` as JSON holds it: numpy to Python, floats to ``DIGITS`` decimals."""
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        return plain(value.item())
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, float):
        return round(value, DIGITS)
    return value


def rows_sorted(rows: list[dict]) -> list[dict]:
    return sorted(rows, key=lambda row: json.dumps(row, sort_keys=True))


def record(result, setup: Setup, workdir: Path) -> dict:
    """What the run gave: ``steps``, ``val`` and ``columns`` (see the module's docstring)."""
    executor = getattr(result.trainer, "_dump_executor", None)
    if executor is not None:
        executor.shutdown(wait=True)  # verl writes the dumps in a background thread (0.9)
    steps = {}
    for path in sorted((workdir / "rollout").glob("*.jsonl"), key=lambda p: int(p.stem)):
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        steps[path.stem] = rows_sorted([{k: plain(v) for k, v in row.items() if k != "step"} for row in rows])
    val: dict[str, dict] = {}
    gc.collect()  # verl closes (flushes) its file logger when fit()'s Tracking object is collected
    for line in (workdir / "metrics.jsonl").read_text().splitlines():
        entry = json.loads(line)
        logged = {k: plain(v) for k, v in entry["data"].items() if k.startswith("val-")}
        if logged:
            val.setdefault(str(entry["step"]), {}).update(logged)
    columns = {}
    for kind in setup.kinds:
        batches = recorded(workdir / "calls", kind)
        columns[kind] = {
            phase: [_columns_of(batch) for batch in batches.get(num_examine, [])]
            for phase, num_examine in (("train", 0), ("val", 1))
        }
    return {"steps": steps, "val": val, "columns": columns}


def _columns_of(batch) -> dict:
    """The non-tensor columns a batch carried: the names, and each row's values but the uid's."""
    columns = batch.non_tensor_batch
    rows = [{key: plain(values[i]) for key, values in columns.items() if key != "uid"} for i in range(len(batch))]
    return {"names": sorted(columns), "rows": rows_sorted(rows)}


# ----------------------------------------------------------------------------------- comparison
def differences(actual: dict, expected: dict) -> list[str]:
    """Where a run's record departs from old verl's: each expected row (restricted to its keys: a
    newer release may dump more) present as often, every validation metric old verl logged with its
    value, and every column old verl handed the old code present with the same values."""
    found = []
    for step, rows in expected["steps"].items():
        got = actual["steps"].get(step)
        if got is None:
            found.append(f"step {step}: no rollout dump")
            continue
        kept = rows_sorted([{k: row.get(k, "<missing>") for k in rows[0]} for row in got])
        if kept != rows:
            found.append(f"step {step} rows:\n  expected {rows}\n  got      {kept}")
    for step, metrics in expected["val"].items():
        got = actual["val"].get(step, {})
        wrong = {k: (v, got.get(k, "<missing>")) for k, v in metrics.items() if not _close(got.get(k), v)}
        if wrong:
            found.append(f"validation at step {step} (expected, got): {wrong}")
    for kind, phases in expected["columns"].items():
        for phase, calls in phases.items():
            got_calls = actual["columns"].get(kind, {}).get(phase, [])
            if len(got_calls) != len(calls):
                found.append(f"{kind} {phase}: {len(calls)} calls expected, {len(got_calls)} made")
                continue
            for i, (want, got) in enumerate(zip(calls, got_calls, strict=True)):
                missing = sorted(set(want["names"]) - set(got["names"]))
                if missing:
                    found.append(f"{kind} {phase} call {i + 1}: columns missing: {missing}")
                names = set(want["rows"][0]) & set(got["names"]) if want["rows"] else set()
                kept = rows_sorted([{k: row[k] for k in names} for row in got["rows"]])
                if kept != rows_sorted([{k: row[k] for k in names} for row in want["rows"]]):
                    found.append(f"{kind} {phase} call {i + 1} column values:\n  expected {want['rows']}\n  got {kept}")
    return found


def _close(got, want) -> bool:
    if isinstance(want, float) and isinstance(got, (int, float)):
        return abs(got - want) <= 10**-DIGITS * 10
    return got == want


def load() -> dict:
    return json.loads(DATA_FILE.read_text())
