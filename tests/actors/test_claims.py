"""One claim per fact (``claims.py``, through ``truth.merge``): a sentence cut into its trade,
employer and place, each of which changes apart."""

from __future__ import annotations

import pytest

from tests.actors.merging import facts_of as _facts
from tests.actors.merging import lines_after as _lines
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge
from tests.actors.merging import merged as _merged


def test_a_trade_an_employer_and_a_place_change_apart() -> None:
    """ "A designer at a studio called Inkwell in Aarhus" is three claims: a notice ends the
    employer, a move the place, and neither the trade; a new employer keeps the trade."""
    memory = _merged(
        "Sofie", [], "Sofie is a graphic designer at a studio called Inkwell in Aarhus."
    )
    claims = ["Sofie works as a graphic designer.", "Sofie works at a studio called Inkwell."]
    assert all(f"{c} <!--" in memory.memory for c in [*claims, "Sofie is based in Aarhus."])
    older = [*claims, "Sofie is based in Aarhus."]
    assert _merge("Sofie", older, "Sofie handed in their notice at the studio.") == [claims[1]]
    assert _merge("Sofie", older, "Sofie moved to Copenhagen.") == ["Sofie is based in Aarhus."]
    assert _merge("Sofie", [claims[0]], "Sofie works at Pillarbox Studio.") == []
    firm = _merged("Oksana", [], "Oksana is an accountant at Baltic Ledger, a small firm.")
    assert "Oksana works at Baltic Ledger, a small firm. <!--" in firm.memory
    farm = _merged("Nacho", [], "Nacho is a sommelier at Viña Sol, a winery outside Santiago.")
    assert "Nacho works at Viña Sol, a winery outside Santiago. <!--" in farm.memory
    home = _merged("Jun", [], "Jun draws on a tablet at home in Mapo, Seoul.").memory
    assert "Jun draws on a tablet. <!--" in home and "Jun lives in Mapo, Seoul. <!--" in home


def test_what_someone_does_and_where_change_apart() -> None:
    """ "Delivers food for Flinkr here in Hamburg" is the work and the city: leaving the work
    keeps the city; a neighbourhood refines the city, a move replaces it; a dream moves
    nothing."""
    memory = _merged("Farhad", [], "Farhad delivers food by bike for Flinkr here in Hamburg.")
    said = ["Farhad delivers food by bike for Flinkr.", "Farhad is based in Hamburg."]
    assert all(f"{line} <!--" in memory.memory for line in said)
    assert _merge("Farhad", said, "No more delivering food!") == [said[0]]
    assert _merge("Farhad", said, "Farhad lives in Wilhelmsburg.") == []
    assert _merge("Farhad", said, "Farhad moved to Munich.") == [said[1]]
    assert _merge("Farhad", said, "Sometimes Farhad dreams about moving to Munich.") == []


def test_where_a_thing_got_is_no_place_of_theirs() -> None:
    """ "I'm buying a plot of land in Kasoa" and "I get them from a farmer in Baní" say where
    the land and the farmer are, not where the speaker is based."""
    for said in (
        "I'm buying a small plot of land in Mampong.",
        "I get the mangoes from a farmer in Azua.",
    ):
        memory = _memory_after((said, "Efua", "s"))
        assert "is based in" not in memory, memory
    memory = _memory_after(("I teach yoga in Haifa.", "Efua", "s"))
    assert "Efua is based in Haifa." in _facts(memory)


def test_a_day_said_first_is_no_one_who_is_somewhere() -> None:
    """ "Saturday mornings she has ballet at a studio in Kavaklıdere" stays as said: no
    "Saturday is based in Kavaklıdere"."""
    said = "Saturday mornings she has ballet at a studio in Kavaklıdere."
    assert _facts(_memory_after((said, "Emre", "s"))) == [said]


