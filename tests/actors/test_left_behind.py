"""What the speaker left: a pet that lives with someone else now, a job on leave they do
not go back to, a home they shifted from, one of a list of things of a kind sold (through
the extractive path)."""

from __future__ import annotations

from tests.actors.merging import lines_after as _lines


def test_a_pet_that_now_lives_with_others_is_gone_whatever_its_breed() -> None:
    """ "Our dog now lives with my parents in Segovia" ends the beagle "called Churro" (a
    breed of the kind said), in a line that names it anywhere as theirs too."""
    for first in (
        "We have a beagle called Churro who is very jealous of the baby.",
        "Also how to handle our beagle Churro who is very jealous of the baby.",
    ):
        lines = _lines(
            "Sofia",
            first,
            "Sad news, we made the hard decision: our dog now lives with my parents in Segovia.",
        )
        assert not any("Churro" in line for line in lines), lines


def test_a_job_on_leave_ends_when_they_do_not_go_back() -> None:
    """ "On maternity leave from Iberdrola" is where they work; "I'm not going back to my
    old job" ends it."""
    lines = _lines(
        "Sofia",
        "Also I'm on maternity leave from Iberdrola (marketing team) until March.",
        "Okay bigger news: I'm not going back to my old job in March.",
    )
    assert not any("Iberdrola" in line for line in lines), lines


def test_a_move_in_south_asian_english_to_a_home_somewhere() -> None:
    """ "Shifted to a ground floor independent house in HSR Layout" is a move from where
    they lived."""
    lines = _lines(
        "Ananya",
        "I live in Whitefield.",
        "we did it!! shifted to a ground floor independent house in HSR Layout last weekend.",
    )
    assert not any("Whitefield" in line for line in lines), lines


def test_a_being_passed_away_is_the_one_they_named_whatever_its_kind() -> None:
    """ "Our little bird passed away" ends "a small budgerigar named Piko" (no word list, nor
    the embedder, knows a budgerigar); "the delivery car finally died" ends no pet."""
    lines = _lines(
        "Hiroshi",
        "We also keep a small budgerigar named Piko. Keiko talks to him more than to me.",
        "I have some sad news. Our little bird passed away this week. He was nine years old.",
    )
    assert not any("Piko" in line for line in lines), lines
    lines = _lines(
        "Hiroshi", "We keep a small budgerigar named Piko.", "The delivery car finally died."
    )
    assert any("Piko" in line for line in lines), lines


def test_a_move_to_someones_place_somewhere_is_a_move_there() -> None:
    """ "we've shifted to my in-laws' place in Aundh" is a move to Aundh, not to "Priya's"."""
    lines = _lines(
        "Priya", "We live in Baner, Pune.", "Also we've shifted to my in-laws' place in Aundh."
    )
    assert not any("Baner" in line or "live in Priya's" in line for line in lines), lines
    assert any("Aundh" in line for line in lines), lines


def test_a_pet_that_die_as_some_write_the_past_is_gone() -> None:
    """ "our dog die on the weekend" ends the dog called Tango; "I don't want him to die" ends
    nothing."""
    lines = _lines(
        "Camilo",
        "Also our old dog Tango.",
        "Sad news, our dog die on the weekend, he was 14 years.",
    )
    assert not any("Tango" in line for line in lines), lines
    lines = _lines(
        "Camilo", "Also our old dog Tango.", "The vet says he is old, I don't want him to die."
    )
    assert any("Tango" in line for line in lines), lines


def test_what_a_new_line_names_is_no_place_left_behind() -> None:
    """A line retired by a new one that names what the old one's "in" held ("on their iPad
    in Notion", then "Notion synced everything") leaves no line of a place called Notion."""
    lines = _lines(
        "Ananya",
        "I track everything on my iPad Pro in Notion but half the vendors only use WhatsApp.",
        "Anyway I'm on a Samsung Galaxy Tab S9 since this morning, Notion synced everything.",
    )
    assert not any("iPad" in line for line in lines), lines
    assert not any("based in Notion" in line for line in lines), lines


def test_one_of_two_things_of_a_kind_sold_leaves_the_other() -> None:
    """ "Sold the folding bike" of "two bikes, a Bridgestone city bike and a Dahon folding
    bike" leaves the Bridgestone (before, the line went whole); "sold the mare" of "my own
    mare, Bramble" takes the line, a list of no one kind."""
    lines = _lines(
        "Fumiko",
        "I have two bikes, a Bridgestone city bike and a Dahon folding bike for the train.",
        "Sold the folding bike, I never took it on the train anyway.",
    )
    assert "Fumiko has a Bridgestone city bike." in lines, lines
    assert not any("Dahon" in line for line in lines), lines
    lines = _lines(
        "Siobhan",
        "And Sundays I ride my own mare, Bramble, so that's sacred.",
        "I sold the mare to a young one over in Clare.",
    )
    assert not any("Bramble" in line for line in lines), lines


def test_a_thing_sold_takes_no_line_where_its_noun_qualifies_another() -> None:
    """ "sold my old city bike" ends a bike, not "works as a bike mechanic" (before, the
    trade went with it)."""
    lines = _lines("Jasper", "I'm a bike mechanic in Utrecht.", "I sold my old city bike.")
    assert "Jasper works as a bike mechanic." in lines, lines
    lines = _lines("Jasper", "I ride an old Gazelle city bike.", "I sold my old city bike.")
    assert not any("Gazelle" in line for line in lines), lines


def test_a_subject_alone_is_nothing_left_of_a_line() -> None:
    """A new count of "Siim and their flatmate Markus pay 870 a month for a flat in Kalamaja"
    leaves no line "Siim." (the subject's "and" is no clause's; before, it was cut there and
    the subject stayed alone)."""
    lines = _lines(
        "Siim",
        "me and my flatmate Markus pay 870 a month for a two-room flat in Kalamaja.",
        "correction: the rent is actually 760 including utilities.",
    )
    assert "Siim." not in lines and not any("870" in line for line in lines), lines
