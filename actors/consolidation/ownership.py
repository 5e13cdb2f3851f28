"""Whose fact it is: whom a line opens with, who the scope's facts are about, and which of
them a change by a speaker may replace (issue 59, item 8: Bob's words never retire Alice's
facts, a colleague's break-up is not the user's). See docs/design.md, "Facts that stay
true"."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from reverie.store import Fact, MessageRecord, known_word

from .signals import signalled
from .subjects import OF_A_THING, SOMEONE, common_opener, done_to
from .third_person import DEFAULT_SPEAKER
from .words import RELATIVES, UPPER, WEEKDAYS

__all__ = [
    "LEAD",
    "by_name",
    "named",
    "named_theirs",
    "of_theirs",
    "owner",
    "people",
    "said_in",
    "same_person",
    "same_subject",
    "same_turn",
    "someone_else",
    "theirs",
    "theirs_before",
]

#: Whom a fact opens with (after an adverb of time: "Now Daisuke drinks only green tea").
LEAD = re.compile(
    rf"^(?:(?:Now|Also|Then|Finally|Today),? (?=The user\b|[{UPPER}]))?"
    rf"(?P<who>The user|[{UPPER}][\w-]*)(?P<poss>'s)?\b(?P<rest>.*)$",
    re.DOTALL,
)
_SOMEONE_ELSE = re.compile(
    rf"^\s+(?:[a-z]+ )?(?i:{RELATIVES})\b(?: [A-Z][\w-]*)?|^\s+(?!{OF_A_THING}\b)[a-z][a-z-]* [A-Z][\w-]*"
)


#: Someone the speaker names as theirs ("my wife Carla", "our cat Mochi", "Gianni's wife
#: Carla"), and a statement opening with a name.
_THEIR_NAMED = re.compile(
    rf"\b(?:(?i:my|our|their)|[{UPPER}][\w-]*'s) (?:[a-z-]+ ){{1,2}}([{UPPER}][\w'-]+)"
)
_LEAD_VERB = re.compile(rf"^([{UPPER}][\w'-]+) (?:has|had|is|was|got|started|loves|works)\b")


def named_theirs(memory: str, turns: Iterable[MessageRecord]) -> frozenset[str]:
    """Whom the speaker's turns or the memory name as someone of theirs."""
    said = [memory, *(t.content for t in turns if t.role == "user")]
    return frozenset(m[1] for text in said for m in _THEIR_NAMED.finditer(text))


def of_theirs(text: str, theirs: frozenset[str]) -> bool:
    """``text`` states something of someone of the speaker's by name ("Carla has dementia"
    after "my wife Carla"): as worth keeping as a statement of their own."""
    return bool((lead := _LEAD_VERB.match(text)) and lead[1] in theirs)


def someone_else(text: str) -> bool:
    """``text`` opens with another person named by a common noun ("A colleague …",
    "Someone …", or the relation alone: "Mother fell, now she is in a care home"): it is
    their fact, not the speaker's (nor anyone the scope knows)."""
    return bool(
        SOMEONE.match(text)
        or _RELATION_ALONE.match(text)
        or _HIS_OR_HER.match(text)
        or _HE_OR_SHE.match(text)
    )


#: A thing of another's, by the pronoun of whose it is ("Her physio is on Fridays": the
#: speaker's own are written by name, "Siobhan's physio").
_HIS_OR_HER = re.compile(r"(His|Her)\s")
#: Someone else by a pronoun, the first subject (after a few words at most: "Very kind but
#: she's 250 km away now", "Nice, he has a new job"): the speaker's own are by name.
_HE_OR_SHE = re.compile(r"(?:[\w,]+ ){0,3}?(?:[Ss]he|[Hh]e)(?:'s|'d|'ll| is| was| has| had)\b")
#: A relative named by the relation alone, as the subject ("Mother fell", "Dad is …"; not
#: with the speaker, "Partner and I moved").
_RELATION_ALONE = re.compile(rf"(?i:{RELATIVES})s?\b(?! and\b)")


def owner(text: str, people: set[str]) -> str:
    """Whose fact ``text`` is: the person of ``people`` it opens with ("Maya …", "Maya's
    phone …"), or that person's relative ("Maya's sister …", "Bob's neighbour Jim …": someone
    else, named by the whole phrase); "" when it opens with nobody of ``people``."""
    if his_or_hers := _HIS_OR_HER.match(text):
        return his_or_hers[1].casefold()  # ("Her physio is on Fridays": whoever she is)
    # (after when, said first: "On Friday afternoons Mariko plays shogi …")
    found = LEAD.match(text[when.end() :] if (when := _WHEN_FIRST.match(text)) else text)
    if found is None or found["who"] not in people:
        return ""
    if found["poss"] and (other := _SOMEONE_ELSE.match(found["rest"])):
        if found["rest"][other.end() :].startswith(f" and {found['who']} "):
            return found["who"]  # "Maya's fiancé Noam and Maya booked …": hers too
        return f"{found['who']}'s{other[0]}".strip()
    return found["who"]


