"""New facts merged into ``MEMORY.md`` so that it stays true: the one place both paths pass.

``merge`` takes a job's new facts (extractive or the model's, third person,
possibly still opening with "Quick update:") and, for each in order, cuts
its opener and chatter and its claims apart, lets a retraction retire what
it names, a shared key (``attributes.keys``) or a value of the same kind
replace the older line, and a change in other words retire the speaker's
nearest one (``change.displaced``); the steps, and why each is as narrow as
it is, are in docs/design.md, "Facts that stay true".

A value replaced in place must leave a claim the turns support (one
sentence naming the old value once, the new value in the job's ``turns``,
the line grounded against the turns and the old line's words): a rewrite of
"Rex comes to the beach in Porto. Carl lives in Porto." would have put
Carl's dog on a beach in Lisbon. What stopped being true is returned as
``retired`` (for the history entry), including a fact said and replaced
within the same job; what the token cap cut is not. The rewritten line is
dated by the new fact and sourced to both, so a forget of either session
takes it. The result depends only on the arguments.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from functools import partial
from typing import NamedTuple

from reverie.store import Fact, MessageRecord, fact_key, parse_memory, render_memory

from .acquiring import acquired
from .attributes import (
    RELATIVES,
    THINGS,
    UPPER,
    WEEKDAYS,
    WHEN,
    Key,
    keys,
    same_make,
    same_subject,
)
from .change import NEAR_OF_KIND, displaced, nearest, values
from .chatter import is_chatter, remark, split_opener, strip_banter, without_echo
from .claims import claims
from .family import family_grew
from .grounding import supports
from .kinds import (
    KINDS,
    RECORD,
    RECORD_TIME,
    SCALED_AMOUNT,
    TOPICAL_AMOUNT,
    TOPICAL_TIME,
    WEEKDAY,
    counted,
    faster,
    of_a_scale,
    on_topic,
    record_time,
    root,
    stated_amount,
    stated_values,
    the_one,
    topic_of,
)
from .meaning import Embed, meaning
from .ownership import named, owner, people, same_turn, someone_else, theirs
from .places import based, finer, moved_within, moves, there, within
from .renaming import corrected_name, renamed, renames, renaming, says_renamed
from .retraction import retraction_topics, retracts
from .roles import promoted
from .signals import CLAUSE, ending, gone, hedged, over, signalled
from .third_person import DEFAULT_SPEAKER, conjugate

__all__ = ["Merged", "clean", "merge"]

UNNAMED = "The user"

_CORRECTION = re.compile(
    r"\b(?:correction|autocorrect|typo|mistakes?|wrong|meant|misread|mix(?:ing|ed up)|actually)\b",
    re.I,
)
#: Where a change's reason starts: what follows says why, not what else changed.
_WHY = re.compile(r" [—–] | - |,? because |,? since ")
#: The plural of a day: a day said once ("on a Monday") takes the number of the old one.
_DAYS = re.compile(rf"\b((?i:{WEEKDAYS})|morning|afternoon|evening|night)s\b")
_NO_LONGER = re.compile(
    r"^(?P<who>.+?) (?:does not|doesn't|do not|don't|no longer) (?P<verb>\w+) .+?"
    r"(?: anymore| any more)?,? (?:only|just|but now) (?P<new>[^,.;]+)[.!]?$",
    re.IGNORECASE,
)
_VALUED = frozenset(["residence", "age"])
_ACTUALLY = re.compile(r"(?<=\w) actually\b(?= \w)")
_SAME = re.compile(r"\b(?:the same|here)\b", re.IGNORECASE)
_THE_NEW = re.compile(r"\b(?:the|my|their|our|his|her) new\b", re.IGNORECASE)
_THE_OLD = re.compile(r"\b(?:the|my|their|our|his|her) (?:old|previous|former)\b", re.IGNORECASE)
#: A sentence ends inside the text: a line that says two things is never rewritten.
_TWO_SENTENCES = re.compile(r"[.!?]\s+\S")
_UNNAMED_IS = re.compile(rf"^{UNNAMED} is ([A-Z][\w'-]*)[.!]?$")
#: "The user is Sofie, a designer at …" (the unnamed "I'm Sofie, a designer"): the user is
#: the subject, the name an aside, as "Sofie is Sofie, a designer" loses its tautology.
_UNNAMED_INTRO = re.compile(rf"^{UNNAMED} is ([A-Z][\w'-]*),\s+(?=an?\b)")


class Merged(NamedTuple):
    """The new ``MEMORY.md``, the facts this job added, and those it retired."""

    memory: str
    added: list[Fact]
    retired: list[Fact]


def clean(fact: Fact, speakers: Collection[str] = ()) -> tuple[str, Fact | None]:
    """The fact's opener and the fact without it (None when what is left is chatter); a lead
    naming one of ``speakers`` is what they did ("Rahul ran a new PB: 1:47"), no opener."""
    opener, text = split_opener(fact.text, speakers)
    if _ACTUALLY.search(text):  # "is actually March 15": a correction's cue, not its claim
        opener, text = f"{opener} actually".strip(), _ACTUALLY.sub("", text)
    text = without_echo(strip_banter(text))
    text = _UNNAMED_INTRO.sub(rf"{UNNAMED} (\1) is ", text)
    if found := _NO_LONGER.match(text):
        text = f"{found['who']} {conjugate(found['verb'].casefold())} {found['new'].strip()}."
    if unnamed := _UNNAMED_IS.match(text):  # "I am Carl" from an unnamed speaker: a name
        text = f"{UNNAMED}'s name is {unnamed[1]}."
    if is_chatter(text):
        return opener, None
    return opener, Fact(text=text, date=fact.date, sources=fact.sources)


def merge(
    memory: str,
    new_facts: Sequence[Fact],
    max_tokens: int,
    count_tokens: Callable[[str], int],
    *,
    turns: Sequence[MessageRecord],
) -> Merged:
    """``memory`` with ``new_facts`` (said in ``turns``) merged in (see the module's steps)."""
    facts, _ = parse_memory(memory)
    before = {id(f) for f in facts}
    retired: list[Fact] = []
    taken: list[tuple[Fact, Fact]] = []  # (a line retired, the new fact that retired it)
    added: list[Fact] = []
    speakers = {turn.id: turn.name or DEFAULT_SPEAKER for turn in turns}

    def retire(fact: Fact) -> None:
        facts.remove(fact)
        if id(fact) in before or any(fact is f for f in added):
            retired.append(fact)
            added[:] = [f for f in added if f is not fact]

    def add(opener: str, fact: Fact, embed: Embed, whole: str) -> None:
        lines = list(facts)
        _add(opener, fact, embed, whole)
        taken.extend((f, fact) for f in lines if all(f is not g for g in facts))

    def _add(opener: str, fact: Fact, embed: Embed, whole: str) -> None:
        untouched = [id(f) for f in facts]  # a line retracted is the change: no other goes
        speaker = _speaker(fact, speakers)
        topics = retraction_topics(fact.text)
        if topics is not None:
            # (every line of the speaker's names them: their name is no topic of their own)
            topics = topics._replace(words=topics.words - set(speaker.casefold().split()))
            lines = " ".join(f.text for f in facts)
            theirs = partial(_theirs, fact, speaker, people(speakers.values(), facts), lines)
            for old in [
                f for f in facts if retracts(topics, f.text) and theirs(f) and not over(f.text)
            ]:
                retire(old)
            if not topics.keep:
                return
        persons = people(speakers.values(), facts)  # (after what the retraction retired)
        if remark(fact.text, persons) or any(
            fact_key(f.text) == fact_key(fact.text) for f in facts
        ):
            return
        said = f"{opener} {fact.text}"
        if _renamed(facts, fact, retire, turns, persons, speaker):
            pass  # "Pho Saigon Corner sounds dated, so we're Little Mekong": the line holding it
        elif (
            not _supersede(facts, fact, whole, retire, turns, persons, speaker, says_renamed(said))
            and _revise(
                facts,
                fact,
                said,
                retire,
                turns,
                partial(nearest, embed=embed, near=NEAR_OF_KIND, speaker=speaker),
                speaker,
            )
            and (len(fact.text.split()) < 4 or (_CORRECTION.search(said) and _held(fact, facts)))
        ):
            # "Sorry, I meant Tuesday", "my birthday is actually March 15": said by the line
            # it corrected (a rename keeps its line: "the podcast is now called Ward Talk")
            return
        # (a make got replaces its thing and what its key took: "Got a Galaxy S24", "the Huawei")
        if ([id(f) for f in facts] == untouched or acquired(said)) and not (
            renames(said)
            or says_renamed(said)
            # (a name no line holds, corrected, leaves the others: "the hens are Sussex")
            or (_CORRECTION.search(said) and corrected_name(fact.text))
        ):
            # no key, correction or rename took a line: a change in other words (change.py)
            older = [f for f in facts if _comparable(f, fact) and not over(f.text)]
            # (a change its own turn already made: "switched roles, I'm a UX researcher now,
            # no more graphic design" changes the trade once, not the trade and then the employer)
            again = [old for old, by in taken if same_turn(by, fact)]
            # (roles.py, family.py)
            if role := promoted(older, fact, _turn_of(fact, turns), speaker):
                retire(role)
            elif count := family_grew(older, fact, speaker):
                retire(count)
            elif (found := displaced([*older, *again], fact, said, speaker, embed)) and all(
                found.old is not f for f, _ in taken
            ):
                at = facts.index(found.old)
                retire(found.old)
                moved = moved_within(found.old.text, fact.text)
                kept = (moved and _rewrite(found.old, fact, [moved], turns)) or found.rest
                facts[at:at] = [kept] if kept else []
        facts.append(fact)
        added.append(fact)

    names = {*speakers.values(), DEFAULT_SPEAKER}
    with meaning() as embed:
        for raw in new_facts:
            opener, cleaned = clean(raw, names)
            if cleaned is not None:
                for claim in claims(cleaned):
                    add(opener, claim, embed, cleaned.text)
    while facts and count_tokens(render_memory(facts)) > max_tokens:
        facts.pop(0)
    return Merged(render_memory(facts), added, retired)


def _renamed(
    facts: list[Fact],
    new: Fact,
    retire: Callable[[Fact], None],
    turns: Sequence[MessageRecord],
    persons: set[str],
    speaker: str,
) -> bool:
    """Rename the line of the speaker's holding the old name the turn of ``new`` says beside
    the new one (``renaming.renamed``); whether one was."""
    lines = [
        f
        for f in facts
        if _comparable(f, new) and not same_turn(f, new) and _same_person(f, new, persons, speaker)
    ]
    # (a person named by a relation is no old name: "my partner Diego" in "Diego and I
    # decided the brand is now Casa Tlaque")
    kin = {
        m[1] for f in facts for m in re.finditer(rf"\b(?:{RELATIVES}) ([{UPPER}][\w-]*)", f.text)
    }
    if (found := renamed(new.text, _turn_of(new, turns), lines, persons | kin)) is None:
        return False
    rewritten = _rewrite(found.line, new, [(found.was, found.name)], turns)
    at = facts.index(found.line)
    retire(found.line)
    if rewritten is None:
        # (a line that cannot take it, a quote or two claims, goes: the new name stands alone)
        return False
    facts.insert(at, rewritten)
    _named_again(facts, rewritten, found.was, found.name, retire)
    return True


def _supersede(
    facts: list[Fact],
    new: Fact,
    whole: str,
    retire: Callable[[Fact], None],
    turns: Sequence[MessageRecord],
    persons: set[str],
    speaker: str,
    renaming: bool,
) -> bool:
    """Retire (or rewrite in place) the older facts of the same person that share a key with
    ``new`` (a claim of ``whole``, the fact as said, by ``speaker``; ``renaming``: it gives
    something a new name)."""
    mine = [] if hedged(new.text) else keys(new.text)  # a plan or a wish replaces nothing
    if renaming:  # a thing given a new name is the same thing: "gave the truck a new name, Abol"
        mine = [key for key in mine if key.attribute not in THINGS]
    said_in = f"{new.text} {_turn_of(new, turns)}"
    done, before = False, list(facts)
    for old in list(facts):
        theirs = keys(old.text)
        shared = [(a, b) for a in mine for b in theirs if _same(a, b)]
        # (a partner, said on a later day, is its holder's: "Tomás's girlfriend is Sara")
        partners = bool(shared) and new.date > old.date
        partners &= all(a.attribute == "partner" and a.subject and b.subject for a, b in shared)
        if (
            not _comparable(old, new)
            or not (partners or _same_person(old, new, persons, speaker))
            or over(old.text)  # (a state already over, "drove a truck in the nineties")
            # (a wish naming no value is no state: "wants to improve their diet")
            or (hedged(old.text) and not any(b.value for b in theirs))
            # (what a turn ends is older than what it starts: "quit the studio, I start at Fjord";
            # what it says of it without a new value is the same: "They hired me away …")
            or (
                same_turn(old, new)
                and (ending(new.text) or {a.value for a in mine} <= {"", speaker})
            )
        ):
            continue
        if (
            shared
            and all(not a.value for a, _ in shared)
            and (
                _SAME.search(new.text)
                or _THE_NEW.search(new.text)
                or (_THE_OLD.search(new.text) and _newest(old, before, shared))
            )
        ):
            # "another ward at the same hospital", "settled here now": the employer or home
            # stays; "first week at the new hospital" is the latest line's, "the old job" not it
            continue
        if (
            shared
            and all(
                b.attribute in THINGS and (not a.value or same_make(a.value, b.value))
                for a, b in shared
            )
            and not signalled(new.text)  # (an ending too: "stopped drinking green tea")
        ):
            continue  # "my phone is on 5%", "skipped my green tea": the same thing's state
        # (said as a move: "based in Bornova" from "an instructor at a school in Bornova" is not)
        if not shared or (
            # (the same place or employer said again: "Officially moved into Borrowdale" of "the
            # new flat is in Borrowdale", "First week at Saigonmove done" of "signed with
            # SaigonMove Rehab"; a partner's is news, "Mia is my fiancée now")
            all(
                a.attribute in ("residence", "work")
                and a.value
                and f"{b.value.casefold()} ".startswith(f"{a.value.casefold()} ")
                for a, b in shared
            )
            or (based(old.text) and (not moves(whole) or finer(old, before, shared)))
        ):
            # "lives in Peckham" says where in the city "based in London" is; and a move from
            # the Westside "based in Galway" and "lives in Westside" both held is the finer one's
            continue
        if not ending(new.text) and all(
            not a.value and b.value and re.search(rf"\b{re.escape(b.value)}\b", said_in)
            for a, b in shared
        ):
            continue  # "Lena and Jonas got engaged", "Jonas proposed! We're engaged!": Jonas
        rest = [b for b in theirs if not any(b is s for _, s in shared)]
        # "Otara in South Auckland": a move said to be within it keeps the wider place
        cut = within(old, new, shared)
        swaps = [(b.value, a.value or there(new.text)) for a, b in shared]
        # "quit Pixelworks" ends the line naming Pixelworks: nothing to carry into it
        ends = ending(new.text) and all(was == value for was, value in swaps)
        # a place or an age is a value; an employer, a partner, a car is a thing the old
        # line describes ("a small clinic called Pazur"): its words do not fit the new one
        values = all(a.attribute in _VALUED for a, _ in shared)
        kept = cut or (old if rest else None)
        rewritten = _rewrite(kept, new, swaps, turns) if kept and values and not ends else None
        at = facts.index(old)
        retire(old)
        if rewritten is not None:
            facts.insert(at, rewritten)
        done = True
    return done


def _newest(old: Fact, facts: list[Fact], shared: list[tuple[Key, Key]]) -> bool:
    """``old`` is the most recent of two or more ``facts`` holding the attributes of
    ``shared`` (with one, "the old job" can only be that one)."""
    attributes = {b.attribute for _, b in shared}
    holding = [f for f in facts if any(k.attribute in attributes for k in keys(f.text))]
    return len(holding) > 1 and max(holding, key=lambda f: (f.date, facts.index(f))) is old


def _theirs(retraction: Fact, speaker: str, persons: set[str], lines: str, old: Fact) -> bool:
    """``old`` is a fact of the person ``retraction`` is about (or of their relatives:
    "Lucia's partner Javier …" is Lucia's): the one it names ("Carl is single now",
    "Bob's colleague Tom broke up"), else its ``speaker``; never anyone else's, in a
    shared scope too (a line that names nobody: its speaker's only; "Summer is sorted …"
    names nobody, as no line holds "Summer" inside it). ``persons``: ``ownership.people`` of
    the scope; ``lines``: its facts' text."""
    if someone_else(retraction.text):
        return False
    about = owner(retraction.text, named(retraction.text, persons)) or speaker
    whose = owner(old.text, named(old.text, persons, lines))
    return whose.split("'s ")[0] == about or (not whose and about == speaker)


def _same_person(old: Fact, new: Fact, persons: set[str], speaker: str) -> bool:
    """``new`` is no relative's fact replacing someone else's ("Nilufar's colleague
    Dilshod's show moved" is not Nilufar's show), nor, naming nobody, a fact of another
    person the scope knows (Bob's "The Tesla is for sale" is his, not Alice's red Tesla);
    the keys' own subjects decide the rest (``attributes.same_subject``: "Carl's dog Rex …
    Carl lives in Porto" is Carl's home)."""
    theirs, mine = owner(old.text, persons), owner(new.text, persons)
    if "'s " in mine and f"{theirs} ".startswith(f"{mine} "):
        return True  # "Maya's sister" is "Maya's sister Ana"
    if "'s " in mine and mine != theirs:
        return False
    who = mine or speaker
    return not who or theirs in ("", who, UNNAMED) or theirs.startswith(f"{who}'s ")


def _same(a: Key, b: Key) -> bool:
    return a.attribute == b.attribute and same_subject(a.subject, b.subject)


def _comparable(old: Fact, new: Fact) -> bool:
    """Older or as old, whichever session of the scope said it: a scope is one memory, and
    its unnamed user is "The user" in every session (and to the agent reading it)."""
    return not (new.date and old.date and new.date < old.date)


def _rewrite(
    old: Fact, new: Fact, swaps: list[tuple[str, str]], turns: Sequence[MessageRecord]
) -> Fact | None:
    """``old`` with each (old value, new value) of ``swaps`` swapped, or None when the result
    would not be a claim the turns support (see the module's docstring)."""
    if _TWO_SENTENCES.search(old.text.strip()) or '"' in old.text:
        return None  # two claims, or someone's words quoted: not rewritten
    text = old.text
    for was, value in swaps:
        if WEEKDAY.fullmatch(was) and not was.endswith("s"):  # "every Saturday morning"
            value = _DAYS.sub(r"\1", value)  # … "every Sunday morning", not "mornings"
        spans = list(re.finditer(rf"(?<!\w){re.escape(was)}(?!\w)", text)) if was else []
        if len(spans) != 1 or not supports(turns, value):
            return None
        text = text[: spans[0].start()] + value + text[spans[0].end() :]
    if is_chatter(text) or not supports(turns, text, given=old.text):
        return None
    sources = {
        session: sorted({*old.sources.get(session, ()), *new.sources.get(session, ())})
        for session in old.sources | new.sources
    }
    return Fact(text=text, date=new.date or old.date, sources=sources)


def _revise(
    facts: list[Fact],
    new: Fact,
    said: str,
    retire: Callable[[Fact], None],
    turns: Sequence[MessageRecord],
    nearest: Callable[[Fact, Sequence[Fact]], int | None],
    speaker: str,
) -> bool:
    """Replace the value ``new`` changes in the fact that held it; whether the value went
    into that line (when it cannot, the line is retired and ``new`` stands alone).

    A correction or a rename takes the most recent fact on its topic. A change said in
    other words ("kick-off is 8:30 from now on") takes, among the speaker's own facts
    holding a value of the same kind (a weekday, a time, a number…: the slot's type, issue
    59 item 3), the one nearest to it in meaning (``change.nearest``)."""
    turn = _turn_of(new, turns)
    corrects = bool(_CORRECTION.search(said) or renames(said))
    if not corrects and (gone(said) or ending(CLAUSE.split(said, maxsplit=1)[0])):
        # "our Sunday barbecues are over": Sunday is no new day of futsal; "stopped my art
        # class, now I do pottery on Sundays": the class ended, Sunday is pottery's
        return False
    changes = stated_values(new.text, turn, said)
    if corrects and not renames(said) and (anew := corrected_name(new.text)):
        changes = [anew, *changes]  # "the goats are Alpines, not the breed I said"
    own = None if corrects else theirs(facts, new, said, speaker)
    # (a correction or a rename acts on no other person's line: Bob's "we renamed the team
    # Falcons" is no new name for Alice's husband; a line that names nobody may be his)
    persons = people([speaker], facts)
    amount = None if over(new.text) else counted(new.text)  # (not "was only 600 a month")
    if amount and hedged(new.text[: new.text.find(amount[1])]):
        amount = None  # an idea, "I was thinking 85 soles" (not "agreed to 11,000 if we sign")
    whole = ""  # (a topic's amount stated: what is said before it is the topic, "Rent is …")
    if not corrects and (record := record_time(new.text, turn)):
        # "RACE REPORT: 1:47:12!!! new PB": the one line of theirs holding a record's time
        changes = [(RECORD_TIME, record)]
        own = [
            f
            for f in theirs(facts, new, said, speaker, cue=False) or []
            if RECORD.search(f.text) and not hedged(f.text)  # (not a goal: "wants sub 7:40")
        ]
    elif not corrects and own is None and (stated := stated_amount(new.text)):
        # "The rent is R6,500": a topic's value stated, for the line on that topic (not
        # another amount of the same unit: "Our rent is 16,900 kroner a month" is no pay)
        changes = [stated]
        own = theirs(facts, new, said, speaker, cue=False)
        whole = new.text[: new.text.find(stated[1])]
    elif not corrects and amount and (own is None or not changes):
        # "we're at 1,450 head", "agreed to 11,000 a month": no change word needed
        changes = [amount]
        own = own or theirs(facts, new, said, speaker, cue=False)
    if not corrects and not own:
        return False
    # (whom it is about is no topic: every line of theirs names them)
    # (and a rename's is what the turn says was renamed: "the club voted on a new name")
    # (and a topic's amount's is what is said before it: not "kroner a month")
    about = whole or f"{said} {renaming(turn) if renames(said) else ''}"
    topic = topic_of(about, bool(whole)) - {p.casefold() for p in persons}
    # a correction of someone else's ("Valentina is nine years old, her birthday was in
    # March") goes to a line of theirs, not to the speaker's latest month
    whose = ""
    if corrects and not renames(said):
        whose = owner(new.text, named(new.text, persons, " ".join(f.text for f in facts)))
    for kind, value in changes:
        if own and any(root(m[0]) == root(value) for f in own for m in kind.finditer(f.text)):
            # a value a line of the speaker's already holds changed nothing of its kind: "a
            # curling team that plays Thursdays instead" of the crochet circle on Thursdays
            continue
        candidates = [
            (on_topic(topic, f.text), i, f, was)
            for i, f in enumerate(facts)
            if _comparable(f, new)
            and not same_turn(f, new)  # (both said at once: both true)
            and (not corrects or _same_person(f, new, persons, speaker))
            # in other words, only a line with one value of the kind, or one said right after
            # a word of the change ("Intervals on Tuesdays, long ride Sunday"): which else?
            and (own is None or any(f is m for m in own))
            and (
                found := kind.search(f.text)
                if own is None
                else the_one(kind, f.text, said, persons)
            )
            # (a topic's amount or time, corrected too: "the deposit is €2,400" of no Pixel 7)
            and (
                not (
                    kind in (TOPICAL_AMOUNT, TOPICAL_TIME)
                    or (corrects and topic and KINDS[-1].fullmatch(value))
                )
                or on_topic(topic, f.text)
            )
            and root(was := found.group("name") if kind.groupindex else found.group(0))
            != root(value)
            and (kind is not SCALED_AMOUNT or of_a_scale(was, value))
            # (a race's time is a new best when its turn says so, or when it is faster)
            and (kind is not RECORD_TIME or bool(RECORD.search(turn)) or faster(value, was))
            # (a name holding another whole is named after it: "Zainab Textiles, after the
            # baby" is no new name of the baby Zainab)
            and not (kind.groupindex and re.search(rf"\b{re.escape(was)}\b", value))
        ]
        if kind in (SCALED_AMOUNT, RECORD_TIME):
            # an amount of the same scale, a best time: one such line is the evidence
            candidates = candidates if len(candidates) == 1 else []
        elif own is not None:
            best = nearest(new, [c[2] for c in candidates]) if candidates else None
            candidates = [] if best is None else [candidates[best]]
        elif whose not in ("", speaker):
            of = whose.casefold()
            candidates = [c for c in candidates if of in owner(c[2].text, persons).casefold()]
        if not candidates:
            continue
        _, at, old, was = max(candidates, key=lambda c: (c[0], c[1]))
        retire(old)
        # a change that names another thing too ("moved everything to Akko, and the date is
        # now the 21st") changed more of the line than one value: it stands alone
        # (not why, said after it: "… now Lumeira Ceramics — I wanted something that works
        # in both English and Portuguese")
        claim = _WHY.split(new.text, maxsplit=1)[0]
        more = {
            name
            for name in values(claim) - values(old.text) - {value, speaker}
            if name[0].isupper() and not WHEN.match(name) and not (name in value or value in name)
        }
        rewritten = None if more else _rewrite(old, new, [(was, value)], turns)
        if rewritten is not None:
            facts.insert(at, rewritten)
            if renames(said):
                _named_again(facts, rewritten, was, value, retire)
        return rewritten is not None
    return False


def _named_again(
    facts: list[Fact], taken: Fact, was: str, name: str, retire: Callable[[Fact], None]
) -> None:
    """The other lines of the person of ``taken`` (the line just renamed) that call the thing
    by its old name, quotes too ('asked "What's Fogwalker about?"'): by its new name."""
    old_name = re.compile(rf"(?<![\w'-]){re.escape(was)}(?![\w'-])")
    whose = taken.text.split(" ", 1)[0].removesuffix("'s")
    for at, line in enumerate(list(facts)):
        if line is not taken and old_name.search(line.text) and line.text.startswith(whose):
            retire(line)
            text = old_name.sub(name, line.text)
            facts.insert(at, Fact(text=text, date=line.date, sources=line.sources))


def _held(fact: Fact, facts: list[Fact]) -> bool:
    """Another of ``facts`` holds every word ``fact`` is about, its subject's too."""
    words = topic_of(fact.text, subject=True)
    return any(words <= topic_of(f.text, subject=True) for f in facts if f is not fact)


def _turn_of(fact: Fact, turns: Sequence[MessageRecord]) -> str:
    """What the turns ``fact`` was said in say, whole ("Jonas proposed! We're engaged!")."""
    ids = {m for sources in fact.sources.values() for m in sources}
    return " ".join(t.content for t in turns if t.id in ids)


def _speaker(fact: Fact, speakers: dict[str, str]) -> str:
    """Who said ``fact``: the name on its first source turn of this job."""
    said = [speakers[m] for ids in fact.sources.values() for m in ids if m in speakers]
    return said[0] if said else ""
