"""A thing got by a make the key table reads as a kind (``change.displaced``, through the
extractive path): the one line of theirs holding a thing of that kind is the old one, and a
thing only wanted is none."""

from __future__ import annotations

from tests.actors.merging import lines_after


def test_a_make_read_as_a_phone_replaces_the_phone_a_line_names_by_its_make() -> None:
    """ "got a Pixel 7a" after "an old Redmi Note 10": the Redmi goes (before, the make got
    was matched to the old one's make, which the embedder puts far apart)."""
    lines = lines_after("Aditi", "I have an old Redmi Note 10.", "got a Pixel 7a yesterday")
    assert not any("Redmi" in line for line in lines), lines


def test_a_thing_wanted_is_no_thing_had_of_its_kind() -> None:
    """ "I need a new phone before any move" holds no phone: "Got a Galaxy S24", read as a
    phone, takes the Huawei whose camera died (read so without this, the wanted one went in
    its place)."""
    lines = lines_after(
        "Samir",
        "Also my Huawei's camera died, I need a new phone before any move.",
        "Got a Galaxy S24 at the airport, the camera is great.",
    )
    assert not any("Huawei" in line for line in lines), lines