def test_an_age_said_with_a_trade_is_a_claim_of_its_own() -> None:
    """ "Henrik is 52, a carpenter at Hansen in Aarhus": quitting ends the employer, not the
    age; a transfer "at the same hospital" keeps the employer."""
    memory = _merged("Henrik", [], "Henrik is 52, a carpenter at Hansen Snedkeri in Aarhus.")
    for claim in [
        "Henrik is 52.",
        "Henrik works as a carpenter.",
        "Henrik works at Hansen Snedkeri.",
    ]:
        assert f"{claim} <!--" in memory.memory
    older = ["Oskar is a nurse.", "Oskar works at Nordvik Hospital."]
    said = "Oskar transferred to the pediatric ward at the same hospital."
    assert _merge("Oskar", older, said) == []


def test_a_trade_with_an_acronym_is_a_trade_and_a_count_of_weeks_is_nobody() -> None:
    """ "A QA tester at FPT Software" is a trade and an employer, and a promotion replaces the
    trade; "Two weeks in our new flat in Chittagong" is said by nobody called Two."""
    memory = _merged("Linh", [], "Linh is a QA tester at FPT Software.").memory
    older = ["Linh works as a QA tester.", "Linh works at FPT Software."]
    assert all(f"{line} <!--" in memory for line in older)
    assert _merge("Linh", older, "They promoted Linh to QA lead.") == [older[0]]
    memory = _merged("Nusrat", [], "Two weeks in our new flat in Chittagong.").memory
    assert "Two is based" not in memory


