"""A job offered and said yes to in the same turn is the new job (``offers.py``, through
the extractive path); an offer with no yes stays an offer."""

from __future__ import annotations

from tests.actors.merging import facts_of, memory_after


def test_an_offer_said_yes_to_is_the_new_job_in_place_of_the_old() -> None:
    """ "Namib Lithium offered me senior geologist. … I said yes." changes the trade and the
    employer; a role offered by a name is where they work; "I GOT IT!!" is a yes too."""
    memory = memory_after(
        ("I'm Nkechi, a geologist with Ironveld Exploration in Johannesburg.", "Nkechi", "s"),
        (
            "so... Namib Lithium offered me senior geologist. it's in Windhoek. I said yes.",
            "Nkechi",
            "s",
        ),
    )
    assert "Ironveld" not in memory, memory
    assert "Nkechi works as a senior geologist." in facts_of(memory), memory
    assert "Nkechi works at Namib Lithium." in facts_of(memory), memory
    for said, job in [
        (
            "funny you say that — Nourish Clinic offered me a role this morning. I said yes!",
            "Meera now works at Nourish Clinic.",
        ),
        ("I GOT IT!! they offered me the roaster job at Moana.", "Meera works as a roaster."),
        # (where the employer is, and "taking it." for a yes)
        (
            "huge: Gumleaf Theatre in Melbourne offered me a full-time puppeteer spot. taking it.",
            "Meera is based in Melbourne.",
        ),
        # (the pay offered is what they are on, no workplace)
        (
            "plot twist: Awaji Links just offered me head greenkeeper at 365000. I said yes!",
            "Meera is on 365000.",
        ),
        (
            "huge: I got offered sous chef at Caleta, a seafood place in Valparaiso! I said yes!!",
            "Meera works as a sous chef.",
        ),
    ]:
        assert job in facts_of(memory_after((said, "Meera", "s"))), said


def test_an_offer_with_no_yes_in_its_turn_is_no_job() -> None:
    """ "Nourish Clinic offered me a role this morning. Not sure yet." leaves the old job."""
    memory = memory_after(
        ("I'm Meera, a dietitian at Soar Valley Hospital in Leicester.", "Meera", "s"),
        ("Nourish Clinic offered me a role this morning. Not sure yet.", "Meera", "s"),
    )
    assert "Meera works at Soar Valley Hospital." in facts_of(memory), memory
    assert not any("now works" in line for line in facts_of(memory)), memory
