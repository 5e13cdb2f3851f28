"""Whose a thing is (``subjects.holder``, through the extractive path): a name before "'s"
holds it ("Ana's Hilux"), a pronoun before "'s" is a verb ("It's an old Kangoo")."""

from __future__ import annotations

from tests.actors.merging import memory_after as _memory_after


def test_a_thing_said_by_it_s_is_the_speakers() -> None:
    """ "my van, I charge travel. it's an old Renault Kangoo" is the speaker's car: "It's" is
    no one named (before, "It" was its holder, and a van bought replaced nothing); "Ana's
    Toyota Hilux" is still Ana's."""
    memory = _memory_after(
        ("and my van, I charge travel. it's an old Renault Kangoo, 300k km on it.", "Greg", "s"),
        ("Bought a Ford Transit Custom, second hand but clean.", "Greg", "s"),
    )
    assert "Kangoo" not in memory and "Transit" in memory, memory
    memory = _memory_after(
        ("My sister Ana's Toyota Hilux is red.", "Greg", "s"),
        ("Bought a Ford Transit Custom, second hand but clean.", "Greg", "s"),
    )
    assert "Hilux" in memory, memory
