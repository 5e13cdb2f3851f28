"""Which nouns name a person (``persons.a_person``, by the shipped embedder against a few
prototypes of a person and of a thing): a speaker's own thing of that name is no one else's
news. See docs/design.md, "Facts that stay true"."""

from __future__ import annotations

from reverie.actors.consolidation.attributes import keys
from reverie.actors.consolidation.meaning import meaning
from reverie.actors.consolidation.persons import a_person, another_person
from tests.actors.merging import merge_retired as _merge


def test_what_one_wears_or_plays_with_is_no_person_of_theirs() -> None:
    """ "My wetsuit", "my trainers", "my scooter" are things (the embedder put them nearer a
    person than a thing), so "Pilar's new wetsuit is Zone3" is no news of someone else's; a
    coach, a driver and a landlord are people."""
    with meaning() as embed:
        assert not any(a_person(w, embed) for w in ["wetsuit", "trainers", "scooter", "kayak"])
        assert all(a_person(w, embed) for w in ["coach", "driver", "landlord", "nanny"])
        assert another_person("Pilar's new wetsuit is a Zone3.", "Pilar", embed) == ""


def test_a_speaker_named_as_a_make_is_no_car() -> None:
    """ "Mercedes is 42" is a person (a name opening it, or whose: "Mercedes's class"), no
    car: news of someone in her class retires neither her age nor her partner."""
    older = ["Mercedes is 42.", "Mercedes and their partner Esteban take classes at Fulgor."]
    said = "Paula from Mercedes's class got to the semifinal in Buenos Aires last year."
    assert _merge("Mercedes", older, said) == []
    assert [k.value for k in keys("Ana has a Mercedes now.") if k.attribute == "car"] == [
        "Mercedes"
    ]
