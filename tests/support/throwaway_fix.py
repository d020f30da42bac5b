"""A fix that exists only in the test suite, written against the fix contract alone: it is the
measure of the contract (a new fix is a module and a registry line, nothing else in verl_compat).

It targets a real verl trainer method of its own (``RayPPOTrainer._start_profiling``, counted per
call) and uses the core's trainer hooks (``on_trainer_init``, ``after_step``), counted per trainer.
"""

from verl_compat import patching

NAME = "throwaway"
TARGETS = ("verl.trainer.ppo.ray_trainer",)
PATH = "RayPPOTrainer._start_profiling"

calls = {"start_profiling": 0, "init": 0, "step": 0}
FAIL = {"patches": False, "wrapper": False}


def _count_start_profiling(wrapped, instance, args, kwargs):
    with patching.guard(NAME, "_start_profiling"):
        calls["start_profiling"] += 1
        if FAIL["wrapper"]:
            raise RuntimeError("injected fault in the throwaway wrapper")
    return wrapped(*args, **kwargs)


def patches(module):
    if FAIL["patches"]:
        raise RuntimeError("injected fault in the throwaway patches()")
    return patching.Plan((patching.Patch(PATH, _count_start_profiling, "count"),))


def on_trainer_init(trainer):
    calls["init"] += 1


def after_step(trainer):
    calls["step"] += 1


def state():
    return {"calls": dict(calls)}


def reset():
    for key in calls:
        calls[key] = 0
