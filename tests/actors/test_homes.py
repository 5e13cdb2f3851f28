"""Where someone lives (``attributes.keys``' residence, ``places.py``, through ``truth.merge``):
a move replaces the home, in the many ways people say it; a thing's move, a relative's, a
stay or a trip does not, and a move within a place keeps the wider one."""

from __future__ import annotations

import pytest

from tests.actors.merging import facts_of as _facts
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge
from tests.actors.merging import merged as _merged


@pytest.mark.parametrize(
    "said",
    [
        "Bilal and others are relocating to Islamabad.",
        "Bilal and others are settled in Islamabad now.",
        "Bilal needed a fresh start, so Pulla and Bilal now live in Islamabad.",
        "First night in our flat in Islamabad, with a view of the hills.",
        "Bilal and others have taken a flat in Islamabad.",
        "Bilal and others got the keys to our place in Islamabad on Saturday!",
        "Bilal and others got the keys to a townhouse in Islamabad!",
        "Bilal signed the lease on a studio in Islamabad, with a little garden.",
        "Bilal and others got a place in Islamabad, boxes everywhere.",
        "Bilal found a flat in Islamabad near the park.",
        "Bilal and others closed on a house in Islamabad, way more room.",
        # (the home left, said beside the new one)
        "Bilal's flat in Islamabad is so quiet compared to where he lived before.",
        "Bilal's flat in Islamabad is twice the size of his old place.",
    ],
)
def test_relocating_settling_or_living_somewhere_now_is_a_move(said: str) -> None:
    older = ["Bilal works at Ravi Physio Centre.", "Bilal is based in Lahore."]
    assert _merge("Bilal", older, said) == [older[1]]


def test_whom_one_lives_with_and_where_is_a_home_a_new_one_replaces() -> None:
    """ "Still lives with their parents in Florești" says where they live: their own flat
    somewhere else replaces it; whom a pet lives with says no place."""
    older = ["Andrei still lives with their parents in Florești.", "Andrei streams Celeste."]
    said = "Andrei's flat in Mănăștur is tiny but the stream corner is great."
    assert _merge("Andrei", older, said) == [older[0]]
    older = ["The bird lives with Andrei's aunt.", "Andrei streams Celeste."]
    assert _merge("Andrei", older, said) == []


def test_here_is_the_speakers_whoever_the_sentence_is_about_and_a_stay_is_no_home() -> None:
    """ "Most of my customers are here in Paphos, … bikes for the coast road" says where the
    speaker is now; "here in Paphos for the weekend" is a stay, "for the coast road" no
    stay's length."""
    older = ["Andreas lives in Limassol, above their little repair shop.", "Andreas fixes bikes."]
    said = (
        "Most of Andreas's customers are here in Paphos, tourists renting bikes for the coast road."
    )
    assert _merge("Andreas", older, said) == [older[0]]
    assert _merge("Andreas", older, "Andreas is here in Paphos for the weekend.") == []


def test_at_the_farm_somewhere_full_time_is_where_one_lives_and_at_the_office_is_not() -> None:
    """ "These days I'm at the farm in Dalcahue full-time" is a home; "at the office in
    Castro now" is a workplace."""
    older = ["Joaquín lives in Castro, on Chiloé island.", "Joaquín keeps sheep."]
    said = "Joaquín is at the farm in Dalcahue full-time, rented out the house in town."
    assert _merge("Joaquín", older, said) == [older[0]]
    assert _merge("Joaquín", older, "Joaquín is at the office in Ancud now.") == []


def test_a_home_said_with_no_move_keeps_the_city_said_with_their_work() -> None:
    """ "My flat in Islamabad is so quiet" may be where Bilal has lived all along."""
    older = ["Bilal works at Ravi Physio Centre.", "Bilal is based in Lahore."]
    assert _merge("Bilal", older, "Bilal's flat in Islamabad is so quiet.") == []


