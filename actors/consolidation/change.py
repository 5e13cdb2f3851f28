"""A change said in other words: the speaker's older fact it replaces, found by meaning.

"Pottery is on Thursdays from now on" shares no key with "Nadia has a pottery
class on Tuesday evenings"; "bought a new laptop, an ASUS ProArt" none with
"does all her drawings on a ThinkPad". No table can list every way a thing
changes, but the sentence says *that* something changed (a small, closed set
of words: now, new, instead, switched, no longer, from now on, a correction),
and *what* changed is the older fact it is closest to in meaning. So a
signalled change retires the speaker's own older fact nearest to it by the
shipped embedder (``store.embed.LocalEmbedder``), when it is near enough and
clearly nearer than the next one; candidates are only the speaker's facts
(never another person's: issue 59, item 3 and 8), and a plan, a question, a
hypothetical or a sentence about someone else signals nothing.
See docs/design.md, "Memory that stays true".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

import msgspec

from reverie.store import Fact, known_word

from .acquiring import (
    GIVEN,
    GOT,
    NEW_OF_MAKE,
    SAID_OF,
    THE_MAKE,
    acquired,
    got_make,
    known_thing,
    owns,
    things_had,
)
from .attributes import PET, THINGS, held_by_another, keys
from .borrowed import borrowing_over
from .breeds import named_beings, of_breed
from .described import ended_as_described
from .endings import ENDED, no_longer_on, stolen, thing_ended
from .kinds import KINDS, amount_moved, amounts_apart, rate_periods
from .meaning import Embed
from .medicines import medicine_changed, takes_medicine
from .nearness import (
    NEAR,
    NEAR_OF_KIND,
    another_thing,
    content,
    long_words,
    nearest,
)
from .of_kind import MAKE, MANY, NAME, NOT_A_KIND, gathering, holds, kind_after, same_kind
from .ownership import named, owner, people, theirs
from .places import premises_elsewhere, premises_moved, transferred
from .signals import (
    CLAUSE,
    SWITCH,
    THAN_THE_OLD,
    added,
    ended_at,
    ended_clause,
    gone,
    hedged,
    over,
    signalled,
    weakly,
    wrecked,
)
from .subjects import HOLDER, by_common_noun, done_to, subject
from .successors import succeeded
from .switched_name import name_replaced
from .words import (
    COUNT_WORDS,
    PREMISES,
    RELATIVES,
    UPPER,
    VALUE,
    WEEKDAYS,
    WHEN,
    WORKPLACES,
    singular,
)

__all__ = ["Displaced", "apart", "displaced", "values"]

#: A pet's life with the speaker ended: it died, or lives elsewhere now.
_LIFE_ENDS = re.compile(
    # (passed, as a death is, with no object: not "passed DELTA Module 1", an exam)
    r"\b(?:died|passed(?= away\b|[.,;!]|$| (?:on|last|yesterday|this|peacefully|in|at|over|"
    r"during|early|late|suddenly|quietly|today|tonight)\b)|"
    rf"lost (?:our|my|their|the) (?:old |little |dear )?(?:boy|girl|{PET.pattern})\b|"
    r"put (?:[\w']+ ){0,3}(?:down|to sleep)|rehomed?|(?:went|gone) to live|(?:lives|is living|'s living) with .+ now|now (?:lives|is living) with|"
    r"gave (?:him|her|them|[A-Z][\w-]*) away|given away|(?:got|was|been|gets|is) adopted|"
    rf"(?:give|gave|given) (?:the|our|my|their) (?:[a-z]+ )?{PET.pattern} (?:away|to)\b|"
    # (or retired to another home: "he's retired to my brother's", "found our cat a new home")
    r"(?:is|has|'s) retired to|found (?:[\w']+ ){1,3}an? (?:new |loving |good |forever )?home|"
    # (or lost, buried, or taken to live elsewhere: "we lost our old boy", "my mom took the dog
    # to her farm", "took the cat back", "my uncle took the dog")
    r"buried|(?:took|taken) (?:the|our|my|their|him|her) (?:[a-z]+ )?(?:back )?(?:to (?:her|his|their)\b|home|to live)|"
    rf"took (?:the|our|my) {PET.pattern}(?=[,.;!]|$)|"
    # (or gone to someone: "the cat's gone to my aunt's", "the other one went to my aunt")
    rf"(?:{PET.pattern}(?:'s| has| is)?|(?:other|old) one(?: has|'s)?) (?:gone|went|moved(?: in)?) "
    r"(?:to|with) (?:my|our|their|his|her|[A-Z][\w-]*'s))\b",
    re.IGNORECASE,
)
#: Another than the one just named: "so the other one went to my aunt".
_OTHER_ONE = re.compile(r"\b(?:the|our|my) (?:other|old) one\b")
#: A thing named by its noun that died ("the delivery car finally died").
_BEING = rf"boy|girl|man|lady|fellow|guy|chap|one|pal|buddy|baby|{RELATIVES}"
_THING_DIED = re.compile(
    rf"\b(?i:the|my|our|their|his|her) (?:[a-z]+ ){{0,2}}(?!(?:{_BEING})\b)[a-z]+ "
    r"(?:finally |just )?died\b"  # ("passed away" is said of a being: "our little bird")
)


class Displaced(NamedTuple):
    """The line a change retires, and what else it said that stays true (a line of its own),
    if anything: "She steals Kluska's bed and terrorises the rabbit" loses only the rabbit."""

    old: Fact
    rest: Fact | None


def displaced(
    older: Sequence[Fact],
    new: Fact,
    said: str,
    speaker: str,
    embed: Embed,
    turn: str = "",
) -> Displaced | None:
    """The fact of ``older`` that ``new`` (``said`` with its opener, in ``turn``) replaces:
    one of ``speaker``'s, near enough in meaning and clearly the nearest; else None."""
    first = CLAUSE.split(new.text, maxsplit=1)[0]
    if over(first):
        return None  # "Before Rosa moved back here they taught in Turin": the past
    if re.search(r"\bhere\b", first) and not values(new.text) - {speaker}:
        return None  # "we're settled here now": where they are, no new place
    home = _homes([new])
    if home and values(new.text) - {speaker} <= _homes(older):
        return None  # "Sakai is home now, my son is close": the home a line holds, said again
    if home:  # (nor a line naming where they now live: "sous chef at Caleta in Valparaiso")
        older = [f for f in older if not home & values(f.text) or _homes([f])]
    if (predecessor := succeeded(older, new, turn, speaker)) is not None:
        return Displaced(predecessor, None)  # "Prof. Esposito is my new supervisor"
    if (lent := borrowing_over(older, said, turn or said, speaker)) is not None:
        return Displaced(lent, None)  # "bought a Nissan Micra, no more borrowing"
    if stopped := no_longer_on(said, theirs(older, new, said, speaker, cue=False) or []):
        return Displaced(stopped, None)  # "took me off the tablets I was on"
    given = GIVEN.search(new.text)
    # (not after its old one's end, which says its kind: "the tablet fell and the screen broke,
    # she gave me a Lenovo")
    if given and (ended := ENDED.search(new.text)) and ended.start() < given.start():
        given = None
    if given and given["whom"] in ("them", speaker) and not hedged(new.text[: given.start()]):
        # (given, not a gift wished or offered: "Joana's dad wants to give them his old Mercedes")
        # "Kuba set them up with a smartphone, a Motorola": the speaker got a new one (the
        # giver's old one too, "sold them her iPhone 11"; with no article, "gave them Swarovski
        # binoculars"; the thing alone, not why: "a Lenovo ThinkPad for their birthday, so …")
        alone = re.sub(r" for (?:an?|the|my|their|his|her|our) [^,]+", "", given["thing"], count=1)
        gift = re.sub(r"^(?:(?:an?|the|her|his|their) )?(?!(?:an? )?new )", "a new ", alone)
        said = f"{speaker} got {gift}"
        new = msgspec.structs.replace(new, text=said)
    if held_by_another(new.text, speaker):
        return None  # "borrowed Ana's phone", "bought Leo a new phone": someone else's thing
    if premises := premises_moved(said):
        # "the shop is moving to Liberty Market": the one line of theirs with a shop moves (of
        # two, the one saying where it is: not "likes their own workshop")
        kept = theirs(older, new, said, speaker, cue=False) or []
        held = [f for f in kept if re.search(rf"\b{premises}\b", f.text, re.IGNORECASE)]
        # (or by another word for premises, the one line that has any: "Crown & Glory Salon in
        # Rumuola" for "New shop is in Woji")
        others = [f for f in kept if re.search(rf"\b(?:{PREMISES})\b", f.text, re.IGNORECASE)]
        held = held or (others if len(others) == 1 else [])
        placed = [f for f in held if re.search(rf"\b(?:in|at) [{UPPER}]", f.text)]
        if len(placed) == 1 or len(held) == 1:
            return Displaced((placed or held)[0], None)
        if not held or not signalled(said):
            return None  # (premises no line holds: no other line is theirs by meaning)
    # ("Customers are finding the shop on Armenian Street": of "the shop is on Chulia Street")
    # (whose the lines are is asked only when a line's premises are somewhere else now)
    if any(premises_elsewhere(f.text, new.text) for f in older):
        placed_lines = theirs(older, new, said, speaker, cue=False) or []
        elsewhere = [f for f in placed_lines if premises_elsewhere(f.text, new.text)]
        if len(elsewhere) == 1 and not hedged(said):
            return Displaced(elsewhere[0], None)
    persons = people([speaker], older)
    if (was := _FROM.search(said) or _SWITCHED_TO.search(said)) and (
        mine := theirs(older, new, said, speaker)
    ):
        # "switched from pottery to watercolour", "switched my module to computing": the one
        # line of theirs naming the old one, or the thing switched
        old = long_words(was["old"])
        naming = [f for f in mine if old <= long_words(f.text)]
        if len(naming) == 1 and old:
            return Displaced(naming[0], None)
    if medicine_changed(said) and (mine := theirs(older, new, said, speaker, cue=False)):
        # "the GP changed my tablets": the one line of a medicine they take ("takes warfarin")
        taken = [f for f in mine if takes_medicine(f.text)]
        # (of several, the one naming the drug said: "upped the metformin to 1000mg")
        drugs = {w for w in long_words(said) if not known_word(w)}
        taken = [f for f in taken if drugs & long_words(f.text)] or taken
        if len(taken) == 1:
            return Displaced(taken[0], None)
    # ("switched gyms", "changed carriers": the one of that kind they had is the old one)
    if (kinds := _SWITCHED_KINDS.search(said)) and (
        same := same_kind(
            older, new, said, speaker, persons, gathering(singular(kinds["kind"])), embed
        )
    ):
        return Displaced(*same)
    ended = ENDED.search(said)
    head = next(filter(None, ended.groups()), "") if ended else ""
    # (said before the thing, or as the ending's noun: "sold their aunt's old sofa")
    whose = _WHOSE.search(said[ended.start() : ended.end() + 3]) if ended else None
    if ended and whose and whose[1] != speaker and not stolen(ended):
        # "sold Ines's old armchair for her": someone else's thing, the one line of theirs
        # holding it that the speaker's session said ("Kojo's weekend classes have stopped":
        # "Kojo has extra classes …"; never a line another member said of them)
        of_them = [
            f
            for f in older
            if re.match(rf"{re.escape(whose[1])}\b(?!'s)", f.text)
            and holds(head, f.text)
            and set(f.sources) & set(new.sources)
        ]
        return Displaced(of_them[0], None) if len(of_them) == 1 else None
    if (
        ended
        and ended["sold"]
        and not stolen(ended)
        and _by_another(said, ended.start(), speaker, new.text)
    ):
        # "The landlord sold the house", "Ana's brother sold his car": their act, no change of
        # the speaker's (what the sentence says after it may be: "…, so now we rehearse in X")
        rest = CLAUSE.split(said[ended.end() :], maxsplit=1)[1:]
        said, ended = (rest[0] if rest else ""), None
        new = msgspec.structs.replace(new, text=said[:1].upper() + said[1:])
    if ended and ended["sold"] and (noun := _COMPOUND.match(said, ended.end())):
        # "stopped their art class, …": a class ("cancelled their gym membership": the gym a
        # line holds, where none holds a membership; "the caffeine stuff" is caffeine)
        told = " ".join(f.text for f in older)
        whole = holds(noun[1], told) or not holds(head, told)
        head = noun[1] if whole and noun[1] not in NOT_A_KIND else head
    if ended and head == "one" and acquired(said[: ended.start()]):
        ended = None  # "got a new Lenovo ThinkPad, so the old one is retired": one of its make
    elif ended and (hedged(said[: ended.start()]) or head == "one"):
        # "thinking of leaving the dealership": a plan; "traded the old one in", of a kind
        # no sentence before it named (``anaphora.old_one``): which thing, nothing says
        return None
    # (the lines naming a thing of the kind that ended)
    of_kind = [f for f in older if holds(head, f.text)] if ended else []
    if (
        ended
        and ended[0].startswith(("left ", "leaving "))
        and _WORK_LEFT.fullmatch(head)
        and not _by_another(said, ended.start(), speaker, new.text)
    ):
        # ("left the studio", one employer of theirs: the job, not a line the studio is in,
        # "my Bianchi was stolen outside the studio"; not another's, "the teacher left the
        # academy")
        holders = (speaker.casefold(), "")
        jobs = [
            f for f in older if any(k[:2] in ((h, "work") for h in holders) for k in keys(f.text))
        ]
        if len(jobs) == 1:
            return Displaced(jobs[0], None)
    if ended and ended[0].startswith(("left ", "leaving ")) and not of_kind:
        ended = None  # ("left the tiny kitchen" may be a room: a line's thing, else by meaning)
    thing = ended is not None and not PET.fullmatch(head) and not re.fullmatch(_BEING, head)
    if ended and thing:
        # "my old laptop died": the line with a laptop, or a make of one (two, and none goes)
        what = thing_ended(new, said, ended)
        # ("quit the game in the piazza": no line holds a game, one a doing in the piazza)
        mine = [] if of_kind else theirs(older, new, said, speaker, cue=False) or []
        if by_words := ended_as_described(mine, said, ended):
            return Displaced(*by_words)
        # (what took its place may be said in the turn's next sentence: "… Got a Ribble now")
        if same := same_kind(
            older, what, said, speaker, persons, head, embed, ended=True, turn=turn
        ):
            return Displaced(*same)
        if len(of_kind) > 1:
            return None
    if (than := THAN_THE_OLD.search(said)) and (make := THE_MAKE.search(said)):
        # "The Porter is so much better than the old car": a make said with "the" beside the
        # old thing it is measured against is the speaker's new one of its kind
        lines = " ".join(f.text for f in older)
        if make["make"] not in lines and (
            same := same_kind(
                older, new, said, speaker, persons, than["head"] or than["was"], embed, ended=True
            )
        ):
            return Displaced(*same)
    known = THE_MAKE.search(new.text)
    if (
        known
        and known["make"] not in persons
        and known["make"].split()[0] not in " ".join(f.text for f in older)
        and not hedged(said)
        and not signalled(said)
    ):
        # "The Duster is a blessing for port pickups": a make said with "the", as one known,
        # that no line holds is the speaker's new one, in the use of the old one it is nearest
        owned = [
            f
            for f in theirs(older, new, said, speaker, cue=False) or []
            if owns(f.text, persons) or known_thing(f.text, persons)
        ]
        # (the one thing of theirs, and this make the subject of what is said of it, "The
        # Corolla's been brilliant": nearness of its kind is enough; not "the Iten marathon")
        near = NEAR_OF_KIND if len(owned) == 1 and SAID_OF.match(new.text, known.end()) else NEAR
        if (found := nearest(new, owned, embed, near, speaker)) is not None:
            return Displaced(owned[found], None)
    # "got a Galaxy S24", "riding a Canyon Endurace now": one of its makes; "swapped to Italian
    # at the language school": the line naming one nearest it ("a Spanish course")
    # (a name alone, with no kind said, nearer: not "switched to Vodafone" for the Spanish one)
    by_make = got_make(said)
    # (by the kind said after the make, when it is: "bought a Juki industrial machine" of
    # "their old Singer machine", a make the embedder does not know; "a Samsung phone case" is
    # no phone)
    got_kind = kind_after(said, by_make["make"]) if by_make else ""
    # (or the thing a key reads the make as: "got a Pixel 7a" is a phone, of "an old Redmi")
    read_as = ""
    if by_make and not added(said):  # (not one beside another: "a work phone, … carry two")
        read_as = next((k.attribute for k in keys(by_make[0]) if k.attribute in THINGS), "")
    if (got_as := got_kind or read_as) and (
        same := same_kind(older, new, said, speaker, persons, got_as, embed)
    ):
        return Displaced(*same)
    # "the phone finally died, my son bought me a Vivo": a make got beside an end is of the
    # kind that ended; with that line gone already, no other is its by nearness
    end_told = ENDED.search(turn) if by_make and not got_as and not ENDED.search(said) else None
    if end_told and (kind_ended := next(filter(None, end_told.groups()), "")) not in ("", "one"):
        same = same_kind(older, new, said, speaker, persons, kind_ended, embed)
        return Displaced(*same) if same else None
    for to, near in ((by_make, MAKE), (_SWITCHED_TO_NAME.search(said), NAME)):
        made = to["make"] if to else ""
        said_kind = got_kind if to is by_make else ""
        if made and (
            same := same_kind(older, new, said, speaker, persons, made, embed, near, kind=said_kind)
        ):
            return Displaced(*same)
    weak = weakly(said)
    if weak and speaker not in new.text and not values(new.text):
        return None  # "Calmer shifts, finally.": of no one, naming nothing, it changes nothing
    # "got a (new) Chuwi laptop", "broke in my new Scarpa boots" (not "once we've got the van")
    if weak and not hedged(said) and (got := GOT.search(said) or NEW_OF_MAKE.search(said)):
        acquired_kind = got["head"].lower().removesuffix("s")
        same = same_kind(older, new, said, speaker, persons, acquired_kind, embed)
        # "a new bike helmet" for the bike of a line: a thing for it, not a new one of it
        lines = MANY.sub("", " ".join(f.text for f in older))
        add_on = set(got["kind"].lower().split()) & content(lines)
        # (and with "new" its only cue, a thing sharing no word with a line is just new: a book)
        if added(said):
            return None  # (nor one beside it: "an electric guitar to go with my acoustic")
        if same or not signalled(said) or add_on or not content(got[0]) & content(lines):
            return Displaced(*same) if same else None
    if (
        weak
        and (
            _WANTS.search(said)
            # (a change done to the speaker is theirs: "The bodega gave Agustina a raise")
            or not (
                owner(new.text, named(new.text, persons)) or done_to(new.text, re.escape(speaker))
            )
        )
        and not (_LIFE_ENDS.search(said) and PET.search(new.text))
    ):
        # "Our new oolong milk tea": a new thing, not a change of the speaker's; "the team
        # needs a new tenor": a want ("the dog went to my parents' farm" is a life's end)
        return None
    # a line that already names every new value says the same thing: it is not replaced;
    # a thing that ended is the one its values name ("Saturday football is over" ends the
    # Saturday line, "our Sunday barbecues are over" no line of futsal on Wednesdays)
    at, stated = ended_at(new.text), values(new.text) - {speaker}
    whose = _OF_THEIRS.match(new.text, len(speaker)) if new.text.startswith(speaker) else None
    # (its first word, or the noun the ending follows: "Rhiannon's dear old spaniel died")
    words = new.text[whose.end() : at].split() if whose and at > whose.end() else []
    possessed = "|".join(map(re.escape, {words[0], words[-1]})) if words else ""
    scope = older
    if (
        possessed
        and not any(PET.fullmatch(w) for w in (words[0], words[-1]))
        and stated
        and all(new.text.find(v) > at for v in stated)
    ):
        # "Maya's manager left Pixelworks": the manager's ending, only a line of the manager's
        # (not a pet's, "Sofía's dog now lives with their parents in Segovia": it left them)
        scope = [f for f in older if re.search(rf"\b(?:{possessed})\b", f.text)]
    mine = theirs(scope, new, said, speaker) or []
    mine, workplace = transferred(mine, new.text, speaker)
    if workplace is not None:
        return Displaced(*workplace)  # "transferred to the pediatric ward"
    # (a day alone is no thing, "swimming on Saturday mornings instead of running", nor one said
    # with it, "moved into Borrowdale on Saturday"; nor, of a thing that ended by its noun, what
    # started after it: "left the school kitchen and now they cook at Taverna Thalassa")
    ends = ended_clause(new.text) if at >= 0 else ""
    ended_in = ends if re.search(r"\b(?:the|my|our|their) [a-z]", ends) else new.text
    things = {v for v in stated if not WHEN.fullmatch(v) and v in ended_in}
    # (a new name is of a line holding a name, or a number when it says one too: not "nights
    # are Fridays" for "the NICU rota", nor "rental is 9,000 a week" for "switched to Bolt")
    counts = any(v[0].isdigit() for v in things)
    candidates = [
        f
        for f in mine
        if not (things and things <= values(f.text))
        and not (
            any(v[0].isupper() for v in things)
            and not any(
                (v[0].isupper() or counts) and not WHEN.fullmatch(v)
                for v in values(f.text) - {speaker}
            )
        )
    ]
    if stated and at >= 0:
        # what ended is the line naming its value ("left Pixelworks"; "Saturday football is
        # over" the Saturday line, "our Sunday barbecues are over" no line of futsal on
        # Wednesdays); a name no line holds may be the new thing ("sold it, got a Trek")
        # (or a word of its value: "the XPS died" names "a Dell XPS 13"; a value of its own
        # clause: not "left the school kitchen and now they cook at Thalassa in Messini")
        old_values = {v for v in stated if v in ends}
        naming = [f for f in mine if _folded(old_values) & _folded(values(f.text) | _parts(f.text))]
        if len(naming) == 1:
            return Displaced(naming[0], None)
        if naming or all(WHEN.fullmatch(v) for v in stated):
            candidates = naming
    kind = {m.casefold() for m in PET.findall(new.text)}
    # ("got a tortoise now, so the other one went to my aunt": not the pet just got)
    just_got = kind if _OTHER_ONE.search(said) else set()
    kind -= just_got
    # "my old boy died", "the rabbit went to live on a farm"; not a thing ("the old ute died",
    # "the delivery car finally died": no pet's line goes with it)
    if _LIFE_ENDS.search(said) and (kind or not _THING_DIED.search(said)):
        # (the end is its own cue, of a pet said or named: "lost our dog", "put Biscuit down")
        cue = not (kind or re.search(r"\blost (?:our|my|their)\b|\bput [A-Z]|passed away", said))
        kin = theirs(scope, new, said, speaker, kin=True, cue=cue) or []
        possessors = _PET_OF.findall(said)
        if another := bool(possessors) and possessors[-1] != speaker:
            # (another's, by name or relation: "Kemal's old dog passed last week", "Kiri's
            # sister's dog got adopted" end only a line of theirs)
            kin = [f for f in kin if re.search(rf"\b{re.escape(possessors[-1])}\b", f.text)]
        pets = [
            f
            for f in kin
            if any(k.attribute.startswith("pet:") for k in keys(f.text))
            and kind <= (species := {m.casefold() for m in PET.findall(f.text)})
            and not (just_got and species <= just_got)
        ]
        if not pets and len(beings := named_beings(kin, speaker, persons)) == 1:
            # (else a named being of theirs, "Bo's kelpie": the whole line, its name may be in
            # another clause than its noun, "walking Bryn, their elderly springer spaniel")
            return Displaced(beings[0], None)
        if len(pets) == 1:
            species = kind or {m.casefold() for m in PET.findall(pets[0].text)}
            return apart(
                pets[0], lambda part: bool(species & {m.casefold() for m in PET.findall(part)})
            )
        if kind:  # "the dog's gone to live with …": the one line naming a dog, or no line
            dogs = [f for f in kin if kind & {m.casefold() for m in PET.findall(f.text)}]
            if not dogs:  # (or a dog by its breed: "Dolores's dachshund Pepper")
                # (not a relative's dog: "Kiri's sister's dog got adopted")
                dogs = of_breed(kin if another else older, speaker, kind, embed)
            return Displaced(dogs[0], None) if len(dogs) == 1 else None
    # a thing said to end ("sold my bike") is named by its kind, not its make, weaker evidence
    # than the ending ("sold the old van" is not "… is called Rurex"); of two lines of one thing
    # ("Glow Studio", "a salon called Glow Studio in Osu") the fuller one is what changed
    # (an amount moved, or a rate naming nothing else, of a line holding one: not "a truck
    # called Smoky Pot"; of a rate's period when any does: "it's 3.200 an hour now" of "pay
    # 2.500 pesos an hour"; not "doing the YMCA instead, $40 a month")
    periods = rate_periods(new.text)
    periods = set() if any(v[0].isupper() for v in stated) else periods
    if amount_moved(new.text) or periods:
        candidates = [f for f in candidates if KINDS[-1].search(f.text)]
        candidates = [f for f in candidates if periods & rate_periods(f.text)] or candidates
    # (nor a line whose figure is another quantity's: "salary is 42k now" of "rent's 1350")
    candidates = [f for f in candidates if not amounts_apart(new.text, f.text)]
    names = [values(f.text) - {speaker} for f in candidates]
    candidates = [
        f
        for f, own in zip(candidates, names, strict=True)
        if not (own and any(own < n for n in names))
    ]
    candidates = [f for f in candidates if not another_thing(new.text, f.text)]  # (its when)
    among = gone(said) and len(candidates) > 1 and not thing
    if thing or wrecked(said):  # (a thing ended is a line's thing: not "tigers from Monday")
        candidates = things_had(candidates, persons)
    if stated and all(WHEN.fullmatch(v) for v in stated):  # ("switched my riding to Saturday")
        if _MOVED_ON.search(said):
            return None  # (the day a move was made, no day anything moved to: "moved on Saturday")
        candidates = [f for f in candidates if any(WHEN.fullmatch(v) for v in values(f.text))]
    found = nearest(new, candidates, embed, NEAR_OF_KIND if among else NEAR, speaker)
    if found is None:
        # ("we changed to Telcel" of "phone is Movistar": the line its words say, switched_name.py)
        switched = name_replaced(older, new, said, speaker, persons, turn)
        return Displaced(switched, None) if switched else None
    said_of = {w for w in content(new.text) if not w.endswith("ly")}
    if not stated and said_of and said_of <= content(candidates[found].text):
        return None  # ("so I can finally just coach": the line's own words again, nothing new)
    if stated and all(v[0].isdigit() for v in stated):
        # (a new count is the clause holding the old one: "…, 14 kids at the moment" of "runs
        # the chess club at Bantama Academy", which stays)
        return apart(candidates[found], lambda part: bool(_A_COUNT.search(part)))
    # which clause of it changed, meaning alone cannot tell: the line goes whole
    return Displaced(candidates[found], None)


