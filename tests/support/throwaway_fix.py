"""A fix that exists only in the test suite, written against the fix contract alone: it is the
measure of the contract (a new fix is a module and a registry line, nothing else in verl_compat).

It targets a real verl trainer method of its own (``RayPPOTrainer._start_profiling``, counted per
call) and uses the core's trainer hooks (``on_trainer_init``, ``after_step``), counted per trainer;
its doctor parts (``describe``, ``describe_trainer``) and ``state``/``reset`` can be made to fail,
and ``describe`` to answer with a misspelled key (``FAIL["misspelled"]``).
"""

from verl_compat import registry

NAME = "throwaway"
TARGETS = ("verl.trainer.ppo.ray_trainer",)
PATH = "RayPPOTrainer._start_profiling"

calls = {"start_profiling": 0, "init": 0, "step": 0}
FAIL = {"patches": False, "wrapper": False, "state": False, "reset": False, "describe": False, "misspelled": False}


def _count_start_profiling(wrapped, instance, args, kwargs):
    with registry.guard(NAME, "_start_profiling"):
        calls["start_profiling"] += 1
        if FAIL["wrapper"]:
            raise RuntimeError("injected fault in the throwaway wrapper")
    return wrapped(*args, **kwargs)


def patches(module):
    if FAIL["patches"]:
        raise RuntimeError("injected fault in the throwaway patches()")
    return registry.Plan((registry.Patch(PATH, _count_start_profiling, "count"),))


def on_trainer_init(trainer):
    calls["init"] += 1


def after_step(trainer):
    calls["step"] += 1


def describe(config):
    if FAIL["describe"]:
        raise RuntimeError("injected fault in the throwaway describe()")
    if FAIL["misspelled"]:
        return {"acts": False, "rows": [], "cannnot": ["what doctor must not miss"]}
    return {"acts": False, "rows": [("throwaway", "counts _start_profiling calls")], "cannot": []}


def describe_trainer(cls):
    return {"served": True, "why": None, "rows": [("throwaway", f"counts {cls.__name__}'s steps")]}


def state():
    if FAIL["state"]:
        raise RuntimeError("injected fault in the throwaway state()")
    return {"calls": dict(calls)}


def reset():
    for key in calls:
        calls[key] = 0
    if FAIL["reset"]:
        raise RuntimeError("injected fault in the throwaway reset()")