def test_a_home_taken_and_then_named_by_its_place_is_a_move_there() -> None:
    """ "Got our own place, the Palm Beach unit has a courtyard": the next clause says where
    (a unit of a home taken is a home, not a ward's)."""
    older = ["Jarrah lives in a share house in Burleigh with two mates.", "Jarrah is a plumber."]
    for said in [
        "Jarrah and Ellie got their own place, the Palm Beach unit has a little courtyard.",
        "Jarrah found a flat, the Currumbin one-bed is tiny.",
    ]:
        assert _merge("Jarrah", older, said) == [older[0]], said


@pytest.mark.parametrize(
    "said",
    [
        "Bilal's new flat in Gulberg has a balcony.",
        "Bilal's new place is up in Gulberg, with the steps and the tiny mosque.",
    ],
)
def test_someones_new_home_said_where_it_is_or_is_up_is_a_move(said: str) -> None:
    older = ["Bilal lives in Murree, so it's a long bus ride to the clinic.", "Bilal drives a bus."]
    assert _merge("Bilal", older, said) == [older[0]]


def test_where_someone_stays_is_where_they_live() -> None:
    """ "stays in the staff quarters in Lahore" says where Bilal lives: a new home replaces
    it; staying in for the evening, or a cousin's stay, says no place of theirs."""
    older = ["Bilal stays in the staff quarters in Lahore with four other drivers."]
    said = "Bilal got the keys to the flat in Islamabad on Monday."
    assert _merge("Bilal", [*older, "Bilal drives a bus."], said) == older
    assert _merge("Bilal", ["Bilal lives in Lahore."], "Bilal stays in on Fridays.") == []


def test_a_place_whose_name_opens_with_any_latin_capital_is_a_place() -> None:
    """ "Łódź", "Ørsta", "Évora": a move there replaces the home, as one to "Lodz" would."""
    older = ["Bilal works at Ravi Physio Centre.", "Bilal is based in Lahore."]
    for place in ["Łódź", "Ørsta", "Évora"]:
        assert _merge("Bilal", older, f"Bilal moved to {place} last month.") == [older[1]], place


def test_a_move_of_a_thing_is_no_move_of_its_speaker() -> None:
    """ "Moved the run to 6:15" names no place: the speaker's home stays."""
    older = ["Ines is a dentist.", "Ines lives in Braga."]
    assert _merge("Ines", older, "The club moved the run to 6:15 from now on.") == []
    assert _merge("Ines", older, "The coach moved training to Mondays.") == []
    assert _merge("Ines", older, "The school moved Ines's course to Thursdays.") == []
    assert _merge("Ines", older, "Ines moved to Porto last week.") == ["Ines lives in Braga."]


def test_a_move_within_a_place_keeps_the_wider_place() -> None:
    """ "Moved house, Mangere now" after "live in Otara in South Auckland": the new
    neighbourhood, still in South Auckland; the old line goes to history."""
    line = "Tama and others live in Otara in South Auckland."
    merged = _merged(
        "Tama", [line, "Tama drives buses."], "Tama and others moved house, Mangere now."
    )
    assert [f.text for f in merged.retired] == [line]
    assert "Tama and others live in Mangere in South Auckland." in merged.memory
    # "Mapo, Seoul" too; but a move to a name alone may be anywhere: no "Busan, Seoul"
    said = "Minjun moved house, Seongsu now."
    assert (
        "Minjun lives in Seongsu, Seoul."
        in _merged("Minjun", ["Minjun lives in Mapo, Seoul."], said).memory
    )
    for old_line in ["Minjun lives in Mapo, Seoul.", "Minjun lives in Otara in South Auckland."]:
        memory = _merged("Minjun", [old_line], "Minjun moved to Busan.").memory
        assert "Busan, Seoul" not in memory and "Busan in South" not in memory
    # the city said with their work stays when a finer line said where in it they live
    older = ["Siobhan is based in Galway.", "Siobhan lives in Westside.", "Siobhan is a nurse."]
    said = "Siobhan and others moved out to Salthill last weekend!"
    assert _merge("Siobhan", older, said) == ["Siobhan lives in Westside."]
    assert _merge("Siobhan", [older[0], older[2]], said) == [older[0]]


