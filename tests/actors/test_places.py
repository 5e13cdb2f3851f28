"""A business's premises and where they are (``places.py``): premises moved take the line
saying where they are, in place. See docs/design.md, "Facts that stay true"."""

from __future__ import annotations

from tests.actors.merging import facts_of as _facts
from tests.actors.merging import memory_after as _memory_after


def test_premises_moved_take_the_line_saying_where_they_are() -> None:
    """ "We move the workshop to Pylaia" (said in the present): of two lines with a workshop,
    the one saying where it is moves, in place; "likes their own workshop" stays."""
    memory = _memory_after(
        ("I have small workshop, Oak Joinery, in Toumba. I make furniture.", "Nikos", "s"),
        ("I like my own workshop, no boss.", "Nikos", "s"),
        ("We move the workshop to Pylaia, bigger space.", "Nikos", "s"),
    )
    facts = _facts(memory)
    assert "Nikos has small workshop, Oak Joinery, in Pylaia." in facts
    assert "Toumba" not in memory and any("likes their own workshop" in f for f in facts)
