"""What is current comes first: a search's hits as the scope's memory stands now.

A consolidation retires a fact that stopped being true (``truth.merge``) and
the index keeps it as history (``retired_docs``): it and the turns that said
it still match a question about what replaced it, often better ("Maya lives
in Manchester." is nearer "where does Maya live" than "Maya lives in Leeds.").
So, read against the scope's ``MEMORY.md`` at search time (never against the
index, which may lag it):

- a retired fact is history, true until its entry's day;
- a turn or an episode is history when it states no current fact (no
  ``MEMORY.md`` line cites it) but names a word of a retired fact among the
  search's candidates that no current fact of the scope holds (the value
  that changed: "Manchester"), and was said before that fact was retired;
- history says so (``SearchHit.until``) and keeps ``HISTORY_PRIOR`` of its
  score, never more than the best current fact of its scope that the search
  found: what replaced it ranks first (a turn that an episode of history
  brought, carrying its score, carries the lowered one);
- a turn the query found (not one a summary brought) that states a
  current fact brings that fact right before it
  (``via`` names the turn), as a fact brings its turns after it
  (``lead_to_turns``): a question worded unlike the fact but near the turn
  ("which diet do I follow" and "I'm vegetarian") still gets the fact.

docs/search.md, "What is current comes first".
"""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec

from reverie.store import (
    HISTORY_PRIOR,
    IndexDoc,
    MemoryStore,
    MemoryUnreadable,
    SearchHit,
    fact_doc_text,
    fact_docs,
    hit_from_doc,
    is_retired,
    parse_memory,
    text_terms,
)

__all__ = ["current_first"]


class _Scope(msgspec.Struct):
    """One scope's current facts as a search sees them: their docs, which of them each
    source message states, and their words."""

    docs: dict[str, IndexDoc]  # the fact's doc text -> its doc, as the index holds it
    stated: dict[tuple[str, str], str]  # (session, message id) -> the fact's doc text
    words: set[str]


async def current_first(
    memory: MemoryStore, hits: list[SearchHit], candidates: list[SearchHit], *, facts: bool
) -> list[SearchHit]:
    """``hits`` with history marked and ranked down, and each turn's current fact before it.

    ``candidates`` are every hit the signals fused (before ``min_score``): the
    retired facts among them name the old values that mark a turn or an
    episode as history. ``facts`` says whether the search returns facts at all
    (its ``kinds``, no session filter): only then does a turn bring its fact.
    """
    scopes = {scope: await _read(memory, scope) for scope in {h.scope for h in hits}}
    retired = [h for h in candidates if is_retired(h) and h.scope in scopes]
    untils = {h.uid: _until(h, scopes[h.scope], retired) for h in hits}
    ranked = _ranked(hits, untils)
    return _with_facts(ranked, scopes) if facts else ranked


async def _read(memory: MemoryStore, scope: str) -> _Scope:
    try:
        text = await memory.read_memory(scope)
    except MemoryUnreadable:  # a hand edit in another encoding: nothing is known current
        text = ""
    facts = parse_memory(text)[0]
    stated = {
        (session, mid): fact_doc_text(fact)
        for fact in facts
        for session, ids in fact.sources.items()
        for mid in ids
    }
    return _Scope(
        docs={doc.text: doc for doc in fact_docs(scope, text, 0.0)},
        stated=stated,
        words={w for fact in facts for w in text_terms(fact.text)},
    )


def _until(hit: SearchHit, scope: _Scope, retired: list[SearchHit]) -> str:
    """The day ``hit`` stopped being true, "" if it is current (or never was a claim)."""
    if is_retired(hit):
        return _day(hit.ts)
    if hit.kind == "fact" or _stated(hit, scope) is not None:
        return ""
    said = set(text_terms(hit.text))
    return min(
        (
            _day(r.ts)
            for r in retired
            if r.scope == hit.scope
            and hit.ts < r.ts
            and said.intersection(text_terms(r.text)).difference(scope.words)
        ),
        default="",
    )


def _stated(hit: SearchHit, scope: _Scope) -> str | None:
    """The doc text of the current fact of ``scope`` that cites the message ``hit`` as its
    source, None if none does (or ``hit`` is no message)."""
    if hit.kind != "message" or not hit.message_ids:
        return None
    return scope.stated.get((hit.session, hit.message_ids[0]))


def _ranked(hits: list[SearchHit], untils: dict[str, str]) -> list[SearchHit]:
    """``hits`` with history (``untils``) marked and scored down: times ``HISTORY_PRIOR``,
    and never above the best current fact of its scope among ``hits``; a turn that a
    summary scored down brought (``via``) keeps its score. Sorted stably, best first,
    so the turns ``lead_to_turns`` placed keep their place."""
    best: dict[str, float] = {}
    for hit in hits:
        if hit.kind == "fact" and not untils[hit.uid]:
            best[hit.scope] = max(best.get(hit.scope, 0.0), hit.score)
    lowered = {
        h.uid: min(h.score * HISTORY_PRIOR, best.get(h.scope, 1.0)) for h in hits if untils[h.uid]
    }
    marked = [
        msgspec.structs.replace(h, score=lowered[h.uid], until=untils[h.uid])
        if h.uid in lowered
        else msgspec.structs.replace(h, score=min(h.score, lowered[h.via]))
        if h.via in lowered
        else h
        for h in hits
    ]
    # On a tie a current fact comes first and history last.
    return sorted(marked, key=lambda h: (-h.score, 2 if h.until else h.kind != "fact"))


def _with_facts(hits: list[SearchHit], scopes: dict[str, _Scope]) -> list[SearchHit]:
    """``hits`` with the current fact each message found by the query states right before
    the first such message: one ranked above it stays, one ranked below moves up, none
    twice."""
    brought: dict[str, SearchHit] = {}  # message uid -> the fact it brings
    for hit in hits:
        if hit.until or hit.via:
            continue  # a turn a summary brought is there for the summary, not the query
        key = _stated(hit, scopes[hit.scope])
        if key is None or key not in scopes[hit.scope].docs:
            continue
        fact = _fact_hit(hit, scopes[hit.scope].docs[key])
        if all(f.uid != fact.uid for f in brought.values()):
            brought[hit.uid] = fact
    out: list[SearchHit] = []
    seen: set[str] = set()
    for hit in hits:
        before = brought.get(hit.uid)
        if before is not None and before.uid not in seen:
            out.append(before)
            seen.add(before.uid)
        if hit.uid not in seen:
            out.append(hit)
            seen.add(hit.uid)
    return out


def _fact_hit(turn: SearchHit, doc: IndexDoc) -> SearchHit:
    """The hit of the current fact ``doc`` (the index's uid and text), brought by
    ``turn``: its score and time."""
    hit = hit_from_doc(msgspec.structs.replace(doc, ts=turn.ts), turn.score)
    return msgspec.structs.replace(hit, via=turn.uid)


def _day(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d")
