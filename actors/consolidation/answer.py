"""What of a model's answer becomes the job's result: only what the turns support.

The model sees the scope's facts with their ids (``prompt.memory_block``)
and answers a summary, new facts, ``updates`` (a shown fact's id and its
new text) and ``deletes`` (ids). ``accept`` decides what of it stands:

- **New and replacing text is grounded in what the users said.** Every new
  fact (each sentence of it, as a fact of its own: ``grounding.sentences``)
  and every update's text must pass ``grounding.ground`` against the job's
  user turns: the assistant's words ("I'm sorry about Leo") are never a
  fact, whatever words of them a model copies;
  what fails is dropped and counted (``dropped``, ``update_ungrounded``).
  A replacement is cleaned as a new fact is (``truth.clean``: its opener
  and banter cut); one that is chatter ("Thanks, Carl!") is dropped and
  counted (``update_chatter``), so an update can never put what the merge
  would refuse into ``MEMORY.md``.
- **An update replaces its fact in place**: the lines before it stay as
  they were, so a prompt's cached prefix up to it holds. The new text is
  dated and sourced by the turns that hold its words (not the old fact's
  sources: a forget of the session that said the old value must not take
  the new one). An id that names no fact of the memory the job read is
  dropped and counted (``update_unknown``); a new text with the old one's
  words changes nothing.
- **Only what was offered may change, and only up to the caps.** The
  answer is cut to the schema's item bounds (``prompt.within_caps``:
  ``over_cap``), and an update or delete may name only a fact the job's
  turns are about (``revisable``, the ids the prompt listed in
  ``<may_change>``); another shown id is refused and counted
  (``update_refused``, ``delete_refused``). So a turn that tells the model
  to delete every fact reaches none of the facts it does not talk about.
- **A delete of an offered id is taken at its word.** The sentence that ends a
  fact rarely shares its words ("we ended things" ends "Tobias's
  girlfriend is Annika"), so no check on the turns could tell a good
  delete from a bad one; the fact is not lost (it goes to the history
  entry as ``retired``), and each delete is logged with the fact's text.
  An unknown id is dropped and counted (``delete_unknown``). Updates are
  applied first, in the answer's order, then deletes.
- **The model's facts join the extractive ones, never displace them.** The
  extractive facts of the same turns (``extractive.extractive_facts``, each
  with its opener for the merge to read) are added unless a model fact
  already says them: the same words (``fact_key``), a key in common
  (``attributes.keys``: the same subject and attribute), or every content
  word of the extractive fact in one model fact. So one grounded but empty
  model fact ("Nice to meet you, Carl!") costs the memory nothing it would
  have had without a model. Each claim is kept once, in the finer cut
  (``one_claim_each``): a model fact joining two extractive facts gives way
  to them, an extractive fact the model split gives way to its parts.
- **New facts enter through ``truth.merge``**, the one entry point that
  decides how new facts join ``MEMORY.md`` (chatter, repeats, facts
  superseded, corrected or retracted, the token cap), whichever path wrote
  them. The result's ``retired`` is what the updates replaced and the
  deletes removed, then what the merge retired; its ``facts`` (the history
  entry's) are what was actually added: the replacements the merge kept
  and the facts it appended.

Everything here depends only on its arguments.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reverie.store import Fact, MessageRecord, fact_id, fact_key, parse_memory, render_memory

from .attributes import keys
from .chatter import split_opener
from .claims import claims
from .extractive import extractive_facts, extractive_summary
from .grounding import content_stems, ground, ground_summary, sentences
from .ownership import named, owner, people, same_subject, same_turn
from .prompt import ModelAnswer, within_caps
from .result import ConsolidationResult
from .revisable import revisable_ids, said_by_users
from .third_person import DEFAULT_SPEAKER
from .truth import clean, merge

__all__ = [
    "ANSWER_COUNTS",
    "REVISIONS_DROPPED",
    "Accepted",
    "Revised",
    "accept",
    "restates",
    "revise",
]

log = logging.getLogger(__name__)

#: What ``accept`` counts, per job: the model's facts ``kept`` and ``dropped`` (not in the
#: turns), ``extractive`` facts added beside them, ``summary_dropped`` sentences, the fate
#: of its updates and deletes (``*_refused``: a shown fact the turns are not about), and
#: the facts, updates and deletes past the answer's bounds (``over_cap``).
ANSWER_COUNTS = (
    "kept",
    "dropped",
    "extractive",
    "summary_dropped",
    "updated",
    "update_unknown",
    "update_refused",
    "update_ungrounded",
    "update_chatter",
    "deleted",
    "delete_unknown",
    "delete_refused",
    "over_cap",
)
#: The revisions dropped, each with why (``revise``'s counts but ``updated`` and ``deleted``).
REVISIONS_DROPPED = (
    "update_unknown",
    "update_refused",
    "update_ungrounded",
    "update_chatter",
    "delete_unknown",
    "delete_refused",
)


@dataclass(slots=True)
class Revised:
    """The memory after a model's updates and deletes, and what they did."""

    memory: str
    replacements: list[Fact]  # the updates' new facts, in place
    retired: list[Fact]  # the facts they replaced or removed, as they were
    counts: dict[str, int]


