"""Consolidation without a model: keep the salient sentences, merge them as facts.

Used when no LLM is configured, and when a configured one keeps failing past
``hard_tokens``. It cannot paraphrase, so it selects: each sentence gets a
score from cheap signals (``salience``: a first-person statement of preference or fact,
a change said (``signals.signalled``), dates, numbers, capitalised names); the best few become the summary, in
their original order, and the best user statements become facts.

What it keeps as facts: every clause of a user sentence (never assistant,
tool or system ones; one fact per statement: ``clauses``) of at least three
words scoring ``FACT_MIN_SCORE`` or more, with no cap (what ``MEMORY.md``
shows is cut after the merge, by its token budget, so one job over four days
keeps what four daily jobs keep), in practice first-person statements ("I live in …", "my … is …") with a
name, a date or a number; questions are dropped. Each fact is rewritten in
the third person with the speaker's name (the message's ``name``, else "The
user": ``third_person``), dated with its message's UTC day and sourced with
its session and message id. A sentence's opener ("Small correction:")
stays on its first fact for the merge to read (``truth.merge``, where
facts are keyed, superseded, corrected and retracted, and chatter is
dropped, for both paths). The result depends only on the arguments.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from typing import NamedTuple

from reverie.store import Fact, MessageRecord

from .anaphora import (
    forgot_it,
    it_corrected,
    it_named,
    it_sold,
    named_pronoun,
    old_one,
    someone_named,
)
from .attributes import PET
from .casual import as_meant, birthday_age, born_named, labelled
from .chatter import split_opener
from .clauses import clauses
from .fragments import valued
from .introduction import INITIALISM, introduced, opened_by_name
from .kinds import KINDS
from .offers import offer_taken
from .ownership import named_theirs
from .places import PLACE_NAMED, VENUE, arrived_in, greeted_from, place_after
from .posts import TRADE_NEXT, post_after, post_said
from .relay import relayed
from .renaming import corrected_name
from .replies import IT, answered, continues, named_then_when, only_reply
from .result import ConsolidationResult
from .routines import WHEN_ALONE, when_of
from .salience import FACT_MIN_SCORE, OWNED_WRONG, VALUE_ALONE, salience
from .sentences import EMOJI, asserted, claim_asked_of, sentences
from .third_person import DEFAULT_SPEAKER, past_verb, third_person
from .truth import merge
from .words import UPPER

__all__ = [
    "extractive_consolidation",
    "extractive_facts",
    "extractive_summary",
    "merge_new_facts",
]

SUMMARY_SENTENCES = 5
#: What follows a verb whose "I" was left out: "Moved to …", "Bought a …", "Picked up …".
_OBJECT = re.compile(
    # (or a name: "Left Pixelworks last month")
    r"[A-Z][\w'-]*\b(?! (?:is|are|was|were|has|have)\b)|"
    r"(?:an?|one|the|my|our|it|them|this|that|some|someone|myself|me|us|him|her|to|up|in|at|on|"
    r"for|from|with|into|back|out|"
    r"off|last|yesterday|today|\d+|new|used|second-hand|"  # ("Got new boots, Scarpa …")
    r"(?![a-z]*(?:thing|morning|evening)\b)[a-z]{2,}ing|"  # ("Started eating", "Quit smoking")
    r"[a-z]{3,}s(?=[,.!]|$))\b"  # ("Switched jobs, joined …", "Changed banks.")
)
#: A bare noun and where, after a verb whose "I" was left out: "Gave notice at the bank" (not
#: "Married life in Leeds is great", nor a state got, "Got stuck in traffic", nor after a verb
#: its order is spelt as, "Put nothing on Monday").
_BARE_NOUN = re.compile(
    r"[a-z]{3,}(?= (?:at|to|on|with|for|from|in) )(?![^,;.]*\b(?:is|are|was|were)\b)"
)
_NOT_BEFORE_A_BARE_NOUN = frozenset({"got", "put", "set", "cut", "quit"})
#: A past verb that says what the speaker became: any word may follow ("Turned vegetarian",
#: "Went fully vegan last week"; not "Got stuck in traffic").
_BECAME = re.compile(r"(?:turned|became|went)$", re.IGNORECASE)
#: Where one went, not what one became: "Went home early".
_WENT_SOMEWHERE = re.compile(
    r"(?:home|out|back|away|there|here|off|over|around|on|up|down|in|inside|outside|lost)\b"
)
#: A fragment that only names what the sentence before introduced: "A beagle called Rex."
_APPOSITION = re.compile(
    r"^(?:(?:A|An) [^.!?]{0,40}\b(?:called|named)|(?:[Hh]is|[Hh]er|[Ii]ts) name(?: is|'s)|"
    r"(?:They|We|I) (?:named|called) (?:him|her|it)\b)"
)
#: A name told, then what is said of its bearer: "her name is Bori, she's grey and tiny".
_NAME_TOLD = re.compile(r"(?P<name>(?:[Hh]is|[Hh]er|[Ii]ts) name(?: is|'s) [^,]+), (?P<rest>.+)")
#: A name, then what it is like: "Myrsky, grey, pure chaos."
_NAME_FIRST = re.compile(rf"^[{UPPER}][\w'-]+, [a-z][^.!?]{{0,60}}[.!]*$")
#: A name given, ending its sentence: "Hi there, I'm Kwame.", "hi, Tomasz here."
_NAME_SAID = re.compile(
    r"(?:^|[,:] )(?:I'm|I am|My name's|My name is|Name's) [A-Z][\w'-]*[.!]*$|(?:^|[,:] )[A-Z][\w'-]* here[.!]*$|"
    # (or an emoji: "hi, I'm Jisoo 👋")
    rf"(?:^|[,:] )(?:I'm|I am|My name's|My name is|Name's) [A-Z][\w'-]* ?{EMOJI}+$"
)
#: A clause that says nothing on its own: "I love it", "I did that".
_ONLY_PRONOUN = re.compile(r"^\S+ \S+ (?:it|this|that|them)[.!]?$", re.IGNORECASE)
#: "moved there", "a flat there": the place the sentence named before.
_THERE = re.compile(
    # (not a way to get somewhere: "no idea how I'll get there with the amplifier")
    r"\b(?:(moved|relocated|moving) |(?P<kept>(?:flat|house|home|place|live|lives|work|works|job) ))"
    r"there\b"
)
_BARE_MOVE = re.compile(
    # (the speaker's, not a thing's: "the car refused to move"; nor a move talked of: "too old
    # for moving again", "tired of moving", "first time back since the move")
    r"(?<!\bto )(?<!n't )(?<!\bnot )(?<!\bfor )(?<!\bof )(?<!\babout )(?<!\bsince the )(?<!\bwith )"
    # (nor another's: "everyone is moving this year", "she's moving")
    # (or the move by its noun: "sold my camera kit to fund the move")
    r"(?<!\beveryone is )(?<!\beveryone's )(?<!\bshe's )(?<!\bhe's )(?<!\bthey're )(?<!\bthe )(?<!\bour )"
    # (nor one a relative clause is of: "it's Tracey that moved", "the one who moved")
    r"(?<!\bthat )(?<!\bwho )"
    r"\b(?:move|moving|moved|relocate|relocating|relocated)\b"
    r"(?! (?:to|in|into|there|here|back|out|away|house|home|on|over|up|down|around|about)\b)"
    # (nor a thing moved: "I've moved my class to a hall", "moved the bakery"; nor moved to
    # suit them: "parkrun moved for me")
    r"(?! (?:my|our|the|his|her|their|its|it|them|everything|for (?:me|us|them))\b)"
    # (nor one whose place is said after where from: "moving from London to Manchester")
    rf"(?! from [^.;!?]*\bto [{UPPER}])"
    # (nor people moved by others: "they moved a few of us around", "moved me to nights")
    r"(?! (?:me|us|him|everyone|everybody|people|staff|(?:a|some|most|all|half) (?:\w+ )?of)\b)"
    # (nor a noun the move names, "moving boxes everywhere": what follows is when, why or how)
    r"(?=$|[^\w ]| (?:[A-Z]|\d|(?:last|next|this|soon|today|tomorrow|tonight|yesterday|"
    r"finally|again|and|so|but|because|since|with|from|early|later|after|before|by|when|once|"
    r"for|at|around|now|already|just|officially|end|within|a|an|as|if|or)\b))"
)
#: A weight said by its noun, as a lead-in to the value: "weigh-in this morning: 198!!!".
_WEIGH_IN = re.compile(r"\bweigh-?ins?\b", re.IGNORECASE)
#: An adverb before a verb whose "I" was left out: "Just got a Pixel 9", "Finally sold it".
_JUST = re.compile(r"(?:Just|Finally|Also|Recently|Already|Then)$")
#: "Going freelance from next month": a present participle whose "I'm" was left out.
#: (an action, so followed by an object, a place or a way: not "Hiring managers mostly")
_UNSAID_I_AM = re.compile(
    r"^(?!(?:[Nn]o|[Ss]ome|[Aa]ny|[Ee]very)thing|[Mm]orning|[Ee]vening|[Dd]uring)[A-Z][a-z]+ing "
    r"(?:an?|the|to|from|for|at|in|on|into|back|out|down|up|over|away|home|my|our|with|freelance|full|part)\b"
    # (not the subject of a verb of its own: "Arriving at school not sweaty is life-changing")
    r"(?![^,;]*\b(?:is|was|has been|feels|felt|makes|made)\b)"
)
#: Where one lives or works, or what one has of one's own, its "I" left out: "Live in
#: Westside with my boyfriend Cian.", "Run my own show called Reef Plumbing."
_UNSAID_I = re.compile(
    r"^(?:(?:Live|Work|Teach|Study|Get around)(?: over| out| up| down)? (?:in|at|for|near|with|from|on)|[A-Z][a-z]+ my own|"
    # (what they drive or ride: "Drive a Toyota Hilux.")
    r"(?:Drive|Ride) (?:an?|the) (?:[a-z]+ )?(?=[A-Z])|"
    # (what was done to them: "Also got promoted to shift leader.")
    r"Got [a-z]+(?:ed|en) (?:to|as|at|by|in|last|this|yesterday|today)|Got (?:promoted|engaged|married|hired)|"
    # (what they did to a thing of theirs: "Finished all my exams!", "Sold our old van.")
    r"[A-Z][a-z]+ed (?:all |both )?(?:my|our)\b)\b|"
    # (what they did not do, in the past: "Didn't go back after the leave, joined …"; not
    # "Don't forget", said to someone)
    r"^(?:Didn't|Haven't|Wasn't|Couldn't) (?=[a-z])"
)
#: A state said alone, its "I'm" left out: "Officially retired now.", "Engaged again!" (a
#: participle, or a word after an adverb; not "Snowing again", "Hei again!")
_UNSAID_STATE = re.compile(r"^(?:[A-Z][a-z]+ly [a-z]+|[A-Z][a-z]+ed) (?:now|again)[.!]*$")
#: A number had, its "I have" left out: "Nine employees now.", "Three kids now, …"
_UNSAID_HAVE = re.compile(
    r"^(?:\d+|[Tt]wo|[Tt]hree|[Ff]our|[Ff]ive|[Ss]ix|[Ss]even|[Ee]ight|[Nn]ine|[Tt]en) "
    r"(?!(?:times|days|weeks|months|years|hours|minutes)\b)[a-z]+s now(?:[.!]*$|,)"
)
#: A state kept up, its "I've" left out: "Been with Plomberie Gagnon 8 years.", "been keeping
#: it to 45 hours a week" (not a time gone by, "Been ages", "Been a long day").
_UNSAID_BEEN = re.compile(
    r"^Been (?!(?:an?|the|ages|forever|years|months|weeks|days|such|so|too|quite|long|there)\b)"
    r"(?=[a-z])"
)
#: Where one is from, its "I'm" left out: "originally from Iloilo", "From Cork originally."
_UNSAID_FROM = re.compile(
    rf"^(?:Originally from [{UPPER}]|From [{UPPER}][\w-]*(?:,? [{UPPER}][\w-]*)* originally\b)"
)
#: A thing of theirs lost past repair, its "My … was" left out: "Bike stolen outside the
#: institute.", "Car written off."
_UNSAID_MY_WAS = re.compile(
    r"^[A-Z][a-z]+(?:-[a-z]+)? (?=(?:stolen|nicked|written off|totall?ed)\b)"
)
#: What each of those left out.
_UNSAID = (
    (_UNSAID_I, "I"),
    (_UNSAID_STATE, "I'm"),
    (_UNSAID_FROM, "I'm"),
    (_UNSAID_HAVE, "I have"),
    (_UNSAID_BEEN, "I've"),
)


class _Sentence(NamedTuple):
    order: int
    role: str
    text: str
    score: int
    turn: MessageRecord


def _sentences(turns: list[MessageRecord], theirs: frozenset[str]) -> list[_Sentence]:
    found: list[_Sentence] = []
    for turn in turns:
        if turn.role not in ("user", "assistant"):
            continue
        pending = sentences(opened_by_name(turn.content, turn.name))
        while pending:
            said = pending.pop(0)
            # (a claim with a question after it is the claim: "the rent is going up to €1,240,
            # is he even allowed do that?")
            text = claim_asked_of(said) if turn.role == "user" else said
            # (or their own name typed in lower case: "hey, i'm jules. radio producer at …")
            own = rf"\bi(?:'?m| am) {re.escape(turn.name)}[.!]*$" if turn.name else r"\Z\A"
            prior = found[-1].text if found else ""
            after_name = bool(_NAME_SAID.search(prior) or re.search(own, prior, re.IGNORECASE))
            # (or its name, after a pet the sentence before ends with: "we adopted a second
            # cat?? Myrsky, grey, pure chaos.")
            pet_named = _NAME_FIRST.match(text) and PET.search(prior.rstrip(".!? ")[-12:])
            if (
                text
                and (
                    _APPOSITION.match(text) or (after_name and TRADE_NEXT.match(text)) or pet_named
                )
                and found
                and found[-1].turn is turn
            ):
                last = found.pop()
                if told := _NAME_TOLD.fullmatch(text):
                    # ("her name is Romina, she's a ceramicist, …": what she is, of her own)
                    text, rest = told["name"], told["rest"]
                    pending.insert(0, rest[0].upper() + rest[1:])
                # (lower case, unless an initialism: "UX designer at …", "PhD student")
                named = pet_named or re.match(rf"{INITIALISM}\b", text)
                first = text[0] if named else text[0].lower()
                text = f"{re.sub(rf'[.!? ]*{EMOJI}*$', '', last.text)}, {first}{text[1:]}"
            if text:
                score = salience(text, turn.role, turn.content, theirs)
                found.append(_Sentence(len(found), turn.role, text, score, turn))
    return found


def _best(candidates: list[_Sentence], n: int) -> list[_Sentence]:
    """The ``n`` highest-scoring sentences (earlier wins ties), back in original order."""
    ranked = sorted(candidates, key=lambda s: (-s.score, s.order))[:n]
    return sorted(ranked, key=lambda s: s.order)


def _fact(sentence: _Sentence, session: str) -> Fact:
    opener, body = split_opener(sentence.text)
    text = third_person(body, sentence.turn.name or DEFAULT_SPEAKER)
    return _said(sentence.turn, session, f"{opener}: {text}" if opener else text)


def _said(turn: MessageRecord, session: str, text: str) -> Fact:
    """``text`` as a fact dated with ``turn``'s UTC day and sourced to it."""
    return Fact(
        text=text,
        date=datetime.fromtimestamp(turn.ts, UTC).strftime("%Y-%m-%d"),
        sources={session: [turn.id]} if session else {},
    )