@pytest.mark.parametrize(
    ("said", "claims"),
    [
        (
            "Chidi is Chidi, backend engineer at Kobopay here in Abuja.",
            [
                "Chidi works as a backend engineer.",
                "Chidi works at Kobopay.",
                "Chidi is based in Abuja.",
            ],
        ),
        (  # (someone named and nothing said of them: who they are, said in full)
            "Chidi's husband Haruto.",
            ["Chidi's husband is Haruto."],
        ),
        ("Chidi's dog Pipoca.", ["Chidi's dog is called Pipoca."]),
        ("It's based in Eldoret.", ["It's based in Eldoret."]),
        (  # (a model's echo of an introduction)
            "Chidi here, Chidi is a music producer in Lagos.",
            ["Chidi works as a music producer.", "Chidi is based in Lagos."],
        ),
        (
            "Chidi is a freelance translator living in Kazimierz in Krakow.",
            ["Chidi works as a freelance translator.", "Chidi is based in Kazimierz in Krakow."],
        ),
        (
            "Chidi is a paramedic based in Aberystwyth.",
            ["Chidi works as a paramedic.", "Chidi is based in Aberystwyth."],
        ),
        (
            "Chidi is a flight attendant with Haneul Air, based in Busan.",
            [
                "Chidi works as a flight attendant.",
                "Chidi works at Haneul Air.",
                "Chidi is based in Busan.",
            ],
        ),
        (
            "Chidi is a technician at the Hellisheidi geothermal plant.",
            ["Chidi works as a technician.", "Chidi works at the Hellisheidi geothermal plant."],
        ),
        (
            "Chidi is a baker at Boulangerie Vernet in the Croix-Rousse.",
            [
                "Chidi works as a baker.",
                "Chidi works at Boulangerie Vernet.",
                "Chidi is based in Croix-Rousse.",
            ],
        ),
        (  # a trade started, after the day it starts on
            "Monday Chidi starts as head chef at Hanabi Bistro.",
            ["Chidi works as a head chef.", "Chidi works at Hanabi Bistro."],
        ),
        (  # where the employer is, where they are
            "Chidi is a sous-chef at Kaiyo, a seafood place in Osaka.",
            [
                "Chidi works as a sous-chef.",
                "Chidi works at Kaiyo, a seafood place in Osaka.",
                "Chidi is based in Osaka.",
            ],
        ),
        (  # an employer joined in a trade
            "Chidi joined Studio Nine as an art director.",
            ["Chidi works as an art director.", "Chidi works at Studio Nine."],
        ),
        (  # ("New job too: I'm now an art director at Studio Nine", the issue's)
            "Chidi is now an art director at Studio Nine.",
            ["Chidi works as an art director.", "Chidi works at Studio Nine."],
        ),
        (
            "Chidi started at Studio Nine as art director on Monday.",
            ["Chidi works as an art director.", "Chidi works at Studio Nine."],
        ),
        (  # ("Derwent Sparks took me on as …", as the extractive path writes it)
            "Chidi was hired by Derwent Sparks as a first-year apprentice electrician.",
            [
                "Chidi works as a first-year apprentice electrician.",
                "Chidi works at Derwent Sparks.",
            ],
        ),
        (  # an offer accepted, and the trade said first
            "Chidi has accepted an offer from Harbour Foods as head of logistics.",
            ["Chidi works as a head of logistics.", "Chidi works at Harbour Foods."],
        ),
        (
            "Chidi got hired as pastry chef at Le Petit Four!",
            ["Chidi works as a pastry chef.", "Chidi works at Le Petit Four."],
        ),
        (  # where, and with whom: a move is no move of theirs, a break-up no move
            "Chidi lives in Manchester with their boyfriend Leo.",
            ["Chidi lives in Manchester.", "Chidi lives with their boyfriend Leo."],
        ),
        (
            "Chidi lives in Manchester with Leo, their boyfriend.",
            ["Chidi lives in Manchester.", "Chidi lives with Leo, their boyfriend."],
        ),
        (
            "Chidi lives with their sister Ada in Enugu.",
            ["Chidi lives in Enugu.", "Chidi lives with their sister Ada."],
        ),
        (  # "based in" is the place, not a claim of its own besides it ("Chidi is based.")
            "Chidi is based in Leeds.",
            ["Chidi is based in Leeds."],
        ),
        (  # two things ended in one breath end apart; a second verb is no second thing
            "Chidi quit Pixelworks and volleyball in the same week, big life reset.",
            [
                "Chidi quit Pixelworks in the same week.",
                "Chidi quit volleyball in the same week, big life reset.",
            ],
        ),
        ("Chidi sold the car and moved to Leeds.", ["Chidi sold the car and moved to Leeds."]),
        (  # a place with the wider one after a comma
            "Chidi is a line cook at La Fonda Azul in Coyoacán, Mexico City.",
            [
                "Chidi works as a line cook.",
                "Chidi works at La Fonda Azul.",
                "Chidi is based in Coyoacán, Mexico City.",
            ],
        ),
        (  # a part in an ensemble: "Pakkanen" may be a band's name as well as a place's
            "Chidi plays bass in Pakkanen.",
            ["Chidi plays bass in Pakkanen."],
        ),
        (
            "Chidi plays bass in a band called Marea Alta here in Valparaiso.",
            ["Chidi plays bass in a band called Marea Alta.", "Chidi is based in Valparaiso."],
        ),
        (  # the article as a trade is said: "a UX designer", "an MBA student", "an hour"
            "Chidi is a UX designer at Kvist Design.",
            ["Chidi works as a UX designer.", "Chidi works at Kvist Design."],
        ),
        (
            "Chidi joined Lumen Health as SEO lead.",
            ["Chidi works as an SEO lead.", "Chidi works at Lumen Health."],
        ),
        (
            "Chidi joined Ghent University as university lecturer.",
            ["Chidi works as a university lecturer.", "Chidi works at Ghent University."],
        ),
        (
            "Chidi is a lawyer at Novak & Partners in Brno.",
            [
                "Chidi works as a lawyer.",
                "Chidi works at Novak & Partners.",
                "Chidi is based in Brno.",
            ],
        ),
        (  # each one they live with, with the names said of them
            "Chidi lives in Kilimani with their husband Kamau, their two boys, and a very "
            "spoilt cat called Pilipili.",
            [
                "Chidi lives in Kilimani.",
                "Chidi lives with their husband Kamau.",
                "Chidi lives with their two boys.",
                "Chidi lives with a very spoilt cat called Pilipili.",
            ],
        ),
        (
            "Chidi lives in Jabal al-Weibdeh with their girlfriend Sunna and a husky, Moli.",
            [
                "Chidi lives in Jabal al-Weibdeh.",
                "Chidi lives with their girlfriend Sunna.",
                "Chidi lives with a husky, Moli.",
            ],
        ),
        (
            "Chidi lives in Brunswick, Melbourne, with their two kids, Tyler (7) and Maya (4), "
            "plus a husky named Koda.",
            [
                "Chidi lives in Brunswick, Melbourne.",
                "Chidi lives with their two kids, Tyler (7) and Maya (4).",
                "Chidi lives with a husky named Koda.",
            ],
        ),
        (  # (with a thing, not someone: one claim)
            "Chidi lives in a flat with a view.",
            ["Chidi lives in a flat with a view."],
        ),
    ],
)
def test_an_introduction_without_an_article_or_with_where_they_live_is_cut(
    said: str, claims: list[str]
) -> None:
    memory = _merged("Chidi", [], said).memory
    assert [line.split("] ", 1)[1].split(" <!--")[0] for line in memory.splitlines()[2:]] == claims


