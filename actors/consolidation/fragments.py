"""A value said alone, as a fragment, is the value of the topic said just before it.

People type a change in two steps: "new phone!!" then "a Reeder S19 Max,
turkish brand"; "update: new job", the assistant's "Ooh, where?", then
"Litera Press, poetry and art books"; "What's the role?" then "recruiter.";
"replaced it. an Omnium Cargo Mini-Max". Alone, the fragment has no verb and
no subject, so no key reads it, and the old value stays. Here the fragment is
written as the sentence it stands for ("My new phone is a Reeder S19
Max, …", "My new job is at Litera Press, …"), which the ordinary keys read.
The topic is the kind the assistant's question asks for, else the one the
speaker's sentence just before announced. See docs/design.md, "Facts that
stay true", the extractive path.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import known_word

from .anaphora import one_thing_of_theirs
from .attributes import PET
from .endings import ENDED
from .places import moves
from .posts import post_said
from .replies import only_reply
from .sentences import EMOJI
from .signals import SWITCH
from .third_person import word_set
from .words import HOMES, RELATIVES, UPPER, WHEN

__all__ = ["valued"]

#: A name said alone, with what is said of it after a comma: "Wermland Opera.", "an Omnium
#: Cargo Mini-Max, danish, I can haul tools on it", "Yongnuo YN455, a chinese android camera";
#: where it is, and where they now are with it: "now with Simba Shield Security, better pay",
#: "PT Surya Garmen in Karawang, sewing line QC".
_NAMED = re.compile(
    rf"(?:(?i:now )?(?:with|at) )?(?P<article>(?:[Aa]n?|[Tt]he) )?"
    # (and its kind in lower case before what is said of it: "Kerpic studio, a small office")
    rf"(?P<value>[{UPPER}][\w'&-]*(?: (?:[{UPPER}\d][\w'&-]*))*(?: [a-z]+(?=,))?)"
    rf"(?P<rest>(?: in [{UPPER}][\w'-]*)?(?:(?:,| [—–-]) .+?)?)[.!]*"
)
#: A trade said alone, in lower case, as the answer to what the role is: "recruiter.".
_TRADE_ALONE = re.compile(r"(?:[Aa]n? )?(?P<trade>[A-Za-z][a-z-]+(?: [a-z][a-z-]+)?)[.!]*")
#: A person said by name, then what they are: "Arnel is a jeepney driver, very kind to Migo".
_WHO_IS = re.compile(rf"(?P<name>[{UPPER}][\w'-]+)(?: is| was)? (?=an? |the |[a-z])")
#: The kind the assistant's question asks for: "What's the role?", "Which bike did you get?".
_ASKED = re.compile(
    r"\b(?:(?i:what|which)(?:'s| is| was)?|(?i:how much)(?:'s| is)) (?:(?:the|your) )?"
    r"(?P<new>new )?(?P<kind>[a-z]{3,})(?=\?| (?:did|do|is|are|was|will|have|is it|like|now)\b)"
)
#: An amount said alone, and what more after it: "975. bigger too", "1,450 a month", "1:47!!!".
_AMOUNT = re.compile(
    r"(?P<amount>[^\w\s]?\d(?:[\d,.:]*\d)?k?(?: [a-z]+)?(?: a (?:month|week|year))?)[.!]*"
)
#: What the amount said just before is, said after it: "1:47!!! new PB 🎉".
_NEW_AFTER = re.compile(
    rf"(?i:(?:a|my) )?(?i:(?:brand )?new) (?P<kind>[A-Za-z]+(?: [a-z]+)?)[.!]*(?: ?{EMOJI})*"
)
#: A question about a thing got, not any thing: "Which bike did you get?", "What's the new
#: laptop?" (not "What flowers are you featuring?").
_GOT = re.compile(r"\b(?:get|got|buy|bought|pick|picked|choose|chose|go with|went with)\b")
#: Words that only open the speaker's sentence: "and new laptop: …", "also changed company.".
_OPENER = "and|so|also|oh|ok|okay|plus"
#: The speaker's announcement of a new thing, alone in its sentence: "new phone!!", "update:
#: new job", "got the job", "job news:", "I have new boyfriend.".
_ANNOUNCED = re.compile(
    rf"(?:^(?:(?:{_OPENER}|update:?) )*|: |\b(?:a|my|our|the|have|has|got) )"
    r"(?:brand )?new (?P<kind>[a-z]{3,})"
    # (and its day, "new laptop day: Asus Zenbook 14"; or that it came, "new engine is in!")
    r"(?: day| (?:is|are) (?:in|here|fitted|installed))?[.!:]*$"
    r"|\bgot (?:(?:the|a|an|my) )?(?:new )?(?P<got>job|offer|position|role|post|internship|"
    r"apprenticeship|placement)\b[^,;]{0,20}$"
    # (the job left for another, said alone: "changed job!!", "also changed company.")
    r"|\b(?:changed|switched|swapped) (?:my )?(?:jobs?|company|companies|employers?)[.!]*$"
    r"|^(?:(?:big|some|good) )?(?P<news>job|work) news\b"
    # (a thing of their own at last, its make said next: "finally got my own car!! a Nissan
    # Sunny")
    r"|\b(?:got|bought) (?:my|our) own (?P<own>[a-z]{3,})[.!]*$"
    # (a home found, where it is said next: "found a room!! Ruzafa, with two Italian guys")
    rf"|\b(?:found|got) (?:a|an|our|my|the) (?:new )?(?P<home>{HOMES})[.!]*$"
    # (a pet come home, its name said next: "we adopted a cat! Sill.")
    r"|\b(?:adopted|rescued|got|brought home) (?:an?|another|a second) (?:new )?(?:[a-z]+ )?"
    rf"(?P<pet>{PET.pattern})[.!]*$",
    re.IGNORECASE,
)
#: A new job said before what it is, after a comma: "new job, pastry section at Ege Palas".
_JOB_LEAD = re.compile(
    rf"(?P<lead>(?i:(?:(?:{_OPENER}) )*(?:brand )?new (?:job|post|position|role|gig))),"
    r" (?=[a-z])"
)
#: A thing replaced, whatever its kind: "replaced it.", "What did you replace it with?"; or
#: asked for as got: "Did you get something else?".
_REPLACED = re.compile(
    r"\breplac(?:e|ed|ing) it(?: with)?[.!?]*$"
    r"|\b(?:did|will) you (?:get|buy|pick up) (?:something|anything|one)(?: else| new)?\?$"
    r"|\bwhat did you (?:get|buy|pick up|go for|go with)(?: instead)?\?$",
    re.IGNORECASE,
)
#: What a name is, said beside it: "Yongnuo YN455, a chinese android camera".
_APPOSED = re.compile(r"^,? an? (?:[a-z-]+ ){0,3}(?P<kind>[a-z]{3,})(?=[,.;!]|$)")
#: The kinds of a job: its name is where they work, its lower-case words the trade.
_JOB = frozenset(
    {"job", "offer", "position", "role", "post", "gig", "work", "company", "title", "internship"}
    | {"apprenticeship", "placement"}
)
_ROLE = frozenset({"role", "position", "title"})
#: Words a question asks about that name no kind ("Which one?", "What kind?").
_NO_KIND = frozenset({"one", "kind", "sort", "type", "model", "make", "brand", "happened", "else"})
#: What the speaker is now, "I'm" left out: "vegetarian now, not fully plant-based", "so
#: pescatarian now".
_NOW = re.compile(
    r"(?:(?i:so|and|but|ok|okay|well|yeah) )?(?P<state>[A-Za-z][a-z-]{3,}) now(?P<rest>[,;] .+?)?[.!]*"
)
#: A thing by its make, now: "Fairphone 5 now", "a Pixel 8 now".
_MADE_NOW = re.compile(
    # (or a person by their title: "Dr. Bianco now"; not a clause, "I drive the 55 now")
    r"(?P<article>[Aa]n? )?(?P<value>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?"
    r"(?!(?:I|We|They|He|She|It|[A-Z][a-z]+ing)\b)[A-Z][\w-]*"
    r"(?: [\w-]+){0,3}?) now(?P<rest>[,;] .+?)?[.!]*"
)
#: A kind of thing of theirs changed for another: "I changed doctor", "switched gyms".
_SWITCHED = re.compile(
    # (or theirs: "Doctor swapped my inhaler")
    rf"\b{SWITCH}(?:ed|ing|es|e)? (?:(?:my|our|their) )?(?P<kind>(?!(?:the|my|our|their|his|her|your|its|this|that|"
    r"all|some|over|back|from|to|it|them|everything|plans?|minds?)\b)[a-z]{3,}?)s?\b(?![\w-])"
)
#: Words before "now" that are no state: "just now", "until now", "that's it for now".
_NOT_A_STATE = word_set(
    "just right even only until till from that this here there then what more less bedtime time today "
    "tomorrow tonight"
)


def valued(sentence: str, before: Sequence[str], question: str) -> str:
    """``sentence`` written whole when it is a fragment naming the value of the topic the
    assistant's ``question`` asks for, or the last of ``before`` (what the speaker said just
    before it) announced; else as it is."""
    # (or after a dash, as the clause before it: "I eat fish again — pescatarian now, …")
    moved = bool(before) and moves(before[-1])
    named_next = moved or bool(before and _SWITCHED.search(before[-1]))
    for at in [0, *(m.end() for m in re.finditer(" [—–-] ", sentence))]:
        lead = f"{sentence[: at - 3]}; " if at else ""
        now = _NOW.fullmatch(sentence, at)
        # (a name after a move or a kind changed is no state: "Providencia now", "Bianco now")
        if now and not _no_state(now["state"]) and not (named_next and _a_name(now["state"])):
            return f"{lead}I'm {now['state'].lower()} now{now['rest'] or ''}."
        made = _MADE_NOW.fullmatch(sentence, at)
        if made and moved and not made["article"] and _a_name(made["value"]):
            # (a name after a move is where they live: "I moved last week! Providencia now",
            # "we moved! East Legon now")
            return f"{lead}I live in {made['value']} now{made['rest'] or ''}."
        # (or the make of the thing that just ended: "retired the old phone — Fairphone 5 now")
        if (
            made
            and _a_name(made["value"])
            and (kind := _ended_kind([*before, lead] if lead else before))
        ):
            value = f"{(made['article'] or '').lower()}{made['value']}"
            return f"{lead}My {kind} is {value} now{made['rest'] or ''}."
    if (asked := _ASKED.search(question)) and asked["kind"] in _NO_KIND:
        asked = None
    if (
        (label := _NEW_AFTER.fullmatch(sentence))
        and before
        and (amount := _AMOUNT.fullmatch(before[-1]))
    ):
        # ("1:47!!! new PB 🎉": the amount just said is the new one of that label)
        return f"My new {label['kind']} is {amount['amount']}."
    if asked and (amount := _AMOUNT.fullmatch(sentence)):
        # ("What's the rent like there?" "975.": the amount of the thing asked about)
        return f"My {asked['kind']} is {amount['amount']}."
    if job := _JOB_LEAD.match(sentence):
        # ("new job, pastry cook at Ege Palas hotel": its lead, as "new job: …" says it)
        return f"{job['lead']}: {sentence[job.end() :]}"
    kind = _topic(asked, question, before)
    lead, colon, after = sentence.partition(": ")
    if kind is None and colon and (announced := _ANNOUNCED.fullmatch(lead)):
        # (the topic announced in the sentence's lead: "and new laptop: Slimbook Pro X, …")
        kind, sentence = _kind(announced), after
    if kind is None:
        return sentence
    if re.fullmatch(RELATIVES, kind) and (who := _WHO_IS.match(sentence)):
        # ("I have new boyfriend." "Arnel is a jeepney driver": the one announced, by name)
        return f"My new {kind} {who['name']}{sentence[who.end('name') :]}"
    if kind in _ROLE and (trade := _TRADE_ALONE.fullmatch(sentence)) and not only_reply(sentence):
        role = trade["trade"].lower()
        return f"I work as {'an' if role[0] in 'aeiou' else 'a'} {role} now."
    if (named := _NAMED.fullmatch(sentence)) and (
        # (a capital after an article names a make, whatever its words: "a Nissan Sunny")
        _a_name(named["value"]) or (named["article"] and not WHEN.match(named["value"]))
    ):
        rest = named["rest"] or ""
        if kind == "it":
            apposed = _APPOSED.match(rest)
            kind = _ended_kind(before) or (apposed["kind"] if apposed else None)
        value = f"{(named['article'] or '').lower()}{named['value']}"
        if kind == "it" or kind is None:  # (replaced by a thing of a kind said nowhere)
            return f"I got {value}{rest}."
        if kind in _JOB:
            # (where they work, where and as the post said after "New job." is: ``posts``; from
            # the name on, not "now with")
            named_on = sentence[named.start("article" if named["article"] else "value") :]
            post = post_said(named_on, "new job")
            return post if post != named_on else f"My new job is at {value}{rest}."
        if PET.fullmatch(kind):
            return f"My new {kind} is called {value}{rest}."
        if kind == "home":  # ("found a room!!" "Ruzafa, with two Italian guys": where they live)
            return f"I live in {value} now{rest}."
        # (as a value under its label is: "New laptop: ThinkPad X1." ``casual.labelled``)
        return f"My new {kind} is {value}{rest}."
    return sentence


def _topic(asked: re.Match[str] | None, question: str, before: Sequence[str]) -> str | None:
    """The kind of thing a fragment after ``question`` (``asked``: the kind it asks for)
    and ``before`` names: the one asked for, else the one just announced; "it" for a thing
    replaced, whose kind is said elsewhere; None when neither says."""
    if asked and (asked["kind"] in _JOB or asked["new"] or _GOT.search(question, asked.end())):
        return asked["kind"]
    if _REPLACED.search(question):
        return "it"
    said = [s for s in before[-2:] if not only_reply(s)][-1:]
    if not said:
        return None
    if announced := _ANNOUNCED.search(said[0]):
        return _kind(announced)
    if switched := _SWITCHED.search(said[0]):  # ("Doctor swapped my inhaler. Symbicort, …")
        return switched["kind"]
    return "it" if _REPLACED.search(said[0]) else None


def _kind(announced: re.Match[str]) -> str:
    """The kind of thing ``announced`` (a match of ``_ANNOUNCED``) says is new."""
    kind = (
        announced["kind"] or announced["got"] or announced["pet"] or announced["own"] or "job"
    ).lower()
    return "home" if announced["home"] or re.fullmatch(HOMES, kind) else kind


def _ended_kind(before: Sequence[str]) -> str | None:
    """The kind of the thing the speaker last said ended ("the bike got stolen …") or
    changed for another ("changed doctor"), else the one thing of theirs their last sentence
    names ("dropped my phone in the harbour")."""
    for said in reversed(before):
        if ended := ENDED.search(said):
            return next((v for v in ended.groupdict().values() if v), None)
        if switched := _SWITCHED.search(said):  # (or changed for another: "changed doctor")
            return switched["kind"]
    last = [s for s in before if not only_reply(s)][-1:]
    return one_thing_of_theirs(last[0]) if last else None


def _no_state(word: str) -> bool:
    """``word`` before "now" is no state of the speaker's: a day, a word of time or place."""
    return word.lower() in _NOT_A_STATE or bool(WHEN.match(word))


def _a_name(value: str) -> bool:
    """``value`` is a name (a make, an employer, a person): one of its words is no word of
    the language, or a model's number ("Reeder S19 Max"), and it is no day or month."""
    words = value.split()
    return not WHEN.match(value) and any(
        any(c.isdigit() for c in w) or not known_word(w.lower()) for w in words
    )
