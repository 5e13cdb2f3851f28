"""A new role of the speaker and the trade line it replaces (``roles.promoted``), with no
table of trades. Through the whole extractive path; see docs/design.md, "Memory that stays
true"."""

from __future__ import annotations

from tests.actors.merging import memory_after as _memory_after


def test_a_promotion_replaces_a_post_said_with_its_article_at_a_workplace() -> None:
    """ "I'm the night porter at a guesthouse in Galle", then "they promoted me! I'm front
    office supervisor from this month": the post said with "the" is the trade replaced;
    "a regular at the Crown" is nobody's post and stays."""
    memory = _memory_after(
        ("Ayubowan! Nimal here, I'm the night porter at a guesthouse in Galle.", "Nimal", "s"),
        (
            "Guess what, they promoted me! I'm front office supervisor from this month.",
            "Nimal",
            "s",
        ),
    )
    assert "night porter" not in memory and "front office supervisor" in memory
    memory = _memory_after(
        ("I'm Nimal, a regular at the Crown on quiz nights.", "Nimal", "s"),
        (
            "Guess what, they promoted me! I'm front office supervisor from this month.",
            "Nimal",
            "s",
        ),
    )
    assert "regular at the Crown" in memory and "front office supervisor" in memory


def test_a_role_given_by_got_promoted_became_or_been_made_replaces_the_post() -> None:
    """ "I've been made deputy manager!" and "I became deputy manager" say the new role as
    "is" does; the post held at a workplace said with what it is ("at Corrib House, a care
    home in Galway") is the one replaced."""
    older = "Hi, I'm Aoife. I'm the activities coordinator at Corrib House, a care home in Galway."
    for said in [
        "Guess what, I've been made deputy manager!",
        "I became deputy manager this week!",
    ]:
        memory = _memory_after((older, "Aoife", "s"), (said, "Aoife", "s"))
        assert "activities coordinator" not in memory and "deputy manager" in memory, said
    # (a plan said with "for" is no post: "I'm going to push for a music budget")
    memory = _memory_after(
        (older, "Aoife", "s"),
        ("I'm going to push for a proper music budget.", "Aoife", "s"),
        ("Guess what, I've been made deputy manager!", "Aoife", "s"),
    )
    assert "activities coordinator" not in memory and "music budget" in memory


def test_a_promotion_said_with_an_emoji_replaces_the_trade_said_on_a_ship() -> None:
    """ "promotion!! I'm bosun now 💪" replaces "a deckhand on the Agios Nektarios"."""
    memory = _memory_after(
        (
            "Stavros here. I'm a deckhand on the Agios Nektarios with Saronic Lines, Piraeus to Aegina.",
            "Stavros",
            "s",
        ),
        ("promotion!! I'm bosun now 💪", "Stavros", "s"),
    )
    assert "deckhand" not in memory and "bosun" in memory, memory
