"""Retractions: a sentence that takes back earlier facts instead of stating one.

"Forget what I said about the trip to Rome, it's cancelled", "scratch the
race I mentioned", "that trip is off", "I'm not getting the bike" name a
topic; every stored fact on it (its words, or a near word: a trip is a
holiday, an itinerary; a race is a marathon) stopped being true. "I'm
single now", "we broke up" end every fact about a partner. A retraction
that only retracts is not kept as a fact; one that states the new state
("Carl is single now") is.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from reverie.store import Fact

from .attributes import keys
from .modifiers import modifiers
from .subjects import by_common_noun
from .third_person import word_set
from .words import MONTHS, UPPER, WEEKDAYS

__all__ = ["Topics", "item_left", "retraction_topics", "retracts"]


class Topics(NamedTuple):
    """What a retraction takes back: facts with one of ``words``, or with one of ``attributes``;
    ``qualifiers`` only tell one of several things of a kind ("the folding bike")."""

    words: frozenset[str]
    attributes: frozenset[str]
    keep: bool
    qualifiers: frozenset[str] = frozenset()


_FORGET = re.compile(
    # (or after a clause saying why: "The DNA test came back, ignore what I said about …")
    # (or "so": "pulled my hamstring too, so forget what I said about April")
    r"(?:^(?:\S+ )?|(?<=, )(?:so |and |but )?)(?:please )?(?:forget|scratch|scrap|ignore|disregard|cancel|drop|never mind)\b"
    r"(?: (?:what|everything|all)(?: \S+)? (?:said|told you|mentioned|wrote)(?: about)?)?"
    r"(?P<topic>[^,.;!]*)",
    re.IGNORECASE,
)
#: "The trip is off", not a person going away or off duty ("Maya and others are off to
#: Rome", "Carl is off sick") nor a state ("the heating is off again"): "off" ends the clause.
_OFF = re.compile(
    # (with "is" said short too: "the trip's off")
    r"(?:^|[,;:]\s)(?P<topic>[\w' ]{2,40}?)(?:(?: is| are| was|'s) (?:off(?=\s*(?:[,.;!?]|$|"
    r"(?:now|too|then|for good|for now|completely)\b))|cancelled|canceled|"
    # (or it came to nothing: "the land thing fell through")
    r"not happening|called off|not going ahead)| fell through| didn't work out)\b",
    re.IGNORECASE,
)
#: A plan left: "I've pulled out of the race", "dropped out of the course".
_PULLED_OUT = re.compile(
    r"\b(?:pulled out of|withdrew from|withdrawn from|dropped out of) (?:the|my|our|their) "
    r"(?P<topic>[^,.;!]+)",
    re.IGNORECASE,
)
_NOT_DOING = re.compile(
    r"\b(?:is|are|am|'s|'re) not (?:getting|buying|going to|doing|taking|having|running)"
    r"(?P<topic>[^,.;!]*)",
    re.IGNORECASE,
)
#: "I sold the old car", "we gave away the piano": what is gone (and, by its attribute, the
#: facts that named it otherwise: "the car" takes "a 2009 Skoda" with it).
_GONE = re.compile(
    r"\b(?:sold|gave away|got rid of) (?:the|my|their|our|his|her) "
    r"(?P<topic>[\w' -]+?)(?= for\b| to\b|[,.;!]|$)",
    re.IGNORECASE,
)
#: A thing of theirs by its name, ended: "binned Notion", "left Rappi last month", "the Bajaj
#: was stolen", "the Bancolombia account is closed" (a name, so no kind is needed to find its
#: line; not someone let off somewhere, "dropped Tom at school", nor left for a while, "left
#: Lagos for a week").
_THING = r"(?: (?:account|app|card|membership|subscription|plan|contract|one))?"
_NAME = rf"(?P<name>[{UPPER}][\w'-]*(?: [{UPPER}0-9][\w'-]*)*){_THING}"
_NAME_ENDED = re.compile(
    r"\b(?:sold|binned|ditched|dropped|quit|left|cancell?ed|closed|deleted|uninstalled|scrapped|"
    r"got rid of|gave up|gave back|stopped using|traded in|gave away) (?:the |my |our |their )?"
    rf"{_NAME}(?=[,.;!]|$| (?:last|this|yesterday|today|for good|in the end|finally|now|because|"
    r"cos|since|after|and|so|too|already)\b)|"
    rf"\b(?:[Tt]he|[Mm]y|[Oo]ur|[Tt]heir) {_NAME.replace('name', 'name2')} (?:(?:was|got|is|'s|"
    r"has been) (?:finally |just )?(?:stolen|nicked|sold|closed|cancell?ed|gone|dead|written off|"
    r"totall?ed|scrapped|binned)|(?:finally |just )?(?:died|gave up|packed up|gave out))\b"
)
_PARTNER_ENDED = re.compile(
    r"\b(?:(?:is|are|'s) single|ended things|broke up|split(?: up)?(?! (?:the|a|an|it|our|my|"
    r"their|his|her|them|into|between)\b)|separat(?:ed|ing)(?! (?:the|it|our|my|their|his|her|them)\b)|divorc(?:ed|ing)|"
    r"(?:no longer|not) together|divorce (?:came|went) through|"
    # (not out on their own, as the self-employed are: "I'm out on my own now")
    r"(?<!\bout )on (?:their|his|her|my) own now|(?:it's|it is) over (?:with|between)|called it quits|"
    r"went (?:our|their) separate ways|parted (?:ways|company)(?! with)|"
    # ("since the breakup I've the flat to myself": the end, by its noun)
    r"(?:since|after) (?:the|my|our) (?:break-?up|split|divorce|separation)|"
    # ("that relationship has ended, no hard feelings")
    r"(?:relationship|marriage|engagement) (?:has |is |was )?(?:ended|over))\b",
    re.IGNORECASE,
)
#: A partner named as an ex: "my ex Mia", "ex-girlfriend Mia", "Mia, my ex,".
_EX_NAMED = re.compile(
    rf"\b(?i:ex)(?:[- ](?:girlfriend|boyfriend|wife|husband|partner|fianc[eé]e?))? "
    rf"(?P<name>[{UPPER}][\w'-]+)|(?P<named>[{UPPER}][\w'-]+), (?:my|their|[{UPPER}][\w-]*'s) ex\b"
)
#: Near words: a retraction says "the trip", the fact said "holiday on Crete".
_NEAR = [
    frozenset(
        [
            "trip",
            "holiday",
            "vacation",
            "journey",
            "travel",
            "itinerary",
            "flight",
            "visit",
            "booked",
        ]
    ),
    frozenset(["race", "marathon", "triathlon", "run"]),
    frozenset(["party", "celebration", "dinner"]),
    frozenset(["bike", "bicycle"]),
    frozenset(["job", "work"]),
]
_SMALL = word_set(
    "the a an that this it what about said mentioned told wrote worked on we i they he she "
    "you me them their my our to of in for with and others thing stuff plan plans idea old "
    "new little big small bit part whole then now too anymore already though please"
)
_MENTIONED = re.compile(
    r"\b(?:\w+ and others|i|they|he|she|we|\w+) (?:mentioned|worked on|said|talked about)\b.*",
    re.IGNORECASE,
)
#: Where a topic's head noun ends: before what it is of, to or about ("the trip to Rome").
_AFTER_HEAD = re.compile(r"\b(?:to|of|in|at|with|for|on|from|about|near|by)\b", re.IGNORECASE)
#: A day or month that qualifies a head ("the Friday experiment"), no name of the topic's.
_WHEN = re.compile(rf"{WEEKDAYS}|{MONTHS}", re.IGNORECASE)


def retraction_topics(text: str) -> Topics | None:
    """What ``text`` takes back, or None when it is not a retraction."""
    if found := _FORGET.search(text):
        # (a topic that names its attribute, "the diet", takes back "has started keto")
        words = _topic(found["topic"], frozenset(), keep=False).words
        named = frozenset(k.attribute for k in keys(found["topic"]) if k.attribute in words)
        # (what is said after it is the claim that holds: "…, she's mostly pit bull and husky")
        after = text[found.end() :].strip(" ,.!")
        return _topic(found["topic"], named, keep=len(after.split()) >= 3)
    if found := _OFF.search(text):
        return _topic(found["topic"], frozenset(), keep=False)
    if found := _PULLED_OUT.search(text) or _NOT_DOING.search(text):
        return _topic(found["topic"], frozenset(), keep=True)
    if (found := _GONE.search(text)) and not by_common_noun(text, found.start()):
        attributes = frozenset(k.attribute for k in keys(found["topic"]))
        return _topic(found["topic"], attributes, keep=True)
    if (ended := _NAME_ENDED.search(text)) and not by_common_noun(text, ended.start()):
        name = ended["name"] or ended["name2"]
        return Topics(frozenset(w.casefold() for w in name.split()), frozenset(), keep=True)
    if _PARTNER_ENDED.search(text):
        return Topics(frozenset(), frozenset({"partner"}), keep=True)
    if ex := _EX_NAMED.search(text):  # "my ex Mia texted me": the line naming Mia is past
        return Topics(frozenset({(ex["name"] or ex["named"]).casefold()}), frozenset(), keep=True)
    return None


def retracts(topics: Topics, fact: str) -> bool:
    """Whether ``fact`` is one of those ``topics`` takes back."""
    if topics.attributes and any(k.attribute in topics.attributes for k in keys(fact)):
        return True
    words = {w.casefold() for w in re.findall(r"[\w'-]+", fact)}
    if any(k.attribute == "trade" for k in keys(fact)):
        # (a trade is no thing its noun is said with: "sold my old city bike" ends no "bike
        # mechanic")
        words -= modifiers(fact)
    return bool(_folded(topics.words) & _folded(words))  # ("work" is what "works at" says)


def _folded(words: frozenset[str] | set[str]) -> set[str]:
    """One word for "work", "works" and "working", "sings" and "singing", "swims" and
    "swimming" (not for a short one: "run" is no "runs too")."""
    return {_stem(w) for w in words}


def _stem(word: str) -> str:
    """``word`` less a plural's or a verb's "s", a participle's "ing" (and the consonant it
    doubled, "swimm"), and a last "e" ("dances", "dancing": "danc")."""
    word = word.removesuffix("s") if len(word) > 4 else word
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
        word = word[:-1] if len(word) > 3 and word[-1] == word[-2] else word
    return word.removesuffix("e") if len(word) > 4 else word


def _topic(topic: str, attributes: frozenset[str], *, keep: bool) -> Topics:
    """What ``topic`` takes back: a line must hold its head noun or a near word of it, or a
    name it says ("the trip to Rome": trip, Rome); a word that only qualifies the head ("the
    friday experiment" is no line about Friday) tells one of several things apart."""
    topic = _MENTIONED.sub("", topic)
    # (the head is the last word before what follows it: "the trip to Rome", "the bit about")
    phrases = [_content(p) for p in _AFTER_HEAD.split(topic)]
    head = next((p[-1] for p in phrases if p), None)
    if head is None:
        return Topics(frozenset(), attributes, keep)
    qualifiers = {w for p in phrases for w in p[:-1]}
    names = {w for w in qualifiers if w[0].isupper() and not _WHEN.fullmatch(w)}
    words = {w.casefold() for w in {head, *names, *(p[-1] for p in phrases[1:] if p)}}
    near = {n for w in words for group in _NEAR if w in group for n in group}
    return Topics(
        frozenset(words | near), attributes, keep, frozenset(w.casefold() for w in qualifiers)
    )


def _content(phrase: str) -> list[str]:
    """The content words of ``phrase``, in order, less a possessive's "'s" ("Poi's breed")."""
    words = [w.removesuffix("'s") for w in re.findall(r"[\w'-]+", phrase)]
    return [w for w in words if w.casefold() not in _SMALL and len(w) > 2]


#: A line listing what the speaker has: "Fumiko has two bikes, a Bridgestone city bike and a
#: Dahon folding bike for the train" (its count, if said, then the items).
_LISTED = re.compile(
    r"^(?P<has>.*?\b(?:has|have|owns)) (?:(?:two|three|four|\d+) [a-z]+, )?(?P<items>.+?)[.!]*$"
)


def item_left(topics: Topics, line: Fact) -> Fact | None:
    """``line`` less the one item of its list of things of one kind that ``topics`` name by
    a word no other item has ("the folding bike" of "a Bridgestone city bike and a Dahon
    folding bike"): what the speaker still has; None when the line lists no such items."""
    if (listed := _LISTED.match(line.text)) is None:
        return None
    items = [i for i in re.split(r",? and |, ", listed["items"]) if i]
    words = [_folded(set(re.findall(r"[\w'-]+", i.casefold()))) for i in items]
    common = set(words[0]).intersection(*words[1:])
    told = _folded(set(topics.words | topics.qualifiers))
    hit = [i for i, w in enumerate(words) if (told - common) & w]
    if len(items) < 2 or not told & common or len(hit) != 1:
        return None  # (not items of the kind gone: "their own mare, Bramble")
    left = [item for i, item in enumerate(items) if i != hit[0]]
    said = ", ".join(left[:-1]) + (" and " if len(left) > 1 else "") + left[-1]
    return Fact(text=f"{listed['has']} {said}.", date=line.date, sources=line.sources)
