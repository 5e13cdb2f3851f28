"""How near in meaning a change is to a line of the speaker's: the evidence a change said
in other words is weighed by.

The shipped embedder (``store.embed.LocalEmbedder``) compares what each says,
less whose it is and the words that say a change ("now", "switched"); a word
in common adds to it, and the nearest line must be near enough and clearly
nearer than the next. See docs/design.md, "Memory that stays true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from reverie.store import Fact

from .meaning import Embed
from .modifiers import modifiers
from .ownership import LEAD
from .signals import without_cues
from .third_person import DEFAULT_SPEAKER, word_set
from .words import ANY_WEEKLY, UPPER, WEEKDAYS

__all__ = [
    "COMMON",
    "LONG_WORD",
    "NEAR",
    "NEAR_OF_KIND",
    "another_thing",
    "clearly_best",
    "content",
    "long_words",
    "nearest",
]

#: How near in meaning the replaced fact must be, and how much nearer than the next one.
NEAR = 0.35
MARGIN = 0.05
#: What a word in common adds to nearness.
SHARED = 0.1
#: How near a line holding a value of the change's kind must be (the kind is evidence too).
NEAR_OF_KIND = 0.2


#: Words too common to say two facts are about one thing.
COMMON = word_set(
    "their they them they're with from that this have been were also just than then there "
    "here what when will would about into over some more most very really still "
    "little small large tiny huge good great nice best"  # a size or a liking: any thing's
)
LONG_WORD = re.compile(r"\b[^\W\d_][\w'-]{3,}")


def long_words(text: str) -> set[str]:
    """The words of ``text`` of four letters or more, names too, folded ("Duolingo")."""
    return {w.casefold() for w in LONG_WORD.findall(text)} - COMMON


def content(text: str) -> set[str]:
    """The lower-case words of four letters or more that ``text`` is about ("café" too)."""
    return {w.removesuffix("s") for w in LONG_WORD.findall(text) if w[0].islower()} - COMMON


def nearest(
    new: Fact, candidates: Sequence[Fact], embed: Embed, near: float = NEAR, speaker: str = ""
) -> int | None:
    """The index of the candidate nearest ``new`` in meaning, when it is near enough and
    clearly the nearest; else None. (``speaker``, whose facts they are, is no evidence.)"""
    if not candidates:
        return None
    gists = [_gist(f.text, speaker) for f in [new, *candidates]]
    if named := _NAMED_THEN.match(new.text):
        # a thing named, then described ("found a new supplier, Namosi Highlands Coffee, grown
        # an hour from Suva"): what changed is the thing, not where it comes from
        gists[0] = _gist(named["claim"], speaker)
    # a thing left, apart from why ("left the singing group, the new conductor was awful"):
    # its clause alone says what ended
    first, *why = new.text.split(", ", 1)
    alone = _gist(first, speaker) if why and _LEFT.search(first) else ""
    vectors = embed([*gists, alone] if alone else gists)
    # a word in common ("traded the pickup" … "an old Ford pickup") is evidence the small
    # model underweighs next to the sentence's other words
    leads = [_lead(f.text, speaker) for f in [new, *candidates]]
    words = [content(gist) | content(lead) for gist, lead in zip(gists, leads, strict=True)]
    # (a noun qualifying another is not what the change is about: "changed my phone wallpaper";
    # unless a line opens with it, as what it is about: "a futsal group" of "Futsal on Mondays")
    mods = {w.removesuffix("s") for w in modifiers(new.text)}
    words[0] -= mods
    shared = [
        SHARED if words[0] & theirs or mods & content(lead) else 0.0
        for theirs, lead in zip(words[1:], leads[1:], strict=True)
    ]
    # and so is a name said in the same frame ("swims at Kokrobite now" of "twice a week at
    # Labadi Pool"): the slot's preposition (issue 59 item 3)
    frames = [set(_FRAME.findall(f.text)) for f in [new, *candidates]]
    shared = [
        x + (SHARED if frames[0] & theirs else 0.0)
        for x, theirs in zip(shared, frames[1:], strict=True)
    ]
    scores = vectors[1 : len(gists)] @ vectors[0]
    if alone:
        scores = np.maximum(scores, vectors[1 : len(gists)] @ vectors[-1])
    return clearly_best(scores + np.array(shared, dtype=np.float32), near)


#: The preposition a name is said with: "for Volta Haulage", "at the Osu Clinic".
_FRAME = re.compile(rf"\b(for|at|with) (?:the )?[{UPPER}]")

#: A claim with the name of its thing, before what is said of it: "found a new supplier,
#: Namosi Highlands Coffee, grown just an hour from Suva".
_NAMED_THEN = re.compile(rf"(?P<claim>[^,]+, [{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)*), [a-z]")
#: A thing of the speaker's left by its noun ("quit the choir", "left the singing group").
_LEFT = re.compile(
    r"\b(?:left|quit|dropped|stopped|ditched|gave up(?: on)?|packed in) (?:the|my|our)\b",
    re.IGNORECASE,
)


def clearly_best(
    scores: npt.NDArray[np.float32], near: float, margin: float = MARGIN
) -> int | None:
    """The index of the best of ``scores`` when it reaches ``near`` and leads the next by
    ``margin``; else None."""
    order = np.argsort(-scores)
    best = float(scores[order[0]])
    runner = float(scores[order[1]]) if len(order) > 1 else 0.0
    return int(order[0]) if best >= near and best - runner >= margin else None


_OWNER_LEAD = re.compile(rf"^(?:The user|[{UPPER}][\w-]*)(?:'s| and others| and their [\w-]+)?\s+")


def _lead(text: str, speaker: str) -> str:
    """The word ``text`` opens with, in lower case, unless it says whose the fact is: what
    "Badminton has moved …" is about (``_gist`` cuts it, with any capitalised opener)."""
    found = LEAD.match(text)
    if found is None or found["poss"] or found["who"] in (speaker, DEFAULT_SPEAKER):
        return ""
    return found["who"].casefold()


#: When a change starts, not what it is of: "starting next month" is no heating oil's "a
#: month". (Not "last month": "left Pixelworks last month" is the job's line by its when.)
_WHEN = re.compile(
    r"\b(?:(?:starting|from|since|as of|until|till) )?(?:next|this|the following) "
    r"(?:week|month|year)\b"
)


def _gist(text: str, speaker: str = "") -> str:
    """What ``text`` says, less whose it is and the change words: both would make every fact
    of the speaker near every change of theirs ("Losa gave Tama a Kamaka" is no nearer to
    "the old one went to Tama's nephew" for naming Tama)."""
    text = _WHEN.sub("", without_cues(_OWNER_LEAD.sub("", text)))
    if speaker:
        text = re.sub(rf"\b{re.escape(speaker)}(?:'s)?\b", "", text)
    return " ".join(text.split())


_WEEKDAY = re.compile(rf"\b{WEEKDAYS}s?\b", re.IGNORECASE)
#: A thing of theirs said by its noun, then when it is: "Pavel's book club is on Thursdays".
_THING_WHEN = re.compile(
    r"^(?:\S+'s|The|Our|My|Their) (?P<thing>[a-z][\w-]*(?: [a-z][\w-]*)?) "
    # (moved itself, not something else: "Siim's captain moved practice to Sundays")
    r"(?:is|are|(?:has )?moved(?= (?:to|back|forward)\b)|runs|meets)\b"
)


def another_thing(new: str, line: str) -> bool:
    """``new`` says when a thing is by a noun of its own ("Pavel's book club is on Thursday
    night now") that ``line`` does not name ("plays hockey on Tuesday nights"): the when of
    another thing, no new one of the line's."""
    said = _THING_WHEN.match(new) if _WEEKDAY.search(new) else None
    named = content(said["thing"]) - ANY_WEEKLY if said else set()
    return bool(named) and not named & content(line)
