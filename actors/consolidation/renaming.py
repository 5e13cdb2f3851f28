"""A thing given a new name: which line held the old one, and what the new one is.

A rename is said in a closed set of words ("renamed", "rebranded", "the new
name is", "we're … now", "Lanternfall it is"); the new name follows them. The
old name is found two ways. Where the turn says it ("Pho Saigon Corner
sounds dated, so from the 1st we're Little Mekong"; "Mangere Colts is gone,
we're the Southside Sharks now"), the line of the speaker's that holds that
name is the one renamed, whatever words it was said in ("at a stall under the
name Akos Bakes"). Where it does not, the one line holding a name of the same
kind ("Ness Water Distillery" for "rebranded as Glen Corran Distillery"), or
else the line that calls something by a name ("a podcast called Hop Talk") and
names the thing the turn renames. A rename by someone else ("the shop across
the street"), or in a line of another person's, takes nothing. See
docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from typing import NamedTuple

from reverie.store import Fact, known_word

from .third_person import word_set
from .words import DOCTOR_TITLES, MONTHS, RELATIVE, RELATIVES, UPPER, WEEKDAYS, WHEN

__all__ = [
    "SMALL_WORDS",
    "Renamed",
    "corrected_name",
    "new_name",
    "renamed",
    "renamed_by_meaning",
    "renames",
    "renaming",
    "says_renamed",
]

#: Words too small to say what a fact is about.
SMALL_WORDS = word_set(
    "the a an it its it's is was are and or to of in on at for my their his her our this that "
    "with from by now actually so just also correction small typo others"
)
#: A name: capitalised words, joined by "&" too ("Foam & Folklore", "Smith & Daughters").
_NAME = (  # (and the small words inside a name: "Las Lectoras del Paraná", "Bank of Ireland",
    # "Tide and Thistle")
    # (not a closing quote: "the club 'Black Bishop'")
    # (or a particle joined to the word after it: "Bayt al-Ward", "Dar el-Salam")
    rf"[{UPPER}](?:[\w'-]*[\w-])?(?:(?: &| (?:and|de|del|della|da|di|do|dos|du|la|le|van|von|der|of|y))? "
    rf"[{UPPER}0-9](?:[\w'-]*[\w-])?| [a-z]{{1,3}}-[{UPPER}][\w'-]*)*"
)
#: Not a day or a month alone (a name may open with one: "May Roastery"), nor a sum in a
#: currency's letters ("the loaf is now Rs 180", "Ksh 50", "R$ 45").
_NOT_A_WHEN_OR_SUM = (
    rf"(?!(?i:{WEEKDAYS}|{MONTHS})s?\b(?! [{UPPER}]))(?![{UPPER}][A-Za-z]{{0,2}}\$?\.? ?\d)"
)
#: A name may be quoted: "we are 'Kita no Kaze'".
_QUOTE = "['\"‘“]"
_RENAME = re.compile(
    r"\b(?:new name|renamed|rebranded|retitled|now called|officially (?:called |named )?[A-Z]|"
    r"(?:called|calling (?:it|them)) (?:the )?[A-Z][\w' -]* now|chang\w* (?:it|them) to [A-Z]|"
    # ("I'm renaming the truck to Jollof Junction")
    r"renaming (?:(?:the|our|my|it|them) )?(?:[\w-]+ )?(?:to|as) [A-Z]|"
    r"\b(?:rename|call) (?:ourselves|themselves) (?:the )?[A-Z]|\brename (?:us|it|them) [A-Z]|"
    r"sign(?:board)? (?:now )?(?:says|reads)|[A-Z][\w'-]* it is\b|"
    # ("we're rebranding, it'll be Bayt al-Ward": the name a rebrand under way gives)
    r"\b(?:rebranding|renaming)\b[^.!?]*(?:'ll| will) be [A-Z]|"
    # ("Now the studio is called Lumbre Estudio", "now it's called Kabati")
    r"\b[Nn]ow,? (?:(?:the|our|my|their|it|it's) )?(?:[\w-]+ ){0,3}?(?:is |are |'s )?called [A-Z]|"
    # ("we changed our crew name to Neon Hanbok")
    r"chang\w* (?:the |our |my |its |their )?(?:[\w-]+(?:'s)? )?name to [A-Z]|"
    rf"(?:is|are|'re) now {_QUOTE}?[A-Z]|name is now|(?:is|are|'re|'s|will be) (?:the )?{_QUOTE}?{_NOT_A_WHEN_OR_SUM}{_NAME}"
    rf"{_QUOTE}? (?:now|from (?:now on|this \w+|next \w+))|"
    # ("so now we're the Coyotes de Roma.")
    rf"\bnow,? (?:(?:\w+ ){{0,3}}?(?:is|are|'re)|(?:\w+ ){{0,2}}?\w+'s) (?:the )?{_QUOTE}?{_NOT_A_WHEN_OR_SUM}{_NAME}{_QUOTE}?[.!]?$|"
    # ("From now on we are 'Nordlys'", "Solkorn from now on.")
    rf"(?i:from (?:now on|this \w+|next \w+|today|{WEEKDAYS}|{MONTHS})),? (?:\w+ ){{0,3}}?\w+"
    r"(?:'re| are| is|'s| will be)(?: called)? "
    rf"(?:the )?{_QUOTE}?[A-Z])|"
    rf"^\s*{_QUOTE}?{_NOT_A_WHEN_OR_SUM}{_NAME}{_QUOTE}? from now on\b",
)
#: A turn that renames something, in any of its sentences ("We're rebranding. … we're X").
_RENAMING = re.compile(
    r"\b(?:renam|rebrand|retitl)\w*|\b(?:new|old) name\b|"
    # ("changed the truck's name", "changed the band name")
    r"\bchang\w* (?:the |our |my |its |their )?(?:[\w-]+(?:'s)? )?name\b|"
    # ("Efua and I agreed the podcast name was too niche")
    r"\b(?:the|our) (?:[a-z]+ )?name (?:was|is|felt|sounded|sounds)\b",
    re.IGNORECASE,
)
_NEW_NAME = re.compile(
    # (or what it goes out "as": "invoices now go out as Baltic Lingo")
    # (or after a colon: "a new name with the new sign: Salong Norrsken")
    # (or what a pet is now: "renamed the dog, he's Taco now")
    r"(?:(?:\b(?:called|named|calling (?:it|them)|name is|name(?: also| too)?[:,]|to|as|officially|(?:is|are|'re) now|is|are|'re|be|[Ii]t's|[Hh]e's|[Ss]he's|"
    # (or "voted to rename ourselves Taff Vale Ten")
    # (its thing's noun, not an article: "rebranded the DJ business" gives no name "DJ")
    r"says?|reads?|(?:renamed|retitled|rebranded|rename) (?:the |our |my |their )?"
    r"(?!(?:the|our|my|their)\b)[a-z]+|"
    # (or a passive one: "the home's been taken over and renamed Tamar House")
    r"(?:been|was|got|and) (?:renamed|retitled|rebranded)|"
    # (or "voted to call ourselves the Kitchen Kings")
    r"call (?:ourselves|themselves))|:)\s+"
    rf"(?:the )?{_QUOTE}?){_NOT_A_WHEN_OR_SUM}(?P<name>{_NAME})"
)
#: A name chosen: "Emberfall is cool but no, Lanternfall it is."
_CHOSEN = re.compile(
    rf"(?P<name>{_NAME}) it is(?=[.!,;]|$)|(?=^{_QUOTE}?{_NAME}{_QUOTE}? from now on\b)"
    rf"{_QUOTE}?(?P<first>{_NAME})"
)
#: What a name follows: "called", or the answer to "What's it called?" (``extractive``).
_CALLED = (
    r"(?:call(?:ed|ing)?|named) (?:him|her|it|them)|called|named|codenamed|(?:by|under) the name|"
    # (or what a group of theirs is: "We're Lakehead Harmony", "The brand is Medova Khata")
    r"(?:and others|[Ww]e) (?:are|'re)|(?:[Bb]rand|[Nn]ame) is|"
    r"(?:called|name)\?\", answered"
)
_NAME_AFTER = rf"\s+{_QUOTE}?(?:the )?(?P<name>{_NAME})"
#: (or a name in apposition: "coaches a team in Kumasi, the Zongo Stars"; not the subject of a
#: clause, "…, the Drive has the best coffee")
_OLD_NAME = re.compile(
    rf"(?:\b(?:{_CALLED})|(?P<apposed>,(?= the [A-Z]))){_NAME_AFTER}(?(apposed)(?=[.,;!]|$))"
)
#: A thing that is not the speaker's: "the shop across the street renamed itself Boba Lab".
_ELSEWHERE = re.compile(
    r"\b(?:across the (?:street|road)|next door|opposite|down the (?:street|road)|another|"
    r"other|itself|themselves)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _elsewhere(said: str, renaming: str) -> bool:
    """A rename of someone else's: said of another place (``said``, "It's Boba Lab now"
    after "the shop across the street renamed itself"), or by a sentence that names another
    before its rename ("another café renamed"; not "we had to rename, another team had the
    same name", nor "a new name, Kusi Kusi, because another group used ours")."""
    return any(_ELSEWHERE.search(_before_cue(text)) for text in (said, renaming)) or bool(
        re.search(r"\b(?:itself|themselves)\b", renaming)
    )


def _before_cue(text: str) -> str:
    """``text`` up to the words that say a rename, if it says one."""
    cue = _RENAMING.search(text)
    return text[: cue.start()] if cue else text


def says_renamed(text: str) -> bool:
    """``text`` says in so many words that something was renamed ("renamed", "a new name"),
    not only that it is called something now (a thing just bought may be)."""
    return bool(_RENAMING.search(text))


def renames(text: str) -> bool:
    """``text`` gives something a new name ("the sign says Brasa", "Lanternfall it is")."""
    return bool(_RENAME.search(text))


def new_name(text: str, turn: str, said: str) -> tuple[re.Pattern[str], str] | None:
    """Where a line holds the name ``text`` (``said`` with its opener, in ``turn``) replaces,
    and the new name; None when it renames nothing of the speaker's."""
    name = _named(text)
    # (what is renamed may be said in the turn's sentence that says so: "Our band got a new
    # name this week: we're Strada Brass now")
    sentence = renaming(turn)
    # (not someone else's: "the shop across the street renamed itself. It's Boba Lab now";
    # another sentence may speak of others: "Three other salons had the old name")
    # (and a rename the turn's own words make: "I think I am Chivas now", written "… they
    # are Chivas now", names the speaker's side, no thing of theirs)
    if (
        not renames(said)
        or (turn and not (sentence or any(map(renames, _SENTENCE.split(turn)))))
        or _elsewhere(text, sentence)
        or name is None
    ):
        return None
    return _old_name(f"{text[: name[0]]}. {sentence}"), name[1]


def _named(text: str) -> tuple[int, str] | None:
    """Where ``text`` says a new name, and the name: after its words ("is now"), or chosen
    ("Lanternfall it is", "'Solkorn' from now on")."""
    # (the choice said last is the one made: "Joost says I should switch to Ironman Hamburg,
    # but no, Almere it is")
    found = _CHOSEN.search(text) or _NEW_NAME.search(text)
    if found is None:
        return None
    group = "first" if found.re is _CHOSEN and found["first"] else "name"
    name = found[group].rstrip("'’")
    if found.re is _CHOSEN and " " not in name and known_word(name.lower()):
        return None  # a word of the language chosen, no name: "So farming it is, here in Tandil"
    if found.re is _CHOSEN and WHEN.match(name):
        return None  # a day chosen, no name: "Tuesdays and Fridays it is"
    return found.start(group), name


def renaming(turn: str) -> str:
    """The sentence of ``turn`` that says something was renamed, or ""."""
    return next((s for s in _SENTENCE.split(turn) if _RENAMING.search(s)), "")


class Renamed(NamedTuple):
    """The line a rename takes, the old name in it, and the new name."""

    line: Fact
    was: str
    name: str


def _given(fact: str, turn: str) -> tuple[str, str] | None:
    """The new name ``fact`` gives and the sentence of ``turn`` that says it; None when it
    gives none, or the rename is of something not the speaker's ("the shop across the street
    renamed itself")."""
    if (name := _named(fact)) is None:
        return None
    said = next((s for s in _SENTENCE.split(turn) if name[1] in s), "")
    return None if _elsewhere(said, renaming(turn) or said) else (name[1], said)


def renamed(
    fact: str, turn: str, lines: Sequence[Fact], persons: Collection[str] = ()
) -> Renamed | None:
    """The one line of ``lines`` holding the name that ``fact`` (said in ``turn``) renames,
    where the sentence that says the new name says the old one too (not a person of
    ``persons``: "Diego and I decided the brand is now Casa Tlaque"); else None."""
    if not renaming(turn) or (given := _given(fact, turn)) is None:
        return None
    new, said = given
    olds = {
        m[0]
        for m in re.finditer(rf"(?<![\w'-]){_NOT_A_WHEN_OR_SUM}{_NAME}", said)
        if m.start() > 0 or m.end() < len(said)
    } - {new, *persons}
    holding = [
        (line, was)
        for line in lines
        for was in olds
        if not (was in new or new in was)
        and re.search(rf"(?<=\S )(?:the )?{re.escape(was)}(?![\w'-])", line.text)
    ]
    if not holding and " " in new:  # or the name of the same kind ("… Distillery")
        kind = re.escape(new.rsplit(" ", 1)[1])
        holding = [
            (line, m[0])
            for line in lines
            # (a name answered too: 'answered "Kowhai Hill Honey"')
            for m in re.finditer(
                rf"(?:(?<=\S )|(?<=\S \"))(?:[{UPPER}][\w'-]* )+{kind}(?![\w'-])", line.text
            )
            if m[0] != new
        ]
    if not holding and " " in new:  # or a name sharing a word ("Darling Downs Dynamos")
        words = {w for w in new.split() if len(w) > 3}
        holding = [
            (line, m[0])
            for line in lines
            for m in re.finditer(rf"(?<=\S ){_NAME}", line.text)
            if " " in m[0]
            and m[0] != new
            and words & set(m[0].split())
            # (not where they are: "lives in Roma Norte" for "we're the Coyotes de Roma")
            and not _PLACED.search(line.text[: m.start()])
        ]
    if len(holding) != 1:
        return None
    line, was = holding[0]
    return Renamed(line, was, new)


#: A name said where something is, not what it is called: "in Roma Norte".
_PLACED = re.compile(r"\b(?:in|on|to|from|near|around|outside)(?: the)? $")
#: A name said as what one belongs to, works or trades as: "at Cuillin Veterinary", "with the
#: Te Aro Tuis", "trading as Patel Sparks" (not a thing had, "for an XP-Pen", nor a title's
#: person, "with Mrs MacInnes").
_BELONGS = re.compile(
    rf"\b(?:at|with|as|for|joined) (?:the )?(?!(?:Mrs|Mr|Ms|Miss|Dr|Prof)\b\.?){_NOT_A_WHEN_OR_SUM}"
    # (not a currency's letter: "sells it for R$45")
    rf"(?P<name>{_NAME})(?![$€£¥₵])"
)


def renamed_by_meaning(
    fact: str,
    turn: str,
    lines: Sequence[Fact],
    persons: Collection[str],
    nearest: Callable[[Fact, Sequence[Fact]], int | None],
) -> Renamed | None:
    """The line holding the name ``fact`` (said in ``turn``) replaces when no word of the
    turn points at it ("the practice got bought by a group, we're Harbour Vets now" of
    "… a veterinary nurse at Cuillin Veterinary in Portree"): the one line of the speaker's
    naming what they belong to (``_BELONGS``), not a person of ``persons``, or of several
    the one ``nearest`` in meaning to the sentence that says the new name; else None."""
    if not renames(fact) or (given := _given(fact, turn)) is None or not given[1]:
        return None
    new, said = given
    if any(re.search(rf"(?<![\w'-]){re.escape(new)}(?![\w'])", line.text) for line in lines):
        return None  # a name they already had, chosen again: "Campinas it is"
    holding: list[tuple[Fact, str]] = []
    for line in lines:
        names = [
            m["name"]
            for m in _BELONGS.finditer(line.text)
            # (nor whose something is: "at Rajesh's day rate")
            if m["name"] not in persons
            and not m["name"].endswith("'s")
            and not (m["name"] in new or new in m["name"])
        ]
        if len(names) == 1:
            holding.append((line, names[0]))
    # (of several, the one naming what the turn says was renamed: "Rebranded the DJ business"
    # of "weddings as DJ Kwamzy"; else the nearest in meaning)
    about = _words(renaming(turn)) - _words(new)
    if len(sharing := [h for h in holding if about & _words(h[0].text)]) == 1:
        holding = sharing
    if len(holding) > 1:
        found = nearest(Fact(text=said), [line for line, _ in holding])
        holding = [] if found is None else [holding[found]]
    return Renamed(*holding[0], new) if holding else None


def _words(text: str) -> set[str]:
    """The words of ``text`` that may say what it is about, folded ("DJ", "business")."""
    return {w.casefold() for w in re.findall(r"[\w'-]{2,}", text)} - SMALL_WORDS


def _old_name(said: str) -> re.Pattern[str]:
    """Where a line holds the name a rename replaces: after "called" ("a shop called
    Petalia"), or after the thing ``said`` renames ("rebranded the clinic, it's …" →
    "Nour's clinic is Lumina Dental", "The band is called …" → "a rock band, Los Pampeanos",
    "the label is now …" → "under their label Kaftan Kulture")."""
    # (a sentence's first word too: "Club director decided new name")
    words = re.findall(r"(?:^|(?<=[.!?] ))[A-Z][a-z]{3,}\b|\b[a-z]{4,}\b", said)
    things = [w.lower() for w in words if w.lower() not in SMALL_WORDS]
    if not things:
        return _OLD_NAME
    named = "|".join(map(re.escape, things))
    # (the thing's noun opening its name: "Project Falcon" for "rebranded the project")
    titled = "|".join(re.escape(t.capitalize()) for t in things)
    return re.compile(
        # (or what they run: "runs Fresh Fade Barbershop in Adum" for "the shop")
        # (or what they belong to: "treasurer of our Mahila Mandal")
        # (and where, between: "runs the debate club here, Minerva Debate")
        rf"(?:(?P<after>\b(?:{_CALLED}|(?:{named})(?:'s name)? is|(?:{named})(?:'s)? name|(?:{named})(?: here| there)?,?|"
        rf"{titled}|runs?|owns?|"
        # (or whom they play with: "plays five-a-side on Tuesday nights with the Landore Lions")
        r"plays? (?:[\w'-]+ ){0,5}?(?:for|with)|of (?:our|their|my|his|her))|"
        # (a name in apposition after a comma, "a team in Kumasi, the Zongo Stars"; not the
        # subject of a clause, "…, the Outlander does the job")
        r"(?P<apposed>,(?= the [A-Z])))"
        rf"\s+{_QUOTE}?(?:the )?|(?<=\S ))(?P<name>{_NAME})"
        # (or the name before the thing, in apposition: "Fanfara Veche, a little … band")
        # (or "…, that's our men's group", "Vachan Katta, their reading group")
        rf"(?(after)|(?=, (?:an?|(?:that's )?(?:our|my|their|his|her)) (?:[\w'-]+ ){{0,3}}(?:{named})\b))"
        r"(?(apposed)(?=[.,;!]|$))"
    )


#: A name a correction gives a thing: "the goats are Alpines", "the vines are actually Rară
#: Neagră", "my bike is a Merida".
_CORRECTED = re.compile(
    # (or its own clause: "my father checked and the vines are actually Rară Neagră")
    # (or, after a comma, a thing by its noun alone, and where it is: "got the ground wrong
    # before, touch is at Sturges Park")
    rf"(?:^(?:Correction: )?|, |\band )"
    # (or someone's by a pronoun, "his teacher is Ms Kearney"; "her name is …" is a person's)
    rf"(?:(?:[Tt]he|[Mm]y|[Oo]ur|[{UPPER}][\w-]*'s|[{UPPER}][\w-]* and others') |"
    rf"(?:[Hh]is|[Hh]er|[Tt]heir) (?!name\b)|(?<=, )(?=[a-z]+ is at ))"
    # (or its name: "the dog's name is Sansón")
    r"(?P<thing>[a-z]+(?: [a-z]+){0,3}?)(?:'s name)? (?:is|are|was|were) (?:actually |really |in fact |at )?"
    rf"(?:an? |the )?{_NOT_A_WHEN_OR_SUM}(?P<name>{_NAME})(?=(?: this \w+)?(?:[,.;!]|$)| not\b)"
)


def corrected_name(text: str) -> tuple[re.Pattern[str], str] | None:
    """Where a line holds the name a correction (``text``) replaces, and the new name: the
    name said just before the thing's word ("14 Saanen goats", "Cherokee Purple from seed"),
    or one sharing a word with the new name ("Fetească Neagră" for "Rară Neagră"); None when
    ``text`` names no thing anew."""
    if (found := _CORRECTED.search(text)) is None:
        return _person_renamed(text)
    things = [w.removesuffix("s") for w in found["thing"].split() if w not in SMALL_WORDS]
    name = found["name"]
    if not things or not re.search(r"[a-z]", name):
        return None
    # (a thing known by whose it is: "the group is Coach Bekele's", "Coach Tesfaye's group")
    whose = "'s" if name.endswith("'s") else ""
    name = name.removesuffix("'s")
    if name.endswith("s") and not name.endswith("ss") and found["thing"].endswith("s"):
        name = name[:-1]  # ("the goats are Alpines": "Alpine goats")
    thing = "(?:" + "|".join(map(re.escape, things)) + ")s?"
    shared = [re.escape(w) for w in name.split() if len(w) > 3]
    alike = rf"|(?:[{UPPER}][\w-]* )*(?:{'|'.join(shared)})(?: [{UPPER}][\w-]*)*" if shared else ""
    # (a name of words alone, not whose: "Marisol's 14 Saanen goats" is "Saanen"; nor an
    # article, "The farm")
    plain = (
        rf"(?!(?:The|A|An|My|Our|Their|His|Her|This|That)\b)[{UPPER}][\w-]*(?: [{UPPER}][\w-]*)*"
    )
    # (or just after it: "Ernesto's dog Sultán", "a dog called Sultán")
    # (or said the same way: "the farm is at Sokode" for "the farm is at Kpetoe")
    after = "|".join(
        rf"(?<=\b{re.escape(w)} )|(?<=\b{re.escape(w)} called )|(?<=\b{re.escape(w)} is at )"
        for w in things
    )
    # (or, a person's by their title, whoever has that title: "my dentist is Dr Whitford" of
    # "appointment with Dr Whitcombe")
    titled = f"|{title}{plain}" if (title := _title_of(name)) else ""
    return re.compile(
        rf"(?<![\w'-])(?P<name>{plain}(?={whose}(?: [a-z]+){{0,2}} {thing}\b)|(?:{after}){plain}{alike}{titled})"
        + (r"(?![\w-])" if whose else r"(?![\w'-])")
    ), name


#: A person's title before their name.
_TITLES = "Miss|Mrs|Mr|Ms|Dr|Prof|Professor"
#: The titles that say one kind of person, by the title a name is given with.
_ONE_KIND = (DOCTOR_TITLES, "Mr", "Ms|Mrs|Miss", "Prof|Professor")


def _title_of(name: str) -> str:
    """The titles of the kind of person ``name`` is titled as ("Dr Laird": any doctor's), as
    a pattern; "" when it has none."""
    title = re.match(rf"({'|'.join(_ONE_KIND)})\.? ", name)
    if title is None:
        return ""
    kind = next(titles for titles in _ONE_KIND if title[1] in titles.split("|"))
    return rf"(?:{kind})\.? "


#: A person's name corrected by whose it is: "his name is Anan", "I wrote her name wrong,
#: it's Miss Glenda", "wrote my roommate's name wrong, it's Hiwot".
_PERSON_CORRECTED = re.compile(
    r"(?:\b(?:his|her|their)|(?:\b(?P<role>[A-Za-z]+))?'s) name(?: (?:is|was) | (?:wrong|wrongly)\b"
    rf"[^.!?]*?,? it's )(?:actually )?(?:(?:{_TITLES})\.? )?(?P<name>[{UPPER}][\w'-]*)(?![\w'-])"
)
#: A person named in a line, after a title or a noun that says who they are ("with Miss
#: Gloria", "their friend Hanna", "Somchai's mechanic Arthit"; not where, "in Bole"): the
#: name, up to whose ("Prof. Hartmann's group").
_PERSON = (
    r"(?:\b(?:{titles})\.? |\b(?!(?:in|at|on|to|from|near|with|for|by|of|and|or|the|an?|"
    r"is|was|are|were|called|named)\b){noun} )"
    rf"(?P<name>[{UPPER}](?:[\w-]|'(?!s\b))*)(?![\w-])"
)


def _person_renamed(text: str) -> tuple[re.Pattern[str], str] | None:
    """A person's name corrected (``_PERSON_CORRECTED``): where a line names a person, and
    the new name."""
    if (found := _PERSON_CORRECTED.search(text)) is None:
        return None
    # (a role that is no relation, "PI", is no one named by a relation: not "boyfriend Can")
    role = found["role"] or ""
    other = role and not role.istitle() and not RELATIVE.fullmatch(role)
    noun = rf"(?!(?:{RELATIVES})\b)(?-i:[a-z]{{3,}})" if other else "(?-i:[a-z]{3,})"
    return re.compile(_PERSON.format(titles=_TITLES, noun=noun)), found["name"]
