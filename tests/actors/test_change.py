"""The golden table of a change said in other words (``change.displaced``, through ``truth.merge``).

Each row: who speaks, the scope's older lines, the new fact (third person, as
the extractive path writes it), and the older line it retires (None: nothing).
The rows are phenomena, not sentences of the development set: a swap, a
schedule moved, a hobby dropped for another, and what must never retire
anything (a plan, a question, a relative's change, another speaker's words,
a line that already names the new value). The real embedder decides.
"""

from __future__ import annotations

import pytest

from reverie.actors.consolidation.truth import merge
from reverie.store import Fact, MessageRecord, render_memory

ROWS = [
    (
        "Ruth",
        ["Ruth plays all the keys on her old Roland synth.", "Ruth works as a pharmacist."],
        "Ruth swapped the old synth for a Korg Minilogue.",
        "Ruth plays all the keys on her old Roland synth.",
    ),
    (
        "Ruth",
        ["Ruth is learning Portuguese in the evenings.", "Ruth lives in Leiden."],
        "Ruth has dropped the language and signed up for Italian classes instead.",
        "Ruth is learning Portuguese in the evenings.",
    ),
    (
        "Omar",
        ["Omar's climbing session is on Monday nights.", "Omar is a baker in Tunis."],
        "From now on the climbing session is on Wednesdays.",
        "Omar's climbing session is on Monday nights.",
    ),
    (
        "Ruth",
        ["Ruth plays all the keys on her old Roland synth.", "Ruth works as a pharmacist."],
        "Ruth might switch to a digital piano one day.",
        None,
    ),
    (
        "Ruth",
        ["Ruth plays all the keys on her old Roland synth.", "Ruth works as a pharmacist."],
        "Ruth's brother swapped his old synth for a new one.",
        None,
    ),
    (
        "Bob",
        ["Alice plays all the keys on her old Roland synth.", "Alice works in Leiden."],
        "Bob swapped the old synth for a Korg Minilogue.",
        None,
    ),
    (
        "Omar",
        ["Omar and others have moved to the early shift.", "Omar is a baker in Tunis."],
        "Omar's colleague Sami's shift just got moved to nights.",
        None,
    ),
    (
        "Diego",
        ["Diego and others are calling the garage Taller Sur.", "Diego is a mechanic."],
        "Diego is full time at Taller Sur now.",
        None,
    ),
]


def _merge(speaker: str, older: list[str], new: str) -> list[str]:
    facts = [Fact(text=t, date="2026-01-01", sources={"s": [f"m{i}"]}) for i, t in enumerate(older)]
    turn = MessageRecord(seq=9, id="m9", role="user", content=new, ts=1.8e9, tokens=9, name=speaker)
    fact = Fact(text=new, date="2026-01-02", sources={"s": ["m9"]})
    merged = merge(render_memory(facts), [fact], 2000, lambda t: len(t.split()), turns=[turn])
    return [f.text for f in merged.retired]


@pytest.mark.parametrize(("speaker", "older", "new", "retired"), ROWS)
def test_a_change_retires_the_speakers_nearest_line_or_nothing(
    speaker: str, older: list[str], new: str, retired: str | None
) -> None:
    assert _merge(speaker, older, new) == ([retired] if retired else [])
