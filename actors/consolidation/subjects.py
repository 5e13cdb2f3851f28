"""Whom a fact's words are about: the person the words before a claim name.

"…, so Dmitri and others moved" is Dmitri's move, "Tomás's brother Diego moved" his
brother's, "the van broke" nobody's, and "Hi from Dana's new flat" Dana's. ``attributes``
asks it of each claim it keys; see docs/design.md, "Facts that stay true".

A relative is "<name>'s <relation>", with their name when it is said ("Tomás's brother
Diego" is the same person as "Diego"). "The user" (the speaker of a session with no name)
is a subject of its own, ``the user``, one person in every session of the scope and never
their relative ("The user's sister") nor anyone else they name ("Leena got a job in
Helsinki, so the user moved there").
"""

from __future__ import annotations

import re

from .third_person import DEFAULT_SPEAKER, past_verb, word_set
from .words import RELATIVES, UPPER, WHEN

__all__ = [
    "HOLDER",
    "OF_A_THING",
    "SOMEONE",
    "by_common_noun",
    "common_opener",
    "done_to",
    "holder",
    "subject",
]

#: Where a part of a sentence that may say who ends: ", ", "; ", " so ", " and ".
#: The words after which a name is a place, not who does what follows.
_PLACE_BEFORE = frozenset({"in", "at", "to", "from", "near", "into", "outside"})
_BOUNDARY = re.compile(r"[,;:]\s|\s(?:so|and|but|because|then)\s")
#: Two people a clause opens with, as one subject ("Maya and Leo", "Jonas and their fiancée Rasa").
_JOINT = re.compile(
    r"(?:^|(?<=[,;:] )|(?<= so ))([A-Z][\w-]*) and (?=(?:their |his |her )?(?:[^\W\d_]+ )?[A-Z])"
)

#: Whose a thing is, when not the subject's: "Ana's phone", "their aunt's Skoda", "bought Leo a …".
#: Who holds a thing, said before "'s": a name or a relative ("Ana", "their aunt").
HOLDER = (
    # (not a pronoun's "is": "It's an old Renault Kangoo", "That's my Hilux")
    rf"(?:(?!(?:It|That|There|Here|What|He|She|Who)'s)[{UPPER}][\w-]*|"
    rf"\b(?:my|their|his|her|our) (?:{RELATIVES}))"
)
_HELD_BY = re.compile(
    rf"(?:(?P<owner>{HOLDER})'s|"
    rf"\b[a-z]+ (?P<given>[{UPPER}][\w-]*) (?:an?|some)) (?:[\w-]+ ){{0,2}}$"
)
#: Another person named by a common noun ("a colleague", "someone"): a subject of their own.
SOMEONE = re.compile(
    # ("our neighbour", "her fiancé": the speaker's own are written "Maya's", "their")
    rf"\b(?:(?:an?|the|one|another|some|our|his|her) (?:[a-z-]+ ){{0,2}}?(?:{RELATIVES})s?|"
    r"someone|somebody)\b",
    re.IGNORECASE,
)
#: Words that say how a thing of someone's is, not who they are ("Mateo's old Vespa").
OF_A_THING = "old|new|little|first|second|trusty|beloved|favou?rite|current|last|former"
#: Someone of someone's: by their relation ("Tomás's brother Diego", "Ana's mum"), or by any
#: noun before their name ("Jurgis's co-host Lukas", "Eero's drummer Ville").
_RELATION = re.compile(
    rf"^(?P<who>{DEFAULT_SPEAKER}|[A-Z][\w-]*)'s (?:(?:[a-z]+ )?(?P<rel>{RELATIVES})s?\b"
    rf"(?:,? (?P<name>[{UPPER}][\w-]*)\b(?!'s))?|"
    # (the one who does what follows, in the same sentence)
    rf"(?!(?:{OF_A_THING})\b)(?P<noun>[a-z][\w-]*) (?P<named>[{UPPER}][\w-]*)\b(?!'s)"
    r"(?=[^.!?;]*$))"
)
_POSSESSIVE = rf"(?:[{UPPER}][\w-]*'s|[Mm]y|[Oo]ur|[Tt]heir|[Hh]is|[Hh]er)"
#: A name with who they are in apposition, opening a fact: "Dragan, Nikola's prim player, …",
#: or after it: "One of Nadia's students, Omar, …".
_APPOSED = re.compile(
    rf"^(?:([{UPPER}][\w-]*), {_POSSESSIVE} [^,]+, |(?:[Oo]ne of )?{_POSSESSIVE} [^,]+, ([{UPPER}][\w-]*), )"
)
#: The subject of "The user lives in …" (``third_person.DEFAULT_SPEAKER``, folded).
_UNNAMED = DEFAULT_SPEAKER.casefold()

