"""A name switched to, by the words said beside it (``switched_name.name_replaced``): "we
changed to Telcel" in a sentence about the phone replaces the line of the phone's Movistar,
a carrier no table names and the small embedder does not know. See docs/design.md, "Facts
that stay true"."""

from __future__ import annotations

from reverie.actors.consolidation.switched_name import name_replaced
from reverie.store import Fact
from tests.actors.merging import lines_after


def _fact(text: str) -> Fact:
    return Fact(text=text, date="2026-01-01", sources={})


def _holds(lines: list[str], word: str) -> bool:
    return any(word in line for line in lines)


def _replaced(speaker: str, first: str, said: str, old: str, *kept: str) -> None:
    """After ``first`` and then ``said`` (a day apart), no line holds ``old`` and some line
    holds each of ``kept``."""
    lines = lines_after(speaker, first, said)
    assert not _holds(lines, old), lines
    assert all(_holds(lines, word) for word in kept), lines


def test_a_carrier_switched_to_replaces_the_line_of_the_thing_it_is_for() -> None:
    """The phone said beside both names is the frame: Movistar goes, Telcel stays, and the
    dominoes club (another thing) stays."""
    _replaced(
        "Aurelio",
        "My phone is Movistar, the signal is very bad in my street. I play dominoes at Casa Pepe.",
        "My grandson fixed my phone, we changed to Telcel, now I hear my compadres clearly.",
        "Movistar",
        "Telcel",
        "Pepe",
    )


def test_a_name_said_with_the_same_verb_replaces_the_line_of_that_verb() -> None:
    """ "now I drive my brother's old Saga" is the car of "drives a Myvi"."""
    _replaced(
        "Nurul",
        "I drive a Myvi to the factory every morning. I cook for my mother on Sundays.",
        "now I drive my brother's old Saga, he gave it to me cheap",
        "Myvi",
        "Saga",
    )


def test_a_name_someone_switched_them_to_replaces_their_line() -> None:
    """ "He put me on Digi for the phone" (their grandson did it for them, "the other
    company" said after): the speaker's phone's Orange goes, though Darius made the change."""
    _replaced(
        "Cornel",
        "My phone, it is Orange. I keep 300 sheep in Ieud.",
        "My grandson Darius came from Torino, he stays with me now. He put me also on Digi for "
        "the phone, cheaper. The other company I paid 3 times more",
        "Orange",
        "Digi",
        "Ieud",
    )


def test_the_words_beside_a_name_reach_across_a_sentences_end() -> None:
    """ "sorted the agency thing. I'm with Tempo-Team now": the agency said just before the
    name, in the sentence before, is its frame; "works for the Randstad agency" goes."""
    _replaced(
        "Ines",
        "I work for the Randstad agency. I live in Nijmegen.",
        "sorted the agency thing. I'm with Tempo-Team now, better rates",
        "Randstad",
        "Tempo-Team",
        "Nijmegen",
    )


def test_two_lines_of_the_same_words_leave_the_change_open() -> None:
    """Which of their two phones changed, nothing says: neither line is the one; a wife's
    phone is hers, and leaves the speaker's one phone the one that changed."""
    turn = "My grandson fixed my phone, we changed to Telcel, now I hear my compadres clearly."
    new = _fact("Aurelio and others changed to Telcel, now Aurelio hears their compadres clearly.")
    mine = _fact("Aurelio's phone is Movistar, the signal is very bad.")
    for second, replaced in (
        (_fact("Aurelio's second phone is Claro."), None),
        (_fact("Aurelio's wife's phone is Claro."), mine),
    ):
        older = [mine, second]
        assert name_replaced(older, new, new.text, "Aurelio", {"Aurelio"}, turn) is replaced


def test_a_question_a_person_or_someone_elses_switch_replaces_nothing() -> None:
    """A question is no switch; a person met is no thing of the road bike's; a neighbour's
    phone is not the speaker's."""
    for said in (
        "Should I change to Telcel for my phone, do you think?",
        "I'm seeing someone new now, Deniz, we met at a bike polo thing",
        "Kev changed his phone to Telcel now, he says the signal is better",
    ):
        lines = lines_after(
            "Aurelio", "My phone is Movistar. My road bike is a Canyon but I ride it rarely.", said
        )
        assert _holds(lines, "Movistar") and _holds(lines, "Canyon"), (said, lines)
