"""A weekly thing replaced by a new one of its kind on other days (``routines.py``, through
the extractive path; docs/design.md "Facts that stay true")."""

from __future__ import annotations

from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merged


def test_a_new_weekly_thing_of_the_same_kind_on_another_day_replaces_the_old() -> None:
    """After a move, "joined the Sandy Bay cricket club, … Thursday nights" is their cricket
    now: the old club and its Saturdays go, with no word of change."""
    memory = _memory_after(
        ("Outside work I play cricket for Magnetic Island CC on Saturdays.", "Rohan", "s"),
        ("We've landed in Hobart, renting a weatherboard in Sandy Bay.", "Rohan", "s"),
        ("Joined the Sandy Bay cricket club, they've got nets Thursday nights.", "Rohan", "s"),
    )
    assert "Magnetic Island" not in memory and "Sandy Bay cricket club" in memory, memory
    memory = _memory_after(
        ("I play futsal every Wednesday night with a team called Ribeira FC.", "Tiago", "s"),
        ("And I found a futsal group: Monday evenings in a sports hall in Blijdorp.", "Tiago", "s"),
    )
    assert "Ribeira" not in memory and "Monday evenings" in memory, memory


def test_one_more_weekly_thing_or_one_of_another_kind_or_day_replaces_nothing() -> None:
    older = ("I do yoga at the Lotus studio every Tuesday evening.", "Ines", "s")
    for said in [
        "Hot yoga on Thursdays too, at the gym.",  # (one more)
        "Started pottery classes on Thursday evenings.",  # (another kind)
        "The Lotus studio added a yoga class on Tuesdays at noon.",  # (a day it has)
        "My sister Ana does yoga every Friday morning.",  # (someone else's)
    ]:
        memory = _memory_after(older, (said, "Ines", "s"))
        assert "Lotus studio every Tuesday evening" in memory, (said, memory)
    # (whose it is is no kind of thing: "Tomás takes …" and "Tomás swims …" share a name)
    memory = _memory_after(
        ("I take guitar lessons on Tuesday evenings.", "Tomás", "s"),
        ("I swim with a club on Saturday mornings.", "Tomás", "s"),
    )
    assert "guitar lessons on Tuesday evenings" in memory, memory


def test_of_a_line_that_says_more_only_its_clause_on_that_thing_goes() -> None:
    memory = _memory_after(
        (
            "Wednesday evenings I coach the under-12s, and I swim at Leisureland on Sundays.",
            "Aoife",
            "s",
        ),
        ("Found a new swim club, we swim Saturday mornings at the lido.", "Aoife", "s"),
    )
    assert "under-12s" in memory and "Leisureland" not in memory, memory
    # (where it is the clause that names them, the line stays: its rest names nobody)
    memory = _memory_after(
        (
            "Tuesdays I'm at the mart in Ennis, and Wednesday evenings I coach hurling.",
            "Declan",
            "s",
        ),
        ("The mart is on Fridays now since the new manager came in.", "Declan", "s"),
    )
    assert "coach hurling" in memory, memory


def test_the_thing_a_line_opens_with_is_its_kind_and_a_remark_after_it_no_claim() -> None:
    """ "Futsal on Mondays with the Umeda Raccoons, that's fixed": futsal is what the line
    does (its first word, in capitals), and "that's fixed" says nothing that stays."""
    memory = _memory_after(
        ("Futsal on Mondays with the Umeda Raccoons, that's fixed.", "Kenji", "s"),
        ("I found a futsal group in Shimokitazawa that plays Wednesdays.", "Kenji", "s"),
    )
    assert "Umeda" not in memory and "Shimokitazawa" in memory, memory


def test_a_weekly_thing_moved_typed_in_lower_case_with_a_g_dropped() -> None:
    """ "tuesday" is the weekday it names and "movin" is "moving": casual typing moves the
    quiz as a careful writer's sentence does."""
    memory = _memory_after(
        ("we do the pub quiz every tuesday night at the red lion", "Dale", "s"),
        ("pub quiz is movin to thursdays cos of the darts league", "Dale", "s"),
    )
    assert "Tuesday" not in memory and "Thursdays" in memory, memory
    # (a word that is one without a "g" keeps its ending: "my cousin")
    memory = _memory_after(("my cousin plays darts on fridays", "Dale", "s"))
    assert "cousin" in memory and "Fridays" in memory, memory


def test_a_weekly_line_that_says_more_of_the_thing_itself_is_replaced_whole() -> None:
    """ "…, which I never miss" says more of the same rehearsal, no other claim: the line
    goes when the rehearsal moves to other days."""
    memory = _memory_after(
        (
            "On Monday evenings I go to band practice at the scout hut, which I never miss.",
            "Ewan",
            "s",
        ),
        ("The scouts need the hut, so band practice is on Wednesday nights.", "Ewan", "s"),
    )
    assert "Monday" not in memory and "Wednesday nights" in memory, memory


