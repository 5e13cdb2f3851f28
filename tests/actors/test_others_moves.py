"""Whose move it is (``subjects.subject``, ``ownership``, through ``truth.merge``): someone
the speaker names who moved, by a relation, a name or any word for them ("my kuya"), moves
alone; the speaker's home stays."""

from __future__ import annotations

from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge


def test_a_place_said_of_a_thing_or_a_relatives_move_is_no_move_of_theirs() -> None:
    """ "Tessa AI, a startup based in Hanoi" is the startup's place; a grandson moving to
    Leeds is the grandson's move (a grandchild, an in-law or a teammate is someone else)."""
    older = ["Minh is based in Da Nang.", "Minh works at Lumora."]
    said = "Minh switched jobs, now backend lead at Tessa AI, a startup based in Hanoi."
    assert _merge("Minh", older, said) == [older[1]]
    older = ["Margaret moved into a retirement flat in Ripon."]
    for who in ("grandson", "brother-in-law", "teammate"):
        assert _merge("Margaret", older, f"Margaret's {who} is moving to Leeds.") == []


def test_someone_helped_or_seen_to_move_is_the_one_who_moves() -> None:
    """ "helped my nephew move to Leeds", "watched Ruth move into her flat in York": the move
    is of the one a verb of helping or seeing has do it, not of the speaker."""
    older = ["Margaret lives in Ripon.", "Margaret volunteers at the library."]
    for said in (
        "Margaret helped their nephew move to Leeds at the weekend, what a job.",
        "Margaret is helping Ruth move into a flat in York.",
    ):
        assert _merge("Margaret", older, said) == [], said
    assert _merge("Margaret", older, "Margaret moved to Leeds to be near family.") == [older[0]]


def test_someones_new_home_after_a_greeting_is_a_move_of_theirs() -> None:
    """ "Salaam from Bilal's new apartment in Gulberg": the home is Bilal's (whose it is, not
    the greeting's first word), and a new home somewhere is a move, so it replaces a city said
    with his work."""
    older = ["Bilal is based in Murree.", "Bilal drives a bus."]
    said = "Salaam from Bilal's new apartment in Gulberg!!"
    assert _merge("Bilal", older, said) == [older[0]]
    assert _merge("Bilal", older, "Salaam from Sana's new apartment in Gulberg!!") == []


def test_a_name_in_apposition_to_a_thing_is_not_who_lives_there() -> None:
    """ "sings in a choir, Cantamus, here in Kraków" is where the singer lives (the name is
    the choir's), so a move replaces it; "Bilal's cousin, Sana, lives in Kraków" stays
    Sana's."""
    older = ["Bilal sings in an amateur choir, Cantamus, here in Kraków.", "Bilal drives a bus."]
    said = "From this week Bilal lives in Gdańsk, close to the shipyard."
    assert _merge("Bilal", older, said) == [older[0]]
    cousin = ["Bilal's cousin, Sana, lives in Kraków.", "Bilal drives a bus."]
    assert _merge("Bilal", cousin, said) == []


def test_someone_named_then_who_moved_is_the_one_who_moved() -> None:
    """ "Met a guy, Marco, who just moved to Gdańsk": Marco moved, not the speaker."""
    older = ["Bilal lives in Kraków.", "Bilal drives a bus."]
    for said in [
        "Bilal met a guy, Marco, who just moved to Gdańsk.",
        "Bilal has a new colleague, Marco, who lives in Gdańsk.",
    ]:
        assert _merge("Bilal", older, said) == [], said


def test_someone_named_after_a_word_that_says_how_they_are_moves_alone() -> None:
    """ "Young Saga is moving to Gothenburg for university" is Saga's move, not the speaker's
    home; "Today Ingrid is moving to Malmö" is the speaker's."""
    older = ["Ingrid is a retired nurse.", "Ingrid is based in Uppsala."]
    assert _merge("Ingrid", older, "Young Saga is moving to Gothenburg for university.") == []
    assert _merge("Ingrid", older, "Today Ingrid is moving to Malmö for good.") == [older[1]]


def test_someone_of_theirs_who_moved_by_any_word_for_them_moves_alone() -> None:
    """ "My kuya just moved to Manila for his new job" is the older brother's move, whatever
    word names him: the speaker's home in Mandaue stays."""
    memory = _memory_after(
        ("Update po: we moved to Mandaue, cheaper rent and more space for Choco.", "Jerome", "s"),
        ("My kuya just moved to Manila for his new job, so Mama is alone now.", "Jerome", "s"),
    )
    assert "moved to Mandaue" in memory, memory