#: A count, in figures or in words ("14 kids", "six men"): the clause of a line it is in.
_A_COUNT = re.compile(rf"\d|\b{COUNT_WORDS}\b", re.IGNORECASE)
#: The day a move of home was made: "moved on Saturday", "moved in last weekend".
_MOVED_ON = re.compile(
    rf"\bmoved(?: (?:in|out|house|home|here))? (?:on|last|this) (?:{WEEKDAYS}|week|weekend)\b",
    re.IGNORECASE,
)
#: Someone or something of the speaker's, after their name: "'s manager", "'s old car".
_OF_THEIRS = re.compile(r"'s (?=[a-z]+ )")
#: A want, which news of a new thing may be: "the choir needs a new tenor" (a state of its
#: own, that a thing got meets: not a plan).
_WANTS = re.compile(r"\b(?:need|want)s? (?:an? |some )?new\b", re.IGNORECASE)
#: Whose a thing is, by a name or a relative: "Ines's old armchair", "my aunt's old car".
_WHOSE = re.compile(rf"\b({HOLDER})'s ")
#: Whose a pet is, by the name or relation before it: "Kemal's old dog", "sister's dog".
_PET_OF = re.compile(rf"\b((?i:{RELATIVES})|{HOLDER})'s (?i:(?:[a-z]+ ){{0,2}}{PET.pattern})\b")
#: A thing switched whole, by its noun: "switched my module to computing".
_SWITCHED_TO = re.compile(
    rf"\b{SWITCH}\w* (?:my|our|their|the) (?P<old>[a-z]{{3,}}) (?:over )?to\b", re.I
)
#: A name switched to: "swapped to Italian", "changed over to Vodafone".
_SWITCHED_TO_NAME = re.compile(rf"\b{SWITCH}\w* (?:over |back )?to (?P<make>[{UPPER}][\w-]*)")
#: A thing switched for another of its kind, by the kind's plural: "switched gyms".
_SWITCHED_KINDS = re.compile(
    rf"\b{SWITCH}(?:ed|ing|es|e)? (?P<kind>(?!(?:to|over|back|from|it|them)\b)[a-z]{{3,}}s)\b"
)
#: A change that names what it changed from: "switched from pottery to a watercolour class".
_FROM = re.compile(
    r"\b(?:switch|swapp?|chang|mov|went|gone|upgrad|downgrad|transferr?)\w* from "
    r"(?:the |my |our |their |an? )?(?P<old>[\w' -]+?) (?:to|for)\b",
    re.IGNORECASE,
)


