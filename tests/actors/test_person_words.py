"""Which nouns name a person (``persons.a_person``, by the shipped embedder against a few
prototypes of a person and of a thing): a speaker's own thing of that name is no one else's
news. See docs/design.md, "Facts that stay true"."""

from __future__ import annotations

from reverie.actors.consolidation.meaning import meaning
from reverie.actors.consolidation.persons import a_person, another_person


def test_what_one_wears_or_plays_with_is_no_person_of_theirs() -> None:
    """ "My wetsuit", "my trainers", "my scooter" are things (the embedder put them nearer a
    person than a thing), so "Pilar's new wetsuit is Zone3" is no news of someone else's; a
    coach, a driver and a landlord are people."""
    with meaning() as embed:
        assert not any(a_person(w, embed) for w in ["wetsuit", "trainers", "scooter", "kayak"])
        assert all(a_person(w, embed) for w in ["coach", "driver", "landlord", "nanny"])
        assert another_person("Pilar's new wetsuit is a Zone3.", "Pilar", embed) == ""
