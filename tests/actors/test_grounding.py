"""The grounding check: only facts whose words are in the turns reach MEMORY.md."""

from __future__ import annotations

from reverie.actors.consolidation.grounding import ground, ground_summary
from reverie.store import MessageRecord

DAY = 1_795_000_000.0  # 2026-11-18


def turn(seq: int, text: str, *, name: str | None = "Carl", role: str = "user") -> MessageRecord:
    return MessageRecord(
        seq=seq, id=f"m{seq}", role=role, content=text, ts=DAY + seq * 86400, tokens=5, name=name
    )


TURNS = [
    turn(1, "I moved to Lisbon in 2021, and I work at Acme."),
    turn(2, "Nice! What do you do there?", name=None, role="assistant"),
    turn(3, "I repair delivery robots, mostly on night shifts."),
]


def test_invented_facts_are_dropped_and_grounded_ones_kept_with_their_turns() -> None:
    found = ground(
        [
            "Carl moved to Lisbon in 2021.",
            "Acme is a leading provider of logistics in the European business community.",
            "Carl repairs delivery robots on night shifts.",
            "Carl moved to Lisbon in 2019.",  # a number the turns never said
            "Maria works at the city library.",  # a name the turns never said
        ],
        TURNS,
        "cli:carl",
    )
    assert [f.text for f in found.facts] == [
        "Carl moved to Lisbon in 2021.",
        "Carl repairs delivery robots on night shifts.",
    ]
    assert found.dropped == 3
    assert [f.sources for f in found.facts] == [{"cli:carl": ["m1"]}, {"cli:carl": ["m3"]}]
    assert found.facts[1].date == "2026-11-21"  # the day of its own turn, not the batch's last


def test_a_fact_cut_short_or_with_its_speaker_for_a_place_is_dropped() -> None:
    """A small model's slips, made of the turns' own words: no one said them."""
    turns = [turn(1, "I'm a nurse in Lisbon and I run a podcast called Night Shift.")]
    found = ground(
        [
            "Carl runs a podcast called.",
            "Carl is a nurse in Carl and Lisbon.",
            "Carl is a nurse in Lisbon'm running a podcast.",
            "Carl runs a podcast called Night Shift.",
        ],
        turns,
        "s",
    )
    assert [f.text for f in found.facts] == ["Carl runs a podcast called Night Shift."]
    assert found.dropped == 3


def test_a_first_person_copy_is_said_of_its_speaker() -> None:
    (fact,) = ground(["I work at Acme."], TURNS, "s").facts
    assert fact.text == "Carl works at Acme."


def test_summary_keeps_grounded_sentences_once() -> None:
    summary, dropped = ground_summary(
        "Carl moved to Lisbon in 2021. Carl moved to Lisbon in 2021. Acme sells spaceships.",
        TURNS,
    )
    assert summary == "Carl moved to Lisbon in 2021."
    assert dropped == 2


def test_a_claim_recombined_from_two_sentences_is_not_grounded() -> None:
    """ "Vienna feels tiny" takes a name from one sentence and a claim from the next."""
    said = [turn(1, "Back from a weekend in Vienna with friends. Brno feels tiny after that.")]
    found = ground(["Vienna feels tiny after that.", "Brno feels tiny after that."], said, "s")
    assert [f.text for f in found.facts] == ["Brno feels tiny after that."]
    assert found.dropped == 1


def test_names_said_together_do_not_ground_what_was_not_said_of_them() -> None:
    """ "Hana lives in Vienna" shares Hana and Vienna with "a weekend in Vienna", not what it
    says of them; "Hana was in Vienna for a weekend" is said."""
    said = [turn(1, "Back from a weekend in Vienna with friends, so much cake.", name="Hana")]
    found = ground(["Hana lives in Vienna.", "Hana was in Vienna for a weekend."], said, "s")
    assert [f.text for f in found.facts] == ["Hana was in Vienna for a weekend."]
