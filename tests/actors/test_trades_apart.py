"""A trade is a claim of its own, however much is said after it: "a croupier at the Ormond
Casino in Dublin, mostly late shifts, 8pm till 4am", "a manicurist, been working at Glossy
Nails …", "thatcher from Ennis", "deckhand on the Adria Lines ferries"; a new employer
leaves it, a new trade replaces it ("It's Mirko the bosun now!", "Adaeze, economist 😄"),
and another's trade in the line ("she is teacher of history") or a promotion a thing came
with is no change of it."""

from __future__ import annotations

from reverie.actors.consolidation.attributes import keys
from tests.actors.merging import lines_after as _lines


def test_a_trade_with_more_after_it_stays_when_the_employer_changes() -> None:
    """The employer, the hours and the rest are one line, the trade another: a new place of
    work retires the first."""
    lines = _lines(
        "Saoirse",
        "hiya! I'm Saoirse, croupier at the Ormond Casino in Dublin, mostly late shifts, 8pm "
        "till 4am.",
        "oh and I've started at a new place, the Harcourt Club. gave my notice at the old "
        "casino last week",
    )
    assert "Saoirse works as a croupier." in lines, lines
    assert not any("Ormond" in line for line in lines), lines
    lines = _lines(
        "Thuy",
        "hi hi! Thuy here. I'm a manicurist, been working at Glossy Nails in Footscray for six "
        "years.",
    )
    assert lines[:2] == [
        "Thuy works as a manicurist.",
        "Thuy has been working at Glossy Nails in Footscray for six years.",
    ], lines


def test_a_trade_said_with_how_often_after_now_is_three_claims() -> None:
    """ "Now I work three days a week as a gardener at Agata-no-Mori Park here in Matsumoto":
    the trade, the employer and the town, so leaving the park keeps the town."""
    lines = _lines(
        "Shigeru",
        "Now I work three days a week as a gardener at Agata-no-Mori Park here in Matsumoto.",
    )
    assert lines == [
        "Now Shigeru works three days a week as a gardener.",
        "Shigeru works at Agata-no-Mori Park.",
        "Shigeru is based in Matsumoto.",
    ], lines
    trade = keys("Now Shigeru works three days a week as a gardener.")
    assert [k.attribute for k in trade] == ["trade"], trade


def test_a_trade_worked_nights_for_an_employer_leaves_with_the_employer() -> None:
    """ "I work nights as a 911 dispatcher for DeKalb County, Georgia": the trade (a number
    may name it) stays when the position at Cobb County is accepted."""
    lines = _lines(
        "Ngozi",
        "hey. I'm Ngozi, I work nights as a 911 dispatcher for DeKalb County, Georgia.",
        "big news: I accepted the position at Cobb County 911. better pay, same chaos.",
    )
    assert "Ngozi works nights as a 911 dispatcher." in lines, lines
    assert not any("DeKalb" in line for line in lines), lines


def test_a_trade_then_where_they_live_with_no_subject_is_two_claims() -> None:
    """ "a cooper at Glenmurrin Distillery, live out in Midleton": trade, employer, home; a
    move leaves the first two."""
    lines = _lines(
        "Cormac",
        "hey, Cormac here. I'm a cooper at Glenmurrin Distillery, live out in Midleton.",
        "Found a room in Youghal already, moved in Saturday.",
    )
    assert lines == [
        "Cormac works as a cooper.",
        "Cormac works at Glenmurrin Distillery.",
        "Cormac found a room in Youghal already, moved in Saturday.",
    ], lines


def test_a_trade_from_a_place_or_on_a_thing_said_after_the_name() -> None:
    """ "Ruairi, thatcher from Ennis", "Mirko here. deckhand on the Adria Lines ferries": the
    speaker's trade, and where from or on (not "Ruairi is Ruairi, …")."""
    lines = _lines("Ruairi", "Howya. Ruairi, thatcher from Ennis. I work for Burren Thatching.")
    assert lines[:2] == ["Ruairi works as a thatcher.", "Ruairi is from Ennis."], lines
    lines = _lines("Mirko", "hey, Mirko here. deckhand on the Adria Lines ferries out of Split.")
    assert lines[0] == "Mirko works as a deckhand.", lines
    # (what they are doing is no trade: "working on the Hill Project")
    lines = _lines("Mirko", "Mirko here, working on the Hill Project in Leeds.")
    assert not any(" a working" in line for line in lines), lines


