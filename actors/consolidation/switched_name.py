"""The line a name switched to replaces: the one naming another by the same words.

"we changed to Telcel" names no kind, and the small embedder knows no carrier
("Telcel" is no nearer "Movistar" than "Orange" is); but the sentence it is said in
says what it is for ("He also fixed my phone, we changed to Telcel"), and so does the
line of the name it replaces ("Aurelio's phone is Movistar, the signal is very bad").
So a change to a name no line holds retires the speaker's one line naming a thing by
another name with a word said within a few words of both names, their frame ("And the
engine, I took a Suzuki 25" of "the Yamaha 15 is tired, maybe new engine"; "playing for
the Mustangs now, my old team folded" of "their hockey team, the Bandits"), when no line
is near enough in meaning. See docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .attributes import PET, keys
from .nearness import content
from .ownership import named, owner, theirs
from .signals import hedged, signalled, without_cues
from .words import RELATIVES, VALUE, WHEN

__all__ = ["name_replaced"]

#: A sentence of a turn: where the name switched to is said with what it is for.
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
#: What a name said after is a place or a being, not a thing: "in Macusani", "my nephew Tomi".
_PLACE_OR_BEING = re.compile(
    rf"\b(?:in|from|near|outside|around|(?i:{RELATIVES})|{PET.pattern}),? $", re.IGNORECASE
)
#: The one a name replaced, said in its turn: "the other company", "the old one I cancelled".
_THE_OLD = re.compile(r"\bthe (?:other|old|previous) (?:one|company)\b", re.IGNORECASE)
#: A name said of a person: "Corina, she's from Romania", "Tayla now, she's a chef student".
_PERSON = re.compile(r"(?: now)?,? (?:she|he)\b", re.IGNORECASE)
#: How many words either side of a name say what it is for ("phone, we changed to Telcel").
NEAR = 4
_WORD = re.compile(r"[\w'-]+")
#: Words for persons, who are no thing's frame: "my sister", "the boys", "tourists".
_BEINGS = re.compile(
    rf"(?:{RELATIVES}|boy|girl|man|woman|lady|guy|people|tourist|customer|client|student)s?",
    re.IGNORECASE,
)
#: A name said after a word for a person: "someone new, Deniz", "a girl called Njeri".
_A_PERSON = re.compile(r"\b(?:someone|somebody|called|named)(?: new)?,? $", re.IGNORECASE)
#: Words of any sentence of change or of a claim, which say nothing of what a name is for.
_ANY = frozenset(
    {"also", "always", "every", "thing", "other", "another", "going", "says", "said"}
    | {"time", "week", "month", "year", "hour"}
    # (and the light verbs any thing is said with: "bought", "take", "work")
    | {"bought", "take", "took", "made", "make", "have", "work", "working"}
)


def name_replaced(
    older: Sequence[Fact], new: Fact, said: str, speaker: str, persons: set[str], turn: str
) -> Fact | None:
    """The one line of ``speaker``'s in ``older`` naming a thing by a name that ``new``
    (``said`` with its opener, in the turn ``turn``) switches from, or None."""
    lines = " ".join(f.text for f in older)
    whose = owner(new.text, named(new.text, persons, lines))
    # (someone may switch it for them: "Cornel's son put Cornel on Digi", "he put them on Digi")
    for_them = re.search(rf"\b(?:{re.escape(speaker)}|their|them)\b", new.text[len(whose) :])
    if not (whose in (speaker, "") or for_them) or any(
        k.attribute == "residence" for k in keys(new.text)
    ):
        return None  # ("Kev sold his block …, so they're out at Mingoola now"; a move of home)
    switched = {
        n
        for n in _names(new.text, persons, speaker)
        if n.split()[0] not in lines
        and not _PERSON.match(new.text, at := new.text.find(n) + len(n))
        and not _A_PERSON.search(new.text, 0, at - len(n))
    }
    if not switched:
        return None
    # (the sentence of the turn the name is in: "He also fixed my phone, we changed to Telcel")
    in_turn = [s for s in _SENTENCE.split(turn) if any(n.split()[0] in s for n in switched)]
    sentence = in_turn[0] if in_turn else said
    # (or the turn says the old one went: "He put me also on Digi for the phone, cheaper. The
    # other company I paid 3 times more")
    if not (signalled(sentence) or _THE_OLD.search(turn)) or hedged(sentence):
        return None
    # (what it is for is a word said beside both names, its frame: "my phone, we changed to
    # Telcel" of "phone is Movistar", "drive my abang's old Saga" of "drives a Myvi"; not a
    # person, "my sister")
    # (the turn's words, across a sentence's end too: "sorted the agency thing. I'm with
    # Tempo-Team now" of "works for the Randstad agency")
    beside = {w for w in _beside(turn if in_turn else said, switched) if not _BEINGS.fullmatch(w)}
    # (what is theirs, when someone else did it for them: "He put Cornel also on Digi")
    own = (theirs(older, new, said, speaker, cue=False) if whose in (speaker, "") else []) or (
        [f for f in older if owner(f.text, persons | {speaker}) == speaker] if for_them else []
    )
    naming = [
        f
        for f in own
        # (a line of where they live is a home, not a thing of theirs)
        if not any(k.attribute == "residence" for k in keys(f.text))
        and beside & _beside(f.text, _names(f.text, persons, speaker))
    ]
    return naming[0] if len(naming) == 1 else None


def _beside(text: str, names: set[str]) -> set[str]:
    """The words ``text`` says within ``NEAR`` words of any of ``names`` (stems, as
    ``nearness.content`` gives them), less those any sentence says."""
    words: set[str] = set()
    for name in names:
        for found in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
            before = _WORD.findall(text[: found.start()])[-NEAR:]
            after = _WORD.findall(text[found.end() :])[:NEAR]
            words |= content(without_cues(" ".join([*before, *after])))
    return {w for w in words if "'" not in w} - _ANY


def _names(text: str, persons: set[str], speaker: str) -> set[str]:
    """The names ``text`` gives a thing by ("changed to Telcel", "an account at Equity"): not
    a place, a being or a person of the scope, a time or a number."""
    return {
        name[0]
        for name in VALUE.finditer(text)
        if name[0] not in persons | {speaker}
        and not WHEN.fullmatch(name[0])
        and not name[0][0].isdigit()
        and not _PLACE_OR_BEING.search(text[: name.start()])
    }
