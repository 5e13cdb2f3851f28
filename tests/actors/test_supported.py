"""A team supported, said for good ("Arsenal for life", "Hawks til I die"): a fact however
short, as chat spells it (``salience``, through the extractive path). See docs/design.md,
"Consolidation, step by step"."""

from __future__ import annotations

from tests.actors.merging import lines_after


def test_a_team_supported_till_they_die_as_chat_spells_it_is_a_fact() -> None:
    """ "nah. Hawks til i die": before, only "till" was read, and the team was dropped."""
    assert lines_after("Jamal", "nah. Hawks til i die") == ["Hawks til Jamal dies."]
    assert lines_after("Jamal", "Hawks until I die.") == ["Hawks until Jamal dies."]
