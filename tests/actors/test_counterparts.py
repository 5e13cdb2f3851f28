"""A place of theirs of one kind, named anew (``counterparts.named_anew``, through the
extractive path): the line naming the old one is written with the new name."""

from __future__ import annotations

from tests.actors.merging import lines_after, memory_after


def test_another_of_the_kind_a_line_names_takes_its_place_in_that_line() -> None:
    """ "I'm at the Toowong depot from Monday" after "out of the Carina depot": the line says
    the Toowong depot, and the rest of it stays (before, both depots stayed)."""
    lines = lines_after(
        "Troy",
        "I drive buses in Brisbane out of the Carina depot.",
        "big news, I got my transfer, I'm at the Toowong depot from Monday.",
    )
    assert not any("Carina" in line for line in lines), lines
    assert "Troy drives buses in Brisbane out of the Toowong depot." in lines, lines
    # (the line is said in both turns now, so forgetting either takes it)
    memory = memory_after(
        ("I drive buses out of the Carina depot.", "Troy", "s"),
        ("I'm at the Toowong depot from Monday.", "Troy", "s"),
    )
    assert 'out of the Toowong depot. <!-- from {"s":["m0","m1"]} -->' in memory, memory


def test_another_of_the_kind_with_no_change_or_of_another_takes_nothing() -> None:
    """A visit ("We had a barbecue at the Toowong depot") and a friend's transfer keep the
    line."""
    for news in (
        "We had a barbecue at the Toowong depot.",
        "My mate Robbo got his transfer to the Toowong depot.",
    ):
        lines = lines_after("Troy", "I drive buses out of the Carina depot.", news)
        assert any("Carina depot" in line for line in lines), lines


def test_a_name_before_a_word_that_is_no_kind_names_no_place_of_a_kind() -> None:
    """ "I walk in Parc Maisonneuve now" names no kind "now": "I'm on Pawshake now" stays."""
    lines = lines_after("Chantal", "I'm on Pawshake now.", "I walk in Parc Maisonneuve now.")
    assert any("Pawshake" in line for line in lines), lines


def test_another_of_the_kind_takes_the_place_of_one_said_by_a_word_not_a_name() -> None:
    """ "I'm moving to the Android team" after "I'm on the payments team": the line goes,
    whole, as the word may say the kind rather than which one (before, only a line naming its
    team by a capitalised name was read, and the payments team stayed); a workmate's move is
    theirs."""
    lines = lines_after(
        "Dawid", "I'm on the payments team.", "they reorganised and I'm moving to the Android team."
    )
    assert not any("payments" in line for line in lines), lines
    lines = lines_after("Dawid", "I'm on the payments team.", "Ola is moving to the Android team.")
    assert any("payments team" in line for line in lines), lines
