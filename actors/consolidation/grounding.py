"""Whether what a model wrote is in the turns it read: the check before ``MEMORY.md``.

A small local model asked for facts about "I moved to Lisbon in 2021, I
work at Acme" also writes "Acme is a leading provider of logistics". A fact
in ``MEMORY.md`` goes into every later prompt of its scope, so an invented
one costs more than a missing one. ``ground`` keeps a fact only when

- every name (a capitalised word that is not a function word) and every
  number in it occurs in the turns, and
- at least ``MIN_SHARE`` of its content words do, with its names and numbers,
  in one sentence a user said (a claim stated, not one recombined from words
  said apart: "Vienna feels tiny" from "a weekend in Vienna. Brno feels tiny
  after that"),

where words match by a crude stem (``moved``/``move``, ``lives``/``living``),
and the turns' vocabulary includes the speakers' names, the roles and the
dates the model was shown in each turn's header. Each kept fact is sourced
to the fewest turns that hold its words (at most ``MAX_SOURCES``), and dated
with the newest of them, so ``forget`` and search provenance point at the
turns that really say it; a fact copied in the first person from one
speaker's turns is put in the third person with that speaker's name.

The same test picks the summary's sentences; what fails is dropped and
counted (``answer.accept`` turns a whole answer into the job's result). It
also decides whether the merge may rewrite a stored fact with a new value
(``supports``, for ``truth.merge``).
Everything here depends only on its arguments.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache

from reverie.store import Fact, MessageRecord

from .third_person import DEFAULT_SPEAKER, third_person

__all__ = [
    "MIN_SHARE",
    "Grounded",
    "content_stems",
    "ground",
    "ground_summary",
    "sentences",
    "supports",
    "words",
]

#: The share of a fact's content words that must occur in the turns.
MIN_SHARE = 0.6
#: The most turns a fact is sourced to.
MAX_SOURCES = 3

_WORD = re.compile(r"[^\W_](?:[\w'’-]*[^\W_])?")
#: A sentence ends at ".", "!" or "?" and a space (not after a title: "Dr. Sousa"), or a line.
_SENTENCE = re.compile(r"(?<=[.!?])(?<!\b[DM]r\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bSt\.)\s+|\n+")
_SUFFIXES = ("ing", "ed", "es", "s", "e", "ly", "er")
#: Words that say nothing about what a fact claims (pronouns, auxiliaries, fillers).
_FUNCTION_TEXT = """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each few
    for from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not now of off on once only or
    other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your yours
    yourself yourselves user users speaker person people someone they're he's she's it's
    i'm i've we're also recently currently really still new one thing things lot get got
    mentioned said says told shared talked discussed conversation"""
_FUNCTION_WORDS = frozenset(_FUNCTION_TEXT.split())


def words(text: str) -> list[str]:
    """The words of ``text``, as written (case kept), apostrophes folded to ``'``."""
    return [w.replace("’", "'") for w in _WORD.findall(text)]


@lru_cache(maxsize=65536)  # (the same words, again in every check of a job: a pure function)
def _stem(word: str) -> str:
    """A crude stem: lower case, no possessive, up to two common suffixes off, so "fosters"
    and "foster" meet (a stem keeps 3 letters)."""
    word = word.casefold().removesuffix("'s")
    for _ in range(2):
        suffix = next((s for s in _SUFFIXES if word.endswith(s) and len(word) - len(s) >= 3), "")
        word = word[: len(word) - len(suffix)]
    return word


def _is_number(word: str) -> bool:
    return any(c.isdigit() for c in word)


def _header_words(turn: MessageRecord) -> list[str]:
    """What the model was shown besides the content: speaker, role and the turn's date."""
    day = datetime.fromtimestamp(turn.ts, UTC)
    found = [turn.role, day.strftime("%Y-%m-%d"), day.strftime("%Y"), day.strftime("%B")]
    found.append(str(day.day))
    if turn.name:
        found += words(turn.name)
    return found