def test_a_home_or_premises_described_in_a_place_is_a_move_within_the_wider_one() -> None:
    """ "A bigger flat in Manoa" after "a tiny flat in Kaimuki, Honolulu" names a home, not a
    town: still in Honolulu, and the line says only where ("the roof leaks" was the old
    flat's). A business moved to "a bigger shop in Surco" is in Surco, Lima; a move to a
    name alone ("moved to Hilo") may be anywhere, and takes the whole line."""
    line = "Keala and others live in a tiny flat in Kaimuki, Honolulu, the roof leaks."
    for said in [
        "Keala and others moved on Sunday, a bigger flat in Manoa!",
        "Keala rented a room in Manoa, closer to work.",
    ]:
        merged = _merged("Keala", [line, "Keala is a nurse."], said)
        assert [f.text for f in merged.retired] == [line]
        assert "Keala and others live in Manoa, Honolulu. <!--" in merged.memory
        assert "Kaimuki" not in merged.memory and "roof" not in merged.memory
    memory = _merged("Keala", [line], "Keala moved to Hilo.").memory
    assert "Honolulu" not in memory and "Hilo, " not in memory
    bakery = "Hi, I'm Oksana. I have a little bakery, Pan Dulce, in Miraflores, Lima."
    memory = _memory_after(
        (bakery, "Oksana", "s"),
        ("Big week! We moved the bakery to a bigger shop in Surco, more space.", "Oksana", "s"),
    )
    assert "Oksana has a little bakery, Pan Dulce, in Surco, Lima. <!--" in memory
    assert "Miraflores" not in memory
    memory = _memory_after(
        (bakery, "Oksana", "s"),
        ("We moved the bakery to a bigger space in Barranco.", "Oksana", "s"),
    )
    assert "Oksana has a little bakery, Pan Dulce, in Barranco, Lima. <!--" in memory
    memory = _memory_after(
        (bakery, "Oksana", "s"), ("We moved the bakery to Cusco.", "Oksana", "s")
    )
    assert "Lima" not in memory


def test_the_same_place_said_again_is_no_move_and_a_homes_rent_no_home() -> None:
    """ "Officially moved into Borrowdale" retires no line that says Tendai lives there, and
    "the rent on the new place is 520 USD" says what it costs, not where anyone lives (a
    move takes no such line); "switched jobs, joined Jamuna Tech" is the speaker's."""
    older = ["Tendai lives in Borrowdale, in a flat with a balcony.", "Tendai works at Kopje."]
    assert _merge("Tendai", older, "Tendai moved into Borrowdale on Saturday.") == []
    older = ["The rent on the new place is 520 USD.", "Tendai lives in Avondale."]
    assert _merge("Tendai", older, "Tendai has moved to Borrowdale.") == [older[1]]
    said = "update: switched jobs, joined Jamuna Tech as backend dev."
    assert _facts(_memory_after((said, "Farhan", "s"))) == [
        "Farhan switched jobs, joined Jamuna Tech as backend dev."
    ]


def test_somewhere_now_is_a_move() -> None:
    """ "we packed up and we're in Lautoka now" is a move from the city said with their work;
    "in Sydney this weekend" is a trip."""
    memory = _memory_after(
        ("I teach Year 4 at Draiba Primary here in Suva.", "Litia", "s"),
        ("My husband got transferred, so we packed up and we're in Lautoka now.", "Litia", "s"),
    )
    assert "Suva" not in memory and "Lautoka now" in memory
    memory = _memory_after(
        ("I teach Year 4 at Draiba Primary here in Suva.", "Litia", "s"),
        ("I'm in Sydney this weekend for a bout.", "Litia", "s"),
    )
    assert "Litia is based in Suva." in memory