def test_a_weekly_thing_said_by_a_word_any_is_said_with_is_of_the_kind_its_turn_names() -> None:
    """ "The hockey rink got new owners, our game is Thursday night": the game is the hockey the
    turn names, so the Tuesday line goes; a turn naming no kind of a line replaces none."""
    older = ("Tuesday nights I play hockey with some guys from work, 21:00.", "Pavel", "s")
    memory = _memory_after(
        older,
        ("The hockey rink got new owners, our game is Thursday night, same time.", "Pavel", "s"),
    )
    assert "Tuesday" not in memory and "Thursday night" in memory, memory
    memory = _memory_after(older, ("Our book club meets on Thursday nights.", "Pavel", "s"))
    assert "Tuesday nights" in memory, memory


def test_the_new_day_of_a_thing_named_by_its_own_noun_is_no_day_of_another() -> None:
    """ "Our book club is on Thursday night now" had rewritten the hockey line to Thursday (a
    claim nobody made) or retired it: the book club is another thing."""
    older = ("Tuesday nights I play hockey with some guys from work, 21:00.", "Pavel", "s")
    memory = _memory_after(older, ("Our book club is on Thursday night now.", "Pavel", "s"))
    assert "Tuesday nights Pavel plays hockey" in memory, memory
    memory = _memory_after(older, ("Hockey is on Thursday night now.", "Pavel", "s"))
    assert "Tuesday" not in memory, memory


def test_a_weekday_naming_its_thing_is_weekly_and_what_is_said_of_it_goes_with_it() -> None:
    """ "Wednesday five-a-side football nearly killed me" is a weekly game: moved to Monday
    nights by others, or found again on other days after a move, the old line goes; a name
    is a kind too ("Thursday Skat night"), and "the only thing keeping me sane" says more
    of the thing, not something else."""
    for older, said in [
        (
            "Wednesday five-a-side football nearly killed me.",
            "and the lads moved five-a-side football to Monday nights because of the pitch booking.",
        ),
        (
            "Thursday Skat night, I lost 12 euros.",
            "Skat moved to Fridays because our host has a new shift pattern.",
        ),
        (
            "Wednesday paddling practice is right after my shift.",
            "joined a canoe club here, paddling is on Sunday mornings.",
        ),
        (
            "Wednesday table tennis tonight, the only thing keeping me sane while studying.",
            "found a table tennis club too, they play Saturday mornings.",
        ),
        # (the day after its thing; "roller derby" names a thing, not a roller of theirs)
        (
            "perfect. roller derby thursday so I'll polish it tonight.",
            "roller derby's on sunday nights at the new league.",
        ),
    ]:
        memory = _memory_after(
            (older, "Cormac", "s"),
            ("We live in Youghal now.", "Cormac", "s"),
            (said, "Cormac", "s"),
        )
        assert "Wednesday" not in memory and "Thursday" not in memory, (said, memory)
    # (a one-off on a named day is no weekly thing of the new one's kind)
    memory = _memory_after(
        ("Friday the 13th gig was wild.", "Cormac", "s"),
        ("I play football on Monday nights now.", "Cormac", "s"),
    )
    assert "Friday the 13th" in memory, memory


def test_the_day_a_move_was_made_is_no_new_day_of_a_routine() -> None:
    """ "we found a flat in Arroios!! moved on Saturday" leaves "day off is Tuesday": the
    day is when the move was made; "day off moved to Saturday" is a new day."""
    memory = _memory_after(
        ("my day off is Tuesday, I live in Almada", "Filipa", "s"),
        ("so, big month: we found a flat in Arroios!! moved on Saturday.", "Filipa", "s"),
    )
    assert "day off is Tuesday" in memory and "Arroios" in memory, memory


def test_hours_said_anew_beside_a_day_swapped_leave_no_old_hours() -> None:
    """ "now open 8 to 4, and closed Tuesdays instead of Mondays" changes the hours too: the
    line of "open 7am to 3pm, closed Mondays" is not rewritten to "7am to 3pm, closed
    Tuesdays"."""
    memory = _memory_after(
        ("we open 7am to 3pm, closed Mondays.", "Siobhan", "s"),
        ("we're now open 8 to 4, and closed Tuesdays instead of Mondays", "Siobhan", "s"),
    )
    assert "7am" not in memory and "open 8 to 4" in memory, memory


def test_the_day_and_night_a_thing_happened_is_no_weekly_thing() -> None:
    """ "Our dear old spaniel died on Sunday night" tells the day it happened, not a thing
    now on Sunday nights: before, it replaced "Welsh class meets on Thursday evenings" (a
    weekday with a part of the day read as weekly); a class moved to Tuesday evenings still
    does."""
    older = ["Rhiannon's Welsh class meets on Thursday evenings.", "Rhiannon lives in Tywyn."]
    said = "Rhiannon's dear old spaniel died on Sunday night."
    assert "Thursday evenings" in merged("Rhiannon", older, said).memory
    said = "Welsh class is on Tuesday evenings now."
    assert "Thursday evenings" not in merged("Rhiannon", older, said).memory
