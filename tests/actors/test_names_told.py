"""A name told in the sentence after the one it names, in lower case too: "we adopted a
kitten!! her name is Bori" is the kitten's name, and what is said of her after a comma
("she's a ceramicist, she made the vases for the new shop") is hers, not the speaker's
(``extractive._sentences``; docs/design.md, "Facts that stay true")."""

from __future__ import annotations

from tests.actors.merging import lines_after as _lines
from tests.actors.merging import memory_after as _memory_after


def test_a_name_told_after_a_pet_or_someone_met_is_theirs() -> None:
    lines = _lines("Eun-ji", "ok last thing, we adopted a kitten!! her name is Bori, she's tiny.")
    assert any("kitten" in line and "Bori" in line for line in lines), lines
    said = "hey so I met someone 🙈 his name is Rafa, he's a barber two doors down."
    assert any("met someone" in line and "Rafa" in line for line in _lines("Yesenia", said))


def test_what_is_said_after_the_name_is_the_named_ones_not_the_speakers() -> None:
    shop = ("I have a small flower shop called Camelia in Fisherton.", "Valentina", "s")
    said = "I'm seeing someone 🙈 her name is Romina, she made the vases for the new shop."
    memory = _memory_after(shop, (said, "Valentina", "s"))
    assert "Camelia in Fisherton" in memory and "Romina" in memory, memory
