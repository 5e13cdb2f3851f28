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
            "Meera works at Nourish Clinic.",
        ),
        ("I GOT IT!! they offered me the roaster job at Moana.", "Meera works as a roaster."),
        (
            "big news. Tsubame Design in Kobe made an offer and I accepted.",
            "Meera works at Tsubame Design.",
        ),
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
    assert not any("works at Nourish" in line for line in facts_of(memory)), memory


def test_an_offer_a_line_holds_taken_in_a_later_turn_is_the_new_job() -> None:
    """ "I took it." days after "Mirae Women's Clinic in Daejeon offered me a senior
    sonographer role" is that job, in place of the old; "I said yes to Cuyana." takes the
    offer of the line naming Cuyana ("Bodega Cuyana … wants me to run their vineyards")."""
    memory = memory_after(
        ("I'm Jiyeon, a sonographer at Hanbit Hospital in Seoul.", "Jiyeon", "s"),
        (
            "Mirae Women's Clinic in Daejeon offered me a senior sonographer role, and rents there are way cheaper. should I take it??",
            "Jiyeon",
            "s",
        ),
        ("I took it. living out of boxes in a Daejeon officetel!!", "Jiyeon", "s"),
    )
    assert "Jiyeon works at Mirae Women's Clinic." in facts_of(memory), memory
    assert "Hanbit" not in memory and "offered" not in memory, memory
    memory = memory_after(
        ("I'm Catalina, a vintner at Bodega Altamira.", "Catalina", "s"),
        ("news: Bodega Cuyana wants me to run their vineyards, 45 hectares.", "Catalina", "s"),
        ("decided. I said yes to Cuyana. last day at the old place is Friday", "Catalina", "s"),
    )
    assert "Catalina works at Bodega Cuyana." in facts_of(memory), memory
    assert "Altamira" not in memory and "45 hectares" in memory, memory
    # (the first week there is a yes too)
    memory = memory_after(
        ("I'm Cosimo, a paralegal at Hartwell LLP in London.", "Cosimo", "s"),
        ("I PASSED!! and Brannigan & Co offered me an associate role, 58000", "Cosimo", "s"),
        ("first week at Brannigan done. the commute is fine", "Cosimo", "s"),
    )
    assert "Cosimo works at Brannigan & Co." in facts_of(memory), memory
    assert "Hartwell" not in memory and "paralegal" not in memory, memory


def test_a_yes_with_no_offer_of_theirs_takes_nothing() -> None:
    """ "I said yes to Tomas." with no offer in any line is no job; "I took it." of nothing
    offered leaves the job."""
    memory = memory_after(
        ("I'm Catalina, a vintner at Bodega Altamira.", "Catalina", "s"),
        ("Tomas proposed on the beach! I said yes to Tomas.", "Catalina", "s"),
        ("the flat was cheap so I took it.", "Catalina", "s"),
    )
    assert "Catalina works at Bodega Altamira." in facts_of(memory), memory
    assert not any("works at Tomas" in line for line in facts_of(memory)), memory


def test_what_is_offered_that_no_one_holds_is_no_job() -> None:
    """ "Anna offered me her old sofa. I said yes!" or "They offered me more money to stay. I
    said yes." is no post: only a noun of who holds one ("senior geologist") or a job's noun
    ("the roaster job") is."""
    for said in [
        "Anna offered me her old sofa. I said yes!",
        "They offered me more money to stay. I said yes.",
        "Zeiss offered me a permanent contract! I said yes.",
    ]:
        lines = facts_of(memory_after((said, "Meera", "s")))
        assert not any("Meera is now" in line or "works" in line for line in lines), (said, lines)


def test_first_days_at_a_workplace_no_line_holds_as_theirs_are_where_they_work() -> None:
    """ "first week at Kuzgun done!!" after "got offer from Kuzgun Labs" (an offer no rule
    reads as one), "First full week at Cholla done." and "first week running the echo lab at
    Lircay done!" say where they work now, in place of the old employer (before, the first
    was kept as said and the old employer stayed; the others were dropped as too short)."""
    for first_days, new in (
        ("first week at Kuzgun done!! people nice, coffee bad", "Kuzgun"),
        ("First full week at Cholla done.", "Cholla"),
        ("first week running the echo lab at Lircay done! exhausting but good", "Lircay"),
    ):
        lines = facts_of(
            memory_after(
                ("I'm Cem, a developer at Pusula Yazılım in Istanbul.", "Cem", "s"),
                ("got offer from Kuzgun Labs, salary 4.2k eur, full remote. thinking", "Cem", "s"),
                (first_days, "Cem", "s"),
            )
        )
        assert f"Cem works at {new}." in lines, lines
        assert not any("Pusula" in line for line in lines), lines