def _normal_id(raw: str) -> str:
    """An id as the model wrote it (``#A1B2C3D4``, `` a1b2c3d4``), as ``fact_id`` writes it."""
    return raw.strip().lstrip("#").strip().casefold()


def _position(facts: Sequence[Fact], raw: str) -> int | None:
    wanted = _normal_id(raw)
    return next((i for i, f in enumerate(facts) if fact_id(f.text) == wanted), None)


def revise(
    answer: ModelAnswer, memory: str, turns: Sequence[MessageRecord], session: str
) -> Revised:
    """``memory`` with the answer's grounded updates and offered deletes applied."""
    facts, _ = parse_memory(memory)
    offered = revisable_ids(memory, turns)
    counts = dict.fromkeys(("updated", "deleted", *REVISIONS_DROPPED), 0)
    replacements: list[Fact] = []
    retired: list[Fact] = []
    users = said_by_users(turns)
    speakers = {t.name or DEFAULT_SPEAKER for t in users}
    for update in answer.updates:
        at = _position(facts, update.id)
        if at is None:
            counts["update_unknown"] += 1
            continue
        if fact_id(facts[at].text) not in offered:
            counts["update_refused"] += 1
            continue
        grounded = ground([update.text], users, session, new=False).facts
        if not grounded:
            counts["update_ungrounded"] += 1
            continue
        new = clean(grounded[0], speakers)[1]
        if new is None:
            counts["update_chatter"] += 1
            continue
        persons = people(speakers, facts)
        if owner(new.text, named(new.text, persons)) != owner(facts[at].text, persons):
            counts["update_refused"] += 1  # "Lerato moved to Cape Town" is no fact of Thandi's
            continue
        if fact_key(new.text) == fact_key(facts[at].text):
            continue  # the same words: nothing changed
        retired.append(facts[at])
        facts[at] = new
        replacements.append(new)
        counts["updated"] += 1
    for raw in answer.deletes:
        at = _position(facts, raw)
        if at is None:
            counts["delete_unknown"] += 1
            continue
        if fact_id(facts[at].text) not in offered:
            counts["delete_refused"] += 1
            continue
        gone = facts.pop(at)
        log.info(
            "the model deleted fact #%s: %r",
            fact_id(gone.text),
            gone.text,
            extra={"session": session},
        )
        retired.append(gone)
        counts["deleted"] += 1
    revised = render_memory(facts) if retired else memory
    return Revised(revised, replacements, retired, counts)


def restates(said: str, extracted: str) -> bool:
    """Whether the model's fact ``said`` already says the extractive fact ``extracted``."""
    if fact_key(said) == fact_key(extracted):
        return True
    theirs = keys(said)
    if any(
        a.attribute == b.attribute
        and same_subject(a.subject, b.subject)
        and a.value.casefold() == b.value.casefold()  # (another value is a change, not this)
        for a in keys(extracted)
        for b in theirs
    ):
        return True
    claims = content_stems(extracted)
    return bool(claims) and claims <= content_stems(said)


