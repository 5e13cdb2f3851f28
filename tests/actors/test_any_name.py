"""Whoever the speaker is, a sentence says the same: a name is no word of the rules (names
ending in "to" were read as "to work", "Will" and "Hope" as a plan)."""

from __future__ import annotations

import pytest

from reverie.actors.consolidation.attributes import keys
from reverie.actors.consolidation.signals import ending, hedged, signalled
from tests.actors.merging import memory_after

#: Names from many places, with the shapes that once changed what a sentence said: an
#: ending like a word ("Alberto", "Ivanoff"), a word itself ("Will", "Hope", "May").
NAMES = [
    "Kaito",
    "Alberto",
    "Otto",
    "Ernesto",
    "Ivanoff",
    "Will",
    "Hope",
    "May",
    "Grace",
    "Jordan",
    "Sydney",
    "Aroha",
    "Siobhan",
    "Ngozi",
    "Oluwaseun",
    "Thandiwe",
    "Wanjiru",
    "Baurzhan",
    "Dragan",
    "Andrés",
    "Tevita",
    "Gurpreet",
    "Kwame",
    "Efua",
    "Emre",
    "Rui",
    "Minji",
    "Haruka",
    "Marisol",
    "Tomasz",
    "Joaquín",
    "Zuzana",
    "Mohammed",
    "Zainab",
    "Sipho",
    "Linh",
    "Wei",
    "Lakshmi",
    "Sione",
    "Wiremu",
    "Sebastián",
    "Goran",
    "Elif",
    "Can",
    "Reza",
]

TEMPLATES = (
    "{n} works at Pixelworks.",
    "{n} lives in Leeds.",
    "{n} moved to Lisbon.",
    "{n} drives a Toyota Corolla.",
    "{n} is a graphic designer at Studio Nine.",
    "{n} quit Pixelworks.",
    "{n} is 34 years old.",
    "{n} started at Kestrel on Monday.",
)


@pytest.mark.parametrize("template", TEMPLATES)
def test_a_sentence_says_the_same_of_anyone(template: str) -> None:
    said = template.format(n="Maya")
    shape = sorted((k.attribute, k.value) for k in keys(said))
    signals = (hedged(said), signalled(said), ending(said))
    for name in NAMES:
        theirs = template.format(n=name)
        assert sorted((k.attribute, k.value) for k in keys(theirs)) == shape, theirs
        assert (hedged(theirs), signalled(theirs), ending(theirs)) == signals, theirs


def test_a_new_employer_replaces_the_old_one_whatever_the_speakers_name() -> None:
    """ "Alberto works at Pixelworks" was no employer at all: its "to work" is no verb."""
    for name in ("Alberto", "Kaito", "Will"):
        memory = memory_after(
            ("I work at Pixelworks.", name, "s"),
            ("I accepted an offer from Studio Nine in Osaka.", name, "s"),
        )
        assert "Pixelworks" not in memory and "Studio Nine" in memory, memory
