"""A value changed inside a line: the line that held it takes the new one, or goes.

"Kick-off is 8:30 from now on", "my birthday is actually March 15", "the rent
went up to 1,480": a value of a kind (a time, a day, an amount, a name) said
anew takes the place of the one the speaker's line on that topic held, in a
rewrite the turns support, or the line is retired and the new fact stands
alone (``truth.merge``). See docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from reverie.store import Fact, MessageRecord

from .attributes import PET, keys
from .change import values
from .chatter import is_chatter
from .grounding import content_stems, supports
from .kinds import (
    EVENT_DAY,
    KINDS,
    PRICE,
    RECORD,
    RECORD_TIME,
    SCALED_AMOUNT,
    TIME,
    TOPICAL_AMOUNT,
    TOPICAL_DAY,
    TOPICAL_TIME,
    WEEKDAY,
    counted,
    far_apart,
    faster,
    of_a_scale,
    on_topic,
    other_quantity,
    per,
    record_time,
    root,
    stated_amount,
    stated_values,
    the_one,
    topic_of,
    unit_of,
)
from .nearness import another_thing
from .ownership import named, owner, people, said_in, same_person, same_turn, theirs
from .renaming import corrected_name, renames, renaming
from .sentences import NOT_AFTER_A_TITLE, sentences
from .signals import ACTUALLY, CLAUSE, SWITCH, added, ending, gone, hedged, over
from .third_person import word_set
from .words import PARTS_OF_DAY, RELATIVES, UPPER, WEEKDAYS, WHEN

__all__ = [
    "CORRECTION",
    "comparable",
    "named_again",
    "revise",
    "rewrite",
    "said_in_both",
    "turn_of",
]

#: The words that say what was said is wrong, in a clause of their own too ("…, I
#: recalculated with the new tax"; not "actually", "meant": as often no correction).
_SAID_WRONG = r"typo|mistakes?|wrong|mis(?:read|typed|spoke|said|remembered|wrote)|recalculat\w*"
#: A sentence that corrects what was said before.
CORRECTION = re.compile(
    # ("actually" only where it corrects: not "which actually suits me better")
    rf"\b(?:correction|autocorrect|meant|mix(?:ing|ed up)|{_SAID_WRONG})\b|{ACTUALLY}",
    re.I,
)
#: Verbs that name no thing done: "going out November 30 instead".
_LIGHT = word_set("go going goes do doing get getting have having make making take taking")
#: A thing done in place of another: "Swimming instead, Sunday 7am".
_INSTEAD = re.compile(r"\binstead\b", re.I)
#: Where a change's reason starts: what follows says why, not what else changed.
_WHY = re.compile(r" [—–] | - |,? because |,? since ")
#: The plural of a day: a day said once ("on a Monday") takes the number of the old one.
_DAYS = re.compile(rf"\b((?i:{WEEKDAYS})|{PARTS_OF_DAY})s\b")
#: What is between single quotes: "'Great value at $18 a night', one review said".
_QUOTED = re.compile(r"(?:^|(?<=[\s(:]))'[^\s'][^']*'(?=[\s.,;:!?)]|$)")


def _quotes_words(text: str) -> bool:
    """``text`` quotes someone's words between single quotes, not a name ("the club 'Queen
    and Pawn Academy'", which a rename changes): three small words or more."""
    return any(len(re.findall(r"\b[a-z]{2,}\b", q[0])) >= 3 for q in _QUOTED.finditer(text))


#: Which of a month's days a value is, just before it: "the first Tuesday", "last Friday".
_ORDINAL = re.compile(r"\b(?:first|second|third|fourth|last) $")
#: A sentence ends inside the text (not a title's: "Prof. Hartmann"): a line that says two
#: things is never rewritten.
_TWO_SENTENCES = re.compile(rf"(?<=[.!?]){NOT_AFTER_A_TITLE}\s+\S")


