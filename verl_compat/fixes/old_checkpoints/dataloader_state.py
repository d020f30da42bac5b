"""A ``data.pt`` saved by verl <= 0.6.x, resumed at the sample it stopped at.

verl saves the train loader's state (torchdata's ``StatefulDataLoader.state_dict()``) as
``global_step_N/data.pt`` and loads it in ``_load_checkpoint``. Up to 0.6.1 the loader sampled with
torch's ``RandomSampler``, whose state the loader keeps as ``{"samples_yielded": k}`` (at the top of
the state, or under ``_snapshot._main_snapshot`` with loader workers). verl 0.7.0 switched to
torchdata's own ``RandomSampler`` (verl#4156, ef44dcc72: 0.9.1 ``verl/trainer/ppo/utils.py``
``create_rl_sampler``), which restores only from its own state, ``sampler_iter_state =
{"yielded", "generator"}``; given the old one, it starts the epoch over: the run trains again on the
``k`` samples it had already seen, without a word.

verl 0.6.1, resuming its own ``data.pt``, drew the permutation from the sampler's new generator
(seeded as the launch says) and skipped ``k`` samples. The same on 0.7.0+: while verl's
``_load_checkpoint`` runs, its loader's ``load_state_dict`` gets the old state completed with the
new sampler's state, ``yielded=k`` and the generator as verl just seeded it, with one warning. The
file is not changed. Nothing happens for a state of the new kind, a loader whose sampler is not
torchdata's ``RandomSampler`` (0.6.x's own trainer; ``data.shuffle=false``), or a sampler without a
generator.
"""

from __future__ import annotations

import copy

from ... import deprecation, registry

NAME = registry.fix_name(__name__)
OLD_KEY = "samples_yielded"  # torch's RandomSampler, as the loader keeps it
NEW_KEY = "sampler_iter_state"  # torchdata's RandomSampler (0.7.0+)


# --- decide -----------------------------------------------------------------------------------


def _sampler_states(state) -> list[dict]:
    """The ``_sampler_iter_state`` dicts of a loader state: at the top (no loader workers) and under
    ``_snapshot._main_snapshot`` (with workers)."""
    found = []
    if isinstance(state, dict):
        for holder in (state, (state.get("_snapshot") or {}).get("_main_snapshot")):
            inner = holder.get("_sampler_iter_state") if isinstance(holder, dict) else None
            if isinstance(inner, dict):
                found.append(inner)
    return found


def old_position(state) -> int | None:
    """How many samples of the epoch an old (torch ``RandomSampler``) loader state had served;
    None for a state of another kind."""
    for inner in _sampler_states(state):
        if OLD_KEY in inner and NEW_KEY not in inner and isinstance(inner[OLD_KEY], int):
            return inner[OLD_KEY]
    return None


def new_sampler_generator(loader):
    """The generator of ``loader``'s sampler where it is torchdata's ``RandomSampler`` (which
    restores from ``{"yielded", "generator"}``); None otherwise."""
    try:
        from torchdata.stateful_dataloader.sampler import RandomSampler
    except ImportError:
        return None
    sampler = getattr(loader, "sampler", None)
    return sampler.generator if isinstance(sampler, RandomSampler) else None


def upgraded(state, generator):
    """``state`` with each old sampler state completed as the new sampler reads it: ``yielded`` and
    ``generator`` (the generator's state now, before the loader has drawn from it)."""
    state = copy.deepcopy(state)
    for inner in _sampler_states(state):
        if OLD_KEY in inner and NEW_KEY not in inner:
            inner[NEW_KEY] = {"yielded": inner[OLD_KEY], "generator": generator.get_state()}
    return state


def warning(position: int) -> str:
    return (
        f"verl-compat: this checkpoint's data.pt was saved by verl <= 0.6.x, whose sampler (torch's "
        f"RandomSampler) had served {position} samples of the epoch; this verl's sampler (torchdata's, "
        "verl#4156) cannot read that state and would start the epoch over, training again on them. "
        f"verl-compat resumes at sample {position}, as verl 0.6.x resumed (the same permutation of the "
        "seeded sampler); data.pt is unchanged."
    )


# --- patch ------------------------------------------------------------------------------------


def _upgrading(original, generator):
    """``loader.load_state_dict`` that completes an old state first."""

    def load_state_dict(state_dict, *args, **kwargs):
        with registry.guard(NAME, "data.pt"):
            position = old_position(state_dict)
            if position is not None:
                state_dict = upgraded(state_dict, generator)
                deprecation.warn_once(f"{NAME}:data.pt", warning(position))
        return original(state_dict, *args, **kwargs)

    return load_state_dict


def _load_checkpoint(wrapped, instance, args, kwargs):
    """verl's ``_load_checkpoint``, with its train loader reading an old ``data.pt`` as 0.6.x did."""
    loader, shadowed = None, False
    with registry.guard(NAME, "_load_checkpoint"):
        loader = getattr(instance, "train_dataloader", None)
        generator = new_sampler_generator(loader)
        if generator is not None and "load_state_dict" not in vars(loader):
            loader.load_state_dict = _upgrading(loader.load_state_dict, generator)
            shadowed = True
    try:
        return wrapped(*args, **kwargs)
    finally:
        if shadowed:
            with registry.guard(NAME, "_load_checkpoint"):
                del loader.load_state_dict


def patches_for(module) -> list[registry.Patch]:
    """verl's trainers' ``_load_checkpoint``: the legacy trainer's (``RayPPOTrainer``) and V1's
    (``PPOTrainer``), each where the module has it."""
    why = "resume an old (verl <= 0.6.x) data.pt at its sample, as verl 0.6.x did (verl#4156)"
    found = {name: getattr(module, name, None) for name in ("RayPPOTrainer", "PPOTrainer")}
    return [
        registry.Patch(f"{name}._load_checkpoint", _load_checkpoint, why)
        for name, cls in found.items()
        # the class the module defines (not one it imports: that module's own plan wraps it)
        if isinstance(cls, type) and cls.__module__ == module.__name__ and "_load_checkpoint" in vars(cls)
    ]
