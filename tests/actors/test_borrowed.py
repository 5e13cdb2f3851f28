"""A thing the speaker borrowed, theirs no more once the borrowing is over
(``borrowed.borrowing_over``, through the extractive path)."""

from __future__ import annotations

from tests.actors.merging import lines_after


def test_a_thing_borrowed_goes_when_the_turn_says_the_borrowing_is_over() -> None:
    """ "bought a Nissan Micra, no more borrowing", "got my own car, so Younes has his back",
    "gave the bike back to its owner": the line of the thing lent goes (before, a line naming
    the lender's make or the lender stayed beside the speaker's own)."""
    for first, news in (
        (
            "My friend lends me his Corsa some days.",
            "I bought a Nissan Micra 2012, no more borrowing",
        ),
        (
            "I use Younes's Corolla when he takes the bus.",
            "we bought me my own car finally, a used Mazda3, so Younes has his back",
        ),
        (
            "I deliver on a borrowed Olmo bike.",
            "I gave the bike back to its owner and bought a Motomel 110",
        ),
    ):
        lines = lines_after("Obinna", first, news)
        assert not any(word in line for line in lines for word in ("Corsa", "Corolla", "Olmo")), (
            lines
        )


def test_a_thing_got_that_says_no_borrowing_over_leaves_the_thing_lent() -> None:
    """ "bought a new phone, a Pixel 8" says nothing of the car a brother lends."""
    lines = lines_after(
        "Ana", "My brother lends me his Vauxhall some days.", "I bought a new phone, a Pixel 8"
    )
    assert any("Vauxhall" in line for line in lines), lines