def comparable(old: Fact, new: Fact) -> bool:
    """Older or as old, whichever session of the scope said it: a scope is one memory, and
    its unnamed user is "The user" in every session (and to the agent reading it)."""
    return not (new.date and old.date and new.date < old.date)


def turn_of(fact: Fact, turns: Sequence[MessageRecord]) -> str:
    """What the turns ``fact`` was said in say, whole ("Jonas proposed! We're engaged!")."""
    ids = {m for sources in fact.sources.values() for m in sources}
    return " ".join(t.content for t in turns if t.id in ids)


def rewrite(
    old: Fact, new: Fact, swaps: list[tuple[str, str]], turns: Sequence[MessageRecord]
) -> Fact | None:
    """``old`` with each (old value, new value) of ``swaps`` swapped, or None when the result
    would not be a claim the turns support (see the module's docstring)."""
    if _TWO_SENTENCES.search(old.text.strip()) or '"' in old.text or _quotes_words(old.text):
        return None  # two claims, or someone's words quoted: not rewritten
    text = old.text
    for was, value in swaps:
        if WEEKDAY.fullmatch(was) and not was.endswith("s"):  # "every Saturday morning"
            value = _DAYS.sub(r"\1", value)  # … "every Sunday morning", not "mornings"
        spans = list(re.finditer(rf"(?<!\w){re.escape(was)}(?!\w)", text)) if was else []
        if len(spans) != 1 or not supports(turns, value):
            return None
        bare = re.sub(r"^(?:in|on|at|to) ", "", value)
        if bare and re.search(rf"(?<!\w){re.escape(bare)}(?!\w)", text.replace(was, "")):
            return None  # ("still in Agdal, now on Rue de Fès": not "lives in Agdal in Agdal")
        if (nth := _ORDINAL.search(text[: spans[0].start()])) and not re.search(
            rf"\b{nth[0]}{re.escape(value)}\b", new.text
        ):
            return None  # "the first Tuesday" is not "the first Thursday" of "the last Thursday"
        text = text[: spans[0].start()] + value + text[spans[0].end() :]
    if is_chatter(text) or not supports(turns, text, given=old.text):
        return None
    return Fact(text=text, date=new.date or old.date, sources=said_in_both(old, new))


def said_in_both(old: Fact, new: Fact) -> dict[str, list[str]]:
    """The sources of a line ``old`` rewritten with what ``new`` says: the messages of both,
    so forgetting either takes it."""
    return {
        session: sorted({*old.sources.get(session, ()), *new.sources.get(session, ())})
        for session in old.sources | new.sources
    }


#: A clause of another person's, by "he" or "she" (the speaker's own are by name).
_HIS_CLAUSE = re.compile(
    r"(?:^|(?<=[,;] )|(?<=\band )|(?<=\bbut )|(?<=\bso ))(?:[Hh]e|[Ss]he)\b[^,;.!?]*"
)