def test_a_new_trade_said_by_a_title_replaces_the_old_one() -> None:
    """ "It's Mirko the bosun now!", "Adaeze, economist 😄": the speaker's new trade."""
    lines = _lines(
        "Mirko",
        "hey, Mirko here. deckhand on the Adria Lines ferries out of Split.",
        "good news: it's Mirko the bosun now! got the promotion, more responsibility.",
    )
    assert "Mirko works as a bosun now." in lines, lines
    assert not any("deckhand" in line for line in lines), lines
    lines = _lines(
        "Adaeze",
        "Good evening! I'm Adaeze, statistician at Palmgrove Insurance here in Abuja.",
        "So... I accepted the offer! Starting at Adire Capital on the 1st. Adaeze, economist 😄",
    )
    assert "Adaeze works as an economist." in lines, lines
    assert "Adaeze is starting at Adire Capital on the 1st." in lines, lines
    assert not any("statistician" in line for line in lines), lines


def test_their_own_name_titled_after_a_clause_is_their_trade() -> None:
    """ "guess who's off the road, Bilal the dispatcher 😎" replaces the courier."""
    lines = _lines(
        "Bilal",
        "Salaam! Bilal here, courier for Swiftline in Bradford.",
        "salaam! guess who's off the road, Bilal the dispatcher 😎 sitting in the office",
    )
    assert "Bilal works as a dispatcher." in lines, lines
    assert not any("courier" in line for line in lines), lines


def test_out_on_their_own_is_their_own_employer_not_a_break_up() -> None:
    """ "I'm out on my own now" (self-employed) ends the employer, not the marriage."""
    lines = _lines(
        "Tevita",
        "Tevita here, I'm a plasterer with Kauri Interiors in Auckland. My wife is Losa.",
        "made the jump, I'm out on my own now. Moana Walls Ltd is registered!!",
    )
    assert "Tevita's wife is Losa." in lines, lines
    assert not any("Kauri" in line for line in lines), lines


def test_their_own_store_on_a_platform_is_no_employer_of_their_own() -> None:
    """ "moved everything to my own Shopify store" moves a side shop: "own Shop…" is no
    shop of their own, and the employer stays."""
    lines = _lines(
        "Jasmijn",
        "Jasmijn here! I'm a content marketer at Coolblue in Rotterdam.",
        "the fees were getting silly, so I moved everything to my own Shopify store.",
    )
    assert any("works at Coolblue" in line for line in lines), lines


def test_what_they_are_now_said_with_no_i_is_their_trade() -> None:
    """ "officially a lawyer now, my mum already calls me lawyer Zoltan" replaces the
    paralegal."""
    lines = _lines(
        "Zoltan",
        "szia! Zoltan here, I'm a paralegal at Halmos Law in Budapest.",
        "I PASSED THE BAR!!! officially a lawyer now, my mum already calls me lawyer Zoltan.",
    )
    assert "Zoltan is officially a lawyer now." in lines, lines
    assert not any("paralegal" in line for line in lines), lines
    lines = _lines("Idris", "passed!! NVQ level 2 done, officially a plasterer now 😎")
    assert "Idris is officially a plasterer now 😎." in lines, lines


def test_another_s_trade_or_a_promotion_a_thing_came_with_is_no_trade_of_theirs() -> None:
    """ "… with their wife Inês, she is teacher of history" is Inês's trade; "the day rotation
    that came with the promotion" is no new one."""
    said = "Tiago lives in Guimarães with their wife Inês, she is teacher of history."
    assert "trade" not in {k.attribute for k in keys(said)}
    said = "Ngozi took the day rotation that came with the promotion, 6am to 2pm now."
    assert "trade" not in {k.attribute for k in keys(said)}
    assert "trade" in {k.attribute for k in keys("Mirko got the promotion, more responsibility.")}
    lines = _lines(
        "Tiago",
        "Olá. I am Tiago, stonemason.",
        "I live in Guimarães with my wife Inês, she is teacher of history.",
    )
    assert "Tiago works as a stonemason." in lines, lines
