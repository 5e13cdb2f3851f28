"""A change announced by what changed (``announced.announced``, through the extractive
path): the speaker's one line holding the thing's noun goes."""

from __future__ import annotations

from tests.actors.merging import lines_after, lines_of_one_job


def test_a_thing_said_to_have_changed_takes_the_line_holding_it() -> None:
    """ "posting changed, I'm in the orthopaedic ward", "rotation changed, I'm in equine now":
    the line of the old posting or rotation goes (before, the new one shared no word with it,
    and it stayed)."""
    for first, news, old in (
        (
            "my clinical posting is in paediatrics ward this month so mornings are gone",
            "posting changed, I'm in the orthopaedic ward from this monday. need a revision list",
            "aediatrics",
        ),
        (
            "I'm in the dermatology rotation at the vet hospital.",
            "rotation changed, I'm in equine now!! I LOVE horses.",
            "dermatology",
        ),
    ):
        lines = lines_after("Ananya", first, news)
        assert not any(old in line for line in lines), lines


def test_another_persons_change_or_a_line_said_after_is_not_taken() -> None:
    """ "my sister's rotation changed" is hers; the line said after the announcement, in one
    job, is the new one."""
    first = "I'm in the dermatology rotation at the vet hospital."
    lines = lines_after("Larissa", first, "my sister's rotation changed")
    assert any("dermatology" in line for line in lines), lines
    lines = lines_of_one_job("Larissa", "rotation changed!", "I'm in the equine rotation now.")
    assert any("equine rotation" in line for line in lines), lines


def test_a_speakers_name_with_the_marks_of_a_pattern_is_read_as_written() -> None:
    """A name holding "(" or "*" is matched as its letters, not read as a pattern (before this
    was escaped, "rotation changed" from such a speaker failed the job)."""
    first = "I'm in the dermatology rotation at the vet hospital."
    lines = lines_after("Ana (work*", first, "rotation changed, I'm in equine now")
    assert not any("dermatology" in line for line in lines), lines