#: Someone a verb of helping, letting, making or seeing has do a thing: "helped their sister".
_BARE_INFINITIVE = re.compile(
    r"\b(?:help|helps|helped|helping|watch|watched|watching|saw|seeing|let|letting|made|making) "
    rf"(?P<who>(?:their|his|her|my|our) (?:{RELATIVES})|[{UPPER}][\w-]*) $"
)
#: Someone already named, by a pronoun the speaker is never written with (they are "they"),
#: or by "who" after their name ("a guy, Marco, who just moved").
_HE_SHE = re.compile(r"(?:he|she|who)(?:'s|'d|'ll)?", re.IGNORECASE)
_UNNAMED_SPAN = re.compile(rf"(?:^|\s){DEFAULT_SPEAKER}(?!\S)")
_PRONOUNS = word_set(
    "i others they they're their them he she his her we our it its it's that's there's here's "
    "the a an this that there "
    "on in at from next last first after since starting today yesterday tonight tomorrow "
    # (when: "On Monday Temuulen starts", "Today was Marisol's first day", "For eight years
    # Valentina has been …")
    "for during before until by"
)

#: Words that open a fact without naming anyone ("The heating …", "Our fridge …").
_STARTERS = re.compile(
    r"the|an?|its?|this|that|these|those|our|my|their|his|her|we|you|there|here|new|quick|"
    r"had|has|have|was|were|is|are|got|been|did|does|do|can|could|would|will|"
    r"also|so|and|but|from|forget|scratch|scrap|ignore|now|then|before|after|first|still|just|right|yes|"
    r"no|oh|well|okay|please|sorry|today|tonight|yesterday|tomorrow|everyone|nobody|someone|"
    # (or how much or how sure: "Only 15 minutes from …", "About 40 minutes in …")
    r"only|about|around|nearly|almost|roughly|maybe|probably|"
    # (or how many of them: "Half my cousins are moving to Brisbane")
    r"half|some|most|all|many|several|both|few|each"
)


def common_opener(word: str) -> bool:
    """``word`` opens a sentence without naming anyone: a closed-class word, or a word of
    the forms no name has ("Training's moved …", "Finally replaced …")."""
    word = word.casefold()
    return bool(_STARTERS.fullmatch(word) or WHEN.fullmatch(word)) or (
        len(word) > 6 and word.endswith(("ing", "ly"))
    )


#: A move, of whoever is said before it.
_MOVES = re.compile(r"\b(?:moved|moving|moves|relocated|relocating)\b")
#: Gone from where they worked, said at the key: "Bernd's apprentice has quit".
_LEFT_WORK = re.compile(r"(?:quit|resigned|retired)\b")
_WHOSE = re.compile(rf"(?<![\w'])[{UPPER}][\w-]*$")


#: A part of a sentence whose subject is someone by a doer's noun, doing what follows: "now
#: a supplier from Holland comes with a truck" (the truck is the supplier's).
_AGENT_SPAN = re.compile(
    r"^(?:(?:now|then|so|and|but) )?(?P<who>(?:an?|the) (?:[a-z]+ )?[a-z]{3,}(?:er|or|ist))\b"
    r"(?: (?:from|in|at|of) [A-Z][\w'-]*)? (?!(?:is|was|has|had|got|gets)\b)[a-z]+s\b"
)
#: A name alone, in apposition to the noun before it: "a choir, Cantamus, …".
_NAME_ONLY = re.compile(rf"[{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*){{0,3}}")
_A_NOUN_END = re.compile(r"\b(?:an?|the|my|our|their|his|her) (?:[\w-]+ ){0,3}[a-z][\w-]*$")


