"""Someone the speaker has by a tie that is no family, gone: "the lodger's given notice",
"the flatmate moved out", "my technician resigned".

A line names them by that tie and their name ("Bronwyn's lodger Shane has the
granny flat …"); the news of their leaving names the tie alone, so no key, value
or name of the line is said again, and the line stays true in memory. The tie is
whatever word the line names them by, not a list of ties: a lodger, a tenant, an
apprentice, a neighbour. News that describes them instead ("the night carer quit",
"the nurse who came in the mornings had to leave") finds the one person named in
the speaker's lines by a word of the description ("a man named Reda stays with him
at night"), and news that names them ("Dr Kamau retired") the lines naming them.
Family and partners are not: a son who moves out is still a son, and a partner's
leaving is a break-up, said in its own words. See docs/design.md, "Facts that stay
true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .nearness import content
from .words import PREMISES, RELATIVES

__all__ = ["member_left", "someone_left"]

#: Gone, as it is said after who: "'s given notice", "moved out", "quit", "retired", "has gone
#: back to Poland" (not "is moving out in May": a plan; nor "gone to Spain for a week").
_GONE = (
    r"(?:'s| has| have)? (?:just |finally |now )?"
    r"(?:given (?:(?:his|her|their|in (?:his|her|their)) )?notice|handed in (?:his|her|their) notice|"
    # (quitting a thing is no leaving: "Helena quit her dance class"; a job is, "quit his job")
    r"moved out|moved away|quit(?! (?:her|his|the|my|their|our|an?) (?!job|post|position)\b)|"
    # (or moved to another town: "Tania moved to Perth", not "moved to nights")
    r"resigned|retired|(?:went|gone|moved) back (?:to|home)\b|moved (?:up |down |over )?to (?-i:[A-Z])|"
    # (for long, not for a day: "went off on maternity leave", "had to leave, her mother is sick")
    r"(?:went|gone) (?:off )?on (?:[a-z]+ )?leave\b|"
    # (or gone to be their own boss: "has gone to open his own shop", "leave to open her own
    # studio", as some write it)
    r"(?:left|leave|gone|went) to (?:open|start|set up|launch) (?:his|her|their) own\b|"
    r"(?:had to leave|(?:went|gone|go|goes) away|stopped(?: coming| working)?)"
    r"(?=[,.!;]|$| (?:last|this|on|in|yesterday|today|to)\b)|"
    # (gone for good, not for a week or a while: "gone to Spain for a week", "left his bike";
    # or for what keeps them away: "left for a job in Warsaw", "left for a hospital job")
    # (or off doing a thing for long: "gone backpacking through Europe", "gone travelling",
    # "gone off travelling for a year")
    r"(?:left|gone)(?= for good|[,.!;]|$| (?:last|this|on|in|yesterday|today|us|me)\b|"
    r" (?:off )?[a-z]{3,}ing (?:through|around|in|across|for (?:a |the |a few |\w+ )?"
    r"(?:years?|months|semester))\b|"
    r" for (?:a |an |the |her |his |their )?(?:new )?(?:[a-z]+ )?"
    r"(?:job|work|uni|university|college|studies)\b)|"
    # (or leaving now, for as long: "is leaving for an Erasmus year in Valencia")
    r"(?:is |are )?leaving for (?:a |an |the |her |his |their )?(?:[\w-]+ )?"
    r"(?:job|uni|university|college|studies|year|semester)\b)"
)
_LEAD = r"^(?:(?i:well|so|and|also|oh|but),? )*"
#: Someone by a tie, gone: "the lodger's given notice", "Our flatmate moved out", "my
#: technician resigned", "The lodger has gone back to Poland".
_LEFT = re.compile(
    rf"{_LEAD}(?:[Tt]he|[Oo]ur|[Mm]y|(?P<whose>[A-Z][\w-]*)'s) "
    # (described, maybe: "the night carer", "the nurse who came in the mornings")
    # (whom they did it for is the speaker, by name: "the young man who was helping Kiprono")
    # (or by name too: "my flatmate Sara moved out")
    # (premises are no one: "the bakery has moved to Baner" moves the business)
    rf"(?!(?:{PREMISES})\b)(?:(?P<mod>[a-z]+) )?(?P<tie>(?!(?:{PREMISES})\b)[a-z][\w-]+)"
    r"(?: (?P<name>[A-Z][\w-]+))?"
    r"(?: (?:who|that) (?P<who>[a-z][\w ']*?))?"
    rf"{_GONE}"
)
#: Someone by name, gone: "Dr Kamau retired", "Tunde moved out".
#: (with what else they did first: "Bilal got married and moved out")
_NAMED_GONE = re.compile(
    rf"{_LEAD}(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Miss)\.? )?[A-Z][\w-]+)(?:(?: [a-z]+){{1,3}} and)?{_GONE}"
)
#: Ties that outlive a move or a job: family, partners, friends (of the relations people are
#: named by, all but those of a home or a workplace shared).
_LASTING = re.compile(rf"(?:{RELATIVES})", re.IGNORECASE)
_SHARED = re.compile(
    r"boss|colleague|co-?worker|neighbou?r|(?:room|flat|house|class|team|band|work)?mate"
)


def _lasting(tie: str) -> bool:
    """``tie`` outlives a move or a job: family, partners, friends, not a home or a workplace
    shared ("housemate", "colleague")."""
    return bool(_LASTING.fullmatch(tie)) and not _SHARED.fullmatch(tie)


def someone_left(text: str) -> bool:
    """``text`` tells that someone the speaker has by a tie left: a change, however little
    else it says ("the nurse who came in the mornings had to leave")."""
    return bool(_LEFT.match(text) or _NAMED_GONE.match(text))


def member_left(older: Sequence[Fact], new: Fact, speaker: str) -> list[tuple[Fact, Fact | None]]:
    """The lines of ``older`` naming the one the speaker's ``tie`` in ``new`` is, who left:
    the one line naming their tie by name ("Bronwyn's lodger Shane …"), else those naming
    the one person whom the description's words (``nearness.content``) are said of, or
    the one ``new`` names ("Dr Kamau retired"), each with what of it stays; none when it is
    no one, or two."""
    found = _LEFT.match(new.text)
    if not found and (by_name := _NAMED_GONE.match(new.text)):
        return _named_left(older, by_name["name"], speaker)
    if not found or found["whose"] not in (None, speaker):
        return []
    tie = found["tie"]
    if _lasting(tie):
        return []
    if found["name"]:  # ("my flatmate Sara moved out": the lines naming her, as by name)
        return _named_left(older, found["name"], speaker)
    named = re.compile(rf"(?:\b{re.escape(speaker)}'s|\btheir) {re.escape(tie)} [A-Z][\w-]*\b")
    lines = [f for f in older if named.search(f.text)]
    if lines:
        return [(lines[0], None)] if len(lines) == 1 else []
    described = _stems(content(" ".join(filter(None, (found["mod"], tie, found["who"])))))
    # (someone named inside a line, not the speaker, nor anyone by a family tie: "a man named
    # Reda stays with him at night", not "their husband Hesham works nights"; the lines
    # holding most of the description: "the night driver" is who "drives it at night")
    fit = [(f, len(described & _stems(content(f.text)))) for f in older if _others(f.text, speaker)]
    most = max((n for _, n in fit), default=0)
    lines = [f for f, n in fit if n == most > 0]
    # (two lines, if both name one person: "… a man named Sayed drives it at night", "nights
    # are still for Sayed")
    if not lines or not set.intersection(*(_others(f.text, speaker) for f in lines)):
        return []
    return [(f, None) for f in lines]


def _stems(words: set[str]) -> set[str]:
    """``words`` by their first five letters ("driver" and "drives", "night" and "nights"),
    and a doer's or a doing's by its root too: "helper" and "helping" (not "help")."""
    roots = {f"{m[1]}-" for w in words if (m := _DOER.fullmatch(w))}
    return {w[:5] for w in words} | roots


#: A doer's or a doing's word, by its root: "helper", "helping", "cleaners".
_DOER = re.compile(r"([a-z]{4,}?)(?:ing|ers?)")


def _named_left(older: Sequence[Fact], name: str, speaker: str) -> list[tuple[Fact, Fact | None]]:
    """The lines of ``older`` naming ``name`` (who left: "Dr Kamau retired") as someone of the
    speaker's by no family tie ("Wairimu's doctor is Dr Kamau …"), each with what stays of
    it when it only says they lived with them ("lives in Harehills with their housemate
    Tunde" lives in Harehills); none when a line names them by a family tie ("my son Kofi"
    who moved out is still a son), or they are the speaker."""
    last = name.split()[-1]
    if last == speaker or any(last in _family(f.text) for f in older):
        return []
    with_them = re.compile(rf",? with (?:their|his|her|our) (?:[\w-]+ ){{0,2}}{re.escape(last)}\b")
    return [
        (f, Fact(text=rest, date=f.date, sources=f.sources) if rest != f.text else None)
        for f in older
        if last in _others(f.text, speaker)
        for rest in [with_them.sub("", f.text)]
    ]


#: A name inside a line, past its first word.
_NAMED = re.compile(r"(?<=\S )([A-Z][a-z][\w-]*)\b")


def _others(text: str, speaker: str) -> set[str]:
    """The names inside ``text`` but the speaker's and those given by a family tie ("their
    husband Hesham")."""
    return {m[1] for m in _NAMED.finditer(text)} - _family(text) - {speaker}


def _family(text: str) -> set[str]:
    """The names ``text`` gives by a family tie ("their husband Hesham"; not a tie of a home or
    a workplace shared, "their housemate Tunde")."""
    return {
        m[2]
        for m in re.finditer(rf"\b((?i:{RELATIVES}))s? ([A-Z][\w-]*)", text)
        if _lasting(m[1].lower())
    }
