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
takes it. The result depends only on the arguments."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from functools import partial
from typing import NamedTuple

from reverie.store import Fact, MessageRecord, fact_key, parse_memory, render_memory

from .acquiring import GIVEN, acquired
from .attributes import THINGS, Key, keys, with_no_love
from .change import displaced
from .change import values as named_in
from .chatter import asks_help, is_chatter, remark, split_opener, strip_banter, without_echo
from .claims import claims
from .corrections import put_right, without_wrong
from .counterparts import named_anew
from .departures import member_left
from .described import their_own_ended
from .family import family_grew, fewer_left, kin_left
from .kinds import topic_of
from .meaning import Embed, meaning
from .nearness import NEAR_OF_KIND, nearest
from .of_kind import joined_in_place
from .offers import offer_accepted
from .ownership import (
    kin_named,
    named,
    owner,
    people,
    same_person,
    same_subject,
    same_turn,
    someone_else,
)
from .persons import another_person, of_person, of_theirs
from .places import based, finer, moved_within, moves, place_left, there, within
from .posts import trade_held
from .renaming import (
    Renamed,
    corrected_name,
    renamed,
    renamed_by_meaning,
    renames,
    says_renamed,
)
from .retraction import item_left, retraction_topics, retracts
from .revision import CORRECTION, comparable, named_again, revise, rewrite, turn_of
from .roles import promoted
from .routines import routine_replaced
from .shifts import shift_moved
from .signals import ACTUALLY_BESIDE, added, ending, hedged, over, signalled
from .third_person import DEFAULT_SPEAKER, conjugate
from .validity import ended
from .words import RELATIVES, UPPER

__all__ = ["Merged", "clean", "merge"]

UNNAMED = "The user"

