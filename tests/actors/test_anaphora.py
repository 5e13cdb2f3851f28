"""A sentence opening with "he" or "she" is the fact of the person its turn just named; "the
old one" after "a new laptop" is the old laptop."""

from __future__ import annotations

import pytest

from reverie.actors.consolidation.anaphora import named_pronoun
from reverie.actors.consolidation.extractive import extractive_facts
from reverie.store import MessageRecord
from tests.actors.merging import facts_of, memory_after

#: (one turn of Carl's, the facts kept): whom "he" or "she" stands for, or nobody.
TABLE = [
    (
        "My daughter Kayla is sixteen. She's saving for her first car.",
        ["Carl's daughter Kayla is sixteen.", "Kayla is saving for her first car."],
    ),
    (
        "Even my son joined by video. He moved to Melbourne last year.",
        ["Even Carl's son joined by video.", "Carl's son moved to Melbourne last year."],
    ),
    (  # the relation says which of two
        "My sister Ana and my brother Leo came over. He's been in Oslo since May.",
        ["Carl's brother Leo came over.", "Leo has been in Oslo since May."],
    ),
    (  # a sister is no "he"
        "My sister Ana visited. He's a nice guy, her new boyfriend.",
        ["Carl's sister Ana visited.", "He's a nice guy, her new boyfriend."],
    ),
    (  # two named, neither nearer by what they are
        "My friend Tom and my cousin Ana came over. She's moving to Oslo in May.",
        ["Carl's cousin Ana came over.", "She's moving to Oslo in May."],
    ),
    (  # nobody named before it in the turn
        "She's moving to Oslo in May.",
        ["She's moving to Oslo in May."],
    ),
]


@pytest.mark.parametrize(("said", "facts"), TABLE, ids=[s[:40] for s, _ in TABLE])
def test_he_or_she_is_the_person_named_before(said: str, facts: list[str]) -> None:
    turn = MessageRecord(seq=1, id="m", role="user", content=said, ts=0, tokens=1, name="Carl")
    assert [f.text for f in extractive_facts([turn])] == facts


def _turn(seq: int, text: str, name: str | None = "Carl", role: str = "user") -> MessageRecord:
    return MessageRecord(
        seq=seq, id=f"m{seq}", role=role, content=text, ts=seq, tokens=1, name=name
    )


def test_a_turn_opening_with_she_is_the_speakers_last_named_person() -> None:
    """A turn may open with "she", the speaker having named her in their turn before; the
    nearest sentence naming someone decides ("my son" before, "Tevita" just now), and
    another speaker's words name nobody for them."""
    turns = [
        _turn(1, "My son's birthday is in May."),
        _turn(2, "How old will he be?", name=None, role="assistant"),
        _turn(3, "Tevita is turning seven. He's rugby mad, just like me."),
        _turn(4, "Our daughter Ana is learning to drive."),
        _turn(5, "Any tips?", name=None, role="assistant"),
        _turn(6, "Thanks. She's saving for her first car."),
        _turn(7, "She's moving to Oslo.", name="Bob"),
    ]
    facts = [f.text for f in extractive_facts(turns)]
    assert "Tevita is rugby mad, just like Carl." in facts
    assert "Ana is saving for her first car." in facts
    assert "She's moving to Oslo." in facts


def test_a_relatives_move_said_with_she_replaces_her_home_not_the_speakers() -> None:
    """ "She moved to …" after naming the speaker's mum is the mum's move: it retires her old
    home, and the speaker's own stays."""
    lines = facts_of(
        memory_after(
            ("I live in Inverness. My mum lives in Oban.", "Ruairi", "s"),
            ("Quick update about my mum. She moved to Fort William last month.", "Ruairi", "s"),
        )
    )
    assert "Ruairi lives in Inverness." in lines
    assert "Ruairi's mum moved to Fort William last month." in lines
    assert not any("Oban" in line for line in lines)


def test_he_after_a_name_given_is_the_one_named() -> None:
    """ "I named him Mango. He's very calm." is the new cat, not the son named a turn before."""
    before = ["My son moved to Tempe.", "And I adopted a cat, an orange one.", "I named him Mango."]
    assert named_pronoun("He's very calm.", before, "Rosa") == "Mango is very calm."
    before = ["My son moved to Tempe.", "We adopted a kitten. We called her Luna."]
    assert named_pronoun("She sleeps all day.", before, "Rosa") == "Luna sleeps all day."