def _homes(facts: Sequence[Fact]) -> set[str]:
    """The homes ``facts`` say someone lives in."""
    return {k.value for f in facts for k in keys(f.text) if k.attribute == "residence"}


#: A place of work left, which is a job left: "left the studio", "leaving the practice".
_WORK_LEFT = re.compile(rf"{PREMISES}|{WORKPLACES}|company|firm|practice|agency|surgery")


def _by_another(said: str, at: int, speaker: str, fact: str) -> bool:
    """The act said at ``at`` is done by someone other than ``speaker``: a person named, one of
    someone's ("Ana's brother"), or one a common noun names ("the garage owner"); read in the
    ``fact`` alone, less the opener ``said`` adds ("Changes at work Elena has left …")."""
    if (own := said.rfind(fact)) > 0 and at >= own:
        said, at = fact, at - own
    if said[:at].removesuffix(" and others ").split()[-1:] == speaker.split()[-1:]:
        return False  # ("News: Femi left …": the name just before it, not the opener's word)
    who = subject(said, at)
    return bool(who and who != speaker.casefold()) or by_common_noun(said, at)


#: The noun a thing's name ends with, after its first word ("art class", "bread machine").
_COMPOUND = re.compile(r" ([a-z]{3,})(?=[,.;!]|$)")


