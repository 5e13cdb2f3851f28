"""Words that say a state changed though they name no old value (``signals.py``): a first
time with a group or place named, signing up with a name. Through the whole extractive path;
see docs/design.md, "Facts that stay true"."""

from __future__ import annotations

from reverie.actors.consolidation.signals import over, signalled, weakly
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge


def test_a_first_time_with_a_new_group_is_a_change() -> None:
    """ "my first rehearsal with the Inntal Kantorei, a mixed choir" after moving: a first
    time with a group named says the speaker is with it now, and the old choir's line goes."""
    memory = _memory_after(
        (
            "My choir, the Liederkranz Tegernsee, celebrates its 60th anniversary this autumn.",
            "Greta",
            "s",
        ),
        (
            "On Thursday evening I went to my first rehearsal with the Inntal Kantorei, a mixed "
            "choir of about forty people.",
            "Greta",
            "s",
        ),
    )
    assert "Tegernsee" not in memory and "Inntal Kantorei" in memory


def test_signed_up_with_a_new_one_is_a_change() -> None:
    """ "I have registered with Dr. Aydin, very patient" after the move: a new family doctor,
    so the old doctor's line goes by meaning."""
    memory = _memory_after(
        (
            "My family doctor, Dr. Brandl, wants a fasting blood test before my knee appointment.",
            "Greta",
            "s",
        ),
        ("I have registered with Dr. Aydin, a young woman, very patient.", "Greta", "s"),
    )
    assert "Brandl" not in memory and "Aydin" in memory


def test_a_date_a_value_holds_from_is_a_change() -> None:
    """ "honey is €14 a jar from today": a value said with the day it holds from replaces the
    speaker's line holding one of its kind ("at the Saturday market, €11 a jar")."""
    memory = _memory_after(
        ("I sell honey at the Saturday market, €11 a jar.", "Greta", "s"),
        ("sugar cost me more this winter, so honey is €14 a jar from today", "Greta", "s"),
    )
    assert "€11" not in memory and "at the Saturday market, €14 a jar" in memory


def test_a_past_it_is_compared_with_is_no_past_of_the_state() -> None:
    """ "my flat in Takoradi is much bigger than where I lived before" is where they live now:
    the past it is measured against ("lived") is not its own, so it replaces Kumasi."""
    memory = _memory_after(
        ("I live in Kumasi, close to the market.", "Abena", "s"),
        ("My flat in Takoradi is much bigger than where I lived before.", "Abena", "s"),
    )
    assert "Kumasi" not in memory and "Takoradi" in memory
    # (the past of its own stays a past: "I lived in Takoradi as a kid")
    memory = _memory_after(
        ("I live in Kumasi, close to the market.", "Abena", "s"),
        ("I lived in Takoradi before we came here.", "Abena", "s"),
    )
    assert "Kumasi" in memory


def test_a_thing_said_by_what_was_once_done_with_it_is_no_past_of_the_state() -> None:
    """ "gone off the caffeine stuff I used to drink by the litre" is a change now: the
    "used to" is the thing's (what it was to them), so it ends the coffee line; "I used to
    drive a Golf" stays a past, which ends nothing."""
    older = ["Nerea basically lives on coffee during nights.", "Nerea drives a Clio."]
    said = "Nerea has gone off the caffeine stuff they used to drink by the litre on nights."
    assert _merge("Nerea", older, said) == [older[0]]
    assert _merge("Nerea", older, "Nerea used to drive a Golf.") == []
    assert over("My sister and I used to live in Rome.")


def test_a_date_pushed_to_when_is_a_change_and_a_thing_pushed_somewhere_is_not() -> None:
    """ "The organisers pushed the Ghana Open to September" moves its date, with the thing
    between the verb and "to"; "I pushed it half way to the hotel" is no change at all."""
    memory = _memory_after(
        ("Also the Ghana Open is in Accra in August, I want to peak for that.", "Kofi", "s"),
        ("the organisers pushed the Ghana Open to September because of the venue", "Kofi", "s"),
    )
    assert "The Ghana Open is in Accra in September." in memory and "August" not in memory
    assert not signalled("My Sirius wouldn't start, I pushed it half way to the hotel.")


def test_a_new_one_measured_against_the_old_is_a_change_and_against_someone_is_not() -> None:
    """ "like the old bike did", "than the tuk-tuk before" measure a new thing against the old
    one: a change; "faster than the kids did" measures against someone: none."""
    assert signalled("The Janome never jams like the old machine did.")
    assert signalled("The Piaggio is quieter than the tuk-tuk before.")
    assert not signalled("Efe swims faster than the kids did.")