def test_where_they_are_up_is_a_home_and_a_stay_while_up_somewhere_is_not() -> None:
    """ "We're up in Joondalup" says where they live: a move to Fremantle replaces it;
    "while I'm up in Broome" is a stay, and the home stays."""
    memory = _memory_after(
        ("I'm a nurse. We're up in Joondalup.", "Bec", "s"),
        ("Got a rental ute while I'm up in Broome for work.", "Bec", "s"),
    )
    assert "Joondalup" in memory
    memory = _memory_after(
        ("I'm a nurse. We're up in Joondalup.", "Bec", "s"),
        ("Big news, we've moved to Fremantle, settled in last weekend.", "Bec", "s"),
    )
    assert "Joondalup" not in memory and "Fremantle" in memory


def test_a_home_shifted_to_is_a_move_and_a_meeting_shifted_to_a_day_is_not() -> None:
    """ "We shifted to Tema last week" (a move, as said in South Asia and West Africa)
    replaces "We live in Osu"; "the meeting shifted to Tuesday" moves no home."""
    memory = _memory_after(
        ("We live in Osu, near the market.", "Esi", "s"),
        ("The meeting shifted to Tuesday.", "Esi", "s"),
    )
    assert "Osu" in memory
    memory = _memory_after(
        ("We live in Osu, near the market.", "Esi", "s"),
        ("We shifted to Tema last week, much closer to the new office.", "Esi", "s"),
    )
    assert "Osu" not in memory and "Tema" in memory
    # (the place of a home named by whose it is: "my daughter's flat in Kumasi", not "Esi's")
    older = ["Esi is a retired nurse, living in Accra with their son's family in Osu."]
    said = "Esi and others have shifted to Esi's daughter's flat in Kumasi."
    memory = _merged("Esi", older, said).memory
    assert "Accra" not in memory and "in Esi's" not in memory


def test_a_pet_gone_to_live_elsewhere_moves_no_home_of_the_speaker() -> None:
    """ "Our collie has gone to live on my cousin's farm near Tregaron" ends the collie's
    stay, and the speaker still lives in Borth."""
    memory = _memory_after(
        ("I'm a retired nurse, 66, living in Borth near Aberystwyth.", "Ruth", "s"),
        ("Our collie Mot is driving us mad, he herds the post van.", "Ruth", "s"),
        ("Our collie has gone to live on my cousin's sheep farm near Tregaron.", "Ruth", "s"),
    )
    assert "Borth" in memory and "living in Tregaron" not in memory
    # (said with its "'s" after a lead: "Sad news: the cat's moved in with my parents")
    older = ["Ruth lives in Borth.", "Ruth's cat Tansy sleeps on the Aga."]
    said = "Sad news: the cat's moved in with Ruth's parents in Tregaron, she hated the new dog."
    assert "Ruth lives in Borth." not in _merge("Ruth", older, said)


def test_a_new_home_said_where_it_is_is_a_move() -> None:
    """ "The new apartment in Suita is bigger" says where they live now: "I live in Tennoji"
    goes; "my sister loves the new flat in Leeds" is the sister's."""
    memory = _memory_after(
        ("I live in Abeno and I work as an engineer at Kintetsu.", "Sota", "s"),
        ("First week done! Also the new apartment in Toyonaka is bigger.", "Sota", "s"),
    )
    assert "Abeno" not in memory and "Toyonaka" in memory
    memory = _memory_after(
        ("I live in Abeno and I work as an engineer at Kintetsu.", "Sota", "s"),
        ("My sister loves her new flat in Leeds.", "Sota", "s"),
    )
    assert "Abeno" in memory