@dataclass(slots=True)
class _Turns:
    """The stems each turn holds, and the stems of everything the model was shown."""

    turns: Sequence[MessageRecord]
    stems: list[frozenset[str]] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    #: each user sentence's stems, with what its turn's header says (who said it, when)
    said: list[frozenset[str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for turn in self.turns:
            header = {_stem(w) for w in _header_words(turn)}
            stems = frozenset({_stem(w) for w in words(turn.content)} | header)
            self.stems.append(stems)
            self.seen |= stems
            if turn.role == "user":
                self.said += [
                    frozenset({_stem(w) for w in words(s)} | header)
                    for s in sentences(turn.content)
                ]

    def sources(self, needed: set[str]) -> list[int]:
        """Indexes of the fewest turns (greedy, at most ``MAX_SOURCES``) that hold ``needed``."""
        left, chosen = set(needed), list[int]()
        while left and len(chosen) < MAX_SOURCES:
            best = max(range(len(self.stems)), key=lambda i: len(self.stems[i] & left))
            if not self.stems[best] & left:
                break
            chosen.append(best)
            left -= self.stems[best]
        return sorted(chosen)


def _content(text: str) -> list[str]:
    return [w for w in words(text) if w.casefold() not in _FUNCTION_WORDS]


def content_stems(text: str) -> set[str]:
    """The stems of what ``text`` claims: its words less pronouns, auxiliaries and fillers."""
    return {_stem(w) for w in _content(text)}


def _supported(text: str, turns: _Turns, *, stated: bool = False) -> set[str] | None:
    """The stems of ``text`` found in the turns, or None when ``text`` is not grounded; with
    ``stated``, its names and numbers and enough of its words in one user sentence (a claim
    said, not one recombined from words said apart: "Vienna feels tiny" from "a weekend in
    Vienna. Brno feels tiny after that")."""
    content = _content(text)
    if not content:
        return None
    strict = {_stem(w) for w in content if w[0].isupper() or _is_number(w)}
    stems = {_stem(w) for w in content}
    found = stems & turns.seen
    if not strict <= found or len(found) < MIN_SHARE * len(stems):
        return None
    # (the share counts what it says of them, not the names: "Hana lives in Vienna" is not
    # "a weekend in Vienna" for sharing "Hana" and "Vienna")
    claim = stems - strict
    if stated and not any(
        strict <= said and len(claim & said) >= MIN_SHARE * len(claim) for said in turns.said
    ):
        return None
    return found


@dataclass(slots=True)
class Grounded:
    """The facts that passed, as ``Fact``s with sources, and how many did not."""

    facts: list[Fact]
    dropped: int


#: A sentence cut short ("The podcast is called."), a name that is nobody's "I" ("in Haifa'm")
#: or a speaker where a place goes ("a physiotherapist in Thandi"): a small model's slip, no
#: claim anyone made.
_CUT_SHORT = re.compile(
    r"\b(?:called|named|is|are|was|were|the|an?|and|or|of|to|in|at|for|with|my|their|his|her|"
    r"they)\W*$|\b(?!I')[\w-]+'m\b",
    re.IGNORECASE,
)


def _malformed(text: str, speakers: set[str]) -> bool:
    if _CUT_SHORT.search(text):
        return True
    return any(re.search(rf"\b(?:in|at|from) {re.escape(name)}\b", text) for name in speakers)


def ground(
    texts: Iterable[str], turns: Sequence[MessageRecord], session: str, *, new: bool = True
) -> Grounded:
    """The model's facts that the turns support, each sourced to the turns that hold its words
    (and said in whole English: ``_malformed``). A ``new`` fact copied as it was typed, in
    lower case ("ok so the dog's at my mum's now lol") is none: where
    it holds a claim, the extractive fact of its turn says it, with whose it is
    (``answer.one_claim_each``); an update's text has no such stand-in."""
    index = _Turns(turns)
    kept: list[Fact] = []
    dropped = 0
    users = {t.name for t in turns if t.role == "user" and t.name}
    for raw in texts:
        text = " ".join(raw.split())
        if _malformed(text, users) or (new and text[:1].islower()):
            found = None
        else:
            found = _supported(text, index, stated=True)
        if found is None:
            dropped += 1
            continue
        chosen = [turns[i] for i in index.sources(found)] or [turns[-1]]
        day = datetime.fromtimestamp(max(t.ts for t in chosen), UTC).strftime("%Y-%m-%d")
        speakers = {t.name or DEFAULT_SPEAKER for t in chosen if t.role == "user"}
        if len(speakers) == 1:  # "I moved to Porto", copied from the turn: say whose it is
            text = third_person(text, speakers.pop())
        kept.append(Fact(text=text, date=day, sources={session: [t.id for t in chosen]}))
    return Grounded(kept, dropped)


def supports(turns: Sequence[MessageRecord], text: str, *, given: str = "") -> bool:
    """Whether ``text`` passes the check ``ground`` makes, against ``turns`` and the words of
    ``given``: a fact already in memory that ``text`` restates with a value from the turns."""
    index = _Turns(turns)
    index.seen |= {_stem(w) for w in words(given)}
    return _supported(" ".join(text.split()), index) is not None


def sentences(text: str) -> list[str]:
    """The sentences of ``text``, whitespace folded: a model's fact of two sentences is two
    facts, each grounded and merged on its own, so no line of ``MEMORY.md`` joins two claims."""
    return [s for piece in _SENTENCE.split(text) if (s := " ".join(piece.split()))]


def ground_summary(summary: str, turns: Sequence[MessageRecord]) -> tuple[str, int]:
    """The summary's grounded sentences (repeats dropped), and how many sentences went."""
    index = _Turns(turns)
    kept: list[str] = []
    dropped = 0
    for sentence in sentences(summary):
        if sentence in kept or _supported(sentence, index) is None:
            dropped += 1
        else:
            kept.append(sentence)
    return " ".join(kept), dropped
