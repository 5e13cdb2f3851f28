"""The one line of a thing of a kind (``of_kind.same_kind``): a line that says what its make
is ("their old Dell laptop") is no line of another kind that ended, however it is the one
thing of theirs owned by name. See docs/design.md, "Facts that stay true"."""

from __future__ import annotations

from reverie.actors.consolidation.modifiers import is_modifier
from tests.actors.merging import merge_retired as _merge


def test_a_line_saying_its_makes_kind_is_no_other_kind_that_ended() -> None:
    """ "Dropped my old defence" (a chess opening) ends no laptop; "my old laptop finally
    died" does. A verb after the make ("Anh's Sirius wouldn't start") says no kind."""
    older = ["Kofi prepares everything on their old Dell laptop.", "Kofi lives in Kumasi."]
    assert _merge("Kofi", older, "Kofi has dropped their old defence.") == []
    assert _merge("Kofi", older, "Kofi's old laptop finally died.") == [older[0]]
    assert not is_modifier("Anh's Sirius wouldn't start", len("Anh's Sirius"))
