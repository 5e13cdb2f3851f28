"""The shift someone works, moved (``shifts.shift_moved``, through the extractive path): the
line of the old shift goes, or only its clause; a plan or another's shift changes none."""

from __future__ import annotations

from tests.actors.merging import lines_after


def test_a_shift_moved_replaces_the_line_of_the_old_one() -> None:
    """ "the home moved me to days" after "nights mostly" (before, both stayed)."""
    lines = lines_after(
        "Obi",
        "I'm a care worker at Rosewood in Leeds. I do nights mostly.",
        "update: the home moved me to days from next week, 8 to 8.",
    )
    assert not any("nights" in line for line in lines), lines
    assert "Obi is based in Leeds." in lines, lines


def test_only_the_clause_of_the_old_shift_goes() -> None:
    """ "a cashier at Lidl, late shifts mostly", then "I'm on earlies now": the trade stays."""
    lines = lines_after(
        "Aoife", "I'm a cashier at Lidl in Cork, late shifts mostly.", "I'm on earlies now, 6 to 2."
    )
    assert "Aoife works as a cashier." in lines, lines
    assert not any("late shifts" in line for line in lines), lines


def test_a_shift_thought_of_or_of_another_changes_nothing() -> None:
    """ "thinking of moving to days" is a plan; "my sister got moved to nights" is hers."""
    for news in ("I'm thinking of moving to days now.", "My sister got moved to nights."):
        lines = lines_after("Obi", "I do nights at the care home.", news)
        assert any("nights at the care home" in line for line in lines), lines