def extractive_summary(turns: list[MessageRecord]) -> str:
    """The turns' most salient sentences, in their order (the first user one if none scores)."""
    return _summary(_sentences(turns, frozenset()))


def extractive_facts(
    turns: list[MessageRecord], session: str = "", *, openers: bool = False
) -> list[Fact]:
    """The best user statements as third-person facts, dated and sourced to their message;
    with ``openers`` a sentence's first fact keeps its opener ("Small correction: …") for
    the merge to read, as ``extractive_consolidation`` does."""
    turns = relayed(turns)
    facts = _facts(_sentences(turns, theirs := named_theirs("", turns)), session, theirs)
    if openers:
        return facts
    return [Fact(text=split_opener(f.text)[1], date=f.date, sources=f.sources) for f in facts]


def _summary(sentences: list[_Sentence]) -> str:
    chosen = _best([s for s in sentences if s.score > 0], SUMMARY_SENTENCES)
    if not chosen:
        chosen = [s for s in sentences if s.role == "user"][:1]
    return "\n".join(f"{s.role}: {s.text}" for s in chosen)


def _facts(sentences: list[_Sentence], session: str, theirs: frozenset[str]) -> list[Fact]:
    facts: list[Fact] = []
    answered: MessageRecord | None = None  # the turn whose last fact is an answer
    asked: _Sentence | None = None
    earlier: list[str] = []  # what the speaker said last, up to the sentence
    by = ""  # who said it
    for before, sentence, after in zip(
        [None, *sentences], sentences, [*sentences[1:], None], strict=False
    ):
        if sentence.role != "user":
            asked = sentence  # (the question a reply after "Yes!" answers)
            continue
        said = before.text if before is not None and before.turn is sentence.turn else ""
        # ("My brother Bold moved. He keeps sending me photos": the second is Bold's too; so
        # is a turn that opens with "He …", after the same speaker's turn naming him)
        who = sentence.turn.name or DEFAULT_SPEAKER
        earlier = [*(earlier[-3:] if who == by else []), sentence.text]
        by = who
        text = it_corrected(as_meant(sentence.text, sentence.turn.name), said)
        # ("Which one?" "Wermland Opera.": the value of what was asked for, or announced)
        replied = before is not None and before.turn is sentence.turn and only_reply(before.text)
        asking = asked.text if asked is not None and (before is asked or replied) else ""
        text = post_after(valued(text, earlier[:-1], asking))
        text = arrived_in(greeted_from(text, sentence.turn.content, who), sentence.turn.content)
        text = born_named(text, sentence.turn.content, sentence.turn.name)
        text = birthday_age(text, sentence.turn.content)
        text = old_one(named_pronoun(it_sold(text, earlier[:-1]), earlier[:-1], who), earlier[:-1])
        text = someone_named(text, earlier[:-1], sentence.turn.content)
        text = forgot_it(it_named(text, earlier[:-1]), earlier[:-1])
        # ("futsal moved … Thursdays 20:00 now": futsal's; "Choir! Every Wednesday at 6pm")
        text = offer_taken(when_of(named_then_when(text, said), said), sentence.turn.content)
        if said and _AMOUNT_NOW.match(text):
            text = f"I'm on {text}"  # "Got a raise. 2650 now.": what they are on now
        wrong = OWNED_WRONG.search(said) or (
            VALUE_ALONE.match(text) and OWNED_WRONG.search(sentence.turn.content)
        )
        if wrong and not OWNED_WRONG.search(text):
            # "Sorry, I made a mistake in the numbers. … the rent is KSh 54,000": corrects
            text = f"Correction: {text}"
        sentence = sentence._replace(text=text)
        place = (PLACE_NAMED.findall(said) or [""])[-1]
        # ("We have moved. The air in Malang is so cool": a bare move is to the place said next)
        then = after.text if after is not None and after.turn is sentence.turn else ""
        statements = [
            sentence._replace(
                text=t, score=salience(t, sentence.role, sentence.turn.content, theirs)
            )
            for t in _statements(
                post_said(labelled(asserted(sentence.text)), said),
                place,
                "" if VENUE.search(then) else place_after(sentence.text, then),
            )
            if not _ONLY_PRONOUN.match(t)
        ]
        kept = [_fact(s, session) for s in statements if s.score >= FACT_MIN_SCORE]
        # ("Will you start a book club there too?" "Yes! Sunday afternoons at 2pm.": a when
        # alone answers it, after a "Yes!" too)
        question = asked if replied else before
        alone = all(WHEN_ALONE.match(f.text) for f in kept)
        if alone and question is not None and (answer := _answer(question, sentence, session)):
            kept = [answer]
            answered = sentence.turn
        elif not kept and answered is sentence.turn and continues(sentence.text):
            # "Midnight Danfo. It's afrobeats with a lot of live horns.": the answer goes on
            last = facts.pop()
            said = third_person(sentence.text, sentence.turn.name or DEFAULT_SPEAKER)
            kept = [
                Fact(
                    text=f'{last.text[:-1]}. {said.rstrip(".!")}"',
                    date=last.date,
                    sources=last.sources,
                )
            ]
        facts += kept
        if kept and answered is not sentence.turn:
            answered = None
    return facts


