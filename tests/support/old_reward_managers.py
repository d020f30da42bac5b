"""Reward code written against verl's OLD contract (verl <= 0.6), as users' repositories have it.

Importable in Ray worker processes (the harness puts this folder on their ``PYTHONPATH``). Each
manager records every batch it is called with (a pickle of the batch as received, before it scores)
under ``$VERL_COMPAT_TEST_CALL_LOG/old_rewards/`` when the harness runs, so that a test can call a
fresh instance on the very batch the trainer gave it.
"""

import os
import pickle
import time
import uuid
from collections import defaultdict
from pathlib import Path

import torch
from verl.workers.reward_manager.abstract import AbstractRewardManager

RECORD_ENV = "VERL_COMPAT_TEST_CALL_LOG"


def record(kind: str, num_examine: int, data) -> None:
    """Pickle ``data`` as received, beside the harness's call logs (flat: the harness empties that
    folder file by file), named so that the names sort in call order."""
    folder = os.environ.get(RECORD_ENV)
    if not folder:
        return
    name = f"old_rewards-{kind}-{num_examine}-{time.time_ns():020d}-{uuid.uuid4().hex[:8]}.pkl"
    with open(os.path.join(folder, name), "wb") as f:
        pickle.dump(data, f)


def recorded(folder, kind: str) -> dict[int, list]:
    """``num_examine -> [batch, ...]`` (in call order) recorded by managers of ``kind`` in a run's
    ``calls`` folder."""
    found: dict[int, list] = defaultdict(list)
    for path in sorted(Path(folder).glob(f"old_rewards-{kind}-*.pkl"), key=lambda p: p.name.split("-")[3]):
        with open(path, "rb") as f:
            found[int(path.name.split("-")[2])].append(pickle.load(f))
    return found


def compute_score(data_source, solution_str, ground_truth, extra_info=None, scale=1.0):
    """1 * scale when the last number of the response is the ground truth, else 0 (the reward function
    of ``old_reward_file.py``, defined here so that tests import it without registering anything)."""
    words = [w for w in solution_str.split() if w.isdigit()]
    return scale * float(bool(words) and words[-1] == str(ground_truth))


def compute_score_batch(data_sources, solution_strs, ground_truths, extra_infos, **kwargs):
    """The batched reward function verl's old ``BatchRewardManager`` calls (plural arguments)."""
    return [
        compute_score(*row, **kwargs)
        for row in zip(data_sources, solution_strs, ground_truths, extra_infos, strict=False)
    ]


def _decoded(tokenizer, row):
    prompt_length = row.batch["prompts"].shape[-1]
    valid = int(row.batch["attention_mask"][prompt_length:].sum())
    return tokenizer.decode(row.batch["responses"][:valid], skip_special_tokens=True), valid


class PerSampleRewardManager(AbstractRewardManager):
    """Old contract, independent per-row scores (like verl 0.6's NaiveRewardManager)."""

    KIND = "per_sample"

    def __init__(self, tokenizer, num_examine, compute_score=None, reward_fn_key="data_source", bonus=0.0):
        self.tokenizer, self.num_examine, self.compute_score = tokenizer, num_examine, compute_score
        self.reward_fn_key, self.bonus = reward_fn_key, bonus

    def __call__(self, data, return_dict=False):
        if "rm_scores" in data.batch.keys():  # noqa: SIM118 (a TensorDict)
            return data.batch["rm_scores"]
        record(self.KIND, self.num_examine, data)
        reward, extra = self._score_rows(data)
        return {"reward_tensor": reward, "reward_extra_info": dict(extra)} if return_dict else reward

    def _score_rows(self, data):
        reward = torch.zeros_like(data.batch["responses"], dtype=torch.float32)
        extra = defaultdict(list)
        for i in range(len(data)):
            row = data[i]
            text, valid = _decoded(self.tokenizer, row)
            score = self.compute_score(
                data_source=row.non_tensor_batch[self.reward_fn_key],
                solution_str=text,
                ground_truth=row.non_tensor_batch["reward_model"]["ground_truth"],
                extra_info=row.non_tensor_batch.get("extra_info"),
            )
            score = float(score["score"] if isinstance(score, dict) else score) + self.bonus
            reward[i, valid - 1] = score
            extra["acc"].append(score)
        return reward, extra