#: A weekday said first, as when: "On Friday afternoons …", "Friday nights …".
_WHEN_FIRST = re.compile(
    rf"(?:(?:On|Every) )?(?i:{WEEKDAYS})s?(?: (?:mornings?|afternoons?|evenings?|nights?))?,? "
    rf"(?=[{UPPER}])"
)
#: A word that opens a line with where or when, never a name: "In June …", "At work …".
_WHERE_OR_WHEN = re.compile(
    r"(?i:in|on|at|for|with|by|of|to|into|since|until|during|when|while|if|because|once|as|"
    r"after|before)"
)


def people(speakers: Iterable[str], facts: Iterable[Fact]) -> set[str]:
    """Who the scope's facts are about: the job's speakers, "The user", and every name that
    opens two facts or more ("Carl lives …", "Carl's dog …"; a word that opens one line is
    as likely "Site visits on Mondays …")."""
    leads = Counter(m["who"] for f in facts if (m := LEAD.match(f.text)))
    frequent = {
        who
        for who, n in leads.items()
        if n > 1 and not common_opener(who) and not _WHERE_OR_WHEN.fullmatch(who)
    }
    return {*speakers, DEFAULT_SPEAKER, *frequent}


def named(text: str, known: set[str], written: str = "") -> set[str]:
    """``known`` and the name ``text`` opens with, if it opens with one ("Carl is single now");
    with ``written``, only a word it also holds inside a sentence is one ("my brother Carl";
    not "Practice moved to Saturdays", nor "Hockey's on Sundays" after "hockey", nor "Choir
    moved …" after "Grace Tabernacle Choir")."""
    found = LEAD.match(text)
    lead = found["who"] if found else ""
    if (
        found is None
        or (common_opener(lead) and not kin_named(text, written))
        or _WHERE_OR_WHEN.fullmatch(lead)  # ("Since the breakup …")
        or found["rest"].startswith(",")
    ):  # "Moved, unpacked, …"
        return known
    if found["poss"] and _KIN_OF.match(found["rest"]):
        return known | {lead}  # (one with a sister is someone: "Chidi's sister moved to Abuja")
    # (nor a word of a longer name: "Choir moved rehearsal" after "Grace Tabernacle Choir")
    inside = re.finditer(rf"([\w,'-]+) {re.escape(lead)}\b", written)
    if written and not any(not before[1][:1].isupper() for before in inside):
        return known
    return known | {lead}


#: A relative, after whose they are: " sister moved …", " older brother is …".
_KIN_OF = re.compile(rf" (?:[a-z-]+ )?(?:{RELATIVES})s?\b")


def kin_named(text: str, written: str) -> set[str]:
    """The word ``text`` opens with, when it opens sentences ("Can", "Will") and ``written``
    names someone so after a relation ("boyfriend Can"): a name; else nothing."""
    found = LEAD.match(text)
    lead = found["who"] if found else ""
    kin = lead and common_opener(lead)
    return (
        {lead} if kin and re.search(rf"\b(?:{RELATIVES}) {re.escape(lead)}\b", written) else set()
    )


#: Someone named after a word that says how they are: "Young Saga is moving to Gothenburg".
_EPITHET = re.compile(rf"^(?P<word>[A-Z][a-z]+) (?P<name>[{UPPER}][\w-]*) (?:is|was|has|'s)\b")


def _by_epithet(text: str, speaker: str) -> bool:
    """``text`` opens with someone else named after a word of the language ("Young Saga",
    "Little Tomás"), not the speaker ("Today Ingrid is …") nor a name of two words."""
    if (found := _EPITHET.match(text)) is None:
        return False
    mine = {*speaker.split(), DEFAULT_SPEAKER.split()[0]}
    return not {found["name"], found["word"]} & mine and known_word(found["word"].casefold())


#: What someone of the speaker's gave them, after "<speaker>'s ": "daughter gave them a …".
_GAVE_THEM = re.compile(r"[\w-]+ (?:gave|bought|got) them (?:an?|their|his|her) ")


