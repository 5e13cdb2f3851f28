"""A user's sentence cut into the statements it makes, each with its own subject.

"I live in Porto and I work at Acme Robotics" says two things that change
at different times: a move to Lisbon supersedes the first, never the
second. So the extractive path makes one fact per clause: it cuts where a
conjunction or a semicolon starts a new first-person clause ("…, and I
work…", "…; my…"), and where "and" joins a second verb to the same "I"
("I live in Lisbon and work nights" → "I live in Lisbon", "I work nights"; "we" too).
Openers that carry no fact ("Actually", "So", "Well, ") are dropped first,
so "Actually I moved to Berlin" still starts with its subject. A clause of
when said first ("After Ana and I split, I moved to Leeds") stays with
the one it is of. Anything the rules do not recognise stays one
clause, as it was written.
"""

from __future__ import annotations

import re

from .attributes import PET
from .third_person import tie_first

__all__ = ["clauses"]

_OPENER = re.compile(
    r"^(?:(?:actually|so|well|also|oh|btw|fyi|tbh|by the way|anyway|and|but|yeah|yes|ok|okay|hey|"
    r"hmm|um|honestly|basically|plus|guess what|fun fact|although|though|"
    # (a "no" that answers, before the speaker's own words: "no I'm fine on price", "nah, my
    # R6 is perfect"; not "no one", "no way")
    r"(?:no|nah|nope)(?=[,!.]?\s+(?:I|I'm|I've|my|we|we're|our)\b))\b[,!.:]?\s+)+",
    re.IGNORECASE,
)
#: A new first-person clause: after ", and", "; ", ", but", ", so" or a bare ", " (kept by
#: the split, which joins back one more of a list after a bare comma: ``_parts``).
_NEW_SUBJECT = re.compile(
    r"("
    r"(?:,?\s+(?:and|but|so|plus)\s+|[;:]\s+|"
    # (not "my" or "our" in apposition: "Brutus, my pitbull, …", "Holm Træ, my own workshop",
    # "Dragan, our prim player, …")
    r",\s+(?!(?:[Mm]y|[Oo]ur) (?:[\w'-]+ ){0,2}[\w'-]+(?:,|$)))"
    # (after when it happens, if said first: "…, and on Monday I start at Tengri")
    # (or after an aside: "…, but fyi I drive an old Hilux")
    r"(?=(?:(?:fyi|FYI|btw|tbh|honestly|actually),? )?"
    r"(?:(?:on|from|next|last|this|since|after|starting|in) [\w-]+(?: [\w-]+)?,? )?"
    r"(?:I|I'm|I've|I'd|I'll|my|My|we|we're|our)\b|(?:[\w'-]+ ){1,2}&I\b)"
    # (or a thing's state after a colon: "My daughter convinced me: the shop is now Rangtuli")
    r"|:\s+(?=[Tt]he (?:[\w'-]+ ){0,2}(?:is|are|was|were|has|had|moved|changed)\b)"
    # (or what still holds, after "although": "We are now Vestland Physio Group, although my
    # role is unchanged")
    r"|,\s+(?=(?:although|though) )"
    # (or an amount of a thing's, after "and": "Fewer patients per nurse and the pay is 118,000")
    r"|,?\s+and\s+(?=the (?:[\w'-]+ ){0,2}(?:is|are) (?:[A-Z]{1,3}\s?)?[^\w\s]?\d)"
    # (or a thing of theirs and what it did: "Ivana's allergies got worse and the cat has gone
    # to live with my mum")
    r"|,?\s+(?:and|so)\s+(?=the (?:[\w'-]+ ){0,2}?[\w'-]+ (?:has|have|had) (?:gone|been|moved|died)\b)"
    # (or someone by name and what they do for them: "…, and Linh helps me to pack orders";
    # or what they are or have: "Isla has netball on Wednesdays, and Lachlan is getting braces")
    r"|,\s+and\s+(?=[A-Z][a-z]+ [a-z]+s (?:[^,;]* )?(?:me|us)\b|"
    r"(?!(?:It|That|This|There|Here|What)\b)[A-Z][a-z]+ (?:is|was|has|had)\b)"
    r")"
)
#: "and" before a verb that shares the clause's "I": "I live in Lisbon and work nights".
#: Only verbs that are rarely nouns ("I love tea and love songs" stays whole).
_SHARED_I = re.compile(
    r",?\s+and\s+(?=(?:work|live|moved|started|joined|studied|study|teach|speak|own|bought|"
    r"sold|adopted|replaced|took|go|do|cycle|swim|sing|coach|play|want|need)\b)|"
    # (or what they do next, after "then": "I paint in Photoshop, then print at an atelier in
    # Chantenay"; not where they go, "then home", nor a thing, "then the bus")
    r"(?-i:,\s+(?:and\s+)?then\s+(?=(?!(?:the|a|an|my|our|home|back|again|there|later|on|off|"
    r"out|in|to|for|at|it|that|this)\b)[a-z]+ ))|"
    # (or where they work, said as where they go after: "I train at iFitness at 5:30 before
    # going to work at Zenith Bank")
    r",?\s+(?:before|after) (?:going|heading) to (?=work at (?-i:[A-Z]))",
    re.IGNORECASE,
)
#: "Abena and I …", "(so) my fiancee Abena and I …", "my girlfriend and I …" opening a clause: a subject of two, not two
#: clauses.
_NAME_AND_I = re.compile(
    # (after when, too: "after the vindima Rui and I both start at Lajes", "In March Leo and I …")
    r"(?:^(?P<when>(?i:after|in|on|next|last|this|from|since|before|during) (?:the )?[\w-]+ )?|"
    r"(?<=, so )|(?<=, and )|(?<=, )|"
    # (or in a clause of when or why: "covers the evenings when Megan and I both work")
    r"(?<=\b[Ww]hen )|(?<=\b[Ww]hile )|(?<=\b[Bb]ecause )|(?<=\b[Ii]f )|(?<=\b[Ss]ince )|"
    r"(?<=\b[Uu]ntil )|(?<=\b[Bb]efore )|(?<=\b[Aa]fter )|(?<=\bthat ))"
    r"((?:[Mm]y [\w-]+ )?[A-Z][\w'-]*|[Mm]y [a-z][\w-]*) and I\b"
)
_END = re.compile(r"[.!?]$")
#: Someone named after "and", and what they are: "our son Osian, who's seven".
_ONE_MORE = re.compile(
    r"(?P<who>(?:[Mm]y|[Oo]ur) (?:[a-z-]+ ){0,2}[A-Z][\w-]*), who(?:'s| is) (?P<is>[\w ]+)"
)


