"""A business's premises and where they are (``places.py``): premises moved take the line
saying where they are, in place. See docs/design.md, "Facts that stay true"."""

from __future__ import annotations

from tests.actors.merging import facts_of as _facts
from tests.actors.merging import lines_after
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge


def test_premises_moved_take_the_line_saying_where_they_are() -> None:
    """ "We move the workshop to Pylaia" (said in the present): of two lines with a workshop,
    the one saying where it is moves, in place; "likes their own workshop" stays."""
    memory = _memory_after(
        ("I have small workshop, Oak Joinery, in Toumba. I make furniture.", "Nikos", "s"),
        ("I like my own workshop, no boss.", "Nikos", "s"),
        ("We move the workshop to Pylaia, bigger space.", "Nikos", "s"),
    )
    facts = _facts(memory)
    assert "Nikos has small workshop, Oak Joinery, in Pylaia." in facts
    assert "Toumba" not in memory and any("likes their own workshop" in f for f in facts)


def test_premises_moved_to_a_place_of_the_lines_noun_take_that_line() -> None:
    """ "moved the stall to Bolhão market" takes "sells lemonade at Anjos market" (the
    market's noun, where no line names a stall), not the line of where they study."""
    memory = _memory_after(
        (
            "Ola! I'm Rui, I study nursing at ESEP in Porto and I sell homemade lemonade at "
            "Anjos market to pay for school. Can you help me plan my week?",
            "Rui",
            "s",
        ),
        ("I sell about 60 cups a day, 1.50 each.", "Rui", "s"),
        ("Quick update! I'm raising the price to 2 euros a cup, lemons went up a lot.", "Rui", "s"),
        (
            "Long week! Exam prep, a pharmacology test, and I moved the stall to Bolhão market, "
            "which is cleaner and full of tourists. Sold out by 3pm!",
            "Rui",
            "s",
        ),
    )
    assert "Anjos" not in memory and "ESEP" in memory


def test_new_premises_said_where_they_are_move_the_one_business_by_any_word_for_it() -> None:
    """ "Big move!! … New shop is in Woji" moves "Crown & Glory Salon in Rumuola" (a shop by
    another word for premises, the one line that has any; before, both places stayed); a
    sister's new shop moves nothing of the speaker's."""
    memory = _memory_after(
        ("I'm Ifeoma, I own Crown & Glory Salon in Rumuola, Port Harcourt.", "Ifeoma", "s"),
        ("Big move!! we packed up. New shop is in Woji, on the main road.", "Ifeoma", "s"),
    )
    assert "Rumuola" not in memory and "Crown & Glory Salon in Woji" in memory, memory
    memory = _memory_after(
        ("I'm Ifeoma, I own Crown & Glory Salon in Rumuola, Port Harcourt.", "Ifeoma", "s"),
        ("my sister's new shop is in Abuja, so proud of her", "Ifeoma", "s"),
    )
    assert "Crown & Glory Salon in Rumuola" in memory, memory


def test_staying_in_the_wider_place_the_home_line_holds_is_no_move() -> None:
    """ "I stay in Gaia" (against a move another makes) is where they live already, as the
    home line says it ("got a flat together, Santa Marinha, still Gaia"): the flat stays."""
    memory = _memory_after(
        ("Marta and I got a flat together, Santa Marinha, still Gaia.", "Rui", "s"),
        ("Marta got an offer in Lisboa. if she takes it, I stay in Gaia", "Rui", "s"),
    )
    assert "Santa Marinha" in memory, memory


def test_a_move_to_a_new_club_is_no_move_of_home() -> None:
    """ "Moved to a new club, PB Garuda Muda" changes the club they play with, as a move to
    a new team or class does, and leaves where they live."""
    older = [
        "Wayan plays badminton 2 times a week with PB Sinar, their local club.",
        "Wayan is based in Ubud.",
    ]
    said = "Wayan moved to a new club, PB Garuda Muda, better coach."
    assert _merge("Wayan", older, said) == [older[0]]


def test_all_the_stalls_moved_is_no_home_and_the_city_stays() -> None:
    """ "all the fruit stalls move to Mercado Wanchaq" moves the stalls, no home: the stall's
    old line goes and where the speaker works stays ("is based in Cusco")."""
    memory = _memory_after(
        ("I sell fruit in the Mercado San Pedro in Cusco, stall 112.", "Yolanda", "s"),
        (
            "the municipality is fixing the old market, all the fruit stalls move to Mercado "
            "Wanchaq, I am now in stall 38 there.",
            "Yolanda",
            "s",
        ),
    )
    lines = _facts(memory)
    assert "Yolanda is based in Cusco." in lines, lines
    assert not any("San Pedro" in line for line in lines), lines


def test_premises_moving_said_with_s_take_their_line_and_a_month_is_no_new_place() -> None:
    """ "big news too, the shop's moving to Salthill in March": the opener goes whole (not
    "Too, the landlord …"), "the shop's moving" is the shop's move, and "in March" is when,
    no place the line is in now (before, "Orla has a bike repair shop in March")."""
    lines = _facts(
        _memory_after(
            ("I have a bike repair shop in Galway, Wheelhouse Cycles, in Woodquay.", "Orla", "s"),
            (
                "grand. big news too, the landlord is selling the unit so the shop's moving to "
                "Salthill in March, bigger place near the prom.",
                "Orla",
                "s",
            ),
        )
    )
    assert not any("Woodquay" in line or "shop in March" in line for line in lines), lines
    assert any(line.startswith("The landlord is selling the unit") for line in lines), lines
    # (and of a line in one place, the move takes that place: "Kwame has a bakery in Osu.")
    lines = _facts(
        _memory_after(
            ("I have a bakery in Osu.", "Kwame", "s"),
            ("the bakery's moving to Labone in March, more space.", "Kwame", "s"),
        )
    )
    assert "Kwame has a bakery in Labone." in lines, lines
    # (premises no line holds move no other line, by meaning or by its place: before, the
    # accountant's line went, or became "she's in Salthill")
    older = ["Orla and others are with Maeve Kilbride now, she's in Oranmore, does retail."]
    assert _merge("Orla", older, "The shop's moving to Salthill in March, bigger place.") == []


def test_the_new_premises_somewhere_move_the_line_of_their_premises() -> None:
    """ "First week at the new shop in Baner is done" moves the bakery, named by another word
    for premises, within its town; "a new shop in Baner" is anyone's."""
    lines = lines_after(
        "Arjun",
        "I'm Arjun, I run a small bakery called Crumb Story in Koregaon Park, Pune.",
        "First week at the new shop in Baner is done and people are queueing outside!",
    )
    assert any("Crumb Story in Baner, Pune" in line for line in lines), lines
    assert not any("Koregaon" in line for line in lines), lines
    kept = lines_after(
        "Arjun",
        "I'm Arjun, I run a small bakery called Crumb Story in Koregaon Park, Pune.",
        "A new shop in Baner opened, nice bread.",
    )
    assert any("Crumb Story in Koregaon Park" in line for line in kept), kept