def test_a_name_said_again_is_no_introduction_of_a_trade() -> None:
    older = ["Greta works as a librarian.", "Greta is based in Freiburg."]
    memory = _merged("Greta", older, "Greta is Greta, by the way.").memory
    assert all(f"{line} <!--" in memory for line in older) and "by the way" not in memory


def test_a_move_takes_the_city_and_a_break_up_the_partner_never_the_other() -> None:
    """The issue's Manchester case: "lives in Manchester with their boyfriend Leo" is two
    claims, so a move rewrites no Leo into Leeds and a break-up ("Maya and Leo broke up", the
    speaker named first as third_person writes it) retires no city."""
    older = ["Maya lives in Manchester.", "Maya lives with their boyfriend Leo."]
    assert _merge("Maya", older, "These days Maya is based in Leeds.") == [older[0]]
    moved = _merged("Maya", older, "Maya is based in Leeds.").memory.splitlines()
    assert not [line for line in moved if "Leo" in line and "Leeds" in line], moved
    for said in ["Maya and Leo broke up last weekend.", "Maya and Leo are no longer together."]:
        assert _merge("Maya", older, said) == [older[1]], said
    # an engagement to the partner the line names is no new partner
    assert _merge("Maya", older, "Maya and Leo got engaged!") == []
    # (a relationship said to have ended; a new one said by the name, "been seeing Priya")
    assert _merge("Maya", older, "Maya has been seeing Priya.") == [older[1]]
    friend = ["Maya lives in Manchester.", "Maya's lady friend Judy likes jazz."]
    for said in [
        "Maya is seeing Priya now.",
        "Maya will keep it short: that relationship has ended, no hard feelings.",
    ]:
        assert _merge("Maya", friend, said) == [friend[1]], said
    assert _merge("Maya", friend, "Maya is seeing Dr. Ito on Friday.") == []
    # (a couple said as one subject: "Maya and Priya have been together a month now"; not
    # another couple, "Ana and Tom have been together ten years")
    said = "Maya and Priya have been together a month now, she's great."
    assert _merge("Maya", older, said) == [older[1]]
    sister = [*older, "Maya's sister Ana lives in Porto."]
    assert _merge("Maya", sister, "Ana and Tom have been together ten years now.") == []
    # a joint subject is its first person's: Jonas moves, with Rasa
    both = "Jonas and their fiancée Rasa are moving to Kaunas."
    assert _merge("Jonas", ["Jonas is based in Vilnius."], both) == ["Jonas is based in Vilnius."]