def subject(fact: str, at: int) -> str:
    """The person the words before ``at`` name: the name of the nearest part of the sentence
    that says who ("…, so Dmitri and others moved"), empty for a thing ("the van broke")."""
    # ("helped their sister move", "watched Ana move": the one a verb lets, makes or sees do it)
    if bare := _BARE_INFINITIVE.search(fact, 0, at):
        return bare["who"].casefold()
    if fact.startswith("'s", at) and (whose := _WHOSE.search(fact, 0, at)):
        return whose[0].casefold()  # ("Hi from Dana's new flat …": Dana's, not "Hi")
    # ("Dragan, Nikola's prim player, just moved": the name the apposition is of)
    if (apposed := _APPOSED.match(fact)) and not _BOUNDARY.search(fact[apposed.end() : at]):
        return (apposed[1] or apposed[2]).casefold()
    # ("Jonas and their fiancée Rasa are moving": one subject of two, the first named first)
    pronoun = ""
    spans = _BOUNDARY.split(_JOINT.sub(r"\1 & ", fact[:at]))
    for index, span in reversed(list(enumerate(spans))):
        if (
            index
            and not pronoun
            and _NAME_ONLY.fullmatch(span.strip())
            and _A_NOUN_END.search(spans[index - 1])
        ):
            continue  # ("sings in a choir, Cantamus, here in Kraków": the choir's name)
        if relation := _RELATION.search(span.strip()):
            # (named too: "Tomás's brother Diego", one person with "Diego")
            rel, name = relation["rel"] or relation["noun"], relation["name"] or relation["named"]
            return f"{relation['who']}'s {rel}{f' {name}' if name else ''}".casefold()
        if _UNNAMED_SPAN.search(span):
            return _UNNAMED
        if someone := SOMEONE.search(span):  # "a colleague just moved": theirs, not anyone's
            return someone[0].casefold()
        if agent := _AGENT_SPAN.match(span.strip()):  # "now a supplier from Holland comes …"
            return agent["who"].casefold()
        words = [w.strip("',.") for w in span.split()]
        if words[:1] in (["and"], ["so"], ["but"], ["then"]):
            words = words[1:]  # (", and he says …": the clause after the comma is his)
        if index and words and past_verb(words[0]):
            # ("he's finally done with FIFO, got a job at the port": a clause of no subject
            # of its own, opening with what was done, is the one before's)
            continue
        if words and _HE_SHE.fullmatch(words[0]):
            # "Ana came home, she's renting …": the one named before, never the speaker (and
            # with no one named before, someone of their own: "He … lives near Bistrita")
            pronoun = words[0].casefold()
            continue
        names = [
            w
            for at_word, w in enumerate(words)
            if w[:1].isupper()
            and w.casefold() not in _PRONOUNS
            and not WHEN.fullmatch(w)
            # (nor a place: "others arrived in Austin … and rented a house in Round Rock")
            and not (at_word and words[at_word - 1] in _PLACE_BEFORE)
            # (the fact's first word, capitalised for opening it: "Only 15 minutes from …", or
            # after words that only open it, "Oh and Weirdly Nerea has …"; or a plural, which
            # no one's name is: "Mornings are calmer since …")
            and not (
                common_opener(w)
                and all(not x[:1].isupper() or common_opener(x) for x in words[:at_word])
            )
            and not (index == at_word == 0 and words[1:2] == ["are"])
        ]
        if names:
            first = words.index(names[0])
            after = words[first + 1 : first + 2]
            if (
                names[0].endswith("'s")
                and after
                and after[0].isalpha()
                and after[0].islower()
                and (_MOVES.search(span) or _MOVES.match(fact, at) or _LEFT_WORK.match(fact, at))
            ):
                # ("Jerome's kuya just moved to Manila": someone of theirs moved, whatever the
                # word for them, or left their work, "Bernd's apprentice has quit"; not "Marcus's
                # studio laid off half of us")
                return f"{names[0]} {after[0]}".casefold()
            return names[0].removesuffix("'s").casefold()
        if any(w.casefold() not in _PRONOUNS for w in words):
            return ""
    return pronoun


def holder(fact: str, at: int) -> str:
    """Who holds the thing named at ``at``, when it is said before it ("Ana's phone",
    "bought Leo a …"), or empty."""
    held = _HELD_BY.search(fact[:at])
    return (held["owner"] or held["given"]) if held else ""


#: Someone a common noun names, doing what follows: "the landlord ", "a neighbour "; not a
#: thing that was or got something done to it ("the old car got ").
_AGENT = re.compile(
    r"(?:^\s*|[,;:.!?] |\b(?:so|and|but|then) )(?i:the|an?) (?:[a-z-]+ ){0,2}?"
    r"(?!(?:was|were|is|are|got|get|has|had|have|been|finally|just|already|also|recently)\b)"
    r"[a-z-]+ $"
)


def by_common_noun(text: str, at: int) -> bool:
    """What ``text`` says at ``at`` is done by someone a common noun names, just before it:
    "The landlord sold the house", "so a neighbour gave away …" (not the speaker's act)."""
    return bool(_AGENT.search(text, 0, at))


def done_to(text: str, whom: str) -> bool:
    """``text`` opens with someone doing a thing to ``whom`` (a pattern): "They gave me …",
    "The dentist in Denver let Ikaika go": a change of whom's, though another does it."""
    return re.match(_DONE_TO.format(whom=whom), text) is not None


#: Someone, then a verb done to another (``done_to``): a pronoun, "the <noun>" and where it is,
#: or a name.
_DONE_TO = (
    rf"(?:[^:]+: )?(?:(?i:they|he|she)|[Tt]he [a-z]+(?: (?:in|at|from) [{UPPER}][\w-]*)?|"
    r"[A-Z][\w'-]*)(?: (?:\w+ed|made|gave|put|cut|set|let)|"
    # (or doing it now: "he's switching me to rosuvastatin")
    r"(?:'s|'re| is| are) (?:switch|mov|chang|putt|tak|send|transferr)ing) (?:{whom})\b"
)
