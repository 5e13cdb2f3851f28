"""The one line of the speaker's holding a thing of a kind: by the kind's noun ("Acer laptop"
for "got a Chuwi laptop"), else by a make the shipped embedder puts near the kind ("a
ThinkPad" for "a new laptop"), else, for a thing that ended, by a word of a narrower kind
("the ukulele" for "the little guitar"). A change that names its thing by its kind ("switched
gyms", "sold my bike", "got a Galaxy S24") asks ``change.displaced`` for this line. See
docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from reverie.store import Fact

from .acquiring import kinded, known_thing, named_things, owns
from .attributes import PET
from .endings import done_without
from .meaning import Embed
from .modifiers import is_modifier
from .nearness import COMMON, LONG_WORD, clearly_best
from .ownership import theirs
from .third_person import word_set
from .words import HOMES, UPPER, VALUE, WHEN

__all__ = [
    "MAKE",
    "MANY",
    "NAME",
    "NOT_A_KIND",
    "gathering",
    "holds",
    "joined_in_place",
    "kind_after",
    "same_kind",
]

#: How near a make must be to the kind of thing acquired ("ThinkPad" to "laptop"), how much
#: nearer a word of a narrower kind ("ukulele" to "guitar"), and a name switched to, to the
#: one it replaces ("Italian" to "Spanish").
MAKE, WORD, NAME = 0.3, 0.4, 0.5


#: Many of a kind: "loads of routes", "two bikes", "a few phones"; none of them is the one
#: thing of its kind a person has.
MANY = re.compile(
    r"\b(?:(?:loads|lots|plenty|tons|dozens|hundreds|a couple|a lot) of|many|several|a few|"
    r"\d+|two|three|four|five|six|seven|eight|nine|ten) (?:[a-z]+ )?[a-z]+s\b"
)


#: Words that end a phrase without naming a kind of thing ("a Chery Tiggo yesterday").
NOT_A_KIND = word_set(
    "yesterday today tonight tomorrow now again too also though instead one ones thing things stuff"
)


#: The nouns of people who meet to do a thing together, one kind as a head (``gathering``).
_GATHERING = "club|group|crew|squad"


def gathering(head: str) -> str:
    """``head``, or every noun of a gathering when it is one: "switched clubs" is of "runs
    with a group called Trote Livre" (not "a second group" got, which is of students)."""
    return _GATHERING if re.fullmatch(_GATHERING, head) else head


def joined_in_place(text: str, said: str) -> bool:
    """``text`` joins something by its name, in a turn (``said``) that left a gathering or a gym
    before it: "I left the old gym … joined Body Temple" is a membership, not a new job."""
    joined = re.search(r"\bjoin(?:s|ed|ing)? (?:the )?[A-Z]", text)
    return joined is not None and _LEFT_ONE.search(said) is not None


#: A gathering or a gym left: "left the old gym", "quit the choir" (not a team, which may be
#: one at work: "left the team at Shopify and joined Stripe").
_LEFT_ONE = re.compile(
    rf"\b(?:left|quit|leaving|cancelled)\b (?:my |the |our )?(?:old |local )?"
    rf"(?:{_GATHERING}|gym|choir|band|league)\b"
)


def _kind(head: str) -> re.Pattern[str]:
    """Where a line names a thing of the kind ``head`` ("by bike" is a way to go, not one),
    in a name too ("the old club" is "Wendouree Bowls Club")."""
    if head == _GATHERING:
        return re.compile(rf"\b(?:{_GATHERING}|{_GATHERING.title()})s?\b")
    # (a long noun in another language's ending too: "the cooperative" of "Cooperativa El Molino")
    stem, end = (head[:-1], r"\w{0,2}") if len(head) >= 8 else (head, "s?")
    return re.compile(rf"(?<!\bby )\b(?:{re.escape(stem)}|{re.escape(stem.capitalize())}){end}\b")


def holds(head: str, text: str) -> bool:
    """``text`` names a thing of the kind ``head``, not a noun it qualifies ("a small bike
    shop" holds no bike; "a ute full of fittings" holds a ute), nor many of them ("so
    there's loads of routes" holds no route of theirs)."""
    text = MANY.sub("", text)
    return any(
        not is_modifier(text, m.end()) or re.match(r" \S+ of\b", text[m.end() :])
        for m in _kind(head).finditer(text)
    )


