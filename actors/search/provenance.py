"""A summary found by a search leads to its turns.

A consolidated episode or a ``MEMORY.md`` fact may match a question that its
turns' own words and meaning rank below many others: the summary says
"booked the flights to Lisbon", the turn "got the tickets, we leave on the
14th!". The turns stay in the log, and the host usually wants them (their
exact words and time). So each episode or fact among a search's first ``k``
hits brings its best ``TURNS_PER_SUMMARY`` covered messages to it: ranked
among the messages it covers alone, by the search's own signals and
weights, then given the summary's score (their ``words`` and ``meaning``
stay their own; ``via`` names the summary). An episode's turns come right
before it (the search then moves an episode after every other message of
its own it found: ``specific_first``); a fact's right after it, since the
fact is what stands now and its turns are what it was learned from
(``currency``). A turn already ranked above the summary stays where it is;
one ranked below it moves up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from reverie.store import (
    GroupCommit,
    LiveIndex,
    MemoryStore,
    MemoryUnreadable,
    SearchHit,
    Tx,
    fact_sources,
    fuse,
    on_words_scale,
)

__all__ = ["TURNS_PER_SUMMARY", "lead_to_turns"]

#: Covered messages each summary hit brings before it, at most.
TURNS_PER_SUMMARY = 2
#: Summary hits that lead to their turns, the best first; the ones after bring none.
_SUMMARIES = 10


async def lead_to_turns(
    db: GroupCommit[Any],
    index: LiveIndex,
    memory: MemoryStore,
    text: str,
    hits: list[SearchHit],
    *,
    weights: tuple[float, float],
    top: int,
    since: float | None = None,
    until: float | None = None,
) -> list[SearchHit]:
    """``hits`` with the best turns of each summary among the first ``top`` brought to it.

    ``text`` is the checked query and ``weights`` the words' and meaning's
    weights the search fused with; turns outside ``since <= ts < until`` are
    not brought, nor any past ``MAX_COVERED`` (``covered_messages``).
    """
    summaries = [h for h in hits[:top] if h.kind != "message" and h.message_ids][:_SUMMARIES]
    if not summaries:
        return hits
    memory_files: dict[str, str] = {}  # scope -> its MEMORY.md, read once per search
    named = {h.uid: await _sources(memory, memory_files, h) for h in summaries}
    pairs = [pair for sources in named.values() for pair in sources]
    covered = await db.read(lambda t: t.covered_messages(pairs, since=since, until=until))
    if not covered:
        return hits
    ranked = await _ranked(db, index, text, covered, {s for s, _ in pairs}, weights)
    turns = {h.uid: _best(ranked, named[h.uid]) for h in summaries}
    return _placed(hits, turns)


async def _sources(
    memory: MemoryStore, read: dict[str, str], hit: SearchHit
) -> list[tuple[str, str]]:
    """The ``(session, id)`` of each message ``hit`` covers: an episode's own session, a
    fact's sources as its ``MEMORY.md`` keeps them (its doc keeps the ids alone).

    ``read`` holds the ``MEMORY.md`` files read so far, by scope."""
    if hit.kind == "episode":
        return [(hit.session, mid) for mid in hit.message_ids]
    if hit.scope not in read:
        try:
            read[hit.scope] = await memory.read_memory(hit.scope)
        except MemoryUnreadable:  # a hand edit in another encoding: the fact leads nowhere
            read[hit.scope] = ""
    return fact_sources(read[hit.scope], hit.text)


async def _ranked(
    db: GroupCommit[Any],
    index: LiveIndex,
    text: str,
    covered: list[tuple[int, str]],
    sessions: set[str],
    weights: tuple[float, float],
) -> list[SearchHit]:
    """The covered messages ranked among themselves by the search's signals, best first."""
    gids = [gid for gid, _ in covered]

    def by_words(t: Tx) -> list[SearchHit]:
        found = t.search_message_text(text, among=gids, limit=len(gids))
        return on_words_scale(found, t.words_reference(text))

    words = await db.read(by_words) if weights[0] > 0 else []
    uids = [uid for _, uid in covered]
    meaning = await index.meaning_among(text, uids, sorted(sessions)) if weights[1] > 0 else []
    return fuse(words, meaning, weights)


def _best(ranked: Sequence[SearchHit], sources: list[tuple[str, str]]) -> list[SearchHit]:
    """The best ``TURNS_PER_SUMMARY`` of ``ranked`` that are among ``sources``, each of
    which either signal found something in."""
    wanted = set(sources)
    mine = [h for h in ranked if h.score > 0 and (h.session, h.message_ids[0]) in wanted]
    return mine[:TURNS_PER_SUMMARY]


def _placed(hits: list[SearchHit], turns: dict[str, list[SearchHit]]) -> list[SearchHit]:
    """``hits`` with each summary's ``turns`` moved or put right before it (an episode) or
    right after it (a fact)."""
    above: set[str] = set()
    out: list[SearchHit] = []
    for hit in hits:
        if hit.uid in above:  # a turn already moved up to its summary
            continue
        brought = [
            msgspec.structs.replace(turn, score=hit.score, via=hit.uid)
            for turn in turns.get(hit.uid, [])
            if turn.uid not in above
        ]
        above.update(turn.uid for turn in brought)
        out += [hit, *brought] if hit.kind == "fact" else [*brought, hit]
        above.add(hit.uid)
    return out
