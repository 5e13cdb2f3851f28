"""A post said alone after news of a job, with no "I" and no verb of its own: the role
("And I got the job: junior engineer at Airbus.", "Got promoted. First mate now.") and the
workplace ("New job. Jorvi Hospital, Espoo."); and a post said after a clause of the
speaker's, in apposition ("I fix lifts for a living, service tech at Liftex in Brno."), its
own statement, so a new employer later ends the post and not the clause. See
docs/design.md, "Facts that stay true", the extractive path.
"""

from __future__ import annotations

import re

from reverie.store import known_word

from .introduction import INITIALISM
from .persons import names_a_person
from .third_person import article, past_verb
from .words import MONTHS, UPPER, WEEKDAYS, WORKPLACE

__all__ = ["TRADE_NEXT", "post_after", "post_said", "trade_held"]

#: What they do, said in the next sentence without a verb: "Backend developer at Nkwa Labs
#: here in Accra." (the introduction's apposition, cut off by a full stop).
TRADE_NEXT = re.compile(
    # (not a sentence with a subject of its own, "We live in …"; lower case too, "junior lawyer")
    r"^(?!(?i:we|they|he|she|it|you|my|our|his|her|their|this|that|there|i)\b)"
    # (nor a verb's participle: "Starting at Adire Capital on the 1st.")
    rf"(?:(?![A-Za-z]+ing\b)[A-Za-z][a-z-]+|{INITIALISM})(?: [a-z-]+){{0,3}} (?:at|in|on|with|for) "
    r"(?!.*\b(?:is|are|was|were|has|have)\b)"
    # (a day is no place of work: "Start in June.", "Back on Monday.")
    rf"(?!(?i:{WEEKDAYS}|{MONTHS})\b)"
    # (the name, or a thing called by one: "at a fintech startup called Pinewheel", "the X")
    rf"(?:the |(?:an?|the) (?:[a-z][\w-]* ){{1,4}})?[{UPPER}][^.!?]*[.!]?$"
)
#: What says a job was got or given: "I got the job:", "Got promoted."
_JOB_SAID = re.compile(r"\b(?:job|position|role|promot\w*|hired|offer)\b", re.IGNORECASE)
#: A role said alone and now: "First mate now." (after "Got promoted.").
_ROLE_NOW = re.compile(r"[A-Z][a-z-]+(?: [a-z-]+){0,2} now[.!]*")
#: A verb that makes a clause a statement, not a role said alone.
_FINITE = re.compile(r"\b(?:is|are|was|were|has|have|had|will)\b|'s\b|'re\b|'ll\b")
#: A time spent at a job, no role: "first week at Moniepoint done", "last day at Bolt".
_A_STINT = re.compile(r"(?:first|last|final) (?:[a-z]+ )?(?:days?|weeks?|months?|shifts?)\b", re.I)
#: A job got, not offered: after it, a name alone is where they work.
_NEW_JOB = re.compile(
    r"\b(?:new (?:job|position|role|post)|got the (?:job|position|role)|(?:got|been|was) hired)\b",
    re.IGNORECASE,
)
#: A workplace named alone, and where it is: "Jorvi Hospital, Espoo.".
_NAMED_ALONE = re.compile(
    rf"(?P<at>[{UPPER}][\w'&-]*(?: [{UPPER}][\w'&-]*)*)"
    rf"(?:, (?P<where>[{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)*))?[.!]*"
)


def post_said(sentence: str, before: str) -> str:
    """``sentence`` as the speaker's post, where it says one alone after words that say a
    job was got (``before``, or its lead before a colon): a role ("First mate now.") with
    its "I'm", a workplace by its name ("Jorvi Hospital, Espoo.") with "I work at"; else as
    it is."""
    lead, _, body = sentence.rpartition(": ")
    if not body.strip() or not _JOB_SAID.search(f"{before} {lead}"):
        return sentence
    said = f"{body[:1].upper()}{body[1:]}"  # (as a sentence of its own)
    named = _NAMED_ALONE.fullmatch(said) if _NEW_JOB.search(f"{before} {lead}") else None
    first = named["at"].split()[0].lower() if named else ""
    if named and (not known_word(first) or re.search(rf"\b{WORKPLACE}\b", named["at"])):
        # ("New job. Jorvi Hospital, Espoo.": where they work; not "New job. Thrilled.", nor
        # "Started Monday.")
        where = f" in {named['where']}" if named["where"] else ""
        post = f"I work at {named['at']}{where}."
    elif (
        past_verb(said.split()[0])
        or _FINITE.search(said)
        or _A_STINT.match(said)
        or not (TRADE_NEXT.match(said) or _ROLE_NOW.fullmatch(said))
    ):
        # (a verb is no role: "I've left my job. Started at Tengri Labs on Monday."; nor is a
        # statement, "Giulia is moving in June" after "Giulia got offered a job", nor a time
        # spent there, "first week at Moniepoint done" after "new job alert")
        return sentence
    else:
        post = f"I'm {article(body)} {body[0].lower()}{body[1:]}"
    return f"{lead}: {post}" if lead else post


#: A post in apposition after a clause of the speaker's: "I fix lifts for a living, service
#: tech at Liftex in Brno" (the role a person, which the embedder decides: not "I moved last
#: year, flat in Leith").
_POST_AFTER = re.compile(
    # (a doing of theirs, not who they are: "I'm Joop, a glazier at …" is an introduction)
    r"^(?P<clause>I (?!am\b)[a-z][^,;]+), "
    # (a pronoun opens a clause of its own, no post: "my grandson Paolo, he studies at UP")
    r"(?P<post>(?P<role>(?!(?:he|she|they|it|we|you)\b)"
    r"(?:(?!(?:an?|the|my|our)\b)[a-z][\w-]* ){0,2}[a-z][\w-]*) "
    rf"(?:at|with|for) (?:the )?[{UPPER}][^;]*?)[.!]*$"
)


def post_after(sentence: str) -> str:
    """``sentence`` with a post said in apposition after the speaker's clause as a statement
    of its own ("I fix lifts for a living; I'm a service tech at Liftex in Brno."); else as
    it is."""
    if (found := _POST_AFTER.match(sentence)) is None or _FINITE.search(found["post"]):
        return sentence
    if not names_a_person(found["role"]):
        return sentence
    return f"{found['clause']}; I'm {article(found['post'])} {found['post']}."


#: What the speaker is, said with "is" and a noun formed as a doer's: "Kealoha is a commercial
#: fisherman — …", "Efua is the postmistress at …", "To pay the bills Yevgenia is a freelance
#: transcriber" (a trade no table holds, and no key reads).
_IS_A_DOER = re.compile(
    r"\b(?P<who>[A-Z][\w'-]*) is (?:an?|the) (?:(?!(?:big|huge|keen|avid|real|total|good|bad|"
    r"heavy|light|early|late|proud|single|new)\b)[a-z-]+ ){0,2}"
    r"(?P<noun>[a-z]+(?:er|or|ist|man|woman|wright|smith|eer|ier|ess|ant))\b"
)


def trade_held(line: str, speaker: str) -> bool:
    """``line`` says the speaker's trade by what they are ("Kealoha is a commercial
    fisherman"), a person's noun as the embedder places it: a new trade replaces it when no
    line of theirs holds one by its key."""
    found = _IS_A_DOER.search(line)
    if found is None or found["who"] != speaker or line.find(found["who"]) > 40:
        return False
    return names_a_person(found["noun"])