def test_the_speakers_own_i_is_no_one_a_pronoun_after_it_names() -> None:
    """ "I got into open water swimming … yes, Lola, at the club. she's lovely" is no "I is
    lovely" (written "Pilar ises lovely"): "I" opening a sentence names no one."""
    before = ["I got into open water swimming last year.", "yes, Lola, at the club."]
    said = "She's lovely but she mostly coaches kids."
    assert named_pronoun(said, before, "Pilar") == said


def test_the_old_one_is_the_old_thing_of_the_kind_just_called_new() -> None:
    """ "My school gave me a new tablet, a Galaxy Tab. The old one went back to my former
    employer.": the old tablet ends the line with the iPad; the former employer is no claim
    of work, so the new job stays."""
    memory = memory_after(
        ("I plan every lesson on my iPad Air.", "Kofi", "s"),
        ("I accepted an offer from Ridgeway Academy as head of science.", "Kofi", "s"),
        (
            "My school gave me a new tablet, a Galaxy Tab. The old one went back to my "
            "former employer.",
            "Kofi",
            "s",
        ),
    )
    facts = facts_of(memory)
    assert "iPad" not in memory and "The old tablet went back to Kofi's former employer." in facts
    assert "Kofi works at Ridgeway Academy." in facts


def test_the_old_one_after_a_make_just_given_is_of_that_make() -> None:
    """ "my aunt gifted me a Samsung Galaxy Tab for my graduation, so the old one is retired":
    the nearest thing is the one just given, of a kind no word says. "The old one" is not the
    kind an earlier turn called new ("new ward timings"); the make's kind is the tablet of
    the line it replaces."""
    memory = memory_after(
        ("My tablet is a Huawei MatePad and it lags a lot when I draw.", "Pita", "s"),
        ("I moved my lessons to Fridays because of my new ward timings.", "Pita", "s"),
        (
            "Good news, my aunt gifted me a Samsung Galaxy Tab for my graduation, so the old "
            "one is retired.",
            "Pita",
            "s",
        ),
    )
    assert "MatePad" not in memory
    assert "timings is retired" not in memory


def test_it_is_a_make_is_the_thing_said_just_before() -> None:
    """ "my phone fell in the lake 😭 It's a Moto G54." says what the phone is: the phone's
    line, whose, which a new phone then replaces; with two things said before, "it" stays
    open."""
    said = ("Disaster, my phone fell in the lake 😭 It's a Moto G54. Can I save it?", "Inês", "s")
    assert "Inês's phone is a Moto G54." in facts_of(memory_after(said))
    memory = memory_after(
        said,
        ("The phone was dead, so I bought a Pixel 8a, the camera is much better!", "Inês", "s"),
    )
    assert "Moto" not in memory and "Pixel 8a" in memory
    two = memory_after(("My phone and my laptop are both old. It's a Moto G54.", "Inês", "s"))
    assert "It's a Moto G54." in facts_of(two)


def test_forget_it_takes_back_the_thing_the_speaker_just_named() -> None:
    """ "forget it then, too expensive" after "What about the machine, how long until it pays
    back?" takes back the machine being bought; after two things named, "it" stays open."""
    memory = memory_after(
        ("I'm buying a Milkline milking machine next month.", "Marisol", "s"),
        (
            "What about the machine, how long until it pays back? Mmm. Forget it then, too "
            "expensive, I'll keep milking by hand.",
            "Marisol",
            "s",
        ),
    )
    assert "Milkline" not in memory
    memory = memory_after(
        ("I'm buying a Milkline milking machine next month.", "Marisol", "s"),
        ("The machine or the van? Forget it, too expensive.", "Marisol", "s"),
    )
    assert "Milkline" in memory


def test_it_replaced_is_the_one_thing_of_theirs_said_just_before() -> None:
    """ "Dropped my e-reader in the bath 🙃 replaced it with a PocketBook": the e-reader, so
    the Kobo line goes; with two things of theirs before it, "it" stays open."""
    said = "Badminton on Sunday mornings. And books, I read on a Kobo, so ebooks add up."
    memory = memory_after(
        (said, "Priya", "s"),
        ("Dropped my e-reader in the bath 🙃 replaced it with a PocketBook.", "Priya", "s"),
    )
    assert "Kobo" not in memory and "replaced their e-reader with a PocketBook" in memory
    memory = memory_after(
        ("Dropped my e-reader and my phone in the bath, replaced it with a Kindle.", "Priya", "s")
    )
    assert "replaced it with a Kindle" in memory