def _answer(question: _Sentence, reply: _Sentence, session: str) -> Fact | None:
    """``reply`` kept with the assistant's ``question`` it answers (``replies.answered``)."""
    if question.role != "assistant" or reply.turn is question.turn:
        return None
    name = reply.turn.name or DEFAULT_SPEAKER
    if (said := answered(question.text, reply.text, name)) is None:
        return None
    return _said(reply.turn, session, said)


#: An amount said alone as it is now, after what changed it: "Got a raise. 2650 now."
_AMOUNT_NOW = re.compile(
    # (not how long it has been: "stopped smoking!! 2 weeks now.")
    r"^[^\w\s]?\d[\d,]*(?:\.\d+)?(?: (?!(?:minute|hour|day|week|month|year)s?\b)[a-z]+)? now[.!]*$"
)
#: What a mistake owned in a lead-in was about: "my mistake about the diploma", "got it
#: wrong on the rent".
_WRONG_ABOUT = re.compile(r"\b(?:about|on|with|re) (?P<thing>(?:the|my|our) [\w' -]+?)$")
#: A clause that says the one before it corrects: "not the day I told you".
_NOT_AS_SAID = re.compile(
    r"[,;] (?:and )?not (?:the|what) (?:[a-z]+ )?I (?:told you|said|gave you|wrote|mentioned)\b.*",
    re.IGNORECASE,
)
#: A lead-in that says which thing changed: "The Polish course also changed", "Our
#: schedule has moved".
_THING_CHANGED = re.compile(
    r"(?P<thing>(?:The|Our|My) [\w' -]+?) (?:also |has |have |just )*"
    r"(?:changed|moved|switched|shifted)$"
)


