"""The recipe-shaped DAPO fit, run the same way on every release, and what it gave step by step.

:func:`main_dapo_fit` does what verl 0.6.1's ``recipe/dapo/main_dapo.py`` did once its config was
composed: it builds the reward managers with the recipe's positional call,
``load_reward_manager(config, tokenizer, 0, max_resp_len=..., overlong_buffer_cfg=...)`` for
training and ``1`` for validation, and passes them to ``RayDAPOTrainer(reward_fn=..., val_reward_fn=...)``
(``recipe_dapo_trainer``), then ``init_workers()`` and ``fit()`` (the harness's CPU stand-ins; the
generation stand-ins of ``dapo_standins``).

The setup is the recipe's own: ``reward_model.reward_manager=dapo`` with the overlong buffer on,
GRPO, ``algorithm.filter_groups`` on ``acc``. The run is the same on every release: the prompts come
in the dataset's order (verl <= 0.6.0 shuffled them with a seed of 1 unless told, later releases
unseeded: ``data.shuffle=False``), and the responses are a pure function of the prompt and the
sample's place in its group.

:func:`record` is what ``tests/fits/test_old_reward_recipes.py`` compares, and what
``scripts/recipe_dapo_expected.py`` writes from verl 0.6.1's own run into :data:`EXPECTED`:

* ``validation``: ``{step: {metric: value}}``, the validation metrics of the reward the trainer
  logged (step 0: before training);
* ``steps``: ``{step: ...}``, for each training step: ``num_gen_batches`` (the generation batches
  filter_groups used), ``metrics`` (the score and reward metrics the trainer logged), ``groups`` (the
  uid groups the actor trained on: the prompt's dataset row and each sample's response and score,
  the uids themselves left out: they are random), and ``dump`` (verl's own
  ``trainer.rollout_data_dir`` rows of the step: prompt, response, score, and the reward extra info
  the recipe passed, that of the step's last generation batch: where filter_groups needed several,
  the recipe's own dump pairs it with other rows, on every release alike).

Floats are rounded to 6 decimals, so that the comparison is exact.
"""

import contextlib
import copy
import json
from collections import defaultdict
from pathlib import Path

from dapo_standins import DapoActor, N
from harness import FitResult, compose_config, run_fit
from omegaconf import OmegaConf
from recipe_dapo_trainer import RayDAPOTrainer
from verl.trainer.ppo.reward import load_reward_manager
from verl.utils import hf_tokenizer
from verl.utils.tracking import Tracking

EXPECTED = Path(__file__).resolve().parents[1] / "fits" / "data" / "recipe_dapo_v0_6_1.json"
# The metrics the comparison reads: scores, rewards, filter_groups, validation.
COMPARED_METRICS = ("critic/score/", "critic/rewards/", "train/num_gen_batches")


def dapo_overrides(workdir) -> list[str]:
    """The recipe's launch (``recipe/dapo/config/dapo_trainer.yaml`` and its test script's keys), on
    the harness's CPU config. ``++``: verl 0.6.1's ``ppo_trainer`` lacks ``algorithm.filter_groups``,
    ``data.gen_batch_size`` and ``reward_model.overlong_buffer`` (the recipe's YAML added them), 0.9.1
    has the first."""
    workdir = Path(workdir)
    return [
        "data.shuffle=False",
        "++data.gen_batch_size=2",
        f"actor_rollout_ref.rollout.n={N}",
        "algorithm.adv_estimator=grpo",
        "reward_model.reward_manager=dapo",
        "++reward_model.overlong_buffer.enable=True",
        "++reward_model.overlong_buffer.len=8",
        "++reward_model.overlong_buffer.penalty_factor=1.0",
        "++reward_model.overlong_buffer.log=False",  # True: 0.6.1 dumps crash on its tensors
        "++algorithm.filter_groups.enable=True",
        "++algorithm.filter_groups.metric=acc",
        "++algorithm.filter_groups.max_num_gen_batches=4",
        "++actor_rollout_ref.rollout.agent.agent_loop_manager_class=dapo_standins.DapoAgentLoopManager",
        "trainer.save_freq=-1",
        f"trainer.rollout_data_dir={workdir / 'rollout'}",
    ]


