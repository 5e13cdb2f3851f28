"""A clause of when said before the clause it belongs to, and "X and I" inside one: one
statement, never a fragment of its own; someone by name after ", and" is a claim apart
(``clauses``)."""

from __future__ import annotations

from tests.actors.merging import lines_after as _lines


def test_a_clause_of_when_said_first_stays_with_its_statement() -> None:
    """ "After Ana and I split, I moved to Leeds" is one line, not "After Dylan and Ana
    split." and a line of its own; "For now, with the road construction outside, we lock up
    by 6pm" too."""
    lines = _lines("Dylan", "After Ana and I split, I moved to Leeds.")
    assert lines == ["After Dylan and Ana split, Dylan moved to Leeds."], lines
    lines = _lines(
        "Chidi",
        "For now, with the road construction outside, we lock up by 6pm so customers can get "
        "home safely.",
    )
    assert len(lines) == 1 and "lock up by 6pm" in lines[0], lines


def test_someone_and_i_after_when_are_one_subject() -> None:
    """ "covers the evenings when Megan and I both work" keeps Megan, and no "Dylan boths
    work"."""
    lines = _lines(
        "Dylan",
        "Our sitter Kaitlyn, a teenager from down the street, covers the evenings when Megan "
        "and I both work.",
    )
    assert len(lines) == 1, lines
    assert lines[0].endswith("when Dylan and Megan both work."), lines


def test_someone_by_name_and_what_they_are_after_and_is_a_line_of_its_own() -> None:
    """ "Isla has netball training Wednesdays at 4pm, and Lachlan is getting braces soon" is
    two claims: the training's new time rewrites its own line only."""
    lines = _lines(
        "Fiona",
        "Isla has netball training Wednesdays at 4pm, and Lachlan is getting braces soon.",
        "And Isla's coach pushed training back, it's 5:30 now.",
    )
    assert "Isla has netball training Wednesdays at 5:30." in lines, lines
