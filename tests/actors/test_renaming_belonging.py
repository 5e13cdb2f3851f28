"""A rename whose turn names neither the old name nor the thing's kind (``renaming.
renamed_by_meaning``, through the extractive path): the one line naming what the speaker
belongs to, works or trades as takes the new name; a person, a place or a thing had is no
old name, and nobody else's line is touched."""

from __future__ import annotations

import pytest

from tests.actors.merging import facts_of, memory_after


def _lines(*said: tuple[str, str]) -> list[str]:
    """The memory's lines after one job per (speaker, turn), a day apart, in one scope."""
    return facts_of(memory_after(*((text, speaker, "s") for speaker, text in said)))


@pytest.mark.parametrize(
    ("first", "then", "now", "gone"),
    [
        (  # an employer taken over: "we're X now", no rename word
            "I'm a physiotherapist at Kelso Physio in Jedburgh, with my dog Bran at home.",
            "Bit of news: the clinic got bought by a chain, we're Borderlands Health now.",
            "Wanjiru works at Borderlands Health in Jedburgh",
            "Kelso Physio",
        ),
        (  # a team played with, renamed by the league
            "Outside work it's korfball on Thursday nights with the Riverside Otters.",
            "The league voted on new names and we're the Tidal Foxes now. Much better.",
            "korfball on Thursday nights with the Tidal Foxes",
            "Otters",
        ),
        (  # a name traded as, the company renamed in the turn's next sentence
            "I've been trading as Nyambura Prints for six years. My rate is 40 an hour.",
            "We've rebranded. The company is Savanna Press now, my partner did the logo.",
            "has been trading as Savanna Press",
            "Nyambura Prints",
        ),
        (  # a name whose first letter is no ASCII capital, renamed from a weekday on
            "I teach the second class at Østby Skole, and I live in Skive.",
            "The schools merged, so from Monday we are called Fjellvik Skole.",
            "at Fjellvik Skole",
            "Østby",
        ),
    ],
)
def test_the_one_line_of_what_they_belong_to_takes_the_new_name(
    first: str, then: str, now: str, gone: str
) -> None:
    lines = _lines(("Wanjiru", first), ("Wanjiru", then))
    assert any(now in line for line in lines), lines
    assert not any(gone in line for line in lines), lines


def test_a_place_sharing_a_word_with_the_new_name_keeps_its_name() -> None:
    """ "We're the Coyotes de Roma" renames the team played with, not the home "Roma Norte"."""
    lines = _lines(
        ("Diego", "I live in Roma Norte with my girlfriend Valeria."),
        ("Diego", "Friday night basketball with Los Ajolotes, a rec league team."),
        ("Diego", "The league made us change our team name, so now we're the Coyotes de Roma."),
    )
    assert "Diego lives in Roma Norte." in lines, lines
    assert any("with Coyotes de Roma" in line for line in lines), lines
    assert not any("Ajolotes" in line for line in lines), lines


def test_a_person_a_thing_had_and_someone_elses_team_are_no_old_name() -> None:
    """Of "with Mrs Okoro" (a person by title) and "for an XP-Pen" (a thing had), neither is
    what a rename renames; a sister's team renamed leaves the speaker's."""
    lines = _lines(
        ("Aroha", "Piano lessons on Mondays with Mrs Okoro."),
        ("Aroha", "I swapped my old tablet for an XP-Pen Artist Pro."),
        ("Aroha", "Funny, we're the Harbour Hawks now, the club voted on a new name."),
    )
    assert any("with Mrs Okoro" in line for line in lines), lines
    assert any("XP-Pen Artist Pro" in line for line in lines), lines
    lines = _lines(
        ("Aroha", "Netball on Wednesdays with the Te Aro Tuis."),
        ("Aroha", "My sister's club renamed itself, they're the Red Kites now."),
    )
    assert any("Te Aro Tuis" in line for line in lines), lines


def test_a_rename_off_the_topic_of_a_thing_called_by_its_noun_is_not_its() -> None:
    """ "the run club rebranded. It's Lakeshore Pacers now" renames the club the speaker runs
    with, never their cat "called Mochi"."""
    memory = memory_after(
        ("I share a one-bedroom with my boyfriend Eric and our cat Mochi.", "Grace", "s"),
        ("I also run with the Beaches Run Club on Sunday mornings.", "Grace", "s"),
        (
            "Funny thing, the run club rebranded. It's Lakeshore Pacers now since we got a sponsor.",
            "Grace",
            "s",
        ),
    )
    assert "cat is called Mochi" in memory and "Beaches" not in memory, memory
    assert "runs with the Lakeshore Pacers" in memory, memory


def test_a_line_a_turn_rewrote_takes_that_turns_rename_too() -> None:
    """ "We've moved sessions to Sunday afternoons …, and we restarted the story arc under a
    new name, Ashes of Brynmor": the campaign line takes both, and the line of a birth "at the
    Heath" keeps its place."""
    memory = memory_after(
        ("I run a campaign called The Sunken Crown every Thursday for five mates.", "Owen", "s"),
        ("Cai, 7lb 2oz, born on Tuesday at the Heath.", "Owen", "s"),
        (
            "We've moved sessions to Sunday afternoons so I'm home for bedtime, and we restarted"
            " the story arc under a new name, Ashes of Brynmor.",
            "Owen",
            "s",
        ),
    )
    assert "campaign called Ashes of Brynmor every Sunday afternoon" in memory, memory
    assert "at the Heath" in memory, memory


def test_the_speaker_said_to_be_a_name_now_renames_nothing_of_theirs() -> None:
    """ "I think I am Chivas now" (a team supported) is written "… they are Chivas now",
    which reads as "we're X now"; the turn's own words rename nothing, so the stall "called
    El Remiendo" keeps its name (before, it was renamed Chivas)."""
    lines = _lines(
        ("Rogelio", "I have a little stall in the Mercado Alcalde, it's called El Remiendo."),
        ("Rogelio", "my grandson took me to the stadium and... I think I am Chivas now."),
    )
    assert any("called El Remiendo" in line for line in lines), lines
    assert not any("called Chivas" in line for line in lines), lines