def clauses(sentence: str) -> list[str]:
    """The statements of ``sentence``, each a clause with its subject, ended like the sentence."""
    ending = sentence[-1] if _END.search(sentence) else ""
    body = _END.sub("", sentence).strip()
    found: list[str] = []
    # ("Abena and I got married", "Jade (my girlfriend) and I are looking": one subject)
    body = _NAME_AND_I.sub(lambda m: f"{m['when'] or ''}{m[2]} &I", tie_first(_strip_opener(body)))
    for part in _parts(body):  # (its opener already cut)
        if found and (more := _ONE_MORE.fullmatch(part)):
            # ("I live in Canton with my wife Ffion and our son Osian, who's seven": one more
            # of a list, and what is said of them, a claim of its own)
            part = f"{more['who']} is {more['is']}"
        part = _strip_opener(part)
        pieces = _SHARED_I.split(part) if _starts_with_i(part) else [part]
        subject = "We" if part[:2].lower() == "we" else "I"
        found += [pieces[0], *(f"{subject} {piece}" for piece in pieces[1:])]
    return [f"{c[:1].upper()}{c[1:]}{ending}".replace(" &I", " and I") for c in found if c]


def _parts(body: str) -> list[str]:
    """``body`` cut where a new subject starts, save for one more of those someone lives or is
    with, said with no verb: "I live in Otahuhu with my wife Losa, our three kids and Losa's
    brother Sione" is one clause, and so is "… with my wife Agata and our son Kuba"."""
    pieces = _NEW_SUBJECT.split(body)
    parts = [pieces[0]]
    for sep, part in zip(pieces[1::2], pieces[2::2], strict=True):
        if sep == ", " and len(parts) == 1 and _LEAD_IN.match(parts[0]):
            # ("After Ana and I split, I moved to Leeds", "For now, with the road works outside,
            # we lock up by 6pm": when, said first, is the next clause's)
            parts[-1] = f"{parts[-1]}{sep}{part}"
        elif (
            # (a pet after "and" is a line of its own: "…, and our cat Mochi", its name)
            (sep == ", " or (sep in (" and ", ", and ") and not PET.search(part)))
            and _WITH_MINE.search(parts[-1])
            and not _FINITE.search(part)
            and not _SUBJECT.match(part)
        ):
            parts[-1] = f"{parts[-1]}{sep}{part}"
        else:
            parts.append(part)
    return parts


#: A clause of when, said before the one it is of: "After Ana and I split, …" (not a
#: condition, "If I ever get a Hilux, I could …", a plan that goes with its main clause; nor a
#: reason, "since I can work from anywhere", no claim of its own).
_LEAD_IN = re.compile(r"(?i:when|while|until|before|after|for now|with)\b")
#: A list of those someone is with, at a clause's end: "… with my wife Losa".
_WITH_MINE = re.compile(r"\bwith (?:my|our|their|his|her) [^,]+$")
#: A subject that opens a clause: "…, i play pickup volleyball on thursdays".
_SUBJECT = re.compile(r"(?i:i|we|you|they|he|she|it)\b")
#: A word that makes a clause of its own (the "'s" of a name is whose: "Losa's brother").
_FINITE = re.compile(
    r"\b(?:is|are|was|were|has|have|had|will|would|can|could|does|do|did|[a-z]+ed)\b|'(?:re|ve|ll|d|m)\b|"
    r"\b(?:he|she|it|that|who)'s\b"  # ("…, he's 10": a clause of his own)
)


def _strip_opener(text: str) -> str:
    return _OPENER.sub("", text.strip()).strip()


def _starts_with_i(text: str) -> bool:
    return text.startswith(("I ", "I'm ", "I've ", "We ", "we "))
