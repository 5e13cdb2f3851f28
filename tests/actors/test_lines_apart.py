"""What a line holds, kept as the claims a later turn changes: a name's particles ("the Museo
delle Cere") are in the name, so the trade before it is a claim of its own; a past opened by a
word ("funny, ten years ago I was working …") replaces nothing; one more lived with after
"and" is lived with, a pet among them named as one, whose loss ends its line; "he's 10" is a
clause of its own."""

from __future__ import annotations

from tests.actors.merging import lines_after as _lines


def test_a_names_particles_are_in_the_name() -> None:
    """ "art restorer at the Museo delle Cere": the trade apart from the employer, so joining
    another keeps the trade (it left with the museum before)."""
    lines = _lines(
        "Lorenzo",
        "buongiorno! Lorenzo here, 41, art restorer at the Museo delle Cere in Bologna.",
        "news: I'm joining the Fondazione Zeri next month, they offered me a two-year contract",
    )
    assert "Lorenzo works as an art restorer." in lines, lines


def test_a_past_after_an_opening_word_replaces_nothing() -> None:
    """ "funny, ten years ago I was working the line at a bottling plant": a state over long
    ago, though "funny" opens it, is no new employer."""
    lines = _lines(
        "Irena",
        "I'm Irena, welder at Hutmen in Wrocław.",
        "got a raise today. funny, ten years ago I was working the line at a bottling plant in "
        "Opole thinking I'd never get anywhere",
    )
    assert "Irena works at Hutmen." in lines, lines


def test_one_more_named_after_and_is_one_they_live_with() -> None:
    """ "… with my wife Ewa and our son Staś": the son is one they live with, not a clause of
    his own that says nothing ("Our son Staś." was dropped)."""
    lines = _lines("Marek", "I live in Nowa Huta with my wife Ewa and our son Staś.")
    assert lines == [
        "Marek lives in Nowa Huta.",
        "Marek lives with their wife Ewa.",
        "Marek lives with their son Staś.",
    ], lines


def test_a_pet_lived_with_is_named_as_one_so_its_loss_ends_it() -> None:
    """ "… with my husband Clive and our old greyhound Bramble", then "We lost our old boy on
    Sunday": the greyhound's line goes, the husband's stays."""
    lines = _lines(
        "Hilde",
        "I live in Ripon with my husband Clive and our old greyhound Bramble.",
        "We lost our old boy on Sunday.",
    )
    assert "Hilde lives with their husband Clive." in lines, lines
    assert not any("Bramble" in line for line in lines), lines


def test_one_with_a_clause_of_their_own_is_not_joined() -> None:
    """ "… with my daughter Rosa and my grandson Teo, he's 10": the grandson's age is a clause
    of his own, so the list ends before it."""
    lines = _lines("Luz", "I live with my daughter Rosa and my grandson Teo, he's 10.")
    assert "Luz lives with their daughter Rosa." in lines, lines


def test_a_trade_one_was_hired_as_is_a_trade_and_an_employer() -> None:
    """ "got hired as groundskeeper at Holston Hills golf course in Knoxville": the trade
    replaces the old one, apart from the employer and the town."""
    lines = _lines(
        "Rue",
        "hey. rue. pest control tech in Asheville, roaches rats termites the works.",
        "quit, done w/ chemicals. got hired as groundskeeper at Holston Hills golf course in "
        "Knoxville.",
    )
    assert "Rue works as a groundskeeper." in lines, lines
    assert "Rue works at Holston Hills golf course." in lines, lines
    assert not any("pest control" in line for line in lines), lines
