"""A claim that names nothing and only says a line's own words again ("so I can finally just
coach" of "a CrossFit coach at CrossFit Ironclad") is that line said again, not a change to
it (``change.displaced``, through ``truth.merge``). See docs/design.md, "Facts that stay true"."""

from __future__ import annotations

from tests.actors.merging import merge_retired


def test_a_claim_that_only_says_a_lines_words_again_replaces_it_by_no_nearness() -> None:
    """Before, "so I can finally just coach", said with a change word, was the line nearest in
    meaning to a change and replaced it; "coaches online from home now" says more, and still
    does."""
    older = ["Kayla is a CrossFit coach at CrossFit Ironclad.", "Kayla is based in Denver."]
    assert merge_retired("Kayla", older, "So Kayla can finally just coach.") == []
    assert merge_retired("Kayla", older, "Kayla coaches online from home now.") == older[:1]
