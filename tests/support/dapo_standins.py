"""The generation stand-ins of the recipe-shaped DAPO fit (``recipe_dapo``): answers that differ
within a uid group, so that ``algorithm.filter_groups`` keeps some groups and drops others.

``standins`` answers each prompt the same way every time: every group of a prompt would score the
same, and DAPO's dynamic sampling (keep a group only where its metric varies) would drop them all.
Here the response is a pure function of the prompt and the sample's place in its group (the k-th
copy of that prompt in the generation call: rollouts get ``gen_batch.repeat(n, interleave=True)``,
so a group's copies are consecutive, and a call of whole groups sees each group whole; on 0.6.x
each actor rank gets a chunk of whole groups while the generation batch has an even number of
prompts). :data:`RIGHT` says which copies answer right; the length of each answer varies too
(``the answer is`` said once to three times), so DAPO's overlong penalty differs between samples.

Same answers on every release: 0.6.x generates in the actor workers (``DapoActor``, from the
prompt tokens), later releases in the agent loop (``DapoAgentLoopManager``, from the chat-templated
prompt); both decode to the same prompt text.
"""

from collections import Counter

from standins import EngineStyleActor, StubAgentLoopManager, operands

N = 2  # responses per prompt (actor_rollout_ref.rollout.n)
# TinyGSM8K row -> whether each of its N copies answers right. A group all right or all wrong has
# acc std 0 and is dropped; with 2 prompts per generation batch and 2 kept groups per step, the
# three steps need 2, 1 and 3 generation batches (the third wraps into the second epoch).
RIGHT = (
    (True, False),  # 0: kept
    (True, True),  # 1: dropped
    (False, True),  # 2: kept
    (True, False),  # 3: kept (one group more than step 1 needs: cut)
    (True, False),  # 4: kept
    (False, True),  # 5: kept
    (False, False),  # 6: dropped
    (True, True),  # 7: dropped
)


def respond(prompt_texts: list[str]) -> list[str]:
    """Each prompt's answer: right or off by one as :data:`RIGHT` says for its copy, after
    ``the answer is`` said 1 to 3 times (3 to 9 tokens more than the shortest answer)."""
    seen: Counter = Counter()
    texts = []
    for text in prompt_texts:
        k = seen[text]
        seen[text] += 1
        a, b = operands(text)
        row = a - 1
        answer = a + b + (not RIGHT[row][k % N])
        texts.append("the answer is " * (1 + (row + k) % 3) + f"#### {answer}")
    return texts


class DapoActor(EngineStyleActor):
    """The actor stand-in (0.6.x generates in it, ``rollout.mode=sync``) with :func:`respond`."""

    respond = staticmethod(respond)


class DapoAgentLoopManager(StubAgentLoopManager):
    """The agent loop stand-in (0.7+) with :func:`respond`."""

    respond = staticmethod(respond)