def test_a_home_said_after_its_place_is_a_claim_a_move_within_the_city_takes() -> None:
    """ "… buildings in Bole, where I also live" says where they live, a claim of its own: a
    move to another part of town takes it and leaves the city the introduction named; and
    being "too old for moving again" moves nobody to the place named before."""
    said = [
        ("I'm Tesfaye, a driver with Selam Bus in Addis Ababa.", "Tesfaye", "s"),
        ("Mostly routes in Piassa, where I also live.", "Tesfaye", "s"),
    ]
    assert "Tesfaye lives in Piassa. <!--" in _memory_after(*said)
    memory = _memory_after(*said, ("We moved into a flat in Ayat, near the depot.", "Tesfaye", "s"))
    assert "Tesfaye is based in Addis Ababa. <!--" in memory and "lives in Piassa" not in memory
    memory = _memory_after(
        ("I moved in with my daughter in Drohobych last month.", "Olena", "s"),
        ("My friend says I should move to Kraków. No, I'm too old for moving again!", "Olena", "s"),
    )
    assert "Olena moved in with their daughter in Drohobych last month. <!--" in memory
    # (nor is a trip back "since the move" one: "first time back in Kansai since the move")
    memory = _memory_after(
        ("We're settled in Koenji now, tiny apartment but we love it.", "Kenji", "s"),
        ("In Kyoto for a wedding, first time back in Kansai since the move.", "Kenji", "s"),
    )
    assert "Koenji" in memory and "move to Kansai" not in memory, memory


def test_an_age_said_after_the_rest_is_a_claim_of_its_own() -> None:
    """ "I'm a postman in Aberystwyth, 58 years of age" is a trade, a place and an age: a
    birthday takes the age, a move the place, and neither the trade."""
    said = ("Dafydd here, I'm a ferryman in Fishguard, 61 years of age.", "Dafydd", "s")
    assert _facts(_memory_after(said)) == [
        "Dafydd is 61.",
        "Dafydd works as a ferryman.",
        "Dafydd is based in Fishguard.",
    ]
    memory = _memory_after(said, ("I turned 62 on Sunday, and we moved to Tenby.", "Dafydd", "s"))
    assert "61" not in memory and "Fishguard" not in memory and "ferryman" in memory
    # (or "years young", as many say it of themselves)
    said = ("I'm Raymond, retired fisheries officer in Halifax, 74 years young.", "Raymond", "s")
    assert _facts(_memory_after(said)) == [
        "Raymond is 74.",
        "Raymond is a retired fisheries officer.",
        "Raymond is based in Halifax.",
    ]


def test_a_field_after_the_place_stays_with_the_trade() -> None:
    """ "a radiographer at Groote Schuur in Cape Town, paediatrics" is still a trade, an
    employer and a place: the field goes with the trade, and a new employer keeps both."""
    said = "Hi! I'm Lindiwe, I work as a radiographer at Groote Schuur in Cape Town, paediatrics."
    lines = _facts(_memory_after((said, "Lindiwe", "s")))
    assert lines == [
        "Lindiwe works as a radiographer, paediatrics.",
        "Lindiwe works at Groote Schuur.",
        "Lindiwe is based in Cape Town.",
    ]


def test_a_change_of_one_claim_keeps_where_the_line_said_they_work() -> None:
    """ "drives a tro-tro for Adom Transport out of Kumasi" also says where Nana is: a new
    employer, or one left, retires the line and keeps the place as a line of its own; a move
    takes it, and a line already saying where they live leaves nothing to keep."""
    older = ["Nana drives a tro-tro for Adom Transport out of Kumasi.", "Nana's wife is Efua."]
    for said in (
        "Nana is driving for Osei Logistics now.",
        "Nana quit Adom Transport.",
        "The depot moved Nana to a new tro-tro, a Sprinter.",
    ):
        after = _facts(_merged("Nana", older, said).memory)
        assert "Nana is based in Kumasi." in after and older[0] not in after, after
    moved = "Nana moved to Takoradi, they drive for Osei Logistics now."
    assert "Kumasi" not in _merged("Nana", older, moved).memory
    home = [*older, "Nana lives in Kumasi with Efua."]
    after = _facts(_merged("Nana", home, "Nana quit Adom Transport.").memory)
    assert "Nana is based in Kumasi." not in after and home[2] in after, after