def test_here_in_a_place_says_where_they_live_and_a_stay_there_does_not() -> None:
    """ "a piece for the parish newsletter here in Bad Aibling" says where they live: a move
    replaces it; "I'm here in Rome for the weekend" is a stay."""
    memory = _memory_after(
        (
            "I would like help with a piece for the parish newsletter here in Bad Aibling.",
            "Gerda",
            "s",
        ),
        ("Well, it is done! I have moved to Kolbermoor, near my daughter.", "Gerda", "s"),
    )
    assert "Aibling" not in memory and "Kolbermoor" in memory
    memory = _memory_after(
        ("I live in Bad Aibling with my cat.", "Gerda", "s"),
        ("I'm here in Rome for the weekend with my sister.", "Gerda", "s"),
    )
    assert "Aibling" in memory


def test_their_home_in_a_place_said_in_passing_is_where_they_live() -> None:
    """ "a five-minute drive from our place in Highlands" says where they live, so a move
    replaces it."""
    memory = _memory_after(
        ("The daycare is a five-minute drive from our place in Kingsway.", "Emily", "s"),
        ("We moved to Alta Vista last weekend, boxes everywhere.", "Emily", "s"),
    )
    assert "Kingsway" not in memory and "Alta Vista" in memory


def test_a_new_home_said_without_its_article_is_a_move() -> None:
    """ "New flat in Leith is bigger" (the article left out) says where they live now."""
    memory = _memory_after(
        ("I live in Morningside, my flat is tiny.", "Isla", "s"),
        ("New flat in Leith is bigger, we moved on Saturday.", "Isla", "s"),
    )
    assert "Morningside" not in memory and "Leith" in memory


def test_a_move_to_a_part_of_a_workplace_is_no_move_of_home() -> None:
    """ "I've moved to Cedar ward": a ward (a station, a depot) is where they work, never
    where they live; the old ward's line goes, the city stays."""
    older = ["Priya is based in Leicester.", "Priya works on Jasmine ward."]
    assert _merge("Priya", older, "Priya has moved to Cedar ward, it's respiratory.") == [older[1]]


def test_a_move_of_house_said_with_where_in_the_next_clause_is_a_move() -> None:
    """ "We've moved house, finally in Treorchy now": the place of a bare move of house may be
    said in the next clause, after "in"."""
    older = [
        "Bryn lives in Porthcawl, about 25 minutes from the station.",
        "Bryn is a firefighter.",
    ]
    said = "Bryn and others have moved house, finally in Treorchy now, closer to Bryn's mum."
    assert _merge("Bryn", older, said) == older[:1]


def test_a_home_said_to_be_here_is_the_one_already_held() -> None:
    """ "We're settled here now" and "I live here now" name no new place: the home they hold
    stays, as the employer does "at the same hospital"."""
    older = ["Wiktor lives in Kettering.", "Wiktor works nights at a bakery."]
    for said in ("Wiktor and others are settled here now.", "Wiktor lives here now."):
        assert _merge("Wiktor", older, said) == [], said
    assert _merge("Wiktor", older, "Wiktor lives in Corby now.") == [older[0]]


def test_a_home_they_rent_is_where_they_live() -> None:
    """ "I rent a studio in Marrickville" says where they live, as "I live in" does: a move
    replaces it; a car rented on a trip is no home."""
    older = ["Keri rents a studio in Marrickville, close to the station.", "Keri is a nurse."]
    assert _merge("Keri", older, "Keri moved into a flat in Newtown with a garden.") == [older[0]]
    older = ["Keri rented a car in Hobart.", "Keri lives in Newtown."]
    assert _merge("Keri", older, "Keri moved into a flat in Glebe.") == [older[1]]


def test_a_room_of_theirs_somewhere_is_where_they_live_whatever_opens_the_sentence() -> None:
    """ "Only 10 minutes from my room in Karlín": a room is a home, and "Only" opening the
    sentence names nobody, so the room is the speaker's and their home moved."""
    memory = _memory_after(
        ("I live in Smíchov, I work nights at the bakery.", "Radek", "s"),
        ("Only 10 minutes from my room in Karlín, and the landlady cooks.", "Radek", "s"),
    )
    assert "Smíchov" not in memory and "Karlín" in memory