def main_dapo_fit(config) -> FitResult:
    """``main_dapo``'s reward managers and trainer, on the harness (see the module docstring)."""
    config = copy.deepcopy(config)
    OmegaConf.resolve(config)
    tokenizer = hf_tokenizer(config.actor_rollout_ref.model.path)
    reward_fn = load_reward_manager(
        config,
        tokenizer,
        0,
        max_resp_len=config.data.max_response_length,
        overlong_buffer_cfg=config.reward_model.overlong_buffer,
    )

    # Note that we always use function-based RM for validation
    val_reward_fn = load_reward_manager(
        config,
        tokenizer,
        1,
        max_resp_len=config.data.max_response_length,
        overlong_buffer_cfg=config.reward_model.overlong_buffer,
    )
    return run_fit(
        config,
        actor=DapoActor,
        trainer_cls=RayDAPOTrainer,
        reward_fns={"reward_fn": reward_fn, "val_reward_fn": val_reward_fn},
    )


@contextlib.contextmanager
def _logged_metrics():
    """Collect what the trainer's ``Tracking`` logger is given, as ``{step: {metric: value}}`` (the
    recipe's ``fit()`` builds its own logger; verl 0.6.1's file backend cannot write tensors)."""
    logged: dict = defaultdict(dict)
    original = Tracking.log

    def log(self, data, step, backend=None):
        logged[step].update({key: getattr(value, "item", lambda v=value: v)() for key, value in data.items()})
        return original(self, data, step, backend=backend)

    Tracking.log = log
    try:
        yield logged
    finally:
        Tracking.log = original


def run(workdir) -> dict:
    """Compose the recipe's config in ``workdir``, run :func:`main_dapo_fit`, and return its
    :func:`record` (raising the run's error)."""
    config = compose_config(dapo_overrides(workdir), workdir)
    with _logged_metrics() as logged:
        result = main_dapo_fit(config)
    return record(result, logged)


def _rounded(value):
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, dict):
        return {key: _rounded(v) for key, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


def _groups(actor_rows: list[dict], tokenizer) -> list[dict]:
    """The uid groups the actor trained on, in dataset-row order: ``{"row", "samples"}``, each
    sample ``[response, score]`` (decoded with its EOS token; the sum of its ``token_level_scores``),
    sorted."""
    by_uid = defaultdict(list)
    for row in actor_rows:
        by_uid[row["uid"]].append(row)
    groups = []
    for rows in by_uid.values():
        (prompt_row,) = {row["extra_info"]["index"] for row in rows}
        samples = sorted([tokenizer.decode(row["response_ids"]), sum(row["scores"])] for row in rows)
        groups.append({"row": prompt_row, "samples": samples})
    return sorted(groups, key=lambda group: group["row"])


def _is_validation_score(key: str) -> bool:
    """A validation metric of the reward (``val-core/<data source>/acc/mean@1``, ...); not the agent
    loop's turn count that 0.7+ adds (``val-aux/num_turns/*``)."""
    return key.startswith("val-") and not key.startswith("val-aux/num_turns/")


def record(result: FitResult, logged: dict) -> dict:
    """What the run gave, step by step (see the module docstring), from the fit's result and the
    metrics its trainer logged. Raises the run's error."""
    result.raise_error()
    executor = getattr(result.trainer, "_dump_executor", None)
    if executor is not None:
        executor.shutdown(wait=True)  # verl 0.9 writes the dumps in a background thread
    validation = {
        str(step): {key: value for key, value in metrics.items() if _is_validation_score(key)}
        for step, metrics in sorted(logged.items())
        if any(_is_validation_score(key) for key in metrics)
    }
    # Each update_actor call: one log line per actor rank with the rows that rank got.
    updates = defaultdict(list)
    for rank in result.calls.get("scores", []):
        for step, call in enumerate(rank, start=1):
            updates[step].extend(call["kwargs"]["rows"])
    rollout = Path(result.config.trainer.rollout_data_dir)
    tokenizer = hf_tokenizer(result.config.actor_rollout_ref.model.path)
    steps = {}
    for step in sorted(step for step in logged if step > 0):
        dump = [json.loads(line) for line in (rollout / f"{step}.jsonl").read_text().splitlines()]
        steps[str(step)] = {
            "num_gen_batches": logged[step]["train/num_gen_batches"],
            "metrics": {key: value for key, value in logged[step].items() if key.startswith(COMPARED_METRICS)},
            "groups": _groups(updates[step], tokenizer),
            "dump": [{key: value for key, value in row.items() if key != "step"} for row in dump],
        }
    return _rounded({"validation": validation, "steps": steps})