def test_where_someone_comes_in_from_stays_when_what_they_come_in_on_goes() -> None:
    """ "Drive in on my Dacia from Moda": the car ends with "the car died … got a little Kia
    now", not where Oskar lives; a line saying only where they are based (their work's city)
    says less than that, and leaves it to be kept."""
    said = [
        ("Hi, Oskar here, I'm a lab technician in Istanbul.", "Oskar", "s"),
        ("Drive in on my Dacia from Moda, about 20 minutes.", "Oskar", "s"),
        ("The car died on the ring road. Got a little Kia now.", "Oskar", "s"),
    ]
    memory = _facts(_memory_after(*said))
    assert "Oskar lives in Moda." in memory and "Oskar is based in Istanbul." in memory, memory
    assert not any("Dacia" in line for line in memory), memory


def test_who_someone_is_with_now_is_their_partner() -> None:
    """ "Things ended, I'm with Priya now" says a new partner, as "been seeing Priya" does;
    being with someone somewhere ("Maya is with Priya at the market"), or with a company
    with no word of a relationship ("I'm with Vodafone now"), says nothing of a partner."""
    older = ["Maya lives in Manchester.", "Maya and their boyfriend Leo are getting a puppy."]
    said = "Things ended a while back, and Maya is with Priya now."
    assert _merge("Maya", older, said) == [older[1]]
    assert _merge("Maya", older, "Maya is with Priya at the market.") == []
    assert _merge("Maya", older, "Maya is with Vodafone now, it's cheaper.") == []


def test_a_trade_said_with_its_hours_is_apart_from_its_employer() -> None:
    """ "I work part-time as a pharmacy technician at McCabes in Douglas, three days a week"
    is a trade, an employer and a place: "first week at Hickey's done" takes the employer and
    leaves the trade."""
    said = [
        (
            "Well, I work part-time as a pharmacy technician at McCabes in Douglas, three "
            "days a week.",
            "Gráinne",
            "s",
        ),
        ("Well, first week at Hickey's done, and what a difference.", "Gráinne", "s"),
    ]
    memory = _facts(_memory_after(*said))
    assert "Gráinne works part-time as a pharmacy technician, three days a week." in memory
    assert not any("McCabes" in line for line in memory), memory


def test_a_trade_for_an_employer_out_of_a_depot_and_a_resignation_said_alone() -> None:
    """ "Courier driver for Mainfreight out of the South Auckland depot" is a trade and an
    employer; "resigned, registered Kahu Freight" is the speaker's (no subject said), and ends
    the employer, not the trade."""
    said = [
        (
            "Kia ora. Tane here, 27, courier driver for Mainfreight out of the South Auckland "
            "depot. Live in Otahuhu.",
            "Tane",
            "s",
        ),
        (
            "did it bro. resigned, registered Kahu Freight, first contract with two bakeries",
            "Tane",
            "s",
        ),
    ]
    memory = _facts(_memory_after(*said))
    assert "Tane works as a courier driver." in memory, memory
    assert not any("Mainfreight" in line for line in memory), memory
    assert any(line.startswith("Tane resigned, registered Kahu Freight") for line in memory)
    # (and after a few words that are no claim: "Done deal, signed with Outback Haulage")
    said = [
        ("I drive for Hendersons Freight, mostly the Brisbane to Sydney run.", "Shane", "s"),
        ("Done deal, signed with Outback Haulage. Starting Monday.", "Shane", "s"),
    ]
    memory = _facts(_memory_after(*said))
    assert "Shane signed with Outback Haulage." in memory, memory
    assert not any("Hendersons" in line for line in memory), memory
    said = [
        ("I drive for Hendersons Freight.", "Shane", "s"),
        ("My sister, signed with Tui.", "Shane", "s"),
    ]
    assert "Shane drives for Hendersons Freight." in _facts(_memory_after(*said))