def test_someone_of_theirs_by_trade_or_a_trip_away_changes_no_employer() -> None:
    """ "Ximena's head chef just quit to go work in Lima" is the chef's job; "Next week I'm
    out at Swakopmund for fieldwork" is a trip, not a workplace."""
    memory = _memory_after(
        ("I work at Caleta, a seafood place in Valparaiso.", "Ximena", "s"),
        (
            "my head chef just quit to go work in Lima, so the kitchen is crazy right now",
            "Ximena",
            "s",
        ),
    )
    assert "Ximena works at Caleta" in memory, memory
    memory = _memory_after(
        ("I'm a geologist at Namib Lithium.", "Nkechi", "s"),
        ("next week I'm out at Swakopmund for fieldwork, 5 days.", "Nkechi", "s"),
    )
    assert "Nkechi works at Namib Lithium." in memory, memory


def test_a_clause_of_no_subject_after_someone_elses_news_is_theirs() -> None:
    """ "Gary's got news too, he's finally done with FIFO, got a job at the port" is Gary's new
    job: the clause opening with "got" has the subject of the one before (before, it was the
    speaker's, and took their employer); "it's Tracey that moved" is no move of theirs."""
    memory = _memory_after(
        ("Hi, I'm Sharon, payroll officer at Redrock Services.", "Sharon", "s"),
        (
            "no I'm still in payroll, it's Tracey that moved. Gary's got news too, he's finally "
            "done with FIFO, got a job at the port in Fremantle, home every night!!",
            "Sharon",
            "s",
        ),
    )
    assert "Redrock" in memory and "moved to" not in memory, memory


def test_new_inside_a_name_mid_sentence_says_no_change() -> None:
    """ "Jerome just started at New Flyer …, the pay is way better than his old shop" names
    the firm "New Flyer": no cue of a change of the speaker's (before, "New" was one, and the
    speaker's employer went by nearness)."""
    memory = _memory_after(
        ("Hello! I'm Tanya, a claims adjuster with Prairie Mutual in Winnipeg.", "Tanya", "s"),
        (
            "Jerome just started at New Flyer btw, building buses, he's thrilled, the pay is way "
            "better than his old shop",
            "Tanya",
            "s",
        ),
    )
    assert "Prairie Mutual" in memory and "New Flyer" in memory, memory


def test_a_wish_in_a_clause_after_a_change_leaves_the_change_said() -> None:
    """ "Capucine dropped the conservatoire, she wants to play drums" says a change, though a
    wish follows it (before, the wish hedged the whole sentence, and nothing was kept)."""
    memory = _memory_after(
        (
            "thanks. Capucine dropped the conservatoire, she wants to play drums in a band with "
            "her friends 🥁 poor neighbours",
            "Margaux",
            "s",
        ),
    )
    assert "Capucine dropped the conservatoire" in memory, memory
    # (a wish before the change still hedges it: "I'd love to quit, …")
    memory = _memory_after(
        ("I work at Acme Logistics.", "Margaux", "s"),
        ("I'd love to quit, the job is awful.", "Margaux", "s"),
    )
    assert "Acme" in memory, memory


def test_a_name_doing_a_thing_to_his_or_her_own_is_someone_elses_news() -> None:
    """ "Kev changed his phone to Telcel now" is Kev's phone (the speaker's own things are
    written "their"): the speaker's Movistar stays, and a neighbour's house sold is no home
    of theirs."""
    older = ["Aurelio's phone is Movistar, the signal is very bad.", "Aurelio lives in Tlacolula."]
    said = "Kev changed his phone to Telcel now, he says the signal is better."
    assert _merge("Aurelio", older, said) == []
    assert _merge("Aurelio", older, "Tomasa sold her house, she moved to Mitla.") == []


def test_someone_of_theirs_by_any_doers_word_holds_the_key() -> None:
    """ "my head baker has left for a job in Dubai" is the baker's job, not the speaker's,
    so "first week at the new shop in Baner" moves the bakery instead of taking the baker's
    line as the speaker's old workplace."""
    memory = _memory_after(
        (
            "I'm Arjun, I run a small bakery called Crumb Story in Koregaon Park, Pune.",
            "Arjun",
            "s",
        ),
        ("My head baker Santosh wants his name on the notice, he's proud of it.", "Arjun", "s"),
        ("Bad news, my head baker has left for a job in Dubai.", "Arjun", "s"),
        (
            "First week at the new shop in Baner is done and people are queueing outside!",
            "Arjun",
            "s",
        ),
    )
    assert "Crumb Story in Baner, Pune" in memory, memory
    assert "Koregaon" not in memory, memory


def test_someone_of_theirs_who_quit_leaves_the_speakers_trade() -> None:
    """ "my apprentice has quit, he wants to study" is the apprentice's leaving: the
    plumber stays a plumber."""
    memory = _memory_after(
        ("I am a self-employed plumber and heating installer in Leipzig.", "Bernd", "s"),
        (
            "And my apprentice has quit, he wants to study. A young man named Emre started his "
            "apprenticeship with me on Monday.",
            "Bernd",
            "s",
        ),
    )
    assert "Bernd is a self-employed plumber" in memory, memory