def _statements(sentence: str, place: str = "", then: str = "") -> list[str]:
    """The clauses of ``sentence``, the first still led by its opener ("Small correction: …"),
    which the merge reads for its cue; a clause without a subject ("Moved last week") is the
    speaker's; "there" or a bare move is to the last ``place`` named before ("… at Klangwerk
    in Berlin. Moved last weekend!"), else a bare move to the place named ``then``, in the
    sentence after it."""
    opener, body = split_opener(sentence)
    if _WEIGH_IN.search(opener) and re.match(r"\d", body):
        opener, body = "", f"I weigh {body}"  # "weigh-in this morning: 198!!!": by its noun
    if (thing := _THING_CHANGED.match(opener)) and (it := IT.match(body)):
        # "The Polish course also changed: it is now on Saturday mornings": the course is
        body = f"{thing['thing']}{body[it.end() :]}"
    # ("my mistake about the diploma: it's at WSB": the diploma, corrected)
    about = _WRONG_ABOUT.search(opener) if OWNED_WRONG.search(opener) else None
    if about and (it := re.match(r"[Ii]t(?='s| is| was)", body)):
        body = f"Correction: {about['thing'].capitalize()}{body[it.end() :]}"
    # (an introduction after a lead of its own: "quick intro so you can keep track: I'm Saskia, …")
    led = re.match(r"[^:]{3,80}: (?=[A-Z])", body)
    found = introduced(body) or (led and introduced(body[led.end() :])) or clauses(body)
    first, _, after = found[0].partition(" ") if found else ("", "", "")
    adverb = ""
    if _JUST.match(first) and after:  # "Just got a Pixel 9": the verb after the adverb
        adverb, (first, _, after) = f"{first.lower()} ", after.partition(" ")
    # "Moved to Leeds", "Turned vegan", not "Wood-fired everything"
    became = _BECAME.match(first) and after and not _WENT_SOMEWHERE.match(after)
    # (or alone before a comma: "resigned, registered Kahu Freight")
    # (or alone, before the place it names: "Moved. Masthugget now.")
    alone = bool(then) and first.rstrip(".!") in ("Moved", "Relocated")
    alone &= after.rstrip(".!") in ("", "house", "flats")  # ("Moved house. East Legon now.")
    after = "" if alone else after
    if past_verb(first.rstrip(",.!")) and (
        _OBJECT.match(after)
        or (_BARE_NOUN.match(after) and first.lower() not in _NOT_BEFORE_A_BARE_NOUN)
        or became
        or first.endswith(",")
        or alone
    ):
        found[0] = f"I {adverb}{first.lower()} {after}".rstrip()
    elif _UNSAID_I_AM.match(found[0] if found else ""):
        found[0] = f"I'm {first.lower()}{found[0][len(first) :]}"
    elif found and (thing := _UNSAID_MY_WAS.match(found[0])):
        found[0] = f"My {thing[0].lower()}was {found[0][thing.end() :]}"
    elif found and (unsaid := next((s for p, s in _UNSAID if p.match(found[0])), "")):
        found[0] = f"{unsaid} {found[0][0].lower()}{found[0][1:]}"
    # "Baram Airlines hired me!", "Derwent Sparks took me on as …": the speaker was hired,
    # by whom (their employer) is the value
    found = [_HIRED_ME.sub(r"I was hired by \g<by>", f) for f in found]
    found = [_LET_ME_GO.sub(r"I was let go by \g<by>", f) for f in found]
    for i in range(len(found)):
        # (named before it in its own clause too: "got an offer in Bengaluru and is moving")
        moved = _BARE_MOVE.search(found[i])
        before = " ".join([*found[:i], found[i][: moved.start()] if moved else ""])
        places = [p for p in [place, *PLACE_NAMED.findall(before)] if p]
        if places:
            found[i] = _THERE.sub(partial(_place, places[-1]), found[i])
        if places or then:
            # "It's in Salvador, we move at the end of the month": the move is to Salvador
            found[i] = _BARE_MOVE.sub(rf"\g<0> to {(places or [then])[-1]}", found[i], count=1)
    if len(found) > 1 and OWNED_WRONG.search(found[0]):
        # "I gave you the wrong plot number; my plot is number 22": what follows corrects
        found[1:] = [f"Correction: {clause}" for clause in found[1:]]
    for i, clause in enumerate(found):
        denied = _NOT_AS_SAID.search(clause)
        kept = clause[: denied.start()].rstrip(" ,;") if denied else ""
        if kept and (any(kind.search(kept) for kind in KINDS) or corrected_name(kept)):
            # "pilates is on Thursdays, not the day I told you", "the goats are Alpines, not
            # the breed I said": what comes before corrects a value of a kind, or a name
            found[i] = f"{'' if kept.startswith('Correction: ') else 'Correction: '}{kept}."
    if opener and found:
        found[0] = f"{opener}: {found[0]}"
    return found


