"""A move within a place the line already names (``revision.rewrite``, through
``truth.merge``): the value the line holds is not swapped in twice."""

from __future__ import annotations

from tests.actors.merging import merged as _merged


def test_a_move_within_the_place_a_line_names_does_not_say_it_twice() -> None:
    """ "moved flats, still in Agdal but now on Rue de Fès": the old street goes, and no line
    says "lives in Agdal in Agdal" (before, the place was swapped in for the street)."""
    older = ["Leila lives on Avenue Fal Ould Oumeir in Agdal.", "Leila is a freelance translator."]
    said = "Leila moved flats, still in Agdal but now on Rue de Fès."
    after = _merged("Leila", older, said)
    assert "Agdal in Agdal" not in after.memory, after.memory
    assert "Fal Ould Oumeir" not in after.memory and "Rue de Fès" in after.memory, after.memory