def _not_a_change(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` whose values are no change of the speaker's: another's clause
    and the day a thing was done on."""
    return [
        *(m.span() for m in _HIS_CLAUSE.finditer(text)),
        *(m.span("day") for m in EVENT_DAY.finditer(text)),
    ]


def revise(
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
    59 item 3), the one nearest to it in meaning (``nearness.nearest``)."""
    turn = turn_of(new, turns)
    # ("good news actually" before the claim is no correction; "Actually, it's 9" is)
    plain = re.sub(r"(?<=\w) actually$", "", said[: len(said) - len(new.text)].rstrip(" ,.!"))
    corrects = bool(
        CORRECTION.search(f"{plain} {new.text}")
        or renames(said)
        or _corrected_beside(new.text, turn)
    )
    if not corrects and added(new.text):
        return False  # "the pub's added an extra quiz on Thursdays": beside the Wednesday one
    if not corrects and (gone(said) or ending(CLAUSE.split(said, maxsplit=1)[0])):
        # "our Sunday barbecues are over": Sunday is no new day of futsal; "stopped my art
        # class, now I do pottery on Sundays": the class ended, Sunday is pottery's
        return False
    # (the speaker is no new value: "For now it's me and my old Vespa" is no rename to Mateo)
    # (nor a value said of "he" or "she": "we separated, he moved out on Sunday" is his day;
    # a rename's is the thing's, "renamed the cat, she's Mango now"; nor the day something
    # happened on, "moved into the flat above the shop on Saturday")
    # (a correction's too, for the day a thing was done on: "started monday actually", asked
    # when they start, corrects no routine)
    not_a_change = (
        [m.span("day") for m in EVENT_DAY.finditer(new.text)]
        if corrects
        else _not_a_change(new.text)
    )
    changes = said_values = [
        c
        for c in stated_values(new.text, turn, said)
        if c[1] != speaker and not any(a <= new.text.find(c[1]) < b for a, b in not_a_change)
    ]
    anew = corrects and not renames(said) and corrected_name(new.text)
    if anew:
        changes = [anew, *changes]  # "the goats are Alpines, not the breed I said"
    own = None if corrects else theirs(facts, new, said, speaker, kin=True)
    if own and (hours := _hours(own, new)):
        # "I start at 6am and finish at 2pm now" of "nights, 9pm till 5am": hours from one time
        # to another are the line's that held hours so, not a time in another ("gets home
        # around 5:30")
        retire(hours)
        return False
    # (a topic's amount stated is that topic's line's, when one is on it: "Take-home is
    # 41,000 now" is no amount given at home)
    stated = None if corrects else stated_amount(new.text)
    said_of = topic_of(new.text[: new.text.find(stated[1])], subject=True) if stated else set()
    # (a day stated, for a line on it holding a day; else one holding an amount)
    held = TOPICAL_DAY if stated and stated[0] is TOPICAL_DAY else TOPICAL_AMOUNT
    on_it = [f for f in facts if said_of and on_topic(said_of, f.text) and held.search(f.text)]
    # (a correction or a rename acts on no other person's line: Bob's "we renamed the team
    # Falcons" is no new name for Alice's husband; a line that names nobody may be his)
    persons = people([speaker], facts)
    amount = None if over(new.text) else counted(new.text)  # (not "was only 600 a month")
    if amount and hedged(new.text[: new.text.find(amount[1])]):
        amount = None  # an idea, "I was thinking 85 soles" (not "agreed to 11,000 if we sign")
    if amount and any(
        k.value == amount[1] and k.subject not in ("", speaker.casefold()) for k in keys(new.text)
    ):
        amount = None  # a thing's, by its key: "the Rodeo's done its diff, 22 years old that ute"
    whole = ""  # (a topic's amount stated: what is said before it is the topic, "Rent is …")
    if not corrects and (record := record_time(new.text, turn)):
        # "RACE REPORT: 1:47:12!!! new PB": the one line of theirs holding a record's time
        changes = [(RECORD_TIME, record)]
        mine = [f for f in theirs(facts, new, said, speaker, cue=False) or [] if not hedged(f.text)]
        # (not a goal: "wants sub 7:40"; and with no line saying it is a record, the one line
        # holding a time of a race's form: "Any% at 31:42", its "PB" said in another line)
        own = [f for f in mine if RECORD.search(f.text)] or [
            f for f in mine if RECORD_TIME.search(f.text)
        ]
    elif own is None and stated:
        # "The rent is R6,500": a topic's value stated, for the line on that topic (not
        # another amount of the same unit: "Our rent is 16,900 kroner a month" is no pay)
        changes = [stated]
        own = theirs(facts, new, said, speaker, cue=False)
        whole = new.text[: new.text.find(stated[1])] + per(new.text, stated[1])
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
    if not topic and CORRECTION.search(said) and not renames(said):
        # "It is 1,150": of what, its turn said ("… a mistake about the pension")
        topic = topic_of(turn) - {p.casefold() for p in persons}
    # a correction of someone else's ("Valentina is nine years old, her birthday was in
    # March") goes to a line of theirs, not to the speaker's latest month
    whose = ""
    if corrects and not renames(said):
        whose = owner(new.text, named(new.text, persons, " ".join(f.text for f in facts)))
    claim = _WHY.split(new.text, maxsplit=1)[0]
    # "Switched to Tesco Mobile, £8 a month now": a thing switched to is what changed, and its
    # amount goes with the line of a thing (the phone plan "Lebara, £12"), not with an amount
    # of nothing named ("£50 a month on bus fares")
    switched_to = set()
    if own is not None and re.search(rf"\b{SWITCH}", turn, re.I):
        switched_to = _things(claim) - _things(" ".join(f.text for f in facts))
    for kind, value in changes:
        if renaming(said) and kind in (*KINDS[:3], TOPICAL_DAY, TOPICAL_TIME):
            continue  # a new name changes no when: "the airline rebranded on Monday"
        if own and any(root(m[0]) == root(value) for f in own for m in kind.finditer(f.text)):
            # a value a line of the speaker's already holds changed nothing of its kind: "a
            # curling team that plays Thursdays instead" of the crochet circle on Thursdays
            continue
        candidates = [
            (on_topic(topic, f.text), i, f, was)
            for i, f in enumerate(facts)
            if comparable(f, new)
            # (both said at once: both true; not a line said before that this turn rewrote)
            and not (same_turn(f, new) and said_in(f) <= said_in(new))
            and (
                not corrects
                or same_person(f, new, persons, speaker)
                or (anew and kind is anew[0] and _role_of_theirs(f, new, persons, speaker))
            )
            # in other words, only a line with one value of the kind, or one said right after
            # a word of the change ("Intervals on Tuesdays, long ride Sunday"): which else?
            and (own is None or any(f is m for m in own))
            and (
                found := kind.search(f.text)
                if own is None
                else the_one(kind, f.text, said, persons, value)
            )
            # (a topic's amount or time, corrected too: "the deposit is €2,400" of no Pixel 7;
            # an amount of one scale is its own evidence, "recalculated, total is 9,800" of
            # "the whole course is 8,500")
            and (
                not (
                    kind in (TOPICAL_AMOUNT, TOPICAL_TIME, TOPICAL_DAY)
                    or (
                        corrects
                        and topic
                        and KINDS[-1].fullmatch(value)
                        and kind is not SCALED_AMOUNT
                    )
                )
                or on_topic(topic, f.text)
            )
            and root(was := found.group("name") if kind.groupindex else found.group(0))
            != root(value)
            and (kind is not SCALED_AMOUNT or of_a_scale(was, value))
            # (a counted amount off the topic, far from the line's: "football, 10 euros" is no
            # new mortgage of "1,300 euros")
            and not (
                amount
                and kind is amount[0]
                and far_apart(was, value)
                and not on_topic(topic - {unit_of(new.text, amount[1])}, f.text)
            )
            # (nor a number far from the line's, off its topic: "my salary is 42k now" is no
            # rent of "1350 a month")
            and not (other_quantity(was, value) and not on_topic(topic, f.text))
            # (nor a number of a name, a model's: "Massey Ferguson 135" is no count of cows;
            # a currency's code is short, "KSh 38,000")
            and not (
                was[:1].isdigit()
                and (model := re.search(rf"([{UPPER}][\w-]{{3,}}) {re.escape(was)}\b", f.text))
                and f"{model[1]} {value}" not in new.text  # ("Station 7 now" of "Station 31")
            )
            # (a race's time is a new best when its turn says so, or when it is faster)
            and (kind is not RECORD_TIME or bool(RECORD.search(turn)) or faster(value, was))
            # (a name holding another whole is named after it: "Zainab Textiles, after the
            # baby" is no new name of the baby Zainab)
            and not (kind.groupindex and re.search(rf"\b{re.escape(was)}\b", value))
            # (nor is the speaker's own name one of the names they correct: "wrote my
            # roommate's name wrong, it's Abena" is no new name for them)
            and (was.split() or [""])[0] != speaker
        ]
        if switched_to:
            candidates = [c for c in candidates if _things(c[2].text) - switched_to - persons]
        if renames(said) and not any(c[0] for c in candidates):
            # (a rename off the topic of a thing called by its noun is of another thing: "the
            # run club rebranded" never renames the cat "called Mochi")
            candidates = [c for c in candidates if not _THING_CALLED.search(c[2].text)]
        if on_it:  # (the lines on the topic stated, when any holds an amount)
            candidates = [c for c in candidates if any(c[2] is f for f in on_it)]
        if kind in (SCALED_AMOUNT, RECORD_TIME, PRICE):
            # an amount of the same scale, a best time, a price: one such line is the evidence (or the
            # one of them on its topic: "a mistake about the pension, it is 1,150")
            topical = [c for c in candidates if c[0]]
            candidates = (
                candidates if len(candidates) == 1 else topical if len(topical) == 1 else []
            )
        elif own is not None:
            # (a claim naming no thing, "I'm on Fridays now": its sentence says of what, "the
            # food bank reorganized their shifts, so …": the one line on that, if any)
            context = _told_with(turn, value, topic | {p.casefold() for p in persons})
            if not any(c[0] for c in candidates) and context:
                of_it = [c for c in candidates if on_topic(context, c[2].text)]
                candidates = of_it if len(of_it) == 1 else candidates
            # (not a line of another thing than the one whose day it says: "book club is …")
            candidates = [c for c in candidates if not another_thing(new.text, c[2].text)]
            # (nor, by nearness alone, a line of "we" for a claim of the speaker's own: "I stay
            # up till 1am now" is no new closing time of "we are closing … 9pm")
            if re.match(rf"{re.escape(speaker)} (?!and )", new.text):
                ours = f"{speaker} and others "
                candidates = [c for c in candidates if c[0] or not c[2].text.startswith(ours)]
            # (nor a line of someone of theirs, by name, for a claim of the speaker's own thing:
            # "Kofi's new rating is 1905" is no new rating of "Kofi's rival Nana is 1960 now")
            if re.match(rf"{re.escape(speaker)}'s (?!(?:{RELATIVES}) )[a-z]", new.text):
                someone = re.compile(rf"{re.escape(speaker)}'s [a-z]+ [{UPPER}]")
                candidates = [c for c in candidates if c[0] or not someone.match(c[2].text)]
            best = nearest(new, [c[2] for c in candidates]) if candidates else None
            candidates = [] if best is None else [candidates[best]]
        elif whose not in ("", speaker):
            of = whose.casefold()
            candidates = [
                c
                for c in candidates
                if of in owner(c[2].text, persons).casefold()
                or (anew and _role_of_theirs(c[2], new, persons, speaker))
            ]
        if not candidates and corrects and kind.groupindex and not re.search(r"\d", value):
            candidates = _named_on_topic(facts, new, topic, value, persons, speaker)
        if not candidates:
            continue
        top = [c for c in candidates if c[0] == max(c[0] for c in candidates)]
        if (
            renames(said)
            and len(top) > 1
            and (best := nearest(new, [c[2] for c in top])) is not None
        ):
            # (of two names, the thing the rename is of: "renamed the shop" is the bakery's,
            # not the sourdough starter's said since; else the latest)
            _, at, old, was = top[best]
        else:
            _, at, old, was = max(candidates, key=lambda c: (c[0], c[1]))
        retire(old)
        # a change that names another thing too ("moved everything to Akko, and the date is
        # now the 21st") changed more of the line than one value: it stands alone
        # (not why, said after it: "… now Lumeira Ceramics — I wanted something that works
        # in both English and Portuguese")
        more = {
            name
            for name in values(claim) - values(old.text) - {value, speaker}
            if name[0].isupper()
            and not WHEN.match(name)
            and not (name in value or value in name)
            and f"{name}'s " not in claim  # (whose, not another thing: "my PI's name is …")
        }
        if _INSTEAD.search(claim) and (doing := topic_of(claim[: claim.find(value)], True)):
            # (another thing done instead, "Swimming instead, Sunday 7am", is no new day of
            # the line's aikido: the line goes and the new thing stands alone)
            doing -= {"instead", *(p.casefold() for p in persons)}  # (not whose: "Ines swims")
            # ("close" of "closed on Mondays"; a light verb is no thing, "going out … instead")
            done = content_stems(" ".join(doing)) - _LIGHT
            more |= {value} if done and not done & content_stems(old.text) else set()
        swaps = [(was, value), *_alongside(old.text, turn, was, persons)]
        # (a schedule's day and time said anew together: "practice is now Tuesdays and Fridays
        # at 18:00" of "Mondays and Thursdays at 17:30", both)
        # (a topic's day too: "The exchange here is on Mondays at 19:30")
        swaps += [
            (ones[0].group(0), also)
            for other, also in said_values
            if {kind, other} <= {WEEKDAY, TIME, TOPICAL_DAY} and TIME in (kind, other)
            if other is not kind
            if len(ones := list(other.finditer(old.text))) == 1 and root(ones[0][0]) != root(also)
        ]
        # (numbers said anew beside the value swapped, "open 8 to 4, and closed Tuesdays
        # instead of Mondays" of "open 7 to 3", changed more of the line too: it stands alone)
        pieces = [v for pair in swaps for v in pair]
        swapped = {*pieces, *values(" ".join(pieces))}
        said_numbers = _numbers(claim) - values(old.text) - swapped
        if said_numbers and _numbers(old.text) - swapped - values(claim):
            more |= said_numbers
        rewritten = None if more else rewrite(old, new, swaps, turns)
        if rewritten is not None:
            facts.insert(at, rewritten)
            if renames(said):
                named_again(facts, rewritten, was, value, retire)
        return rewritten is not None
    return False


#: A thing of someone's called by its noun: "Grace's cat is called Mochi".
_THING_CALLED = re.compile(
    r"(?:'s|\b(?:my|their|our|his|her)) [a-z]{3,} (?:is |was )?(?:called|named)\b|"
    # (or a pet, whatever is said of it: "a grey cat named Tindra")
    rf"\b(?:{PET.pattern}) (?:called|named)\b"
)


def _numbers(text: str) -> set[str]:
    """The figures ``text`` states ("8", "4" of "open 8 to 4")."""
    return {v for v in values(text) if v[0].isdigit()}


def _told_with(turn: str, value: str, known: set[str]) -> set[str]:
    """What else the sentence of ``turn`` saying ``value`` is about, beside ``known``."""
    said = [s for s in sentences(turn) if re.search(rf"\b{re.escape(value)}\b", s, re.I)]
    return topic_of(said[0], subject=True) - known - {value.casefold()} if len(said) == 1 else set()


_CORRECTED_BESIDE = re.compile(rf"\b(?:{_SAID_WRONG})\b", re.I)


def _corrected_beside(text: str, turn: str) -> bool:
    """``text`` states a number its turn says was wrong or worked out again, in a clause with
    no number of its own ("A double room is 95, I recalculated with the new tax"), or a name
    its turn says was the wrong name ("gave you the wrong name for my coach. The group is
    Coach Bekele's")."""
    number = bool(re.search(r"\d", text))
    named = bool(re.search(rf"(?<=\w )[{UPPER}]", text))
    return (number or named) and any(
        _CORRECTED_BESIDE.search(clause)
        and not re.search(r"\d", clause)
        and (number or re.search(r"\bnames?\b", clause, re.I))
        for clause in CLAUSE.split(turn)
    )


#: Someone of the speaker's named by their role: "Agnes's doctor is …", "His teacher is …".
_ROLE_IS = r"(?:{speaker}'s|(?P<whose>His|Her|Their)) (?P<role>[a-z]+) is "


def _role_of_theirs(old: Fact, new: Fact, persons: set[str], speaker: str) -> bool:
    """A name corrected of someone of the speaker's, by role ("Agnes's doctor is Dr Laird",
    "His teacher is Ms Kearney"), is theirs to correct in a line of the speaker's (or in the
    line that says "his teacher"), though neither line opens with the one they name."""
    found = re.match(_ROLE_IS.format(speaker=re.escape(speaker)), new.text)
    if found is None:
        return False
    if found["whose"]:
        return f"{found['whose']} {found['role']} ".casefold() in old.text.casefold()
    return owner(old.text, persons) in ("", speaker)


def _named_on_topic(
    facts: list[Fact], new: Fact, topic: set[str], value: str, persons: set[str], speaker: str
) -> list[tuple[bool, int, Fact, str]]:
    """A name corrected where its line says it apart from the word it is of ("the wrong
    school name, it's Hillcrest" of "school for their son, he goes to Kingsgate"):
    the one line of the speaker's on that word holding one name of no person, as a
    candidate of ``revise``; else none."""
    words = topic - {w.casefold() for w in value.split()}
    found = [
        (True, i, f, names[0])
        for i, f in enumerate(facts)
        if comparable(f, new)
        and not same_turn(f, new)
        and same_person(f, new, persons, speaker)
        and on_topic(words, f.text)
        and len(
            names := [
                v
                for v in values(f.text)
                if v[0].isupper()
                and v not in persons  # (the speaker too: they are one of the scope's people)
                and not WHEN.match(v)
                # (nor someone of theirs: "their son Tevita")
                and not re.search(rf"\b(?:{RELATIVES}),? {re.escape(v)}\b", f.text)
            ]
        )
        == 1
        and names[0] != value
    ]
    return found if len(found) == 1 else []


def _alongside(line: str, turn: str, was: str, persons: set[str]) -> list[tuple[str, str]]:
    """The other names of ``line`` its changing turn says anew in the same words around them
    ("… out of the Eastgate depot" of a line's "out of Northfield depot"): they changed
    with it, in the line the turn revises (not a name the line holds twice)."""
    swaps = []
    for name in re.finditer(rf"(?<=[a-z] )[{UPPER}][\w-]*(?: [{UPPER}][\w-]*)*", line):
        if name.group() in was or name.group() in persons or line.count(name.group()) != 1:
            continue
        before = re.search(r"([a-z]+) $", line[: name.start()])
        after = re.match(r" ([a-z]+)\b", line[name.end() :])
        if before is None or after is None:  # ("in Lisbon." is any place: no frame)
            continue
        frame = (
            rf"\b{before.group(1)} (?P<new>[{UPPER}][\w-]*(?: [{UPPER}][\w-]*)*) {after.group(1)}\b"
        )
        said = {m.group("new") for m in re.finditer(frame, turn)}
        if len(said) == 1 and (new := said.pop()) not in name.group() and name.group() not in new:
            swaps.append((name.group(), new))
    return swaps


def _hours(own: list[Fact], new: Fact) -> Fact | None:
    """The one line of ``own`` holding hours from one time to another, when ``new`` says such
    hours too (two times or more); else None."""
    if len(TIME.findall(new.text)) < 2:
        return None
    ranges = [
        f
        for f in own
        if len(TIME.findall(f.text)) > 1 and comparable(f, new) and not same_turn(f, new)
    ]
    return ranges[0] if len(ranges) == 1 else None


def _things(text: str) -> set[str]:
    """The names ``text`` states of things, not of days or months, nor of whom it opens with."""
    return {name for name in values(text) if name[0].isupper() and not WHEN.match(name)}


def named_again(
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
