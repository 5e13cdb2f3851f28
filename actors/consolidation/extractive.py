"""Consolidation without a model: keep the salient sentences, merge them as facts.

Used when no LLM is configured, and when a configured one keeps failing past
``hard_tokens``. It cannot paraphrase, so it selects: each sentence gets a
score from cheap signals (a first-person statement of preference or fact,
dates, numbers, capitalised names); the best few become the summary, in
their original order, and the best user statements become facts.

What it keeps as facts: at most ``MAX_FACTS`` per job, clauses of user
sentences (never assistant, tool or system ones; one fact per statement:
``clauses``) of at least three words scoring ``FACT_MIN_SCORE`` or more, so
in practice first-person statements ("I live in …", "my … is …") with a
name, a date or a number; questions are dropped. Each fact is rewritten in
the third person with the speaker's name (the message's ``name``, else "The
user": ``third_person``), dated with its message's UTC day and sourced with
its session and message id. A fact about where someone lives, works or
what they are called supersedes the older one about the same person
(``supersedes``); "The user" of one session is not "The user" of another.
The result depends only on the arguments.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import NamedTuple

from reverie.store import Fact, MessageRecord, merge_facts

from .clauses import clauses
from .result import ConsolidationResult
from .third_person import supersedes, third_person

__all__ = [
    "extractive_consolidation",
    "extractive_facts",
    "extractive_summary",
    "merge_new_facts",
]

SUMMARY_SENTENCES = 5
MAX_FACTS = 8
FACT_MIN_SCORE = 3
MAX_SENTENCE_CHARS = 300

_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
_FIRST_PERSON = re.compile(r"\b(i|i'm|i've|i'd|my|mine|we|we're|our)\b", re.IGNORECASE)
_STATEMENT = re.compile(
    r"\b(i'm|i've|am|is|are|was|have|has|prefer|prefers|like|likes|love|loves|hate|dislike|want|"
    r"need|use|work|works|live|lives|moved|relocated|always|never|usually|favou?rite|allergic|"
    r"name|called|born|birthday|plan|decided|remember|teach|teaches|study|studies|speak|speaks|"
    r"own|owns|bought|adopted|joined|started|play|plays)\b",
    re.IGNORECASE,
)
#: A clause that says nothing on its own: "I love it", "I did that".
_ONLY_PRONOUN = re.compile(r"^\S+ \S+ (?:it|this|that|them)[.!]?$", re.IGNORECASE)
_DATE = re.compile(
    r"\b(\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}(/\d{2,4})?|today|tomorrow|yesterday|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"january|february|march|april|may|june|july|august|september|october|november|december)\b",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"\d")
_NAME = re.compile(r"\b[A-Z][\w'-]+")


DEFAULT_SPEAKER = "The user"


class _Sentence(NamedTuple):
    order: int
    role: str
    text: str
    score: int
    turn: MessageRecord


def _score(text: str, role: str) -> int:
    """Salience of one sentence; 0 means never worth keeping."""
    words = text.split()
    if len(words) < 3:
        return 0
    score = 0
    if _FIRST_PERSON.search(text) and _STATEMENT.search(text):
        score += 3
    if _DATE.search(text):
        score += 2
    if _NUMBER.search(text):
        score += 1
    names = {w for w in _NAME.findall(" ".join(words[1:])) if w != "I" and not w.startswith("I'")}
    score += min(len(names), 2)
    return score if role == "user" else score // 2


def _sentences(turns: list[MessageRecord]) -> list[_Sentence]:
    found: list[_Sentence] = []
    for turn in turns:
        if turn.role not in ("user", "assistant"):
            continue
        for piece in _SPLIT.split(turn.content):
            text = " ".join(piece.split())[:MAX_SENTENCE_CHARS]
            if text:
                score = _score(text, turn.role)
                found.append(_Sentence(len(found), turn.role, text, score, turn))
    return found


def _best(candidates: list[_Sentence], n: int) -> list[_Sentence]:
    """The ``n`` highest-scoring sentences (earlier wins ties), back in original order."""
    ranked = sorted(candidates, key=lambda s: (-s.score, s.order))[:n]
    return sorted(ranked, key=lambda s: s.order)


def _fact(sentence: _Sentence, session: str) -> Fact:
    turn = sentence.turn
    return Fact(
        text=third_person(sentence.text, turn.name or DEFAULT_SPEAKER),
        date=datetime.fromtimestamp(turn.ts, UTC).strftime("%Y-%m-%d"),
        sources={session: [turn.id]} if session else {},
    )


def extractive_summary(turns: list[MessageRecord]) -> str:
    """The turns' most salient sentences, in their order (the first user one if none scores)."""
    return _summary(_sentences(turns))


def extractive_facts(turns: list[MessageRecord], session: str = "") -> list[Fact]:
    """The best user statements as third-person facts, dated and sourced to their message."""
    return _facts(_sentences(turns), session)


def _summary(sentences: list[_Sentence]) -> str:
    chosen = _best([s for s in sentences if s.score > 0], SUMMARY_SENTENCES)
    if not chosen:
        chosen = [s for s in sentences if s.role == "user"][:1]
    return "\n".join(f"{s.role}: {s.text}" for s in chosen)


def _facts(sentences: list[_Sentence], session: str) -> list[Fact]:
    statements = [
        sentence._replace(text=text, score=_score(text, sentence.role))
        for sentence in sentences
        if sentence.role == "user" and not sentence.text.endswith("?")
        for text in clauses(sentence.text)
        if not _ONLY_PRONOUN.match(text)
    ]
    kept = [s._replace(order=i) for i, s in enumerate(statements) if s.score >= FACT_MIN_SCORE]
    return [_fact(s, session) for s in _best(kept, MAX_FACTS)]


def merge_new_facts(
    memory: str, facts: list[Fact], max_tokens: int, count_tokens: Callable[[str], int]
) -> str:
    """``memory`` with ``facts`` merged in; a newer fact about the same person and attribute
    supersedes an older one."""
    return merge_facts(memory, facts, max_tokens, count_tokens, superseded=_superseded)


def _superseded(old: Fact, new: Fact) -> bool:
    """``new`` replaces ``old``: newer, the same person and attribute, and for an unnamed
    speaker ("The user") a source session in common (two sessions' users are two people)."""
    if new.date < old.date or not supersedes(old.text, new.text):
        return False
    unnamed = new.text.startswith(DEFAULT_SPEAKER)
    return not unnamed or bool(set(old.sources) & set(new.sources))


def extractive_consolidation(
    memory: str,
    turns: list[MessageRecord],
    *,
    max_tokens: int,
    count_tokens: Callable[[str], int],
    session: str = "",
) -> ConsolidationResult:
    """A history summary, facts and the new ``MEMORY.md`` for ``turns``, without a model.

    ``session`` names the facts' source (none when empty).
    """
    sentences = _sentences(turns)
    facts = _facts(sentences, session)
    return ConsolidationResult(
        summary=_summary(sentences),
        facts=[f.text for f in facts],
        memory=merge_new_facts(memory, facts, max_tokens, count_tokens),
    )