def same_kind(
    older: Sequence[Fact],
    new: Fact,
    said: str,
    speaker: str,
    persons: set[str],
    head: str,
    embed: Embed,
    near_make: float = MAKE,
    *,
    ended: bool = False,
    turn: str = "",
    kind: str = "",
) -> tuple[Fact, Fact | None] | None:
    """The speaker's one line with a thing of the kind just acquired ("Acer laptop" for
    "got a Chuwi laptop"), or else with a make of that kind ("a ThinkPad" for "a new
    laptop": the embedder knows what a ThinkPad is): it is replaced; two such lines (or a
    pet) leave it open. A thing that ``ended`` may be named by a wider kind than its line's
    noun ("the little guitar" for a ukulele); what is acquired is not always a thing ("got
    a job"), so it is matched by its noun or a make only. ``kind`` is what a make got was
    said to be ("a Samsung phone case": a case)."""
    if PET.fullmatch(head) or head in NOT_A_KIND or (not ended and re.fullmatch(HOMES, head)):
        return None  # (a home got is a move, the residence key's: "got a small flat in …")
    own = theirs(older, new, said, speaker, cue=False) or []
    if ended:  # (a thing they share, in a relative's line: "the deliveries in their old van")
        shared = re.compile(rf"\btheir (?:[a-z-]+ ){{0,2}}(?:{re.escape(head)}s?\b|[{UPPER}])")
        kin = theirs(older, new, said, speaker, kin=True, cue=False) or []
        own = [*own, *(f for f in kin if shared.search(f.text) and f not in own)]
    # (a line of one wanted holds none: "needs a new phone before any move")
    same = [f for f in own if holds(head, f.text) and not _WANTED.search(f.text)]
    if same:
        return (same[0], None) if len(same) == 1 else None
    if ended and any(holds(head, f.text) for f in older):
        return None  # (another's line names it: "Ingrid's husband Lars calls it the ambulance")
    makes = [
        (f, make)
        for f in own
        for make in named_things(f.text) - set(VALUE.findall(new.text)) - {speaker}
        # ("Tuesdays" is no make; nor, of a thing that ended, "19": "After 19 years … sold")
        if not WHEN.match(make) and not (ended and make[0].isdigit())
    ]
    # else a word of a narrower kind ("the ukulele" for "the little guitar", "a canary" for
    # "the bird"): a noun is weaker evidence than a make, so it must be nearer
    said_words = set(LONG_WORD.findall(new.text))
    words = [
        (f, w)  # (as written: "buses", not the stem "buse", which the embedder misreads)
        for f in (own if ended else ())
        for w in set(LONG_WORD.findall(f.text)) - said_words
        if w[0].islower()
        and w not in COMMON
        # (not what someone is, "Diego is a photographer" holds no camera, nor does, "lives";
        # nor the tail of the thing's compound: "headphones" are no phone)
        and not head.endswith((w, f"{w}s"))
        and not re.search(
            rf"\b(?:is|works as) an? (?:[\w-]+ )?{w}\b|^{re.escape(speaker)} {w}\b", f.text
        )
    ]
    for things, near in ((makes, near_make), (words, WORD)):
        if things:
            # (a make said with its kind is of that kind: "an electric bicycle, a Panasonic Vivi")
            vectors = embed([head, *(kinded(f.text, thing) for f, thing in things)])
            # a line's score is its nearest thing's ("cello" and "orchestra" are one line)
            lines = list({id(f): f for f, _ in things}.values())
            scores = vectors[1:] @ vectors[0]
            best = np.array(
                [
                    max(x for (f, _), x in zip(things, scores, strict=True) if f is line)
                    for line in lines
                ],
                dtype=np.float32,
            )
            if (found := clearly_best(best, near, margin=0.1)) is not None:
                names = [thing for f, thing in things if f is lines[found]]
                return lines[found], done_without(lines[found], names) if ended else None
    # the small embedder knows few makes ("Tecno Camon" is no nearer "phone" than "Lagos" is),
    # but an old thing that ended, or that a make just got replaces, is what the speaker
    # owned: their one line owning a thing by its name ("Dayo's Infinix Hot dies by noon")
    # (or, with none, the one said with "the", as known: "the Tecno is finished")
    owned = {id(f): f for f in own if owns(f.text, persons)} or {
        id(f): f for f in own if known_thing(f.text, persons)
    }
    if (ended or head[:1].isupper()) and len(owned) == 1 and _REPLACED.search(turn or said):
        line = next(iter(owned.values()))
        # (unless the line says the make's kind, and that is far from this one: "their old Dell
        # laptop" is no "old defence" dropped)
        kinds = [k for make in named_things(line.text) if (k := kind_after(line.text, make))]
        probe = kind or (head if head[:1].islower() else "")
        if kinds and probe:
            kind_vectors = embed([probe, *kinds])
            if max(kind_vectors[1:] @ kind_vectors[0]) < WORD:
                return None
        return line, None
    return None


def kind_after(text: str, make: str) -> str:
    """The kind ``text`` says ``make`` is, as the noun its words qualify ("Dell laptop", "Juki
    industrial machine"), or empty (a verb after it says what it does: "Ewa's Fabia failed",
    "Infinix Hot dies by noon")."""
    found = re.search(rf"\b{re.escape(make)}\b", text)
    at, kind = (found.end(), "") if found else (0, "")
    while found and is_modifier(text, at) and (word := re.match(r" ([a-z][\w-]*)", text[at:])):
        kind, at = word[1], at + word.end()
    return kind


#: One wanted, not had: "needs a new phone", "wants a bike", "is looking for a flat".
_WANTED = re.compile(r"\b(?:needs?|wants?|looking for|saving (?:up )?for) (?:an?|another) ")
#: A thing that ended was the old one, or another took its place ("… the old tablet is
#: retired", "sold my bike, got a Honda Ace", "Pixel 8 now").
_REPLACED = re.compile(r"\b(?:old|now|new|got|bought|arrived|replaced|these days|nowadays)\b")
