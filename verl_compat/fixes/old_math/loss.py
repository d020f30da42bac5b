"""The loss normalisation of the legacy FSDP workers (verl <=0.7.1), on 0.9.1's engine path.

verl#6067 (0.8.0) removed the legacy ``dp_actor``/``dp_critic``. There, ``loss_agg_mode=token-mean``
(the default) took each micro-batch's token mean and scaled it by ``1/GA`` (GA = micro-batches per
rank per mini-batch; with ``use_dynamic_bsz``, by ``n_seq/mini``: the micro-batch's sequences over
the rank's mini-batch size), and FSDP averaged the gradients over the DP ranks: a token of
micro-batch ``m`` weighed ``(n_seq_m/n_rank) / (N_m + 1e-8) / dp`` (0.7.1
``workers/actor/dp_actor.py:581-585``, ``workers/critic/dp_critic.py:239-245``). 0.9.1 divides
every micro-batch by the mini-batch's token count over all DP ranks (``batch_num_tokens``,
all-reduced in ``workers/engine/fsdp/transformer_impl.py:729-735``), so every token weighs
``1/N_global``; the critic followed in verl#6957 (0.9.0).

0.9.1's token-mean loss is linear in ``dp_size/batch_num_tokens`` (every term of ``ppo_loss``, the
policy, entropy and KL losses alike, and ``value_loss`` go through ``agg_loss`` with the same
``global_batch_info``), so one factor per micro-batch, taken from the micro-batch verl hands its loss
function, gives back the old weights: ``batch_num_tokens / dp_size * (n_seq_m/n_rank) / (N_m + 1e-8)``,
with ``n_rank = global_batch_size / dp_size`` (the trainer's ``ppo_mini_batch_size × rollout.n``, the
old worker's normalised ``ppo_mini_batch_size`` times dp). The reported metrics stay 0.9.1's; only
the loss that is back-propagated is scaled.

Reads **decide** (which configs, pure) → **scale** (the factor) → **patch** (the wrappers).
"""

from __future__ import annotations

import functools
import os

from ... import registry
from ...configs import needs_critic, select

NAME = registry.fix_name(__name__)
LOSSES_MODULE = "verl.workers.utils.losses"  # 0.8.0+: ppo_loss and value_loss of the engine workers

# Set to "1" in a run's workers (the job's ``ray_kwargs.ray_init.runtime_env.env_vars``) when the
# launch was written for the legacy workers: the wrappers act only then.
ENV = "VERL_COMPAT_OLD_LOSS_NORMALISATION"

FSDP_STRATEGIES = ("fsdp", "fsdp2")
# Policy losses proven equal to the old release's (tests/fixes/old_math/test_loss.py); the others
# aggregate through agg_loss too, but no test compares them.
POLICY_LOSS_MODES = ("vanilla",)


# --- decide -----------------------------------------------------------------------------------


def actor_in_scope(actor) -> bool:
    """An actor (the composed ``actor_rollout_ref.actor`` or the worker's ``ActorConfig``) whose
    loss the legacy FSDP actor normalised per micro-batch and this patch restores."""
    loss_mode = select(actor, "policy_loss.loss_mode") or "vanilla"
    return (
        select(actor, "strategy") in FSDP_STRATEGIES
        and (select(actor, "loss_agg_mode") or "token-mean") == "token-mean"
        and loss_mode in POLICY_LOSS_MODES
    )


def critic_in_scope(critic) -> bool:
    """A critic (``critic`` or the worker's ``CriticConfig``) the legacy FSDP critic normalised per
    micro-batch."""
    return (
        select(critic, "strategy") in FSDP_STRATEGIES
        and (select(critic, "loss_agg_mode") or "token-mean") == "token-mean"
    )


