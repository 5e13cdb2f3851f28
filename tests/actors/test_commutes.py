"""Where the day's trip to work or school starts is where the speaker lives (``attributes``,
residence, through the extractive path): a move replaces it; a trip's drive does not say it."""

from __future__ import annotations

from tests.actors.merging import memory_after as _memory_after


def test_a_trip_to_work_from_a_place_is_the_home_a_move_replaces() -> None:
    """ "I normally bike from Sydenham to work" says home is Sydenham, as "the commute from
    Uttara" does (before, "bike" was no trip and the order "from … to work" no home): a move
    into the Cashmere house replaces it; "I drive from Cairns to Brisbane" says no home."""
    memory = _memory_after(
        ("I normally bike from Sydenham to work.", "Alison", "s"),
        ("we moved into the Cashmere house at the weekend!", "Alison", "s"),
    )
    assert "Sydenham" not in memory and "Cashmere" in memory, memory
    memory = _memory_after(
        ("I live in Townsville. I drive from Cairns to Brisbane for work sometimes.", "Troy", "s"),
        ("we moved into the Cashmere house at the weekend!", "Troy", "s"),
    )
    assert "Cairns" in memory, memory