def test_a_home_they_share_is_where_they_live_and_a_move_takes_it_not_the_city() -> None:
    """ "I share a place in Adabraka with my friend Efua" is their home, finer than the city
    of their introduction; a move to a flat elsewhere takes it, and the city stays."""
    memory = _memory_after(
        ("Hi, I'm Akua. I'm a waitress at Buka Kitchen in Accra and I want to bake.", "Akua", "s"),
        (
            "Rent is 900 cedis, I share a place in Adabraka with my friend Efua. Transport is"
            " cheap because I walk to the café.",
            "Akua",
            "s",
        ),
        (
            "And Abena and I moved on Saturday, to a flat in Osu that's closer to the café.",
            "Akua",
            "s",
        ),
    )
    assert "Adabraka" not in memory and "Osu" in memory and "based in Accra" in memory


def test_a_new_employer_is_no_move_whatever_the_home_line_says_beside() -> None:
    """ "lives in Moseley, so there's loads of bus routes" is the line nearest in meaning to a
    first week at a train company or a bus firm: a change of work ends no home; a move does."""
    older = ["Tariq lives in Moseley, so there's loads of bus routes.", "Tariq works as a porter."]
    for said in (
        "First week at West Midlands Trains done!",
        "Tariq works at Arriva now, the shifts suit the bus routes.",
    ):
        assert _merge("Tariq", older, said) == [], said
    assert _merge("Tariq", older, "Tariq moved to Erdington.") == [older[0]]


def test_a_home_said_after_a_plural_that_opens_the_sentence_is_the_speakers() -> None:
    """ "Mornings are calmer since the flat in Gulberg …": the plural that opens the
    sentence names no one (one person's name takes "is"), so the flat is the speaker's."""
    older = ["Bilal lives in Murree.", "Bilal drives a bus."]
    said = "Mornings are calmer since the flat in Gulberg is next to the depot."
    assert _merge("Bilal", older, said) == [older[0]]
    assert (
        _merge("Bilal", older, "Sana is calmer since the flat in Gulberg is near her work.") == []
    )


@pytest.mark.parametrize(
    "said",
    [
        "The commute from Gulberg is worse, but the clinic pays more.",
        "Enjoying the walk to work from Gulberg, only ten minutes.",
        "Bilal commutes in from Gulberg on the early bus.",
    ],
)
def test_where_the_trip_to_work_starts_is_home(said: str) -> None:
    """Where the day's trip to work or school starts is where someone lives; a trip's drive
    ("the drive from Multan was long") says nothing of their home."""
    older = ["Bilal lives in Murree.", "Bilal drives a bus."]
    assert _merge("Bilal", older, said) == [older[0]]
    assert _merge("Bilal", older, "The drive from Multan was long.") == []


def test_which_is_where_someone_lives_too_is_a_claim_of_its_own() -> None:
    """ "rehearse in Salthill, which is where I live too" says two things: a move ends the
    home and keeps where the rehearsals are."""
    memory = _memory_after(
        ("We rehearse on Monday nights in Salthill, which is where I live too.", "Maeve", "s"),
        (
            "The drive in from Oranmore is only 15 minutes, delighted we bought out here.",
            "Maeve",
            "s",
        ),
    )
    assert "Maeve and others rehearse on Monday nights in Salthill." in _facts(memory)
    assert not [f for f in _facts(memory) if "lives" in f and "Salthill" in f], memory


def test_a_home_left_long_ago_is_no_finer_home_a_move_spares_the_city_for() -> None:
    """ "Lived in Busan until uni" is where they lived: a move to Seongsu takes the home
    "based in Mangwon-dong", as it would without that line."""
    older = [
        "Jiwoo is based in Mangwon-dong.",
        "Jiwoo lived in Busan until uni, so Seoul still feels huge sometimes.",
    ]
    assert _merge("Jiwoo", older, "Jiwoo moved to Seongsu last weekend.") == [older[0]]