def applies(config) -> bool:
    """Whether a composed ``ppo_trainer`` config of a launch written for verl <=0.7.1 trains an
    actor or a critic whose loss the legacy FSDP workers normalised per micro-batch (token-mean on
    FSDP). Which releases a launch may be from is the caller's question: the legacy workers were
    the default up to 0.7.1 (``trainer.use_legacy_worker_impl=auto``); a launch that chose the
    engine workers there (``disable``) already had 0.9.1's normalisation."""
    if select(config, "trainer.use_legacy_worker_impl") == "disable":
        return False
    if select(config, "distillation.enabled"):
        return False  # no legacy worker distilled: a launch that sets it is not an old one
    actor = select(config, "actor_rollout_ref.actor")
    critic = select(config, "critic")
    return bool(actor is not None and actor_in_scope(actor)) or bool(
        critic is not None and needs_critic(config) and critic_in_scope(critic)
    )


def wanted(role: str | None = None) -> bool:
    """Whether this process's run asked for the old normalisation: of every loss (``ENV=1``), or of
    one role's (``ENV_ACTOR=1``, ``ENV_CRITIC=1``: the table's rows set these per role)."""
    return os.environ.get(ENV) == "1" or (role is not None and os.environ.get(f"{ENV}_{role.upper()}") == "1")


# --- scale ------------------------------------------------------------------------------------


def legacy_factor(data, batch_info=None) -> float:
    """What turns 0.9.1's token-mean loss of micro-batch ``data`` (the TensorDict verl passes a
    loss function) into the legacy worker's: ``batch_num_tokens / dp_size`` undoes 0.9.1's global
    mean, ``(n_seq/n_rank) / (N + 1e-8)`` is the old ``masked_mean × loss_scale_factor``.
    ``batch_info``: the same three numbers as a dict, where the loss left them in its config
    (``ppo_loss``'s ``global_batch_info``): a TensorDict's non-tensor lookup costs ~15 µs each."""
    info = batch_info or {key: data[key] for key in ("dp_size", "batch_num_tokens", "global_batch_size")}
    dp_size = info["dp_size"]
    mask = data["response_mask"]
    tokens = (mask.values() if mask.is_nested else mask).sum().item()
    sequences = mask.size(0)
    rank_sequences = info["global_batch_size"] / dp_size
    return info["batch_num_tokens"] / dp_size * (sequences / rank_sequences) / (tokens + 1e-8)


# --- patch ------------------------------------------------------------------------------------


def _loss_config_and_data(args, kwargs):
    """``(config, data)`` of a call ``ppo_loss(config, model_output, data, dp_group=None)`` (or
    ``value_loss``, the same shape), however verl passes them (a ``functools.partial`` binds
    ``config`` by keyword)."""
    config = kwargs["config"] if "config" in kwargs else args[0]
    data = kwargs["data"] if "data" in kwargs else args[2 - ("config" in kwargs)]
    return config, data


@functools.cache
def _wrapper(in_scope, role: str):
    """One wrapper per loss (cached: the same module gets an equal plan each time it is asked)."""

    def wrapper(wrapped, instance, args, kwargs):
        loss, metrics = wrapped(*args, **kwargs)
        if not wanted(role):
            return loss, metrics
        with registry.guard(NAME, wrapped.__name__):
            config, data = _loss_config_and_data(args, kwargs)
            if in_scope(config):
                return loss * legacy_factor(data, getattr(config, "global_batch_info", None)), metrics
        return loss, metrics

    return wrapper


def patches_for(module) -> list[registry.Patch]:
    """The patches for 0.9.1's ``verl.workers.utils.losses`` (``module``): its ``ppo_loss`` and
    ``value_loss``, each where the module has it."""
    found = [
        ("ppo_loss", actor_in_scope, "actor token-mean normalised per micro-batch × 1/GA, as verl <=0.7.1 (verl#6067)"),
        (
            "value_loss",
            critic_in_scope,
            "critic token-mean normalised per micro-batch × 1/GA, as verl <=0.7.1 (verl#6067, verl#6957)",
        ),
    ]
    roles = {"ppo_loss": "actor", "value_loss": "critic"}
    return [
        registry.Patch(name, _wrapper(in_scope, roles[name]), why)
        for name, in_scope, why in found
        if hasattr(module, name)
    ]
