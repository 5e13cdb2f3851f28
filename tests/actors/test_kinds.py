"""A change of a value of a kind closed word classes tell (``truth.merge``, docs/design.md
"Memory that stays true", step 4): a weekday, a time, a number written into the speaker's
one line holding a value of that kind, nearest in meaning."""

from __future__ import annotations

import pytest

from tests.actors.merging import merged as _merged

#: A change of a value of a kind closed word classes tell (a weekday, a time, a number):
#: the speaker's line holding one value of that kind, nearest in meaning, takes the new
#: value and keeps its other claims; a line with two values of the kind is not guessed at.
#: Rows: speaker, older lines, new fact, lines the memory then holds, words it no longer has.
KINDS = [
    (
        "Ana",
        ["Ana and others play Thursdays at Riverside Park, kick-off 6pm.", "Ana is a nurse."],
        "From now on kick-off is 7:45, the pitch was double-booked.",
        ["Ana and others play Thursdays at Riverside Park, kick-off 7:45."],
        "6pm",
    ),
    (
        "Ines",
        ["Ines paddles on Saturday mornings.", "Ines is a dentist in a big clinic."],
        "Training's moved to Sunday afternoons from now on.",
        ["Ines paddles on Sunday afternoons.", "Ines is a dentist in a big clinic."],
        "Saturday",
    ),
    (
        "Nora",
        ["Site visits on Mondays, and a yoga class on Tuesday evenings.", "Nora is a surveyor."],
        "The studio changed the timetable, so yoga is on Fridays from now on.",
        [
            "Nora is a surveyor.",
            "The studio changed the timetable, so yoga is on Fridays from now on.",
        ],
        "Site visits on Fridays",
    ),
    (
        "Nora",
        ["Nora swims on Tuesdays at 7am.", "Nora is a surveyor."],
        "Nora's sister's swim club moved to Wednesdays from now on.",
        ["Nora swims on Tuesdays at 7am."],
        "Wednesdays at 7am",
    ),
]


@pytest.mark.parametrize(("speaker", "older", "new", "holds", "gone"), KINDS)
def test_a_change_of_a_kind_takes_the_value_of_the_speakers_line(
    speaker: str, older: list[str], new: str, holds: list[str], gone: str
) -> None:
    memory = _merged(speaker, older, new).memory
    for line in holds:
        assert line in memory
    assert gone not in memory