def test_a_home_taken_after_arriving_somewhere_is_a_move() -> None:
    """ "We arrived in Austin two weeks ago and rented a house in Round Rock": Austin, after
    "in", is where they arrived, not who rented; the house is their home."""
    memory = _memory_after(
        ("I am Kenji, embedded software engineer at Hoshizora Robotics in Nagoya.", "Kenji", "s"),
        (
            "Hello from Texas! We arrived in Austin two weeks ago and rented a house in Round Rock.",
            "Kenji",
            "s",
        ),
    )
    assert "Nagoya" not in memory and "Round Rock" in memory, memory


def test_a_place_said_to_be_home_is_where_they_live() -> None:
    """ "For now Austin is home." is a home; "Not happening, Durban is home and …", said
    against a move, keeps the home it names (and names no other)."""
    memory = _memory_after(
        ("I am Kenji, an engineer. I live in Nagoya.", "Kenji", "s"),
        ("For now Austin is home. Thank you for all help.", "Kenji", "s"),
    )
    assert "Nagoya" not in memory and "Kenji lives in Austin now." in memory, memory
    memory = _memory_after(
        ("I'm Zanele, a muralist based in Durban.", "Zanele", "s"),
        ("Not happening, Durban is home and the light here is better for painting.", "Zanele", "s"),
    )
    assert "based in Durban" in memory, memory


def test_somewhere_at_the_moment_is_a_home_a_move_replaces() -> None:
    """ "I'm in Porto at the moment, but the company is transferring me to Rotterdam next
    month", then "we officially live in Rotterdam now": the line of Porto goes, though it
    named Rotterdam as a plan."""
    memory = _memory_after(
        (
            "I'm in Porto at the moment, but the company is transferring me to their Rotterdam office next month.",
            "Tiago",
            "s",
        ),
        (
            "Signed for a flat in Kralingen last week, so we officially live in Rotterdam now.",
            "Tiago",
            "s",
        ),
    )
    assert "Porto" not in memory and "live in Rotterdam now" in memory, memory


def test_the_home_said_again_retires_nothing() -> None:
    """ "But Sakai is home now, my son is close" of a home in Sakai: no change, so the line
    of the grandchildren collected "Monday to Thursday" stays."""
    memory = _memory_after(
        ("I am 70 years old and live in Sakai, near Osaka.", "Haruko", "s"),
        ("Monday to Thursday I collect my grandchildren Riku and Aoi from school.", "Haruko", "s"),
        ("But Sakai is home now, my son is close.", "Haruko", "s"),
    )
    assert "grandchildren Riku and Aoi" in memory, memory


def test_a_home_said_without_a_place_is_no_finer_home() -> None:
    """ "Wants to understand the cost of living there" names no place: a house rented in
    Round Rock replaces "based in Nagoya" all the same."""
    older = ["Kenji is based in Nagoya.", "Kenji wants to understand the cost of living there."]
    new = "Kenji and others arrived in Austin and rented a house in Round Rock."
    assert _merge("Kenji", older, new) == [older[0]]


def test_where_they_stay_is_where_they_live_and_a_relatives_move_goes_nowhere_else() -> None:
    """ "I stay at Osu with my wife Ama" is a home, as many say it, which "now we are in Tema"
    moves; "my brother Kofi is moving from London to Manchester" is his move, to Manchester,
    not to the Takoradi a friend asked about in the next sentence."""
    memory = _memory_after(
        ("I stay at Osu with my wife Ama.", "Kwame", "s"),
        ("We finally moved! Rent was too much, so now we are in Tema, Community 25.", "Kwame", "s"),
    )
    assert "Osu" not in memory and "Tema" in memory, memory
    memory = _memory_after(
        (
            "Also my brother Kofi is moving from London to Manchester. And my friend Yaw asked if "
            "I should move to Takoradi with him to drive there.",
            "Kwame",
            "s",
        ),
    )
    assert "Kwame's brother Kofi is moving from London to Manchester." in _facts(memory), memory