class GroupRewardManager(PerSampleRewardManager):
    """Old contract, needs the whole batch: each score depends on the other samples of its uid
    group (the group's size and the sample's place in it), and it writes ``group_acc`` into ``data.batch``."""

    KIND = "group"

    def __call__(self, data, return_dict=False):
        if "rm_scores" in data.batch.keys():  # noqa: SIM118 (a TensorDict)
            return data.batch["rm_scores"]
        record(self.KIND, self.num_examine, data)
        reward, extra = self._score_rows(data)
        seen: dict = defaultdict(int)
        uids = data.non_tensor_batch["uid"]
        sizes = {uid: int((uids == uid).sum()) for uid in set(uids.tolist())}
        group_bonus = []
        for i, uid in enumerate(uids.tolist()):
            bonus = 0.25 * sizes[uid] + 0.01 * seen[uid]
            seen[uid] += 1
            reward[i, _decoded(self.tokenizer, data[i])[1] - 1] += bonus
            group_bonus.append(bonus)
        data.batch["group_acc"] = torch.tensor(extra["acc"], dtype=torch.float32)
        extra["group_bonus"] = group_bonus
        return {"reward_tensor": reward, "reward_extra_info": dict(extra)} if return_dict else reward


def user_reward_fn(data, return_dict=False):
    """An old ``RayPPOTrainer(reward_fn=...)`` callable: 1.5 for each response of length > 3 tokens,
    else -1, at the last valid token; records what it gets."""
    record("reward_fn", 0 if not data.meta_info.get("validate") else 1, data)
    prompt_length = data.batch["prompts"].shape[-1]
    valid = data.batch["attention_mask"][:, prompt_length:].sum(-1)
    reward = torch.zeros_like(data.batch["responses"], dtype=torch.float32)
    for i in range(len(data)):
        reward[i, int(valid[i]) - 1] = 1.5 if int(valid[i]) > 3 else -1.0
    extra = {"length": valid.tolist()}
    return {"reward_tensor": reward, "reward_extra_info": extra} if return_dict else reward


def compute_score_by_source(data_source, solution_str, ground_truth, extra_info=None):
    """A reward function whose score says which ``data_source`` it was given (old verl's managers
    pass the ``data.reward_fn_key`` column there): the rule score, plus 0.5 for ``math``."""
    is_math = float(data_source == "math")
    return {"score": compute_score(data_source, solution_str, ground_truth) + 0.5 * is_math, "source_math": is_math}


class RewardModelPlusRuleManager(PerSampleRewardManager):
    """Old contract, the combination old verl's design asked for: the rule score plus the reward
    model's ``rm_scores`` already on the batch (0 where there are none)."""

    KIND = "rm_plus_rule"

    def __call__(self, data, return_dict=False):
        record(self.KIND, self.num_examine, data)
        reward, extra = self._score_rows(data)
        has_rm = "rm_scores" in data.batch.keys()  # noqa: SIM118 (a TensorDict)
        rm = data.batch["rm_scores"].float() if has_rm else torch.zeros_like(reward)
        extra["rule"], extra["rm"] = extra.pop("acc"), rm.sum(-1).tolist()
        reward = reward + rm
        return {"reward_tensor": reward, "reward_extra_info": dict(extra)} if return_dict else reward


class ColumnReadingManager(PerSampleRewardManager):
    """Old contract, reading the dataset's columns the way LLM-judge managers did: ``data_source``
    from ``reward_fn_key`` (a ``KeyError`` where the column is missing), ``.get("raw_prompt")`` and
    ``.get("index")`` (``None`` where missing), and the custom ``level`` column."""

    KIND = "columns"

    def __call__(self, data, return_dict=False):
        record(self.KIND, self.num_examine, data)
        reward, extra = self._score_rows(data)
        columns = data.non_tensor_batch
        for i in range(len(data)):
            index, raw_prompt, level = (columns.get(key) for key in ("index", "raw_prompt", "level"))
            extra["index_seen"].append(-1 if index is None else int(index[i]))
            extra["prompt_seen"].append(float(raw_prompt is not None))
            extra["level_seen"].append(-1 if level is None else int(level[i]))
            bonus = 0.01 * extra["index_seen"][i] + 0.1 * extra["prompt_seen"][i] + 0.001 * extra["level_seen"][i]
            reward[i, _decoded(self.tokenizer, data[i])[1] - 1] += bonus
        return {"reward_tensor": reward, "reward_extra_info": dict(extra)} if return_dict else reward
