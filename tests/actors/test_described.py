"""A thing ended, said by what it is rather than by a noun a line holds
(``described.ended_as_described``, through the extractive path): the one line holding a
word of the ending goes, or only the item of its list that the word is in."""

from __future__ import annotations

from tests.actors.merging import lines_after


def test_only_the_item_of_a_list_that_ended_goes() -> None:
    """ "stopped going to the Wednesday fight class" of "handball training Mon and Thu and
    kickboxing on Wednesday", "quit the saturday racquet games with the hostel girls" of
    "yoga …, swimming on tue/thu and badminton on saturdays with the hostel girls": the other
    doings stay (before, the first stayed whole, the second went whole)."""
    lines = lines_after(
        "Annika",
        "I have handball training Mon and Thu and kickboxing on Wednesday.",
        "also stopped going to the Wednesday fight class, my wrist needs rest.",
    )
    assert "Annika has handball training Mon and Thu." in lines, lines
    assert not any("kickboxing" in line for line in lines), lines
    lines = lines_after(
        "Ananya",
        "I do yoga in the morning, swimming on tue/thu and badminton on saturdays with the "
        "hostel girls.",
        "I've quit the saturday racquet games with the hostel girls.",
    )
    assert "Ananya does yoga in the morning and swimming on tue/thu." in lines, lines


def test_words_two_lines_hold_end_neither() -> None:
    """Which doing in the piazza ended, nothing says: both lines stay."""
    lines = lines_after(
        "Benedetto",
        "On Thursday evening I play bocce in the piazza.",
        "I have coffee in the piazza every morning.",
        "I quit the game in the piazza with the old men.",
    )
    assert any("bocce" in line for line in lines), lines
    assert any("coffee in the piazza" in line for line in lines), lines


def test_a_thing_said_with_where_it_is_is_the_thing_that_ended() -> None:
    """ "The Hive coworking downtown": the coworking, not a noun qualifying "downtown", so
    "cancelled the coworking" ends it (before, the line stayed)."""
    lines = lines_after(
        "Madison",
        "I work from The Hive coworking downtown 3 days a week.",
        "cancelled the coworking, working from home now.",
    )
    assert not any("Hive" in line for line in lines), lines


def test_someone_elses_own_thing_ended_takes_their_item_nearest_in_meaning() -> None:
    """ "Helena quit her dance class" ends "Helena's ballet 180" of a line of costs, and the
    other costs stay; "Lilou announced she's done with the martial arts" ends "Lilou does
    judo" (before, another's ending was no change of a line, and the second was dropped as
    saying nothing of the speaker's)."""
    lines = lines_after(
        "Everton",
        "rent 1400, Dona Cida who looks after Gael 900, Helena's ballet 180, fuel for the "
        "Strada maybe 600.",
        "Helena quit her dance class, she wants handball like her cousin.",
    )
    assert not any("ballet" in line for line in lines), lines
    assert any("Strada" in line and "Cida" in line for line in lines), lines
    lines = lines_after(
        "Corentin",
        "Lilou does judo tuesday evenings.",
        "Lilou announced she's done with the martial arts, she wants to do swimming.",
    )
    assert not any("judo" in line for line in lines), lines


def test_an_ending_near_none_of_their_items_ends_nothing() -> None:
    """ "Tobi left the choir" is near no item said of Tobi ("Tobi is at Corona Secondary"),
    and nobody else's item is his."""
    lines = lines_after(
        "Adebayo",
        "Tobi is at Corona Secondary, Dami does taekwondo after school.",
        "Tobi left the choir, too many rehearsals.",
    )
    assert any("Corona" in line and "taekwondo" in line for line in lines), lines