def test_what_shifts_they_are_on_is_a_claim_apart_from_the_trade() -> None:
    """ "an ICU nurse at Royal Derby Hospital, currently on nights Tuesday to Thursday": a new
    rota ("on long days now, Fridays and Saturdays") replaces the shifts, not the job."""
    said = [
        (
            "Hiya, Adaeze here. I'm an ICU nurse at Royal Derby Hospital, currently on nights "
            "Tuesday to Thursday, so if I message you at 4am that's why",
            "Adaeze",
            "s",
        ),
        (
            "Ugh, the rota's been redone. I'm on long days now, Fridays and Saturdays.",
            "Adaeze",
            "s",
        ),
    ]
    memory = _facts(_memory_after(*said))
    assert "Adaeze works as an ICU nurse." in memory, memory
    assert "Adaeze works at Royal Derby Hospital." in memory, memory
    assert not any("Tuesday" in line for line in memory), memory


def test_a_day_job_typed_tersely_is_a_trade_and_an_employer() -> None:
    """ "day job is QA tester at Frostline Games, 9 to 5": a layoff ends the employer and
    leaves the trade; "rig is a ryzen 7", typed without "my", is theirs."""
    said = [
        ("day job is QA tester at Frostline Games, 9 to 5.", "Marcus", "s"),
        ("rig is a ryzen 7 with an rtx 3070", "Marcus", "s"),
        ("bad news, my studio laid off half of us, me included.", "Marcus", "s"),
    ]
    memory = _facts(_memory_after(*said))
    assert "Marcus works as a QA tester, 9 to 5." in memory, memory
    assert "Marcus's rig is a ryzen 7 with an rtx 3070." in memory, memory
    assert not any("Frostline" in line for line in memory), memory


def test_an_aside_on_the_grade_or_a_doing_after_it_leaves_the_trade_employer_and_place() -> None:
    """ "a cabinetmaker, journeyman level, at Treverk in Bergen": the grade goes with the
    trade; "… in Santiago and trying to get better at sauces": what else they are doing is a
    claim of its own."""
    said = "Hallvard here, I'm a cabinetmaker, journeyman level, at Treverk in Bergen."
    assert _facts(_memory_after((said, "Hallvard", "s"))) == [
        "Hallvard works as a cabinetmaker, journeyman level.",
        "Hallvard works at Treverk.",
        "Hallvard is based in Bergen.",
    ]
    said = (
        "buenas! I'm Ximena, a commis at Quintral in Santiago and trying to get better at sauces."
    )
    assert _facts(_memory_after((said, "Ximena", "s"))) == [
        "Ximena works as a commis.",
        "Ximena works at Quintral.",
        "Ximena is based in Santiago.",
        "Ximena is trying to get better at sauces.",
    ]


def test_a_town_after_the_employer_and_a_comma_is_where_they_are() -> None:
    """ "dietitian at Soar Valley Hospital, Leicester": the employer and the town apart, so
    a new employer leaves the trade and the town."""
    said = "hiya! Meera here — dietitian at Soar Valley Hospital, Leicester. could you help me?"
    assert _facts(_memory_after((said, "Meera", "s"))) == [
        "Meera works as a dietitian.",
        "Meera works at Soar Valley Hospital.",
        "Meera is based in Leicester.",
    ]


def test_a_trade_with_and_in_its_name_is_one_trade_and_its_employer() -> None:
    """ "strength and conditioning coach for Lotte Giants": before, "and conditioning …" was
    read as what else they are doing (a word in -ing), so the line stayed whole and no
    employer was read; a new employer now leaves the trade."""
    lines = _lines(
        "Kyungho",
        "Hello. Kyungho, strength and conditioning coach for Lotte Giants. Need a program.",
        "Big news: I joined NC Dinos as head S&C coach.",
    )
    assert "Kyungho works as a strength and conditioning coach." in lines, lines
    assert not any("Lotte" in line for line in lines), lines
