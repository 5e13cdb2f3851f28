"""Where someone stays till they find a home, the room they rent from someone, their dorm room,
the lease they signed (``attributes``' residence words, through ``truth.merge``): where they
live, so a move replaces it; a stay for a week is no home."""

from __future__ import annotations

import pytest

from tests.actors.merging import lines_after
from tests.actors.merging import merge_retired as _merge


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # (a stay said to be for now, or till they find a home)
        (
            "Xavier is staying at a hostel in El Arenal for now because rooms are expensive.",
            "Xavier moved to their own room in Pere Garau, long contract.",
        ),
        (
            "Zainab is staying with Osman's uncle in Farwaniya until they find a flat.",
            "Zainab found a flat in Hawalli!!",
        ),
        (
            "Obinna is in an airbnb room in Harehills till they find something.",
            "Obinna moved to a flat in Chapeltown.",
        ),
        # (or still so)
        (
            "Uchenna is still staying with their friend Chioma in Fort Garry.",
            "Uchenna signed a lease in Transcona, 2 bed townhouse.",
        ),
        # (a room rented from someone, by name)
        (
            "Pedro rents a room from Don Vicente in Benimaclet.",
            "Pedro moved out of the room, now they rent a small flat in Ruzafa.",
        ),
    ],
)
def test_a_stay_till_they_find_a_home_is_where_they_live_and_a_move_replaces_it(
    old: str, new: str
) -> None:
    """Each old line goes when the new home is said, by the home's key (before, none was read
    as a home: the stay with Osman's uncle, with Chioma and at the hostel stayed beside the new
    one, and the others went only as the line nearest in meaning)."""
    speaker = old.split()[0]
    others = [
        f"{speaker} sends money to their mama in Cebu every month.",
        f"{speaker} is taking Spanish class at the adult school, A1 level, 2 nights a week.",
        f"{speaker}'s friend Arnel lends them his Yamaha scooter for the early shifts.",
    ]
    assert _merge(speaker, [old, *others], new) == [old]


def test_a_stay_for_a_while_is_no_home_and_replaces_none() -> None:
    """ "staying with her sister in Lyon this weekend", "in a hotel room in Rome till Sunday":
    a trip, and the home stays."""
    older = ["Ana lives in Porto."]
    for said in (
        "Ana is staying with their sister in Lyon this weekend.",
        "Ana is in a hotel room in Rome till Sunday.",
        "Ana is staying at a hostel in Seville for the festival.",
    ):
        assert _merge("Ana", older, said) == [], said


def test_a_dorm_room_somewhere_is_where_they_live() -> None:
    """ "my dorm room in Sejong Hall is so loud on weekends" says where they live, as "my flat
    in …" does, so a move retires it (before, "dorm" before the home's noun hid it)."""
    lines = lines_after(
        "Min-ji",
        "my dorm room in Sejong Hall is so loud on weekends",
        "moved into Yuseong-dong! finally a quiet place",
    )
    assert not any("Sejong Hall" in line for line in lines), lines
    assert any("Yuseong-dong" in line for line in lines), lines
