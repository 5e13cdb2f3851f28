"""Words said to the speaker, quoted ("the head of stage said, word for word, 'you're a
rigger now Tariq'"), are the speaker's news in the first person; a quote that says nothing of
"you" is left as it was (``actors/consolidation/quoted.py``)."""

from __future__ import annotations

from reverie.actors.consolidation.quoted import said_to_me
from tests.actors.merging import lines_after as _lines


def test_a_new_trade_said_to_the_speaker_replaces_theirs() -> None:
    """The boss's words "from the first of the month you're shift foreman, Olek" change the
    trade (before, the quote was no fact at all and "CNC machinist" stayed)."""
    lines = _lines(
        "Olek",
        "Cześć. I'm Olek, CNC machinist at Metalex in Poznań.",
        "so the plant manager called me in today and said 'from the first of the month you're "
        "shift foreman, Olek, don't make me regret it'. gross pay goes to 11300.",
    )
    assert "From the first of the month Olek works as a shift foreman." in lines, lines
    assert not any("machinist" in line for line in lines), lines


def test_what_a_quote_says_of_you_is_said_in_the_first_person() -> None:
    said = said_to_me(
        "the head of stage said, word for word, 'the flying crew wants you, you start on the "
        "fly floor next month, you're a rigger now Tariq, congrats'. day rate goes up too.",
        "Tariq",
    )
    assert (
        said == "I start on the fly floor next month, I work as a rigger now. day rate goes up too."
    )
    # (no "you" said of anyone: as it was)
    quiet = "My mum said 'the garden looks lovely' and left."
    assert said_to_me(quiet, "Ann") == quiet
