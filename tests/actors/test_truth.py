"""The one merge both paths pass (``truth.merge``): keys, prefix, retired, chatter."""

from __future__ import annotations

from reverie.actors.consolidation.extractive import merge_new_facts
from reverie.actors.consolidation.truth import merge
from reverie.store import Fact, render_memory


def _words(text: str) -> int:
    return len(text.split())


OLD = [
    Fact(text="Carl has a dog called Rex.", date="2026-01-01", sources={"s": ["m1"]}),
    Fact(text="Carl lives in Porto.", date="2026-01-01", sources={"s": ["m2"]}),
    Fact(text="Carl plays chess.", date="2026-01-01", sources={"s": ["m3"]}),
]


def test_a_superseded_line_goes_and_the_lines_before_it_stay_byte_for_byte() -> None:
    memory = render_memory(OLD)
    new = Fact(text="Carl moved to Lisbon.", date="2026-01-02", sources={"s": ["m4"]})

    merged = merge(memory, [new], 10_000, _words)

    before = memory.split("- [2026-01-01] Carl lives in Porto.")[0]
    assert merged.memory.startswith(before)
    assert "Porto" not in merged.memory and merged.memory.endswith(new.line() + "\n")
    assert merged.retired == [OLD[1]] and merged.added == [new]


def test_facts_cut_by_the_token_cap_are_not_retired() -> None:
    new = Fact(text="Carl speaks Portuguese and English.", date="2026-01-02")

    merged = merge(render_memory(OLD), [new], 20, _words)

    assert "Rex" not in merged.memory and merged.retired == []


def test_a_model_s_pleasantry_is_dropped_by_the_merge() -> None:
    said = [Fact(text=t) for t in ("Nice to meet you, Carl!", "Carl is Carl.", "Sounds good.")]

    assert merge_new_facts("", said, 10_000, _words) == ""


def test_an_opener_is_cut_and_read_as_a_correction() -> None:
    party = Fact(text="Carl's party is on Friday at 8 pm.", date="2026-01-01")
    fix = Fact(text="Small correction: it's at 7 pm.", date="2026-01-02")

    merged = merge(render_memory([party]), [fix], 10_000, _words)

    assert "Carl's party is on Friday at 7 pm." in merged.memory
    assert "correction" not in merged.memory.lower() and merged.retired == [party]
