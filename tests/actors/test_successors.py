"""Someone who took another's place for the speaker (``successors.succeeded``, through
``truth.merge``): the one line of theirs naming the role with someone else in it goes; a new
thing is no one in a role."""

from __future__ import annotations

from tests.actors.merging import merge_retired as _merge

CARER = "A carer from the agency comes Tuesday and Friday, a nice girl called Anh."


def test_a_new_one_in_a_role_named_after_it_replaces_the_line_of_that_role() -> None:
    """ "the agency sent a new carer, Fatima": the carer line with Anh goes."""
    older = [CARER, "Gianni lives in Brunswick with their wife Carla."]
    said = "The agency sent a new carer, Fatima, because the other girl went to study nursing."
    assert _merge("Gianni", older, said) == [CARER]
    said = "We have a new cleaner called Rui."  # (a role no line names: nothing goes)
    assert _merge("Gianni", older, said) == []


def test_a_new_thing_named_after_its_kind_is_no_one_in_a_role() -> None:
    """ "bought a new bike, a Brompton" names a make, not a person; the carer stays."""
    assert _merge("Gianni", [CARER], "Gianni bought a new bike, a Brompton.") == []
