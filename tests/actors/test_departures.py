"""Someone the speaker has by a tie that is no family, gone (``departures.member_left``,
through the extractive path): the line naming them by that tie goes; family stays."""

from __future__ import annotations

from tests.actors.merging import lines_after
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge


def test_someone_by_a_tie_who_left_takes_the_line_naming_them() -> None:
    """ "the lodger's given notice", "our flatmate moved out", "my apprentice resigned": the
    line naming the lodger, the flatmate, the apprentice by name goes (before, each stayed,
    as no word of the news is said in it but the tie)."""
    for first, news, name in [
        (
            "Our lodger Shane has the granny flat out the back, pays $220 a week.",
            "Well the lodger's given notice, got a job up in Bendigo.",
            "Shane",
        ),
        ("My flatmate Divya is from Mysore.", "our flatmate moved out last week.", "Divya"),
        ("My neighbour Maureen grows roses.", "My neighbour moved away, sold up.", "Maureen"),
        (
            "My apprentice Kunle earns 120k a month.",
            "My apprentice resigned oh, he got a job with one big chain in Lagos.",
            "Kunle",
        ),
    ]:
        _gone("Bronwyn", "I'm a retired nurse in Ballarat.", first, news, name)


def test_family_and_plans_to_leave_keep_the_line() -> None:
    """A son who moved out is still a son; a lodger gone for a week has not left."""
    for first, news, name in [
        ("My son Jack plays the drums.", "My son moved out last week.", "Jack"),
        ("Our lodger Shane pays $220 a week.", "Our lodger's gone to Spain for a week.", "Shane"),
    ]:
        lines = lines_after("Bronwyn", first, news)
        assert any(name in line for line in lines), lines


def test_one_who_left_for_a_job_or_studies_is_gone() -> None:
    """ "Our lodger left for a job in Warsaw" ends the line of their lodger Oksana (before, only
    "left" at a clause's end or before when was a departure); "left for a week" is none."""
    older = ("our lodger Oksana, a student from Lviv, reads tales at the club!", "Ewa", "s")
    memory = _memory_after(older, ("Our lodger left for a job in Warsaw, we miss her.", "Ewa", "s"))
    assert "Oksana" not in memory, memory
    memory = _memory_after(older, ("Our lodger left for a week in Lviv.", "Ewa", "s"))
    assert "Oksana" in memory, memory


def test_one_described_who_left_takes_the_line_naming_the_one_the_description_fits() -> None:
    """ "the nurse who came in the mornings had to leave", "the night carer quit", "the night
    driver stopped": no line names them by that tie, so the one person named in the lines
    holding most of the description goes, with every line naming them (before, each
    stayed; "the night driver" is who "drives … at night", not a Corolla "for the night
    shift"); someone named by a family tie is no one described."""
    for first, news, name in [
        (
            "a nurse, Rosilene, comes in the mornings to help me bathe him.",
            "the nurse who came in the mornings had to leave, her mother is sick in Caruaru.",
            "Rosilene",
        ),
        (
            "Dad lives alone, a man named Reda stays with him at night.",
            "But the night carer quit, he found a day job.",
            "Reda",
        ),
        (
            "I drive days and nights are still for Sayed. My cousin Hamdy says buy a Toyota "
            "Corolla for the night shift.",
            "And also the night driver stopped, he went to drive for Uber.",
            "Sayed",
        ),
        (
            "also tomorrow Nunzia comes to clean, 20 years she comes.",
            "sad news, my cleaning lady retired, her back.",
            "Nunzia",
        ),
    ]:
        _gone("Graça", "I'm a seamstress in Recife.", first, news, name)
    first = "My husband Severino works nights at the port."
    lines = lines_after("Graça", first, "the night carer quit, he found a day job.")
    assert any("Severino" in line for line in lines), lines


def test_one_named_who_left_takes_the_lines_naming_them_by_no_family_tie() -> None:
    """ "Dr Kamau retired" retires "my doctor is Dr Kamau"; "Tunde moved out" takes only "with
    my housemate Tunde" from where they live (before, both stayed); a son by name who moved
    out is still a son."""
    lines = lines_after(
        "Wairimu", "my doctor is Dr Kamau at Othaya hospital.", "Dr Kamau retired, sadly."
    )
    assert not any("doctor is Dr Kamau" in line for line in lines), lines
    lines = lines_after(
        "Obi",
        "I live in a shared house in Harehills with my housemate Tunde, rent is 450 a month.",
        "Tunde moved out last week.",
    )
    assert "Obi lives in a shared house in Harehills, rent is 450 a month." in lines, lines
    lines = lines_after("Ama", "My son Kofi plays the drums.", "Kofi moved out last week.")
    assert any("Kofi plays the drums" in line for line in lines), lines


def test_one_off_for_long_or_who_helped_the_speaker_is_gone() -> None:
    """ "my helper's gone backpacking through Europe" is gone for long, as "left for a job"
    and "gone off travelling for a year" are; "the young man who was helping me" is "my helper Brian" (a helper helps); a line
    asking for help names no helper."""
    for first, news in [
        (
            "my helper Jordo reckons we should do a student discount",
            "also my helper's gone backpacking through Europe, so I've got Tayla now",
        ),
        (
            "my helper Brian fell off a ladder yesterday, only a sprain thank God.",
            "the young man who was helping me went back to his village in Kapsabet.",
        ),
        (  # (or for a year: "gone off travelling for a year"; not "for a week")
            "our drummer Rhodri reckons we should play faster.",
            "Our drummer has gone off travelling for a year so Carys is taking over the kit.",
        ),
    ]:
        name = next(n for n in ("Jordo", "Brian", "Rhodri") if n in first)
        _gone("Kiprono", "I'm an electrician in Eldoret.", first, news, name)
    lines = lines_after(
        "Thanh",
        "I need help planning the summer. Ngan stays home with our helper chi Oanh.",
        "our helper went back to her hometown to get married, we found chi Thuong.",
    )
    assert not any("Oanh" in line for line in lines), lines
    lines = lines_after(
        "Gareth",
        "our drummer Rhodri reckons we should play faster.",
        "Our drummer has gone travelling for a week.",
    )
    assert any("Rhodri" in line for line in lines), lines