def apart(old: Fact, changed: Callable[[str], bool]) -> Displaced:
    """``old`` retired; when the one clause that ``changed`` is not its first, which holds
    the subject, the other clauses stay as a line."""
    parts = [c for c in CLAUSE.split(old.text.strip().rstrip(".!")) if c]
    hits = [i for i, part in enumerate(parts) if changed(part)]
    at = hits[0] if len(hits) == 1 else 0
    # (a subject alone is no clause: "Siim and their flatmate Markus pay 870 …" is one)
    if at == 0 or not re.search(r"\b[a-z]", parts[0]):
        return Displaced(old, None)
    rest = ", ".join(p for i, p in enumerate(parts) if i != at)
    return Displaced(old, Fact(text=f"{rest}.", date=old.date, sources=old.sources))


def _parts(text: str) -> set[str]:
    """The words of the names of ``text`` that are names themselves ("XPS" of "Dell XPS")."""
    return {word for value in values(text) for word in value.split()[1:] if word[0].isupper()}


def _folded(names: set[str]) -> set[str]:
    return {n.casefold().removesuffix("s") for n in names}  # (one "Sunday" for "Sundays")


def values(text: str) -> set[str]:
    """The names and numbers a fact states (not the word it opens with)."""
    return set(VALUE.findall(text))