_NO_LONGER = re.compile(
    r"^(?P<who>.+?) (?:does not|doesn't|do not|don't|no longer) (?P<verb>\w+) .+?"
    r"(?: anymore| any more)?,? (?:only|just|but now) (?P<new>[^,.;]+)[.!]?$",
    re.IGNORECASE,
)
_VALUED = frozenset(["residence", "age"])
#: "actually" that corrects: "is actually March 15" (not "the heater actually works").
_ACTUALLY = re.compile(ACTUALLY_BESIDE, re.IGNORECASE)
#: A post taken somewhere, where they are based moving with it: "accepted a research post at …".
_NEW_POST = re.compile(
    r"\b(?:accepted|took|got|started|landed) an? (?:new )?(?:[a-z]+ )?(?:job|post|position|role)\b"
)
#: A job offered, not yet held: "has been offered a job teaching art at Cotham School".
_OFFERED = re.compile(r"\b(?:been|got|was|were) offered\b")
_SAME = re.compile(r"\b(?:the same|here)\b", re.IGNORECASE)
_THE_NEW = re.compile(r"\b(?:the|my|their|our|his|her) new\b", re.IGNORECASE)
_THE_OLD = re.compile(r"\b(?:the|my|their|our|his|her) (?:old|previous|former)\b", re.IGNORECASE)
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
        opener = f"{opener} actually".strip()
        text = " ".join(
            _ACTUALLY.sub(lambda cue: cue[0].removesuffix("actually").rstrip(), text).split()
        )
    text = without_wrong(without_echo(strip_banter(text)))  # ("2,400 not 2,100": 2,400)
    text = _UNNAMED_INTRO.sub(rf"{UNNAMED} (\1) is ", text)
    if found := _NO_LONGER.match(text):
        text = f"{found['who']} {conjugate(found['verb'].casefold())} {found['new'].strip()}."
    if unnamed := _UNNAMED_IS.match(text):  # "I am Carl" from an unnamed speaker: a name
        text = f"{UNNAMED}'s name is {unnamed[1]}."
    # (a value said alone puts right what its turn owned was wrong: "… It's 11.")
    corrected = opener == "Correction" and bool(re.search(r"\d", text))
    if (is_chatter(text) and not corrected) or asks_help(text, speakers):
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

    def retire(fact: Fact, rest: Fact | None = None) -> None:
        """``fact`` out of the memory, and ``rest``, what of it stays true, in its place."""
        at = facts.index(fact)
        del facts[at]
        facts[at:at] = [rest] if rest else []
        if id(fact) in before or any(fact is f for f in added):
            retired.append(fact)
            added[:] = [f for f in added if f is not fact]

    def add(opener: str, fact: Fact, embed: Embed, whole: str) -> None:
        lines = list(facts)
        _add(opener, fact, embed, whole)
        taken.extend((f, fact) for f in lines if all(f is not g for g in facts))

    def _add(opener: str, fact: Fact, embed: Embed, whole: str) -> None:
        start = list(facts)
        untouched = [id(f) for f in start]  # a line retracted is the change: no other goes
        speaker = _speaker(fact, speakers)
        # (news of another, of no one a line names nor a thing of theirs, changes nothing)
        who = another_person(fact.text, speaker, embed)
        named_right = bool(CORRECTION.search(f"{opener} {fact.text}") and corrected_name(fact.text))
        # (a new one in a role of theirs is their change: "Bukola's new consultant is Dr Okafor")
        theirs_only = bool(who) and not (
            of_person(facts, who)
            or of_theirs(fact.text, who, speaker, facts)
            or who.startswith(f"{speaker}'s new ")
            or named_right  # (one of theirs named right: "Agnes's doctor is Dr Laird")
        )
        topics = None if theirs_only else retraction_topics(fact.text)
        if topics is not None:
            # (every line of the speaker's names them: their name is no topic of their own)
            topics = topics._replace(words=topics.words - set(speaker.casefold().split()))
            lines = " ".join(f.text for f in facts)
            whom = who if who and of_person(facts, who) else ""  # ("my manager left Paddle")
            theirs = partial(_theirs, fact, speaker, people(speakers.values(), facts), lines, whom)
            # (not what the same turn got: "they're giving me their Kia Carnival, so I've
            # sold my car" sold the old one)
            for old in [
                f
                for f in facts
                if retracts(topics, f.text)
                and theirs(f)
                and not over(f.text)
                and not (same_turn(f, fact) and (acquired(f.text) or GIVEN.search(f.text)))
            ]:
                # (one of a list of theirs gone, the rest still theirs: "sold the folding
                # bike" of "has two bikes, a Bridgestone city bike and a Dahon folding bike";
                # or where they work, "quit Adom Transport" of "… out of Kumasi")
                retire(old, item_left(topics, old) or place_left(old, fact, facts, speaker))
            if not topics.keep:
                return
            if _SINCE.match(fact.text):
                # ("Since the divorce I've been having tea instead …": a change of its own)
                untouched = [id(f) for f in facts]
        persons = people(speakers.values(), facts)  # (after what the retraction retired)
        # (and whom it opens with, a word that opens sentences, where the memory names them
        # so: "Can got a job in Mannheim" after "boyfriend Can")
        persons |= kin_named(fact.text, " ".join(f.text for f in facts))
        if remark(fact.text, persons) or any(
            fact_key(f.text) == fact_key(fact.text) for f in facts
        ):
            return
        # ("the lodger's given notice": the line naming their lodger, departures.py)
        for gone, rest in member_left(facts, fact, speaker):
            retire(gone, rest)
        if theirs_only:
            facts.append(fact)
            added.append(fact)
            return
        said = f"{opener} {fact.text}"
        if _renamed(facts, fact, retire, turns, persons, speaker, renamed):
            pass  # "Pho Saigon Corner sounds dated, so we're Little Mekong": the line holding it
        elif (
            not _supersede(facts, fact, whole, retire, turns, persons, speaker, says_renamed(said))
            and revise(
                facts,
                fact,
                said,
                retire,
                turns,
                partial(nearest, embed=embed, near=NEAR_OF_KIND, speaker=speaker),
                speaker,
            )
            and (len(fact.text.split()) < 4 or (CORRECTION.search(said) and _held(fact, facts)))
        ):
            # "Sorry, I meant Tuesday", "my birthday is actually March 15": said by the line
            # it corrected (a rename keeps its line: "the podcast is now called Ward Talk")
            return
        # (a make got replaces its thing and what its key took: "Got a Galaxy S24", "the Huawei")
        if ([id(f) for f in facts] == untouched or acquired(said) or GIVEN.search(said)) and not (
            renames(said)
            or says_renamed(said)
            or named_right  # (a name no line holds leaves the others: "the hens are Sussex")
        ):
            # no key, correction or rename took a line: a change in other words (change.py)
            older = [f for f in facts if comparable(f, fact) and not over(f.text)]
            # (a change its own turn or this fact's key already made: "switched roles, I'm a UX
            # researcher now, no more graphic design"; "got a Moto, the Nokia is retired")
            now = [f for f in start if all(f is not g for g in facts)]
            again = [*(old for old, by in taken if same_turn(by, fact)), *now]
            # (roles.py, family.py)
            if role := promoted(older, fact, turn_of(fact, turns), speaker):
                retire(role)
            elif count := family_grew(older, fact, speaker) or fewer_left(older, fact, speaker):
                retire(count)
            elif routine := routine_replaced(older, fact, said, speaker, turn_of(fact, turns)):
                retire(*routine)  # (routines.py)
            elif shift := shift_moved(older, fact, said, speaker):
                retire(*shift)  # ("moved me to days": shifts.py)
            elif anew := named_anew(older, fact, said, speaker):
                retire(*anew)  # ("at the Toowong depot from Monday": counterparts.py)
            elif own := their_own_ended(older, said, speaker, embed):
                retire(*own)  # ("Dami left the martial arts": their item of a line, described.py)
            elif (
                (
                    found := displaced(
                        [*older, *again], fact, said, speaker, embed, turn_of(fact, turns)
                    )
                )
                and all(found.old is not f for f in [*(old for old, _ in taken), *now])
                and not _home_kept(found.old, fact, said)
            ):
                at = facts.index(found.old)
                retire(found.old)
                moved = moved_within(found.old.text, fact.text)
                kept = (
                    (moved and rewrite(found.old, fact, [moved], turns))
                    or found.rest
                    or place_left(found.old, fact, facts, speaker)
                    or kin_left(found.old, fact, facts, speaker)
                )
                facts[at:at] = [kept] if kept else []
        if [id(f) for f in facts] == untouched and renames(fact.text):
            # (no word of the turn named the old name, nor a key: "we're Harbour Vets now")
            near = partial(nearest, embed=embed, near=NEAR_OF_KIND, speaker=speaker)
            find = partial(renamed_by_meaning, nearest=near)
            _renamed(facts, fact, retire, turns, persons, speaker, find)
        facts.append(fact)
        added.append(fact)

    names = {*speakers.values(), DEFAULT_SPEAKER}
    with meaning() as embed:
        for raw in new_facts:
            opener, cleaned = clean(raw, names)
            # ("I took it." of an offer a line holds: the job it offered, in its place)
            if cleaned and (took := offer_accepted(cleaned, facts, _speaker(cleaned, speakers))):
                offer, cleaned = took
                if offer is not None:
                    retire(offer)
            if cleaned is not None:
                for claim in claims(cleaned):
                    add(opener, claim, embed, cleaned.text)
        # ("ward 7, not ward 9", "rotation changed": the lines the turns put right, corrections.py)
        for old, right in put_right(facts, turns, speakers, new_facts):
            retire(old, right)
        # (a stay or a loan said with its length, over by the job's newest turn: validity.py)
        if turns:
            newest = max(t.ts for t in turns)
            for old in [*facts]:
                if gone := ended(old, newest):
                    retire(old, gone.rest)
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
    find: Callable[[str, str, Sequence[Fact], Collection[str]], Renamed | None],
) -> bool:
    """Rename the line of the speaker's holding the old name that ``find`` finds
    (``renaming.renamed``: the one the turn of ``new`` says beside the new one;
    ``renaming.renamed_by_meaning``: the one nearest in meaning); whether one was."""
    lines = [
        f
        for f in facts
        if comparable(f, new) and not same_turn(f, new) and same_person(f, new, persons, speaker)
    ]
    # (a person named by a relation is no old name: "my partner Diego" in "Diego and I
    # decided the brand is now Casa Tlaque")
    kin = {
        m[1] for f in facts for m in re.finditer(rf"\b(?:{RELATIVES}) ([{UPPER}][\w-]*)", f.text)
    }
    if (found := find(new.text, turn_of(new, turns), lines, {*persons, *kin, speaker})) is None:
        return False
    if found.name in {*persons, speaker}:
        return False  # (no one is a thing's new name: "For now it's me" is "it's Mateo")
    rewritten = rewrite(found.line, new, [(found.was, found.name)], turns)
    at = facts.index(found.line)
    retire(found.line)
    if rewritten is None:
        # (a line that cannot take it, a quote or two claims, goes: the new name stands alone)
        return False
    facts.insert(at, rewritten)
    named_again(facts, rewritten, found.was, found.name, retire)
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
    if (lead := owner(new.text, persons)) not in ("", speaker):  # ("Can moved here": Can's)
        mine = [key if key.subject else key._replace(subject=lead.casefold()) for key in mine]
    if renaming:  # a thing given a new name is the same thing: "gave the truck a new name, Abol"
        mine = [key for key in mine if key.attribute not in THINGS]
    said_in = f"{new.text} {turn_of(new, turns)}"
    # ("I'm with Vodafone now": no partner; "left the old gym … joined Body Temple": no job)
    dropped = {"partner"} if with_no_love(new.text, said_in) else set()
    dropped |= {"work"} if joined_in_place(new.text, said_in) else set()
    mine = [key for key in mine if key.attribute not in dropped]
    # (a claim of someone a line names is theirs: "Noam wants a Corolla" is no car of the speaker's)
    others = {p.casefold() for p in named(new.text, persons, " ".join(f.text for f in facts))}
    others -= {speaker.casefold(), ""}
    done, before = False, list(facts)
    for old in list(facts):
        theirs = keys(old.text)
        shared = [
            (a, b)
            for a in mine
            for b in theirs
            if _same(a, b) and not (a.subject in others and not b.subject)
        ]
        # (a partner, said on a later day, is its holder's: "Tomás's girlfriend is Sara")
        partners = bool(shared) and new.date > old.date
        partners &= all(a.attribute == "partner" and a.subject and b.subject for a, b in shared)
        if (
            not comparable(old, new)
            or not (partners or same_person(old, new, persons, speaker))
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
        valueless = bool(shared) and all(not a.value for a, _ in shared)  # (a job left, a move)
        if (
            valueless
            and lead in ("", speaker)  # (another's "moved here" is to the speaker's home)
            and (
                _SAME.search(new.text)
                or _THE_NEW.search(new.text)
                or (_THE_OLD.search(new.text) and _newest(old, before, shared))
            )
        ):
            # "another ward at the same hospital", "settled here now": the employer or home
            # stays; "first week at the new hospital" is the latest line's, "the old job" not it
            continue
        if valueless and _OFFERED.search(old.text):
            continue  # (a job left is no offer, not yet held: "handed in my notice at the shop")
        if (
            shared
            and all(
                b.attribute in THINGS and (not a.value or _same_make(a.value, b.value))
                for a, b in shared
            )
            and not signalled(new.text)  # (an ending too: "stopped drinking green tea")
        ):
            continue  # "my phone is on 5%", "skipped my green tea": the same thing's state
        if shared and added(new.text) and all(b.attribute in THINGS for _, b in shared):
            continue  # "got a work phone, a Nokia, so now I carry two": beside it
        # (said as a move: "based in Bornova" from "an instructor at a school in Bornova" is not)
        if not shared or (
            # (the same place or employer said again: "Officially moved into Borrowdale" of "the
            # new flat is in Borrowdale", "First week at Saigonmove done" of "signed with
            # SaigonMove Rehab"; a partner's is news, "Mia is my fiancée now")
            all(
                a.attribute in ("residence", "work")
                and a.value
                # (what the old one says it is, after a comma, is no other name: "Northgate
                # Re, a reinsurance firm in the City of London")
                and (
                    f"{b.value.split(',')[0].casefold()} ".startswith(f"{a.value.casefold()} ")
                    # (or said short: "First two weeks at Bara" of "Chris Hani Baragwanath")
                    or _short_for(a.value, b.value.split(",")[0])
                )
                for a, b in shared
            )
            or (
                based(old.text)
                and not (based(new.text) and _NEW_POST.search(whole))
                and (not moves(whole) or finer(old, before, shared))
            )
            # (nor where a new employer is, of where they live: "a data analyst at Vitalis,
            # a health start-up in Part-Dieu" moves no one out of Croix-Rousse)
            or (based(new.text) and not based(old.text) and not moves(whole))
            # (nor a place the home line already holds, where they stay: "I stay in Gaia" of
            # "got a flat together, Santa Marinha, still Gaia")
            or all(
                a.attribute == "residence"
                and a.value
                and not moves(whole)
                and re.search(rf"\b{re.escape(a.value)}\b", old.text)
                for a, _ in shared
            )
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
        # ("still in Istanbul" is not "still in Mannheim": what waited is over; nor is the old
        # home's size the new one's: "small flat in Wrzeszcz, 2 rooms" moved is no flat in Oliwa)
        values &= not re.search(r"\bstill\b", old.text)
        values &= bool(cut) or not (
            any(a.attribute == "residence" for a, _ in shared) and _THE_HOME.search(old.text)
        )
        rewritten = rewrite(kept, new, swaps, turns) if kept and values and not ends else None
        rewritten = (
            rewritten
            or place_left(old, new, facts, speaker)
            or kin_left(
                old,
                new,
                facts,
                speaker,
                partner=True,
                moved=any(a.attribute == "residence" for a, _ in shared),
            )
        )
        at = facts.index(old)
        retire(old)
        if rewritten is not None:
            facts.insert(at, rewritten)
        done = True
    if not done and any(a.attribute == "trade" for a in mine):
        # (a trade no key read: "Kealoha is a commercial fisherman" ends with "works as a
        # deckhand now", when no line holds a trade by its key; not one said in the same turn,
        # as an introduction lists more, nor a line that holds more, "the postmistress at …")
        held = [f for f in facts if trade_held(f.text, speaker) and not same_turn(f, new)]
        if (
            len(held) == 1
            and not keys(held[0].text)
            and not named_in(held[0].text) - {speaker}
            and not any(b.attribute == "trade" for f in facts for b in keys(f.text))
        ):
            retire(held[0])
            done = True
    return done


def _home_kept(old: Fact, new: Fact, said: str) -> bool:
    """``old`` says where its speaker lives and ``new``, no move, is of their work; or
    ``old`` says where they work and ``new`` is a move of home ("moved in the flat above the
    studio" leaves "opened their own place, Agulha Studio")."""
    mine, was = ({k.attribute for k in keys(f.text)} for f in (new, old))
    if moves(said):
        home = bool(_THE_HOME.search(new.text))
        return home and "work" in was and "residence" not in was and "work" not in mine
    return "residence" in was and "work" in mine and "residence" not in mine


def _newest(old: Fact, facts: list[Fact], shared: list[tuple[Key, Key]]) -> bool:
    """``old`` is the most recent of two or more ``facts`` holding the attributes of
    ``shared`` (with one, "the old job" can only be that one)."""
    attributes = {b.attribute for _, b in shared}
    holding = [f for f in facts if any(k.attribute in attributes for k in keys(f.text))]
    return len(holding) > 1 and max(holding, key=lambda f: (f.date, facts.index(f))) is old


#: What a home is like, said of the old one: its kind, size or rooms.
_THE_HOME = re.compile(
    r"\b(?:flat|apartment|house|studio|room|rooms|bedroom|bed|condo|condominium|unit|bungalow)\b"
)
#: When a sentence's claim holds from, before whom it is about: "Since the breakup, …".
_SINCE = re.compile(r"^(?:Since|After|Before) (?:the|my|our) [\w-]+,? ")


def _theirs(said: Fact, speaker: str, persons: set[str], lines: str, who: str, old: Fact) -> bool:
    """``old`` is a fact of the person ``said`` is about (or of their relatives: "Lucia's partner
    Javier …" is Lucia's): ``who``, someone of theirs a line names ("my manager left Paddle":
    "Karabo's manager Gareth …", not their job), or the one it names ("Carl is single now",
    "Bob's colleague Tom broke up"), else its ``speaker``; never anyone else's, in a shared
    scope too (a line naming nobody is its speaker's; "Summer is sorted …" names nobody).
    ``persons``: ``ownership.people`` of the scope; ``lines``: its facts' text."""
    # (whose the sentence after "since the breakup" is: "… Siobhan's sister Ana lives alone")
    text = _SINCE.sub("", said.text)
    if someone_else(text):
        return False
    about = who or owner(text, named(text, persons)) or speaker
    if re.match(rf"{re.escape(speaker)}'s ex\b", about):  # (news of their ex: their own line)
        about = speaker
    whose = owner(old.text, named(old.text, persons, lines))
    mine = whose.split("'s ")[0] == about or whose.startswith(f"{about} ")
    return mine or (not whose and about == speaker)


def _short_for(short: str, name: str) -> bool:
    """``short`` is one word, the start of a word of ``name``: "Bara" of "Chris Hani
    Baragwanath", as a place one knows well is said."""
    short = short.casefold()
    return (
        " " not in short
        and len(short) >= 3
        and any(word.startswith(short) for word in name.casefold().split())
    )


def _same(a: Key, b: Key) -> bool:
    return a.attribute == b.attribute and same_subject(a.subject, b.subject)


def _held(fact: Fact, facts: list[Fact]) -> bool:
    """Another of ``facts`` holds every word ``fact`` is about, its subject's too."""
    words = topic_of(fact.text, subject=True)
    return any(words <= topic_of(f.text, subject=True) for f in facts if f is not fact)


def _speaker(fact: Fact, speakers: dict[str, str]) -> str:
    """Who said ``fact``: the name on its first source turn of this job."""
    said = [speakers[m] for ids in fact.sources.values() for m in ids if m in speakers]
    return said[0] if said else ""


def _same_make(new: str, old: str) -> bool:
    """The old thing's make, or a part of it ("the iPhone" of "an iPhone 12", "the Octavia"
    of "a Skoda Octavia")."""
    return set(new.casefold().split()) <= set(old.casefold().split())
