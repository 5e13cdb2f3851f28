"""A turn someone else types for the speaker ("this is Chiarina, Aurelio's wife"): what
they pass on is the speaker's, their own news is theirs, until the speaker is back or the
day ends (``relay``)."""

from __future__ import annotations

from reverie.actors.consolidation.relay import relayed
from reverie.store import MessageRecord
from tests.actors.merging import lines_of_days

_INTRO = [
    "hi, I'm Aurelio, a baker at Forno Nero in Bari. My phone is a Nokia G21.",
    "A: Hi Aurelio!",
    "I live in Poggiofranco and the rent is 690.",
    "A: Noted.",
]


def test_what_a_partner_passes_on_is_the_speakers_and_their_own_news_is_theirs() -> None:
    """The phone "he got" is Aurelio's, and replaces his old one; the pharmacy job "me, I
    just started at" is his wife's and leaves his bakery (before, the new phone was nobody's
    and the pharmacy became his job)."""
    lines = lines_of_days(
        "Aurelio",
        _INTRO,
        [
            "hello, this is Chiarina, Aurelio's wife. he is kneading. he asked me to tell you he "
            "got a new phone, a Fairphone 5. and me, I just started at the pharmacy on Via "
            "Sparano",
            "A: Thanks, Chiarina!",
        ],
    )
    assert "Aurelio's wife is Chiarina." in lines, lines
    assert any(line.startswith("Aurelio got a new phone, a Fairphone 5") for line in lines), lines
    assert not any("Nokia" in line for line in lines), lines
    assert any("wife Chiarina just started at the pharmacy" in line for line in lines), lines
    assert any("Forno Nero" in line for line in lines), lines


def test_the_relay_ends_when_the_speaker_is_back_or_the_day_ends() -> None:
    """After "Aurelio again." and on the next day, "I" is Aurelio once more: his move
    replaces his home (before the fix too; the relay must not take these turns)."""
    lines = lines_of_days(
        "Aurelio",
        _INTRO,
        [
            "this is Chiarina, Aurelio's wife, he's at the oven. she says nothing, ha",
            "A: Hi Chiarina!",
            "Aurelio again. my rent is 720 now",
        ],
        ["we moved to Molfetta, I love the sea"],
    )
    assert any(line.startswith("Aurelio's rent is 720") for line in lines), lines
    assert any(line.startswith("Aurelio and others moved to Molfetta") for line in lines), lines
    assert not any("Poggiofranco" in line or "690" in line for line in lines), lines


def test_a_child_typing_for_a_parent_and_a_pronoun_of_someone_else() -> None:
    """ "Tomasino, mama's son" types for his mother: "she says write: the rent is 780 now" is
    hers; "papa got a promotion, he is head chef now" is not her trade, and "I'm in the
    football team now" is the son's."""
    lines = lines_of_days(
        "Rosaria",
        ["I'm Rosaria, a florist at Fiori Belli in Lecce. The rent is 650.", "A: Hi!"],
        [
            "hi its Tomasino, mama's son. she is at the market. she says write: the rent is "
            "780 now",
            "A: Thanks, Tomasino!",
            "also papa got a promotion, he is head chef now. and I'm in the football team now",
        ],
    )
    assert any("780" in line for line in lines), lines
    assert not any("650" in line for line in lines), lines
    assert "Rosaria works as a florist." in lines, lines
    assert not any(line.startswith("Rosaria is head chef") for line in lines), lines
    assert any("son Tomasino is in the football team" in line for line in lines), lines


def _turn(text: str, name: str = "Carla") -> MessageRecord:
    return MessageRecord(seq=1, id="m1", role="user", content=text, ts=0.0, tokens=1, name=name)


def test_someone_named_by_their_relation_to_another_types_nothing() -> None:
    """ "I met Ana, Bruno's sister" names someone of Bruno's, not one typing for Carla; and
    the speaker's own name is no typist."""
    said = [_turn("I met Ana, Bruno's sister, at the market."), _turn("hi, Carla, Ana's friend")]
    assert relayed(said) == said
