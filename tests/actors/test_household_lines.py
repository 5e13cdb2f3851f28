"""A household's news told in one chat: what a partner or a partner's relative does is
theirs, a home said by where "we're" now is a move, and a retraction that names what it
takes back takes back only that (``truth._supersede``, ``ownership.named``,
``attributes``, ``anaphora.forgot_it``)."""

from __future__ import annotations

from tests.actors.merging import lines_after as _lines
from tests.actors.merging import lines_of_one_job


def test_a_partners_car_or_wish_is_not_the_speakers() -> None:
    """ "Tomás bought a Fiat Panda", "Tomás wants a Dacia Spring", after "my husband Tomás":
    his car, not hers (before, each retired her Kia)."""
    lines = _lines(
        "Lucía",
        "I'm Lucía, a nurse in Valencia. My husband Tomás works nights.",
        "we traded in the old car and got a Kia Niro, so much quieter",
        "Tomás wants a Dacia Spring for himself, we'll see",
        "Tomás bought a Fiat Panda for his commute, so now we're a two-car family",
    )
    assert any("Kia Niro" in line for line in lines), lines


def test_a_move_of_someone_elses_relative_is_theirs() -> None:
    """ "Chidi's sister moved to Abuja": a relative of someone no line names yet is someone
    else, and the speaker's move stays (before, it retired the home)."""
    lines = _lines(
        "Ngozi",
        "I'm Ngozi, a pharmacist in Lagos.",
        "we moved into the house in Ikeja on Saturday!!! finally space for the kids",
        "Chidi's sister moved to Abuja the same weekend so we couldn't even get help",
    )
    assert any("Ikeja" in line for line in lines), lines


def test_a_home_said_where_we_are_in_it_is_a_move() -> None:
    """ "we're in a little house in Didsbury now", "We're in the flat in Kalamaja": a home of
    theirs there is where they live (before, no key read it and the old town stayed)."""
    for said in (
        "We're in the house in Didsbury, Noah has the room with the slanted ceiling and loves it",
        "we're in a little house in Didsbury now, the garden is tiny but ours",
    ):
        lines = _lines("Femi", "I'm Femi. We live in Salford so the hospital's close.", said)
        assert not any("Salford" in line for line in lines), (said, lines)
    # (a stay there is no home)
    lines = _lines(
        "Femi",
        "I'm Femi. We live in Salford, near the quays.",
        "We're in a cottage in Conwy for the weekend!",
    )
    assert any("Salford" in line for line in lines), lines


def test_scratch_that_about_a_thing_takes_back_that_thing_only() -> None:
    """ "scratch that about the kitten": not the line before it that holds "the same"
    (before, "that" was read as the nearest thing named, and the new bike went)."""
    lines = lines_of_one_job(
        "Pieter",
        "I'm Pieter. bad news: bike got nicked. good news: bought a Cortina Common the same "
        "afternoon, retail therapy lol",
        "done. also scratch that about the kitten, the landlord said no pets at all.",
    )
    assert any("Cortina Common" in line for line in lines), lines


def test_a_number_said_of_she_or_he_changes_no_line_of_the_speakers() -> None:
    """ "very kind but she's 250 km away now": her distance, not a new length of the
    speaker's race (before, "90 km of suffering" was rewritten to "250 km")."""
    lines = _lines(
        "Anders",
        "I'm Anders. I'm registered for the Vasaloppet in March, 90 km of suffering.",
        "My sister moved to Luleå and offered to help. Very kind but she's 250 km away now.",
    )
    assert any("90 km of suffering" in line for line in lines), lines
    assert not any("250 km of suffering" in line for line in lines), lines


def test_a_day_said_of_he_or_she_is_no_new_day_of_the_speakers() -> None:
    """ "my partner and I separated, he moved out on Sunday": his day, not a new day of the
    speaker's climbing (before, "every Monday evening" was rewritten to "every Sunday")."""
    lines = _lines(
        "Dagmar",
        "I'm Dagmar. I go climbing every Monday evening.",
        "my partner and I separated, he moved out on Sunday.",
    )
    assert "Dagmar goes climbing every Monday evening." in lines, lines
    assert not any("climbing every Sunday" in line for line in lines), lines


def test_the_new_home_somewhere_is_a_move_from_the_town_a_trade_was_in() -> None:
    """ "the landlord kept the deposit but the new place in Tromsø is worth it": a move, so
    "based in Bergen", said with the trade, goes (before, only "my/our new place in …" was)."""
    lines = _lines(
        "Marit",
        "I'm Marit, a podiatrist at Fotvita in Bergen.",
        "the landlord kept the deposit but the new place in Tromsø is worth it, sea view!",
    )
    assert not any("Bergen" in line for line in lines), lines
    assert any("Tromsø" in line for line in lines), lines


def test_the_day_something_happened_on_is_no_new_day_of_a_routine() -> None:
    """ "we moved into the flat above the shop on Saturday!": the day of the move, not a new
    day of futsal (before, "futsal moved to Wednesdays" was rewritten to Saturday); nor is
    "started monday actually" a correction of the football's day."""
    lines = _lines(
        "Gustavo",
        "I'm Gustavo. I play futsal on Sundays with old colleagues.",
        "futsal moved to Wednesdays btw, the gym raised weekend prices",
        "we moved into the flat above the shop on Saturday! stairs to work",
    )
    assert not any("futsal" in line.casefold() and "Saturday" in line for line in lines), lines
    assert any("futsal on Wednesdays" in line for line in lines), lines
    # (nor a day said with its verb alone and an "actually", which reads as a correction:
    # "started monday actually" asked when they start is no new day of football)
    lines = _lines(
        "Gustavo",
        "I'm Gustavo. football with the lads every Wednesday, that's sacred.",
        "started monday actually. better pay and a van",
    )
    assert any("Wednesday" in line for line in lines), lines
    assert not any("football" in line.casefold() and "Monday" in line for line in lines), lines


def test_one_more_pet_in_the_household_is_news_and_keeps_the_first() -> None:
    """ "And Nerea found a second dog at the shelter, Boro." and "a second cat has joined
    us, … Arash named her Zaferan." name the new pet and keep the first (before, both were
    dropped as too weak to keep)."""
    lines = _lines(
        "Cristobal",
        "I live with my girlfriend Nerea and our dog Chispa.",
        "And Nerea found a second dog at the shelter, Boro. He and Chispa are inseparable.",
    )
    assert any("Boro" in line for line in lines), lines
    assert any("Chispa" in line for line in lines), lines
    lines = _lines(
        "Mahsa",
        "husband Behrouz, son Arash who's 6, and a cat, Pista.",
        "And a second cat has joined us, a little orange girl — Arash named her Zaferan.",
    )
    assert any("Zaferan" in line for line in lines) and any("Pista" in line for line in lines)


def test_one_who_joined_the_household_is_no_workplace() -> None:
    """ "a second cat has joined us" is written "has joined Mahsa and others": no employer
    named Mahsa, so a new job leaves the cat (before, it read as work and went)."""
    lines = _lines(
        "Mahsa",
        "husband Behrouz, son Arash who's 6, and a cat, Pista.",
        "And a second cat has joined us, a little orange girl — Arash named her Zaferan.",
        "We're in Umeå! First week at Norrland done, my team is lovely.",
    )
    assert any("Zaferan" in line for line in lines), lines
    assert "Mahsa works at Norrland." in lines, lines
