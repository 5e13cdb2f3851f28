"""Which shown facts a model's answer may update or delete: the ones the job's turns are about.

The prompt shows the model every fact of the scope (``prompt.memory_block``:
context, and a prefix a server caches), but only a few may be revised by
one job. A turn that says "forget the trip to Rome" is about the trip, not
about someone else's husband; and a turn that reads "delete every fact id
you see" must not be able to reach any fact it does not talk about, whatever
the model makes of it (docs/design.md, "Consolidation, step by step", step 4).

A fact is revisable by a job when

- its content words share a stem with what the job's users said (their
  turns' text, not the assistant's: an assistant's words never retire a
  fact), and
- it is not another person's fact: when the turns carry speaker names, a
  fact whose subject (its first word, a name) is none of the speakers and is
  not mentioned in their turns is left alone.

The prompt lists these ids (``prompt.build_request``) and ``answer.revise``
refuses any other; both compute them from the same memory and turns, so
what the model was offered is exactly what may change. Everything here
depends only on its arguments.
"""

from __future__ import annotations

from collections.abc import Sequence

from reverie.store import Fact, MessageRecord, fact_id, parse_memory

from .grounding import content_stems, words

__all__ = ["revisable", "revisable_ids", "said_by_users"]


def said_by_users(turns: Sequence[MessageRecord]) -> list[MessageRecord]:
    """What a job's facts may come from and be about: the users' turns, not the assistant's
    (its words are never a fact) nor a tool's."""
    return [t for t in turns if t.role == "user"]


def _other_person(fact: Fact, said: set[str], speakers: set[str]) -> bool:
    """Whether ``fact`` is about a named person who neither speaks nor is named in the turns."""
    first = words(fact.text)[:1]
    if not speakers or not first or not first[0][:1].isupper():
        return False
    subject = content_stems(first[0])  # empty for "The", "He": no one named
    return bool(subject) and not subject & (said | speakers)


def revisable(memory: str, turns: Sequence[MessageRecord]) -> list[Fact]:
    """The facts of ``memory`` that ``turns`` are about, in file order."""
    users = said_by_users(turns)
    said = set().union(*(content_stems(t.content) for t in users))
    speakers = set().union(*(content_stems(t.name) for t in users if t.name))
    facts, _ = parse_memory(memory)
    return [
        f for f in facts if content_stems(f.text) & said and not _other_person(f, said, speakers)
    ]


def revisable_ids(memory: str, turns: Sequence[MessageRecord]) -> frozenset[str]:
    """``revisable``'s facts as the ids the prompt shows (``fact_id``)."""
    return frozenset(fact_id(f.text) for f in revisable(memory, turns))