def test_a_change_word_inside_a_compound_is_no_change() -> None:
    """ "a talk on code-switching" changes nothing ("switching" is part of a noun), so a
    conference's city retires no line of theirs, not the city they are based in."""
    memory = _memory_after(
        (
            "Hi! I'm Olena, a PhD candidate in linguistics at Charles University in Prague. "
            "I have a conference talk coming up.",
            "Olena",
            "s",
        ),
        (
            "It's in Vilnius in June, a 20-minute talk on code-switching in bilingual homes.",
            "Olena",
            "s",
        ),
    )
    assert "Olena is based in Prague." in memory
    assert signalled("Olena switched to Vilnius University.")


def test_changes_as_a_noun_are_no_change() -> None:
    """ "the commute from the new flat was a mess with all the changes" names no new value:
    "the changes", a noun after its article, is no cue, so it retires no home (before, it
    took "signed for a flat in Campanar" by meaning); "the rota changes to nights" is."""
    older = ["Alba and Javi signed for a flat in Campanar!!", "Alba lives with Javi."]
    said = "The commute from the new flat was a mess with all the changes."
    assert _merge("Alba", older, said) == []
    assert weakly(said)  # ("new" alone)
    assert signalled("The rota changes to nights in March.")


def test_a_thing_let_fall_or_left_somewhere_has_not_ended() -> None:
    """ "dropped my goggles in the pool", "left my phone in the car": a thing let fall or left
    somewhere, not a habit dropped or a thing left for good ("dropped the Sunday swim")."""
    older = ["Olena swims at the Lido on Sunday mornings.", "Olena's phone is a Pixel 7."]
    for said in (
        "Olena dropped their goggles in the pool again, so annoying.",
        "Olena dropped their phone down the stairs, the screen is fine though.",
        "Olena left their phone in the car again.",
    ):
        assert _merge("Olena", older, said) == [], said
    assert _merge("Olena", older, "Olena dropped the Sunday swim, too cold now.") == [older[0]]
    assert signalled("Olena dropped the choir in the end.")


def test_youth_and_a_first_one_ever_are_the_past_with_their_i_left_out() -> None:
    """ "in Saigon I sold bánh mì on street when young" and "first car I ever drove was his
    Suzuki Mehran" tell of the past: the home and the car stay (before, each was read as a
    change now and retired the line)."""
    memory = _memory_after(
        ("we moved house to Braybrook, smaller, near restaurant.", "Minh", "s"),
        ("in Saigon I sold bánh mì on street when young, now I have restaurant.", "Minh", "s"),
    )
    assert "Braybrook" in memory, memory
    memory = _memory_after(
        ("sold the old car, bought a Geely Coolray, cheap and full option.", "Faisal", "s"),
        ("first car I ever drove was his Suzuki Mehran there haha", "Faisal", "s"),
    )
    assert "Coolray" in memory, memory


def test_a_thing_burnt_out_has_ended() -> None:
    """ "My station burnt out" ends the soldering station of its line, as "died" would; so
    does "the generator packed up"."""
    memory = _memory_after(
        ("All the soldering is on my Yihua 8786 station, old but still working.", "Chidi", "s"),
        ("Wahala. My station burnt out.", "Chidi", "s"),
    )
    assert "Yihua" not in memory, memory
    # (and packed up, as some say it)
    memory = _memory_after(
        ("We run the shop on a small Firman generator.", "Adaeze", "s"),
        ("The generator packed up on Tuesday.", "Adaeze", "s"),
    )
    assert "Firman" not in memory, memory


def test_a_thing_said_with_how_often_is_the_thing_itself() -> None:
    """ "a small Firman generator most days" holds a generator ("most" qualifies no noun
    after it), so "the generator died" ends it."""
    memory = _memory_after(
        ("We run the shop on a small Firman generator most days.", "Adaeze", "s"),
        ("The generator died on Tuesday.", "Adaeze", "s"),
    )
    assert "Firman" not in memory, memory


def test_a_thing_of_someone_of_theirs_that_stopped_takes_that_ones_line() -> None:
    """ "Kojo's weekend classes have stopped" ends the line of Kojo's classes that the
    speaker said; never one another member said of him."""
    said = ("And Kojo's weekend classes have stopped.", "Efua", "s")
    memory = _memory_after(
        ("Kojo has extra classes at school on Saturday mornings.", "Efua", "s"), said
    )
    assert "Saturday" not in memory, memory
    memory = _memory_after(
        ("Kojo has extra classes at school on Saturday mornings.", "Kwabena", "k"), said
    )
    assert "Saturday" in memory, memory