def _gone(speaker: str, intro: str, first: str, news: str, name: str) -> None:
    """After ``intro`` (a trade in a city), ``first`` and ``news``, no line names ``name``, and
    the city stays."""
    lines = lines_after(speaker, intro, first, news)
    assert not any(name in line for line in lines), lines
    assert any(line.startswith(f"{speaker} is based in ") for line in lines), lines


def test_one_who_left_for_a_job_said_with_its_kind_is_gone() -> None:
    """ "Mary left for a hospital job" is gone for good, as "left for a job" is: the carer's
    line naming her goes; "Mary left her bag here" leaves nothing."""
    older = ["Fiona's carer Mary comes at 8 every morning.", "Fiona lives in Kirkcaldy."]
    assert _merge("Fiona", older, "Mary left for a hospital job.") == [older[0]]
    assert _merge("Fiona", older, "Mary left her bag here yesterday.") == []


def test_one_named_who_moved_to_another_town_is_gone() -> None:
    """ "Tania moved to Perth" ends the childminder's line naming her, as "moved away" does;
    a son who moved to Perth is still a son, and "moved to nights" names no town."""
    older = ["Mick's son goes to childminder Tania on Mondays.", "Mick lives in Brisbane."]
    said = "Tania moved to Perth so Jayden goes to Aunty Rose now."
    assert older[0] in _merge("Mick", older, said)
    older = ["Mick's son Jayden plays rugby on Saturdays.", "Mick lives in Brisbane."]
    assert _merge("Mick", older, "Jayden moved to Perth for uni.") == []
    older = ["Mick's workmate Tania drives the other van.", "Mick lives in Brisbane."]
    assert _merge("Mick", older, "Tania moved to nights, we never see her.") == []


def test_one_named_who_left_after_another_thing_done_is_gone() -> None:
    """ "Bilal got married and moved out": what he did first does not hide that he left, so
    "Omar's housemate is Bilal" goes; "Bilal got married" alone leaves it."""
    older = ["Omar's housemate is Bilal.", "Omar lives in Lahore."]
    said = "Bilal got married and moved out, Omar's cousin Hamza took his room."
    assert older[0] in _merge("Omar", older, said)
    assert _merge("Omar", older, "Bilal got married last week.") == []


def test_someone_by_a_tie_and_a_name_who_left_leaves_where_the_speaker_lives() -> None:
    """ "my flatmate Sara moved out": the line of living with her keeps where the speaker lives
    (before, a tie said with a name was read as no one, and the line stayed whole); a sister
    who moved out is still a sister."""
    older = ["Lotta lives with their flatmate Sara in Möllevången.", "Lotta is a vet."]
    said = "Lotta's flatmate Sara moved out and Johanna took her room."
    assert _merge("Lotta", older, said) == [older[0]]
    lines = lines_after(
        "Lotta", "I live in Möllevången with my sister Sara.", "my sister Sara moved out."
    )
    assert "Lotta lives with their sister Sara." in lines, lines


def test_premises_that_moved_are_no_one_who_left() -> None:
    """ "The bakery has moved to Baner" moves the bakery's line to Baner: premises are no
    one who left, so the line keeps its name."""
    lines = lines_after(
        "Arjun",
        "I'm Arjun, I run a small bakery called Crumb Story in Koregaon Park, Pune.",
        "The bakery has moved to Baner.",
    )
    assert any("Crumb Story in Baner" in line for line in lines), lines
    assert not any("Koregaon" in line for line in lines), lines


def test_one_gone_to_open_their_own_business_is_gone() -> None:
    """ "my apprentice has gone to open his own shop" (or "leave to open her own studio", as
    some write it) retires the line naming the apprentice; "went to open the shop" is a day."""
    lines = lines_after(
        "Chidi",
        "My apprentice Ifeanyi fills the parts log, he has been with me two years.",
        "Small update: my apprentice has gone to open his own shop.",
    )
    assert not any("Ifeanyi" in line for line in lines), lines
    lines = lines_after(
        "Bianca",
        "the manicure is done by Juliana, she is with me 3 years",
        "bad thing happened, my manicurist leave to open her own studio.",
    )
    assert not any("Juliana" in line for line in lines), lines
    lines = lines_after(
        "Chidi",
        "My apprentice Ifeanyi fills the parts log, he has been with me two years.",
        "My apprentice went to open the shop early today.",
    )
    assert any("Ifeanyi" in line for line in lines), lines


def test_one_leaving_for_a_year_away_is_gone_and_who_takes_over_after_an_emoji_is_a_line() -> None:
    """ "my packing helper is leaving for an Erasmus year in Lisbon 😢 a neighbour's son,
    Kofi, is taking over": leaving for a year is gone for long, as "left for a job" is, and the
    emoji ends the sentence before someone with a verb of their own (before, one line held
    both, and the helper's line stayed)."""
    lines = lines_after(
        "Griet",
        "I'm an illustrator in Ghent.",
        "my helper Inka packs orders on Fridays",
        "my packing helper is leaving for an Erasmus year in Lisbon 😢 a neighbour's son, Kofi,"
        " is taking over the Friday packing",
    )
    assert not any("Inka" in line for line in lines), lines
    assert any(line.startswith("A neighbour's son, Kofi, is taking over") for line in lines), lines