def one_claim_each(
    model: list[Fact], extracted: list[Fact], replacements: Sequence[Fact] = ()
) -> tuple[list[Fact], list[Fact]]:
    """The model's facts and the extractive facts of the same turns, each claim said once,
    in the finer of the two cuts (issue 59 item 1): a model fact whose words all come from
    two extractive facts of its turn, neither saying it alone, gives way to them
    ("Agnieszka is a vet nurse at Pazur, and they foster cats"), and an extractive fact the
    model said in two facts or more of its turn, all but a word or two, gives way to those
    ("plays cello in an orchestra, they say hobbies come up in interviews"); a model fact
    whose words one extractive fact of its turn all says gives way to it, so a claim is kept
    in the words its change will be matched against ("Tobias and Annika are planning …" lost
    "their girlfriend Annika" of the line a break-up retires), and one that names no one it
    is about is none ("Havstudio in Bergen.", "Breathe in,
    breathe out."); else an extractive fact a model fact
    already says (``restates``) is dropped. Kept twice, a claim's later change would retire
    one line and leave the other stale."""
    bodies = [split_opener(fact.text)[1] for fact in extracted]
    stems = [content_stems(body) for body in bodies]

    def compound(fact: Fact) -> bool:
        mine = content_stems(fact.text)
        parts = [
            s
            for e, s in zip(extracted, stems, strict=True)
            if same_turn(e, fact) and len(s & mine) > 1
        ]
        return len(parts) > 1 and mine <= set().union(*parts) and not any(mine <= s for s in parts)

    whole = [fact for fact in model if not compound(fact)]
    # (each part a claim of someone's, not a fragment: "Zentrix in Bengaluru.")
    claimed = [(m, content_stems(m.text)) for m in whole if _CLAIM.match(m.text)]

    # (an extractive fact the merge cuts into claims of its own is as fine: "… a sound engineer
    # at Havstudio in Bergen" is the trade, the employer and the place, each keyed)
    cut = {
        id(fact)
        for fact, body in zip(extracted, bodies, strict=True)
        if len(claims(Fact(text=body))) > 1
    }

    def finer(fact: Fact, words: set[str]) -> bool:
        parts = [part for m, part in claimed if same_turn(m, fact) and part and part <= words]
        return (
            id(fact) not in cut
            and len(parts) > 1
            and len(words - set().union(*parts)) <= _LEFT_OVER
        )

    def covered(fact: Fact) -> bool:
        mine = content_stems(fact.text)
        return bool(mine) and any(
            same_turn(e, fact) and mine <= s and not finer(e, s)
            for e, s in zip(extracted, stems, strict=True)
        )

    # (and a model fact that names no one it is about is no claim: "Breathe in, breathe out.")
    kept = [fact for fact in whole if _CLAIM.match(fact.text) and not covered(fact)]
    said = [f.text for f in (*kept, *replacements)]

    beside = [
        fact
        for fact, body, words in zip(extracted, bodies, stems, strict=True)
        if not any(restates(text, body) for text in said) and not finer(fact, words)
    ]
    return kept, beside


#: A fact that opens with whom it is about: a name that says something, or a pronoun.
_CLAIM = re.compile(r"^(?:(?:He|She|They|It)\b|[A-Z][\w'-]*(?:'s)? (?!in\b|at\b|on\b)[a-z])")
#: The words an extractive fact may say beyond the model facts that split it ("Outside work").
_LEFT_OVER = 2


@dataclass(slots=True)
class Accepted:
    """A job's result from a model's answer, and what the checks made of it (``ANSWER_COUNTS``)."""

    result: ConsolidationResult
    counts: dict[str, int]


def accept(
    answer: ModelAnswer,
    memory: str,
    turns: list[MessageRecord],
    session: str,
    *,
    max_tokens: int,
    count_tokens: Callable[[str], int],
) -> Accepted:
    """What of ``answer`` becomes the history entry and ``MEMORY.md``."""
    answer, over = within_caps(answer)
    users = said_by_users(turns)
    grounded = ground([s for fact in answer.facts for s in sentences(fact)], users, session)
    revised = revise(answer, memory, turns, session)
    model, beside = one_claim_each(
        grounded.facts, extractive_facts(turns, session, openers=True), revised.replacements
    )
    # in the order they were said: a later change supersedes, whichever path wrote it
    said_at = {turn.id: i for i, turn in enumerate(turns)}
    new = sorted(
        [*model, *beside],
        key=lambda f: max(
            (said_at.get(m, -1) for ids in f.sources.values() for m in ids), default=-1
        ),
    )
    merged = merge(revised.memory, new, max_tokens, count_tokens, turns=turns)
    gone = {f.text for f in merged.retired}
    replaced = {f.text for f in revised.replacements}
    kept = [f for f in revised.replacements if f.text not in gone]
    summary, cut = ground_summary(answer.summary, turns)
    result = ConsolidationResult(
        summary=summary or extractive_summary(turns),
        facts=[f.text for f in (*kept, *merged.added)],
        memory=merged.memory,
        retired=[*revised.retired, *(f for f in merged.retired if f.text not in replaced)],
    )
    counts = {
        "kept": len(model),  # (a model fact that gave way to the extractive claims is not)
        "dropped": grounded.dropped,
        "extractive": len(beside),
        "summary_dropped": cut,
        **revised.counts,
        "over_cap": over,
    }
    return Accepted(result, counts)