def test_home_said_to_be_somewhere_and_a_move_told_by_the_place_before_what_it_is() -> None:
    """ "Home is in Fleetwood with my wife Harleen" is where they live; "we moved! Abbotsford,
    acreage for the equipment." moves it; "Ugh, …" after no move names no place."""
    memory = _memory_after(
        ("Home is in Fleetwood with my wife Harleen, two kids and our dog Sheru.", "Gurpreet", "s"),
        ("we moved! Abbotsford, acreage for the equipment. kids love it", "Gurpreet", "s"),
    )
    assert "Fleetwood" not in memory and "moved to Abbotsford" in memory, memory
    assert "lives with their wife Harleen." in memory, memory  # (who they live with stays)
    # (and without "in": "Home is Matosinhos, with my wife Inês")
    memory = _memory_after(("Home is Matosinhos, with my wife Inês.", "Rafael", "s"))
    assert "Rafael lives in Matosinhos." in memory, memory
    assert "Rafael lives with their wife Inês." in memory, memory
    memory = _memory_after(
        ("I share a flat near the Market Square with Ola and Kuba.", "Tomasz", "s"),
        ("Still cheaper than moving. Ugh, the landlord is slow to fix things.", "Tomasz", "s"),
    )
    assert "Kuba" in memory and "Ugh" not in memory, memory


def test_a_move_leaves_the_old_homes_size_behind() -> None:
    """ "we moved! bigger flat in Oliwa near the park, 3 rooms" of "we live in small flat in
    Wrzeszcz, 2 rooms": no "small flat in Oliwa, 2 rooms" is made up in place of it."""
    memory = _memory_after(
        (
            "my parents come sundays. we live in small flat in Wrzeszcz, 2 rooms, with our dog "
            "Burek who barks at everything",
            "Tomasz",
            "s",
        ),
        (
            "sory for the silence. we moved! bigger flat in Oliwa near the park, 3 rooms.",
            "Tomasz",
            "s",
        ),
    )
    assert "Wrzeszcz" not in memory and "2 rooms" not in memory and "Oliwa" in memory, memory


def test_who_we_are_listed_after_where_we_live_and_a_move_keeps_them() -> None:
    """ "We live in Canton, me, my wife Ffion and our son Osian, who's seven" says the home,
    the wife and the son (seven); "we moved!! bought a house in Talgar" after "We rent a flat
    in Bostandyk district, me, my wife Aigerim and the two kids" keeps the wife."""
    memory = _memory_after(
        ("We live in Canton, me, my wife Ffion and our son Osian, who's seven.", "Rhian", "s")
    )
    assert "Rhian lives in Canton" in memory and "Rhian's son Osian is seven." in memory, memory
    memory = _memory_after(
        (
            "We rent a flat in Bostandyk district, me, my wife Aigerim and the two kids.",
            "Baurzhan",
            "s",
        ),
        ("and we moved!! bought a house in Talgar, kids finally have a yard.", "Baurzhan", "s"),
    )
    assert "Bostandyk" not in memory and "Aigerim" in memory, memory


def test_a_new_home_in_a_wider_place_of_its_own_keeps_nothing_of_the_old_one() -> None:
    """ "my new flat in Wuse, Abuja" after "based in Yaba, Lagos" is no "Wuse, Lagos"."""
    memory = _memory_after(
        (
            "Adaeze here, epidemiologist at Ikenga Health Institute, based in Yaba, Lagos.",
            "Adaeze",
            "s",
        ),
        ("writing from my new flat in Wuse, Abuja! it's lovely.", "Adaeze", "s"),
    )
    assert "Lagos" not in memory and "Wuse, Abuja" in memory, memory
    # (a name that goes on is no wider place: the move is within Barcelona)
    memory = _memory_after(
        ("I live in Sants, Barcelona with my partner.", "Jordi", "s"),
        ("we moved house! a bigger flat in Gràcia, Marta loves it.", "Jordi", "s"),
    )
    assert "Jordi lives in Gràcia, Barcelona." in memory, memory