def theirs(
    older: Sequence[Fact],
    new: Fact,
    said: str,
    speaker: str,
    *,
    kin: bool = False,
    cue: bool = True,
) -> list[Fact] | None:
    """The facts of ``older`` a change ``new`` (``said`` with its opener) by ``speaker`` may
    replace: the speaker's own (a line naming nobody too, when the scope is about nobody
    else), or when ``new`` is about someone else ("Minh sold the motorbike"), only that
    person's; None when ``new`` signals no change (and ``cue`` asks for a signal)."""
    persons = people([speaker], older)
    whose = owner(new.text, named(new.text, persons, " ".join(f.text for f in older)))
    if not speaker or (cue and not signalled(said)):
        return None
    # (not another's doing to them: "He's switching Garrett to rosuvastatin")
    if someone_else(new.text) and not done_to(new.text, re.escape(speaker)):
        return []
    if _by_epithet(new.text, speaker):
        return []
    mine = {speaker, ""} if persons <= {speaker, DEFAULT_SPEAKER} else {speaker}

    def of(text: str) -> bool:
        line = owner(text, persons)
        # (a line of no one's holding a thing of theirs: "In Wiremu's old Nissan Navara, …")
        if not line and f"{speaker}'s " in text and whose in (speaker, "", f"{speaker} and others"):
            return True
        # (a thing someone of theirs gave them: "Domingos's daughter gave them a Samsung tablet")
        mine_given = text.startswith(f"{speaker}'s ") and _GAVE_THEM.match(text, len(speaker) + 3)
        if whose in (speaker, "") and mine_given:
            return True
        if whose not in (speaker, ""):  # someone else's change: only their lines
            named_line = owner(text, named(text, persons))
            # (and not another's relative: Bob's cousin Carl is not Alice's brother Carl)
            kin_of_mine = "'s " not in named_line or named_line.startswith(f"{speaker}'s ")
            # (with ``kin``, a line of the speaker's naming them: "Maya has a cat called Miso")
            named_mine = (
                kin and named_line == speaker and re.search(rf"\b{re.escape(whose)}\b", text)
            )
            return (_same_one(named_line, whose) and kin_of_mine) or bool(named_mine)
        # with ``kin``, the lines of those they name theirs too ("Ines's dog Rufo …")
        return line in mine or (kin and line.startswith(f"{speaker}'s "))

    return [f for f in older if of(f.text) and not same_turn(f, new)]


def said_in(fact: Fact) -> set[tuple[str, str]]:
    """The (session, message id) pairs ``fact`` was said in."""
    return {(session, m) for session, ids in fact.sources.items() for m in ids}


def by_name(speaker: str) -> re.Pattern[str]:
    """Where ``speaker`` is named as a word of its own (their name's marks read as written:
    "Ana (work*")."""
    return re.compile(rf"(?<!\w){re.escape(speaker)}(?!\w)")


def theirs_before(
    facts: Sequence[Fact], turns: Sequence[MessageRecord], at: int, speaker: str
) -> list[Fact]:
    """The ``facts`` naming ``speaker`` said before ``turns[at]``: none of the messages from
    it on."""
    later, named = {t.id for t in turns[at:]}, by_name(speaker)
    return [f for f in facts if named.search(f.text) and not {m for _, m in said_in(f)} & later]


def same_turn(a: Fact, b: Fact) -> bool:
    """``a`` and ``b`` were said in one turn: both are true, neither replaces the other."""
    return bool(said_in(a) & said_in(b))


def _same_one(a: str, b: str) -> bool:
    """Two owners name one person: "Minh" and "Thao's husband Minh" (not "Bob's colleague
    Tom" and "Alice's friend Tom")."""
    return a == b or (a.split()[-1:] == b.split()[-1:] and (" " in a) != (" " in b))


def same_person(old: Fact, new: Fact, persons: set[str], speaker: str) -> bool:
    """``new`` is no relative's fact replacing someone else's ("Nilufar's colleague
    Dilshod's show moved" is not Nilufar's show), nor, naming nobody, a fact of another
    person the scope knows (Bob's "The Tesla is for sale" is his, not Alice's red Tesla);
    the keys' own subjects decide the rest (``same_subject``: "Carl's dog Rex …
    Carl lives in Porto" is Carl's home)."""
    theirs, mine = owner(old.text, persons), owner(new.text, persons)
    if "'s " in mine and f"{theirs} ".startswith(f"{mine} "):
        return True  # "Maya's sister" is "Maya's sister Ana"
    if "'s " in mine and mine != theirs:
        return False
    who = mine or speaker
    if theirs.endswith(f" {who}") and "'s " in theirs:
        return True  # "Can moved here" is "Elif's boyfriend Can"'s
    return not who or theirs in ("", who, DEFAULT_SPEAKER) or theirs.startswith(f"{who}'s ")


def same_subject(a: str, b: str) -> bool:
    """Two subjects name the same person; an empty one (nobody named: the speaker, or their
    thing) matches any but someone's relative ("Priya's cousin moved …" is not Priya's); a
    relative named is the relative unnamed and the name alone ("maya's sister ana" is
    "maya's sister" and "ana", not "bob's cousin ana"), nor someone unnamed ("a colleague
    swears by her Pixel")."""
    if a == b:
        return True
    if not a or not b:
        return not re.match(r"(?:.*'s |an? )", a or b)
    short, named = sorted((a, b), key=len)
    if "'s " not in named or not short:
        return False
    return named.startswith(f"{short} ") or (" " not in short and named.endswith(f" {short}"))
