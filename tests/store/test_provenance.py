"""A fact's sources, read from MEMORY.md (the log's lookup of them: tests/store/engines/)."""

from __future__ import annotations

from reverie.store import fact_sources


def test_fact_sources_are_read_from_the_fact_whose_doc_text_matches() -> None:
    memory = (
        "# Memory\n\n"
        '- [2026-05-01] Ana lived in Lisbon. <!-- from {"s:1":["m1","m2"],"s:2":["x"]} -->\n'
        "- Prefers tea\n"
    )
    assert fact_sources(memory, "[2026-05-01] Ana lived in Lisbon.") == [
        ("s:1", "m1"),
        ("s:1", "m2"),
        ("s:2", "x"),
    ]
    assert fact_sources(memory, "Prefers tea") == []  # a hand-written fact has no sources
    assert fact_sources(memory, "Ana lived in Lisbon.") == []  # edited since: no match
