#!/usr/bin/env python3
"""Does the suite still catch the bugs it exists to catch? Each mutant breaks one promise of
verl-compat in the copy installed in a test environment, runs the tests that should notice, and
expects them to fail; the file is put back byte for byte (and its time, so its bytecode stays valid).

    scripts/mutants.py                 # every mutant, in the environment each names
    scripts/mutants.py finish-hook     # one by name

Run it after a change to the tests' structure (shared fits, moved tests, markers): a mutant that
survives is a promise no test checks any more. Exit status 1 when one survives.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclasses.dataclass(frozen=True)
class Mutant:
    name: str
    module: str  # the file, relative to the installed verl_compat package
    old: str  # the text the mutant replaces (exactly once)
    new: str
    tests: tuple[str, ...]  # pytest node ids or paths, with -k expressions after "-k"
    environment: str = "0.9.1"
    # Text the failing run must print: which check caught the mutant, where that is the point.
    caught_by: str = ""


MUTANTS = (
    Mutant(
        "old-imports-moved-target-changed",
        "fixes/old_imports/table.py",
        '("verl.trainer.main_ppo:create_rl_sampler", "moved", "verl.trainer.ppo.utils:create_rl_sampler")',
        '("verl.trainer.main_ppo:create_rl_sampler", "moved", "verl.trainer.ppo.utils:create_rl_samplerX")',
        ("tests/fixes/test_tables_hold.py", "-k", "create_rl_sampler"),
        caught_by="test_old_imports_row_holds[verl.trainer.main_ppo:create_rl_sampler]",
    ),
    Mutant(
        "config-keys-successor-renamed",
        "fixes/config_keys/table.py",
        '("trainer.profile_steps", "moved", "global_profiler.steps")',
        '("trainer.profile_steps", "moved", "global_profiler.stepz")',
        ("tests/fixes/test_tables_hold.py", "-k", "trainer.profile_steps"),
        caught_by="test_config_keys_row_holds[trainer.profile_steps]",
    ),
    Mutant(
        "finish-hook-every-step",
        "fixes/torch_memory/runtime.py",
        'stop: dict[str, object] = {"run_command": is_last} if takes_run_command else {}',
        'stop: dict[str, object] = {"run_command": True} if takes_run_command else {}',
        ("tests/fits/test_torch_memory.py", "-k", "test_legacy_key_engine_workers"),
    ),
    Mutant(
        "neutralisation-removed",
        "fixes/torch_memory/runtime.py",
        "    for worker_group in _worker_groups(trainer):\n        with _neutralised_lock:",
        "    for worker_group in ():\n        with _neutralised_lock:",
        ("tests/fits/test_user_trainers.py", "-k", "harmless and in_fit"),
    ),
    Mutant(
        "config-keys-chain-not-followed",
        "fixes/config_keys/translate.py",
        "    for _ in range(len(rows)):\n        if probe.has_key(new_key):",
        "    for _ in range(0):\n        if probe.has_key(new_key):",
        ("tests/fixes/config_keys/test_translate.py",),
    ),
    Mutant(
        "legacy-reward-key-left-unread",
        "fixes/config_keys/translate.py",
        "        return probe.has_key(row.reader.home) and not probe.calls(row.reader.entry, row.reader.function)",
        "        return False",
        ("tests/fixes/config_keys/test_compose_unread.py",),
    ),
    # The driver pass calls an old-contract manager one sample at a time: a manager that reads its
    # uid group computes another reward.
    Mutant(
        "old-reward-manager-called-per-sample",
        "fixes/old_rewards/driver.py",
        "        reward_tensor, extra = score(scorer, batch, validate)\n",
        "        import torch\n"
        "        parts = [score(scorer, batch[i : i + 1], validate) for i in range(len(batch))]\n"
        "        reward_tensor = torch.cat([part[0] for part in parts])\n"
        "        extra = {key: [v for part in parts for v in part[1][key]] for key in parts[0][1]}\n",
        (
            "tests/fits/test_old_rewards.py",
            "tests/fixes/old_rewards/test_managers.py",
            "-k",
            "custom_reward_file or batch_manager_needs_the_batch",
        ),
    ),
    # A reward model's rm_scores taken off the step batch before the old manager runs, as round 1 did:
    # old verl gave them to it (its managers return or combine them).
    Mutant(
        "reward-model-scores-stripped",
        "fixes/old_rewards/driver.py",
        "    if not driver_rewards.strip_placeholder(batch) and validate and",
        "    if not driver_rewards.strip_placeholder(batch) and",
        ("tests/fixes/old_rewards/test_old_batch.py", "-k", "reward_models_scores"),
        caught_by="test_a_reward_models_scores_reach_the_old_manager",
    ),
    # The sandbox's keywords dropped from compute_score: code data sources run in the trainer.
    Mutant(
        "sandbox-kwargs-dropped",
        "fixes/old_rewards/contract.py",
        "    if not url:\n        return default_compute_score\n",
        "    if url or not url:\n        return default_compute_score\n",
        ("tests/fixes/old_rewards/test_sandbox.py",),
    ),
    # The placeholder rm_scores reach an old fit() loop's compute_reward: all-zero rewards.
    Mutant(
        "placeholder-leaks-into-compute-reward",
        "fixes/old_imports/backports.py",
        "    driver_rewards.strip_placeholder(data)\n    driver_rewards.note_scored()\n    try:",
        "    driver_rewards.note_scored()\n    try:",
        ("tests/fixes/old_rewards/test_old_batch.py", "-k", "compute_reward_never_sees_the_placeholder"),
        caught_by="test_compute_reward_never_sees_the_placeholder",
    ),
    # The dataset's columns left off the step batch (verl 0.7.1+'s _get_gen_batch moved them).
    Mutant(
        "dataset-columns-not-restored",
        "fixes/old_rewards/driver.py",
        "    put = _restore_columns(batch)\n",
        "    put: dict = {}\n",
        ("tests/fixes/old_rewards/test_old_batch.py", "-k", "dataset_columns"),
        caught_by="test_the_dataset_columns_reach_the_old_manager",
    ),
    # RayPPOTrainer(reward_fn=...) dropped, as before the old_rewards fix: verl's reward loop scores.
    Mutant(
        "users-reward-fn-dropped",
        "fixes/old_rewards/trainer_args.py",
        "            kept = {key: kwargs[key] for key in KEYWORDS if kwargs.get(key) is not None}\n",
        "            kept = {}\n",
        ("tests/fits/test_old_rewards.py", "tests/fixes/old_rewards/test_stops.py", "-k", "reward_fn"),
    ),
    Mutant(
        "dropped-key-without-warning",
        "fixes/config_keys/compose.py",
        "        if finding not in stops:\n",
        '        if finding not in stops and finding.row.fate != "dropped":\n',
        ("tests/fixes/config_keys/test_compose.py", "tests/fits/test_config_keys.py"),
    ),
    # The legacy loss without its 1/GA (n_seq/mini): each micro-batch's token mean counted whole.
    Mutant(
        "old-loss-without-1-over-ga",
        "fixes/old_math/loss.py",
        "* (sequences / rank_sequences) ",
        "",
        ("tests/fixes/old_math/test_loss.py", "-k", "patched_equals and micro2"),
    ),
    # An error in a fix's own logic after its work is done: fail-open swallows it and the run's
    # snapshots are all there, so the test body passes; tests/conftest.py's no_swallowed_errors
    # must fail it ("1 passed, 1 error": the error is the fixture's, at teardown).
    Mutant(
        "error-swallowed-by-fail-open",
        "fixes/torch_memory/__init__.py",
        "        runtime.drive_actor_profiler(trainer)\n",
        '        runtime.drive_actor_profiler(trainer)\n    raise RuntimeError("mutant: after the work")\n',
        ("tests/fits/test_torch_memory.py", "-k", "test_legacy_key_engine_workers"),
        caught_by="fail-open guard swallowed errors this test did not expect",
    ),
)


def installed_package(environment: str) -> Path:
    python = REPO / ".venvs" / f"verl-{environment}" / "bin" / "python"
    code = "import pathlib, verl_compat; print(pathlib.Path(verl_compat.__file__).parent)"
    # -P and cwd="/": the checkout's own verl_compat must not shadow the installed one.
    found = subprocess.run([python, "-P", "-c", code], cwd="/", capture_output=True, text=True, check=True)
    path = Path(found.stdout.strip())
    if path == REPO / "verl_compat":
        raise SystemExit(f"{environment}: verl_compat imports from the checkout ({path}), not an installed copy")
    return path


def run(mutant: Mutant) -> bool:
    """True when the tests fail with the mutant in place (the mutant is killed)."""
    path = installed_package(mutant.environment) / mutant.module
    original, times = path.read_bytes(), os.stat(path)
    text = original.decode()
    if text.count(mutant.old) != 1:
        raise SystemExit(f"{mutant.name}: the text to replace is not in {path} exactly once; update the mutant")
    path.write_text(text.replace(mutant.old, mutant.new))
    try:
        env = dict(os.environ, VERL_COMPAT_TEST_ENV=mutant.environment, VERL_COMPAT_TEST_NEWEST=mutant.environment)
        pytest = REPO / ".venvs" / f"verl-{mutant.environment}" / "bin" / "pytest"
        result = subprocess.run(
            [pytest, "-q", "-x", "-p", "no:warnings", *mutant.tests], cwd=REPO, env=env, capture_output=True, text=True
        )
    finally:
        path.write_bytes(original)
        os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))
    counts = [line for line in result.stdout.splitlines() if re.search(r"\d+ (passed|failed|errors?)\b", line)]
    summary = (counts or ["(no pytest summary)"])[-1].strip()
    killed = result.returncode == 1  # tests failed (2-5: usage or collection errors prove nothing)
    if mutant.caught_by and mutant.caught_by not in result.stdout:
        killed = False  # failed, but not by the check this mutant is for
    print(f"{'killed  ' if killed else 'SURVIVED'} {mutant.name}: {summary}")
    return killed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="mutants to run (default: all)")
    args = parser.parse_args()
    chosen = [m for m in MUTANTS if not args.names or m.name in args.names]
    passed = [run(mutant) for mutant in chosen]  # every mutant runs, not only up to the first failure
    return 0 if all(passed) else 1


if __name__ == "__main__":
    sys.exit(main())
