"""What a user reads: the trainer warning, the math warning, and the stop."""

from __future__ import annotations

from .decide import Decision, Outcome
from .releases import DECLARE_ENV, DECLARE_KEY


def _pr(outcome: Outcome) -> str:
    return ", ".join(f"verl#{number}" for number in outcome.row.prs) or outcome.row.evidence


def line(outcome: Outcome) -> str:
    """One row as the warning and doctor say it: what was done, or what to write."""
    row = outcome.row
    if outcome.action == "set":
        return f"{outcome.written()} ({row.name}, {_pr(outcome)}): {row.note}"
    if outcome.action == "kept":
        return (
            f"{row.name} ({_pr(outcome)}): not restored, the launch sets {', '.join(outcome.kept)} itself: {row.note}"
        )
    if outcome.action == "stops":
        return f"{outcome.written()} ({row.name}, {_pr(outcome)}): stops the launch: {row.note}"
    if outcome.action == "holds" and row.fate == "restored":
        keys = " ".join(f"{key}={value}" for key, value in row.keys)
        return f"{row.name} ({_pr(outcome)}): {row.note} (declaring the release restores it: {keys})"
    return f"{row.name} ({_pr(outcome)}): {row.note}"


def trainer_warning(decision: Decision) -> str | None:
    """Where verl-compat chose the legacy trainer."""
    chosen = [o for o in decision.outcomes if o.row.name == "trainer.use_v1" and o.action == "set"]
    if not chosen:
        return None
    return (
        f"verl-compat: trainer.use_v1=false: this launch was written for verl {decision.launch.said()}; "
        "verl up to 0.8.0 ran the legacy trainer, this verl runs the V1 trainer by default (verl#6823, "
        "verl#6710), which trains differently (partial groups padded with synthetic rows when a rollout "
        "or reward call fails, trajectories in completion order, trainer.balance_batch ignored, "
        "REMAX/OTB/GDPO unsupported). "
        "verl-compat set trainer.use_v1=false, the legacy trainer (0.8.0's loop). "
        "Set trainer.use_v1=true to opt in to V1."
    )


def math_warning(decision: Decision) -> str | None:
    """One warning: the rows restored and named (release known), or those that hold for every
    release the launch may be from (release not known)."""
    rows = [o for o in decision.outcomes if o.row.name != "trainer.use_v1" and o.action != "stops"]
    if not rows:
        return None
    launch = decision.launch
    if launch.known:
        text = f"verl-compat: this launch was written for verl {launch.said()}; this verl computes differently:"
        groups = (
            ("restored at composition", [o for o in rows if o.action == "set" and o.row.fate != "patched"]),
            (
                "patched (its switch set at composition; the patch acts in the workers)",
                [o for o in rows if o.action == "set" and o.row.fate == "patched"],
            ),
            ("not restored (no key does it)", [o for o in rows if o.action != "set"]),
        )
        for heading, outcomes in groups:
            if outcomes:
                text += f"\n  {heading}:" + _listed(outcomes)
        text += (
            f"\n  `verl-compat migrate --release {launch.candidates[0]} <script>` writes the restoring keys; "
            f"declaring the installed release ({DECLARE_ENV}={launch.installed}) leaves the launch as verl composes it."
        )
        return text
    return (
        f"verl-compat: this launch may be written for verl {launch.said()}; for every one of them this "
        "verl computes differently:"
        + _listed(rows)
        + f"\n  Declare the release it was written for ({DECLARE_ENV}=0.6.1, or the override "
        f"+{DECLARE_KEY}=0.6.1) and verl-compat restores what keys can restore; declare "
        f"{launch.installed} to keep this verl's behaviour and silence this warning."
    )


def _listed(outcomes) -> str:
    return "".join(f"\n    {line(o)}" for o in outcomes)


def stop_message(decision: Decision) -> str:
    return (
        f"verl-compat: this launch (written for verl {decision.launch.said()}) asks for what the "
        f"trainer it runs on cannot do ({decision.trainer or 'this verl'}: {decision.trainer_why}):"
        + "".join(f"\n  {line(o)}" for o in decision.stops)
    )