#: An employer's name opening a sentence ("Baram Airlines", "Smith & Daughters"; "They hired
#: me away" names nobody).
_EMPLOYER = rf"^(?!(?:They|We|He|She|It|You|Someone)\b)(?P<by>[{UPPER}][\w&'-]*(?: (?:&|[{UPPER}][\w&'-]*))*) "
_HIRED_ME = re.compile(rf"{_EMPLOYER}(?:hired me|took me on)\b")
#: "Pixelworks let me go", "Acme laid me off": the speaker's employer ended, by its name.
_LET_ME_GO = re.compile(rf"{_EMPLOYER}(?:let me go|laid me off|made me redundant|fired me)\b")


def _place(place: str, there: re.Match[str]) -> str:
    """ "moved there" → "moved to Salzburg", "a flat there" → "a flat in Salzburg"."""
    return f"{there[1]} to {place}" if there[1] else f"{there['kept']}in {place}"


def merge_new_facts(
    memory: str, facts: list[Fact], max_tokens: int, count_tokens: Callable[[str], int]
) -> str:
    """``memory`` with ``facts`` merged in so that it stays true (``truth.merge``); with no
    turns to support a new value, an old line is never rewritten, only retired."""
    return merge(memory, facts, max_tokens, count_tokens, turns=()).memory


def extractive_consolidation(
    memory: str,
    turns: list[MessageRecord],
    *,
    max_tokens: int,
    count_tokens: Callable[[str], int],
    session: str = "",
) -> ConsolidationResult:
    """A history summary, facts and the new ``MEMORY.md`` for ``turns``, without a model.

    ``session`` names the facts' source (none when empty).
    """
    turns = relayed(turns)  # (a turn someone typed for the speaker, in the speaker's voice)
    sentences = _sentences(turns, theirs := named_theirs(memory, turns))
    merged = merge(
        memory, _facts(sentences, session, theirs), max_tokens, count_tokens, turns=turns
    )
    return ConsolidationResult(
        summary=_summary(sentences),
        facts=[f.text for f in merged.added],
        memory=merged.memory,
        retired=merged.retired,
    )
