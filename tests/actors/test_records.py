"""A best time (``kinds.RECORD_TIME``, ``kinds.faster``, through the whole extractive
path): a new best takes the one line holding the old one; a goal, a time of day or a slower
race does not. See docs/design.md, "Facts that stay true"."""

from __future__ import annotations

from tests.actors.merging import facts_of as _facts
from tests.actors.merging import memory_after as _memory_after


def test_a_new_best_time_takes_the_line_of_the_old_one() -> None:
    """ "RACE REPORT: 1:52:40!!! new PB" is a new best, however short the sentence: it takes
    the one line holding a best time, not the goal ("under 1:55") nor a time of day."""
    memory = _memory_after(
        (
            "i run about 40 km per week, my best half is 1:58 and i want under 1:55. "
            "my long run is always at 7:30.",
            "Ilse",
            "s",
        ),
        ("RACE REPORT: 1:52:40!!! new PB, still shaking. sub 1:55 smashed 🎉", "Ilse", "s"),
    )
    assert "1:58" not in memory and "Ilse's best half is 1:52:40." in _facts(memory)
    assert "under 1:55" in memory and "7:30" in memory
    # (a race done faster than the best is a new best, with its tenths; a slower one is none)
    said = "Right now my best in the 200 back is 2:31.6, want under 2:30."
    for race, best in [
        ("At the gala on Saturday I swam 2:28.9 in the 200 back!!", "2:28.9"),
        ("I swam 2:35.2 at the gala on Saturday, tired arms.", "2:31.6"),
    ]:
        memory = _memory_after((said, "Ilse", "s"), (race, "Ilse", "s"))
        assert f"Ilse's best in the 200 back is {best}" in memory, race
    # (a race said by its noun, its time after a colon)
    memory = _memory_after(
        ("My 5K best is 22:30, from a parkrun in May.", "Ilse", "s"),
        ("Did a time trial on Tuesday: 21:48!!", "Ilse", "s"),
    )
    assert "22:30" not in memory and "21:48" in memory
    memory = _memory_after(
        ("My 100-mile best is 6:40, from last year's sportive.", "Ilse", "s"),
        ("Did a test century on Sunday, 6:05!!", "Ilse", "s"),
    )
    assert "6:40" not in memory and "6:05" in memory


def test_a_new_best_takes_the_one_time_of_a_race_when_no_line_says_it_is_a_best() -> None:
    """ "My 10K time is 52:10 at the moment" says no "best", yet it is the time a new PB
    beats: the one line holding a race's time takes it."""
    memory = _memory_after(
        ("My 10K time is 52:10 at the moment.", "Ana", "s"),
        ("PB!!! 49:30 at the river 10K today.", "Ana", "s"),
    )
    assert "52:10" not in memory and "Ana's 10K time is 49:30 at the moment." in _facts(memory)
    swim = _memory_after(
        ("I swim the 100 free in 1:12.4 right now.", "Ana", "s"),
        ("New personal best today, 1:09.8 in the 100 free!", "Ana", "s"),
    )
    assert "Ana swims the 100 free in 1:09.8 right now." in _facts(swim)


def test_a_new_value_said_under_its_label_or_before_it_takes_the_old_ones_line() -> None:
    """ "New rating came in: 1905!!" and "new PB: 1:47!" give a value under its label, and
    "guess what... 1:47!!! new PB 🎉" the value first, its label after: each is the
    speaker's new one, in place of the line holding the old. "Broke 1900 finally" is done,
    no label of a value ("their broke is 1900")."""
    older = ("Kofi runs a chess club. I'm rated 1840 FIDE, trying to break 1900.", "Kofi", "s")
    memory = _memory_after(older, ("New rating came in: 1905!! Broke 1900 finally", "Kofi", "s"))
    assert "1840" not in memory and "Kofi's new rating is 1905." in _facts(memory)
    assert "Kofi broke 1900 finally." in _facts(memory)
    older = ("my half marathon PB is 1:52, and I run 35k a week.", "Nerea", "s")
    for said in ["new PB: 1:47!", "did a full half and guess what... 1:47!!! new PB 🎉"]:
        memory = _memory_after(older, (said, "Nerea", "s"))
        assert "1:52" not in memory and "Nerea's new PB is 1:47." in _facts(memory), said


def test_a_new_count_takes_the_clause_of_the_old_and_leaves_the_rest_of_its_line() -> None:
    """ "I have 18 students now" takes "14 kids at the moment" of "runs the chess club at
    Bantama Academy, 14 kids at the moment": the club stays. A line holding two counts goes
    whole, as no clause can be told apart ("3 days each trip, six men on the boat")."""
    memory = _memory_after(
        ("I run the chess club at Bantama Academy, 14 kids at the moment.", "Kofi", "s"),
        ("Good news: the school gave me a second group, so I have 18 students now.", "Kofi", "s"),
    )
    assert "Kofi runs the chess club at Bantama Academy." in _facts(memory), memory
    assert "14 kids" not in memory and "18 students" in memory
    memory = _memory_after(
        ("we go out for squid, 3 days each trip, six men on the boat including me.", "Minh", "s"),
        ("I took 2 new men, so now we are eight on the boat.", "Minh", "s"),
    )
    assert "six men" not in memory and "3 days" not in memory, memory


def test_the_speakers_new_value_is_no_new_value_of_someone_of_theirs() -> None:
    """ "New rating came in: 1905!!" takes Kofi's 1840, not the 1960 of "Kofi's rival Nana is
    1960 now", a line of someone of theirs, by name."""
    memory = _memory_after(
        ("Myself I'm rated 1840 FIDE, trying to break 1900 this year.", "Kofi", "s"),
        ("And my rival Nana is 1960 now, he keeps beating me 😤", "Kofi", "s"),
        ("New rating came in: 1905!! Broke 1900 finally", "Kofi", "s"),
    )
    assert "Nana is 1960 now" in memory and "1840" not in memory, memory
