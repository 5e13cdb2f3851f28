"""Facts about the same thing (``attributes.keys``, through ``truth.merge``): a new employer,
trade, partner or diet replaces the old one, in the many ways people say it (homes:
``test_homes.py``)."""

from __future__ import annotations

import pytest

from tests.actors.merging import facts_of as _facts
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge
from tests.actors.merging import merged as _merged


def test_a_role_given_replaces_a_trade_said_with_an_employer() -> None:
    """ "A dispatcher at TransBalkan" says a trade whatever its noun (no list knows it);
    "they made me operations manager" gives the speaker a new one."""
    memory = _merged("Pavel", [], "Pavel is a dispatcher at TransBalkan Logistics in Plovdiv.")
    older = ["Pavel works as a dispatcher.", "Pavel works at TransBalkan Logistics."]
    assert all(f"{line} <!--" in memory.memory for line in older)
    said = "They made Pavel operations manager."
    assert _merge("Pavel", [*older, "Pavel is based in Plovdiv."], said) == [older[0]]


@pytest.mark.parametrize(
    "said",
    [
        "Next month Ines joins Kelp Watch, a small charity.",
        "After nine years Ines signed with Dockside Works.",
        "On Monday Ines starts as a welder at Dockside Works.",
        "Ines has gone out on their own!",  # their own employer now
        "Ines is opening their own shop, Weld & Co, next month.",
        "Ines left the chain and opened their own pharmacy with a cousin.",  # whatever it is
        "Ines has left their job.",
        "Ines lost their job at the yard.",
        "Ines accepted an offer from Horak Legal in Prague.",
        "Ines has already got an offer too, at Horak Legal.",
        "Ines's last day at the old firm was Friday.",
        "Ines started Monday at Dockside Works.",  # the day between the verb and the name
        "Saturday was Ines's final shift there.",  # "there": the employer the line names
        # (a role at a name, said as theirs now)
        "Ines is leaving to become finance manager at SunKiosk, a solar startup.",
        "Ines switched jobs, now backend lead at Tessa AI.",
        "Ines accepted a position at the Khalidi Hospital pharmacy.",
        "Ines got an offer to be head welder at Ría Steel.",  # (and what as)
        "This week was Ines's first at Ría Steel.",  # (the noun left out)
    ],
)
def test_joining_signing_or_starting_at_a_named_employer_replaces_the_old_one(said: str) -> None:
    older = ["Ines works at Harbour Yard.", "Ines is based in Vigo.", "Ines swims on Fridays."]
    assert _merge("Ines", older, said) == [older[0]]
    # joining a thing no name calls is no new employer ("joined a swimming club")
    assert _merge("Ines", older, "Ines joined a rowing club on Fridays.") == []
    assert _merge("Ines", older, "Ines is staying at Leo's for a few days.") == []  # (a doing)
    # (nor a time they start at: "I start at 7am and finish at 3pm")
    for when in ("6am", "half seven", "noon"):
        assert _merge("Ines", older, f"Ines starts at {when}.") == [], when


def test_the_new_job_is_the_latest_line_s_and_the_old_job_is_not() -> None:
    """An employer said without its name ("the new hospital", "the old job") is the latest
    line's or an older one's: neither retires the employer just said."""
    older = ["Yuki works at Teine Clinic.", "Yuki accepted an offer from Maruyama Hospital."]
    memory = _merged("Yuki", older, "First week at the new hospital done.").memory
    assert all(f"{line} <!--" in memory for line in older)
    assert _merge("Yuki", older, "Yuki handed in their notice at the old job.") == [older[0]]


def test_a_thing_that_moved_is_no_move_of_its_owner_and_a_thief_no_owner() -> None:
    """ "The studio moved to Almadies" is the studio's new place, not the speaker's home;
    "Someone stole Farhad's scooter" ends Farhad's scooter, not the speaker's bike."""
    older = ["Ami sews in their studio in the Medina.", "Ami is based in Dakar."]
    said = "The studio moved to Almadies, bigger windows and closer to Ami's clients."
    assert _merge("Ami", older, said) == [older[0]]
    # (a thing named with two words before its noun: "old retainer client")
    said = "Ami's old retainer client moved to Shopify and ended their contract."
    assert _merge("Ami", ["Ami is based in Dakar."], said) == []
    # (a thing of any letters: "the peña")
    older = ["Graciela is based in Güemes, Córdoba.", "Peña La Salamanca on the 9 de Julio."]
    said = "The peña has moved to El Rancho de Doña Chela because of a plumbing problem."
    assert _merge("Graciela", older, said) == [older[1]]
    older = ["Ami rides an old bike.", "Farhad rides a Vespa.", "Farhad lives in Dakar."]
    assert _merge("Ami", older, "Someone stole Farhad's scooter.") == [older[1]]


def test_a_thing_shared_with_a_relative_ends_with_the_speakers_words() -> None:
    """ "My husband does the school run in our old Skoda": the car is the speaker's too, so
    "the car died" ends that line though it is about the husband; his own thing does not."""
    said = [("My husband Ruben does the school run in our old Skoda Fabia.", "Ilse", "s")]
    memory = _memory_after(*said, ("The car finally died, we got a Kia Ceed.", "Ilse", "s"))
    assert "Skoda" not in memory and "Kia Ceed" in memory
    said = [("My husband Ruben rides his Skoda Fabia to work.", "Ilse", "s")]
    memory = _memory_after(*said, ("The car finally died, we got a Kia Ceed.", "Ilse", "s"))
    assert "Skoda" in memory


@pytest.mark.parametrize(
    ("older", "said"),
    [
        ("Jurgis is based in Vilnius.", "Jurgis's co-host Lukas is moving to Riga in spring."),
        ("Jurgis's drummer Rocio just went fully vegan.", "Jurgis is staying vegetarian."),
        (
            "Jurgis's batchmate Rowena just flew to the UK to work for the NHS.",
            "Jurgis is staying here in Vilnius with their family.",
        ),
    ],
)
def test_someone_of_the_speakers_named_after_any_noun_is_someone_else(
    older: str, said: str
) -> None:
    """A noun and a name after the speaker's ("co-host Lukas") is another person, whatever
    the noun (no list of relations names every one): their change is not the speaker's, nor
    the speaker's theirs."""
    assert _merge("Jurgis", [older], said) == []


@pytest.mark.parametrize(
    "said",
    [
        "Lucia called it quits on Sunday.",
        "We went our separate ways.",
        "We have parted ways, amicably.",
    ],
)
def test_calling_it_quits_ends_the_partner(said: str) -> None:
    older = [
        "Lucia's boyfriend Tomas can't cook.",
        "Lucia plays bass.",
        "Lucia lives in Valparaiso.",
    ]
    assert _merge("Lucia", older, said) == [older[0]]
    # (parting with something else is no break-up)
    assert _merge("Lucia", older, "Lucia parted ways with the old band last month.") == []


def test_a_name_chosen_ends_its_clause() -> None:
    """ "Lanternfall it is." chooses a name; "Charging it is a whole new hobby" does not."""
    older = ["Callum does a podcast called Summit Talk.", "Callum lives in Inverness."]
    memory = _merged("Callum", older, "Charging it is a whole new hobby.").memory
    assert "Callum does a podcast called Summit Talk. <!--" in memory
    # (nor a word of the language chosen: "So farming it is, here in Tandil" names no place)
    older = ["Rodrigo works as a dairy farmer.", "Rodrigo is based in Tandil."]
    memory = _merged("Rodrigo", older, "So farming it is, here in Tandil.").memory
    assert "Rodrigo is based in Tandil. <!--" in memory and "in Farming" not in memory


def test_a_name_in_apposition_to_the_thing_renamed_is_renamed() -> None:
    older = ["Mateo plays bass in a rock band, Los Pampeanos.", "Mateo is based in Rosario."]
    memory = _merged("Mateo", older, "The band is called Niebla Sur now.").memory
    assert "Mateo plays bass in a rock band, Niebla Sur. <!--" in memory
    assert "Pampeanos" not in memory


def test_a_trade_done_for_a_named_employer_changes_with_it() -> None:
    older = ["Jesse drives a Kenworth for Maplewood Freight.", "Jesse lives in Winnipeg."]
    said = "Monday Jesse is hauling for Northbound Logistics, better home time."
    assert _merge("Jesse", older, said) == [older[0]]
    older = ["Stoyan teaches history at the Vazov High School.", "Stoyan lives in Plovdiv."]
    said = "Stoyan has started at the Geo Milev English Language School this week."
    assert _merge("Stoyan", older, said) == [older[0]]
    # (with more words between what they teach and where: "maths to class 10 at …")
    older = ["Stoyan teaches maths to class 10 at Vazov High.", "Stoyan lives in Plovdiv."]
    said = "Starting this week Stoyan is teaching at Geo Milev School, the pay is better."
    assert _merge("Stoyan", older, said) == [older[0]]
    # a thing swapped by its kind is not the line of a near word as stemmed ("buse")
    older = ["Sione drives buses for Auckland Transport.", "Sione lives in Mangere."]
    assert _merge("Sione", older, "Sione traded the ute in for a Ford Ranger.") == []


def test_eating_something_again_is_a_change_of_diet() -> None:
    older = ["Vale is vegan.", "Vale studies kelp forests.", "Vale lives in Valparaiso."]
    assert _merge("Vale", older, "Vale has started eating eggs and cheese again.") == [older[0]]
    # (a way of eating said by what it is: "intermittent fasting", "eating Mediterranean")
    for said in (
        "Vale is doing intermittent fasting now, eating between 12 and 8.",
        "Vale is eating Mediterranean now, lots of fish and beans.",
        "Vale went low-carb this month.",
    ):
        assert _merge("Vale", older, said) == [older[0]], said
    assert _merge("Vale", older, "Vale swam in the Mediterranean last summer.") == []
    # (or a meal of something again, "I" left out: "Having paratha for breakfast again")
    memory = _memory_after(
        ("Also I'm doing keto, trying to lose weight before the wedding.", "Ayesha", "s"),
        ("Having paratha for breakfast again 😅 the wedding's done so whatever.", "Ayesha", "s"),
    )
    assert "keto" not in memory and "paratha" in memory, memory


def test_someone_on_their_own_is_no_new_employer() -> None:
    older = ["Bilal works at Ravi Physio Centre.", "Bilal is based in Lahore."]
    # (on their own after a break-up is no new employer)
    assert _merge("Bilal", older, "Bilal is on their own now.") == []


def test_a_resignation_ends_the_employer_said_with_the_trade() -> None:
    """ "A mechanic at the AutoPlaza dealership" is a trade and an employer: a resignation
    ends the employer and keeps the trade."""
    memory = _merged("Diego", [], "Diego is a mechanic at the AutoPlaza dealership in Guadalajara.")
    older = ["Diego works as a mechanic.", "Diego works at the AutoPlaza dealership."]
    assert all(f"{line} <!--" in memory.memory for line in older)
    said = "Diego handed in their resignation."
    assert _merge("Diego", [*older, "Diego is based in Guadalajara."], said) == [older[1]]


def test_an_age_said_in_passing_replaces_the_age() -> None:
    """ "can't believe I'm 32" is an age whatever opens the sentence; "the score is 3" and
    "rent is 21,000" are no one's."""
    older = ["Maya is 31.", "Maya lives in Manchester."]
    said = "Leo threw Maya a surprise party last night, can't believe they're 32."
    assert _merge("Maya", older, said) == ["Maya is 31."]
    assert _merge("Maya", older, "Maya thinks the score is 3.") == []


def test_a_job_ended_in_two_words_is_said_and_ends_the_employer() -> None:
    """ "Big news: I resigned." is short, but an ending all the same: not dropped as talk."""
    memory = _memory_after(
        ("I work at the front desk of the Harbour Inn in Oban.", "Morag", "s"),
        ("Big news: I resigned. We opened a tea room in Tobermory.", "Morag", "s"),
    )
    assert "Morag resigned. <!--" in memory and "Harbour Inn" not in memory


def test_a_number_or_a_wider_place_is_no_make_of_a_thing_that_ended() -> None:
    """ "The car died" takes the line with a Suzuki Swift though other lines hold "19" ("After
    19 years … sold the business") and a wider place ("a kiosk in Kalamaria, Thessaloniki"):
    neither is a make the car could be."""
    older = [
        "Ilse has a kiosk in Kalamaria, Thessaloniki.",
        "Ilse's husband Ruben does the deliveries with their little Suzuki Swift.",
        "After 19 years Ilse sold the business to a young couple.",
    ]
    assert _merge("Ilse", older, "The car died on the way to Chalkidiki.") == [older[1]]


def test_a_thing_somewhere_else_now_takes_its_new_place_in_the_line_holding_it() -> None:
    """ "The workshop is in Kalamaria now" moves the workshop of a line that also says what
    is made there: the line keeps the rest, with the new place."""
    memory = _memory_after(
        (
            "I make leather bags under my brand Tanned, working from a small workshop in Toumba.",
            "Eleni",
            "s",
        ),
        ("Update! The workshop is in Kalamaria now, the old roof leaked.", "Eleni", "s"),
    )
    assert (
        "Eleni makes leather bags under their brand Tanned, working from a small workshop in Kalamaria."
        in memory
    )
    assert "Toumba" not in memory


def test_premises_said_to_move_take_the_new_place() -> None:
    """ "The salon is moving to Woodstock" moves the one line with a salon; the old place
    and its town are no longer claimed for it, and the rest of the line stays."""
    memory = _memory_after(
        ("I have a hair salon, Curl Up, in Observatory, Cape Town. I cycle to work.", "Zola", "s"),
        ("Big step: the salon is moving to Woodstock, more parking.", "Zola", "s"),
    )
    assert "Zola has a hair salon, Curl Up, in Woodstock." in _facts(memory)
    assert "Observatory" not in memory and "Zola cycles to work." in memory


def test_premises_spoken_of_at_another_place_of_the_same_kind_have_moved() -> None:
    """ "Customers find the bakery on Mill Lane easily" says the bakery is no longer on
    Church Lane; a café on another lane, or the bakery in another town, says nothing of it."""
    older = ["Ruth's bakery is on Church Lane, by the post office.", "Ruth lives in Hexham."]
    said = "Customers are finding the bakery on Mill Lane easily, it's by the bridge."
    assert _merge("Ruth", older, said) == [older[0]]
    assert _merge("Ruth", older, "Ruth had lunch at a café on Mill Lane.") == []
    assert _merge("Ruth", older, "Ruth's bakery gets busy in Hexham on market days.") == []


def test_work_by_its_shifts_ends_with_the_job_and_a_thing_switched_whole_is_replaced() -> None:
    """ "I work weekend shifts at a Lidl" is work: "I left the shop job" ends it; "my
    thesis is on blockchain" is replaced by "I'm switching the thesis to computer vision"
    (the thesis is the slot; the new line says what it is now)."""
    memory = _memory_after(
        (
            "I work weekend shifts at a Lidl near the Ring, Saturday and Sunday mornings.",
            "Hamid",
            "s",
        ),
        (
            "Also my thesis is on blockchain consensus algorithms and I'm super behind.",
            "Hamid",
            "s",
        ),
        (
            "Also I talked to my supervisor and I'm switching the thesis to computer vision for "
            "crop monitoring. Less hype, more data.",
            "Hamid",
            "s",
        ),
        (
            "I left the shop job. I'm tutoring maths to two high school kids now, way better money.",
            "Hamid",
            "s",
        ),
    )
    assert "Lidl" not in memory and "blockchain" not in memory
    assert "Hamid is switching the thesis to computer vision for crop monitoring." in memory


def test_a_partner_called_bf_or_gf_is_a_partner() -> None:
    """ "my bf Marcus wants to cook me dinner" names a partner: "we broke up" ends it."""
    memory = _memory_after(
        ("My bf Tane wants to cook me dinner for our anniversary.", "Linh", "s"),
        ("So uh. We broke up. It was mutual-ish.", "Linh", "s"),
    )
    assert "Tane" not in memory


@pytest.mark.parametrize(
    ("said", "ends"),
    [
        ("Rough weeks. Since the breakup it's just me and Tostada in the flat.", True),
        ("Since the break-up I've the flat to myself, honestly I'm grand.", True),
        ("Since the breakup my sister Ana lives alone.", False),  # (the sister's)
        ("My colleague Tom is a mess since the breakup.", False),
    ],
)
def test_a_break_up_said_by_its_noun_ends_the_speakers_partner(said: str, ends: bool) -> None:
    """ "Since the breakup it's just me …" ends the speaker's partner, unnamed; the sentence
    after it about someone else, or a colleague's break-up, ends nothing of theirs."""
    memory = _memory_after(
        ("I live in Palermo with my boyfriend Nico and our cat Tostada.", "Sofia", "s"),
        (said, "Sofia", "s"),
    )
    assert ("Nico" not in memory) is ends, memory
    assert "Palermo" in memory


def test_a_wish_naming_no_value_is_no_slot_to_replace() -> None:
    """ "wants to improve their diet" names no diet: a diet said later does not replace the
    wish, which stays true; the line that says what they eat goes, by meaning."""
    memory = _memory_after(
        (
            "Other thing, I am 31 and I study Nursing at UCT. I want to improve my diet for "
            "rowing, I eat a lot of chicken and pap, like 3 times a day.",
            "Kofi",
            "s",
        ),
        ("ok. and I stopped eating meat, I am vegetarian for a month now.", "Kofi", "s"),
    )
    assert "chicken" not in memory
    assert "Kofi wants to improve their diet for rowing." in _facts(memory)
    assert "Kofi is vegetarian for a month now." in _facts(memory)


@pytest.mark.parametrize(
    ("older", "said", "gone", "kept"),
    [
        (  # (a role at "the" workplace is work there)
            [
                "I am an ICU nurse at the Galway University Hospital, currently on a rotating "
                "night-shift pattern. I also coach a hurling team.",
                "I live in Salthill.",
            ],
            "An update: I have accepted a position at Harbourside Clinic, a private hospital.",
            "Galway University",
            "Salthill",
        ),
        (  # (whom they work with, by name; an employer changed by its kind)
            ["I work with Condor Expeditions as a guide.", "I live in Cusco."],
            "Big news, I changed company!",
            "Condor",
            "Cusco",
        ),
        (  # (a new company is no new home)
            ["I work as an interpreter at Taiga Minerals.", "I live in Darkhan."],
            "I moved to a new company, Altai Wool Co, now I am a sales assistant.",
            "Taiga",
            "Darkhan",
        ),
        (  # (a title is a trade; a role given by its name is a new one)
            [
                "my title is Junior Claims Handler lol fancy. i keep getting angry customers.",
                "I live in Bolton.",
            ],
            "big news!! got promoted to Claims Supervisor 🙌 12 people under me.",
            "Junior Claims Handler",
            "Bolton",
        ),
        (
            ["I work as a night porter.", "I live in Galway."],
            "Big news, they made me Head Porter, starting Monday!",
            "night porter",
            "Galway",
        ),
    ],
)
def test_a_new_employer_or_role_said_by_its_kind_replaces_the_old(
    older: list[str], said: str, gone: str, kept: str
) -> None:
    memory = _memory_after(*((line, "Wren", "s") for line in [*older, said]))
    assert gone not in memory and kept in memory


def test_a_clause_after_a_dash_and_an_offer_are_no_new_employer() -> None:
    """ "the old one is far now - I am at Forma Gym": "- I am" is no role at a workplace, so
    the employer stays (the gym changes); "a guest offered me a job in his hotel" is an
    offer, not a job taken."""
    memory = _memory_after(
        ("I work as an accountant at Atlas Textiles SA.", "Driss", "s"),
        ("I also train at Oxygen Gym in Maarif three times a week.", "Driss", "s"),
        (
            "We are in the new flat since one week. I changed gym also, the old one is far "
            "now - I am at Forma Gym Anfa, 5 minutes walk.",
            "Driss",
            "s",
        ),
    )
    assert "Atlas Textiles" in memory
    assert "Oxygen" not in memory and "Forma Gym" in memory
    offered = _memory_after(
        ("I changed job, now I work at Riad Zitoun, first week finished.", "Driss", "s"),
        ("A guest from Lyon offered me a job in his hotel there, but I said no.", "Driss", "s"),
    )
    assert "Riad Zitoun" in offered


def test_a_role_said_without_its_article_is_a_trade() -> None:
    """ "I'm sous chef at Palm Bay Resort" (no "a", as many write it) is a trade and an
    employer: "they made me executive chef" replaces the trade, the employer stays. A
    workplace by its kind is where they work, not where they live ("nurse in the Hospital
    San Carlos")."""
    memory = _memory_after(
        ("I'm sous chef at Palm Bay Resort, long shifts.", "Andre", "s"),
        ("Big news, they made me executive chef!! 🎉", "Andre", "s"),
    )
    assert "sous" not in memory and "executive chef" in memory
    assert "Andre works at Palm Bay Resort." in _facts(memory)
    nurse = _memory_after(("I am nurse in the Hospital San Carlos in Lima.", "Rosa", "s"))
    assert _facts(nurse) == ["Rosa works as a nurse.", "Rosa works at Hospital San Carlos in Lima."]


def test_the_same_employer_said_again_keeps_the_fuller_line() -> None:
    """ "first week at saigonmove done" after "signed with SaigonMove Rehab, sports rehab, more
    money" says the same employer again (in other capitals, its name shortened): the line
    saying more of it stays."""
    memory = _memory_after(
        ("Big news, I signed with KestrelMove Rehab, sports rehab, more money!", "Mai", "s"),
        ("first week at kestrelmove done 😅 lots of knee problems", "Mai", "s"),
    )
    assert "KestrelMove Rehab, sports rehab, more money" in memory


def test_someone_who_moved_in_with_them_is_their_partner() -> None:
    """ "Ana and I painted the shed, she moved in with me last month": the one who moved in
    is the partner now, and the old one's line goes; a mum who moved in is no partner."""
    older = ["Tomás's boyfriend Rui cooks on Sundays.", "Tomás lives in Braga."]
    said = "Tomás and Ana painted the shed, she moved in with them last month."
    assert _merge("Tomás", older, said) == [older[0]]
    assert _merge("Tomás", older, "Tomás's mum moved in with them last month.") == []


def test_jobs_moved_in_the_plural_are_no_move_of_home() -> None:
    """ "I moved jobs — started at Casa Norte" changes the employer, not where they are based."""
    memory = _memory_after(
        ("I'm a junior architect at Bruna Studio in Porto.", "Ines", "s"),
        (
            "Big news: I moved jobs — started at Casa Norte on Monday, and the hours are better.",
            "Ines",
            "s",
        ),
    )
    assert "Ines is based in Porto." in _facts(memory) and "Bruna" not in memory


def test_a_thing_switched_to_takes_its_amount_to_the_line_of_the_thing_it_replaced() -> None:
    """ "Switched to Tesco Mobile, £8 a month now": the phone plan's line ("Lebara, £12")
    goes, not the amount of nothing named that is nearer in words ("£50 a month on bus
    fares")."""
    older = ["Phone is Lebara, £12 for just Idris.", "Idris spends £50 a month on bus fares."]
    memory = _merged(
        "Idris", [*older, "Idris is a welder."], "Switched to Tesco Mobile, £8 a month now."
    ).memory
    assert "Lebara" not in memory and "£50 a month on bus fares" in memory


def test_a_name_said_in_the_same_frame_is_evidence_of_the_same_slot() -> None:
    """ "I swim at Kokrobite now" of the answer "Twice a week at Labadi Pool": the name said
    "at" as the old one was is nearer for it, past the other lines."""
    older = [
        "Abena is based in Accra.",
        'Abena, asked "How often do they go, and where?", answered "Twice a week at Labadi Pool,'
        ' after work".',
        "Abena started at Osu Clinic last Monday, a smaller ward.",
    ]
    memory = _merged("Abena", older, "I swim at Kokrobite now since it's closer.").memory
    assert "Labadi Pool" not in memory and "Osu Clinic" in memory and "based in Accra" in memory


@pytest.mark.parametrize(
    ("said", "depot"),
    [
        (
            "Starting at 6:20 out of Massarelos depot is rough, I'm on the 415 these days.",
            "Massarelos",
        ),
        ("Lunch out of Massarelos market is rough, I'm on the 415 these days.", "Boavista"),
    ],
)
def test_a_name_said_anew_in_the_same_words_changes_with_the_value_its_line_takes(
    said: str, depot: str
) -> None:
    """A turn that changes the route of "the 410 out of Boavista depot" and says "out of
    Massarelos depot" moved the depot too; "out of Massarelos market" is no depot."""
    memory = _memory_after(
        ("I drive trams in Porto, mostly the 410 out of Boavista depot.", "Tomás", "s"),
        (said, "Tomás", "s"),
    )
    assert f"Tomás drives trams in Porto, mostly the 415 out of {depot} depot." in memory


def test_shifts_at_a_named_place_are_work_there() -> None:
    """ "Shifts at Blue Heron finish at 2am" says where Nadia works now; extra shifts at a
    food bank are no job."""
    older = ["Nadia works at the Harbour Grill.", "Nadia runs before work."]
    said = "Shifts at Blue Heron finish at 2am, so I run more at lunchtime."
    assert _merge("Nadia", older, said) == [older[0]]
    assert (
        _merge("Nadia", older, "Extra shifts at the Food Bank this month, so I run at lunch.") == []
    )


@pytest.mark.parametrize(
    ("said", "lesson"),
    [
        ("Sorry sorry, the tutoring is 2,800 each lesson. New term price.", "2,800"),
        ("The parking is 2,800 each visit, crazy.", "2,500"),
    ],
)
def test_an_amount_stated_of_what_it_is_each_of_is_that_lines(said: str, lesson: str) -> None:
    """ "The tutoring is 2,800 each lesson" is the amount of the line on lessons, though it
    names the tutoring; 2,800 each visit is of no lesson."""
    memory = _memory_after(
        ("My daughter does piano. Lesson is 2,500 pesos each, twice a week.", "Inés", "s"),
        (said, "Inés", "s"),
    )
    assert f"Lesson is {lesson} pesos each, twice a week." in memory


def test_a_transfer_to_a_named_place_is_a_new_employer() -> None:
    """ "Transferred to Vicente Sotto Memorial" takes the employer; a transfer within the same
    employer (the night shift, a ward, a branch, a department) names no new one."""
    older = ["Ana is a staff nurse at St Luke's Hospital.", "Ana lives in Cebu."]
    said = "Ana transferred to Vicente Sotto Memorial last month."
    assert _merge("Ana", older, said) == [older[0]]
    for within in ["the night shift", "Cedar ward", "the Leeds branch", "Oncology"]:
        assert _merge("Ana", older, f"Ana transferred to {within}.") == [], within


def test_where_the_trip_to_work_goes_by_a_workplace_name_is_the_employer() -> None:
    """ "the walk to Hillside Academy is ten minutes" says where they work when the name says
    a workplace; "the walk to Hillside Park" names no employer."""
    older = ["Ana teaches chemistry at Bagmati Secondary.", "Ana lives in Patan."]
    said = "These days the walk to Hillside Academy is ten minutes instead of forty."
    assert _merge("Ana", older, said) == [older[0]]
    assert _merge("Ana", older, "These days the walk to Hillside Park is ten minutes.") == []
    # (nor a trip with a child, to their school)
    kids = "These days the walk to Hillside School with the kids is ten minutes."
    assert _merge("Ana", older, kids) == []


def test_a_stint_somewhere_for_a_while_is_beside_the_job() -> None:
    """ "Teaching summer school at Central for June, 4 weeks" is a stint, not a new employer:
    the chemistry teacher at Millard North still is one; a job for years is a job."""
    older = ["Jenna teaches chemistry at Millard North High.", "Jenna is based in Omaha."]
    said = "Jenna is teaching summer school at Central for June, 4 weeks."
    assert _merge("Jenna", older, said) == []
    assert _merge("Jenna", older, "Jenna is teaching at Central for the summer.") == []
    assert _merge("Jenna", older, "Jenna teaches at Central now.") == [older[0]]


def test_a_semicolon_ends_a_sentence_and_each_claim_changes_apart() -> None:
    """ "My niece started university so she can't help anymore; Hidayah from my street helps
    me now" is two sentences: the second takes the helper's place."""
    memory = _memory_after(
        ("My niece Nurul helps me on the stall, I pay her RM60 a night.", "Siti", "s"),
        (
            "My niece started university so she can't help anymore; Hidayah from my street "
            "helps me now.",
            "Siti",
            "s",
        ),
    )
    assert "Nurul helps" not in memory and "Hidayah from Siti's street helps them now." in memory
    assert ";." not in memory


def test_accepted_at_a_named_employer_replaces_one_named_with_a_saints_abbreviation() -> None:
    """ "Works at St. Luke's" names St. Luke's whole (not "St"); "got accepted at the
    Philippine Heart Center" is the new employer."""
    older = ["Maricel works at St. Luke's.", "Maricel works as an ER nurse."]
    said = "Maricel got accepted at the Philippine Heart Center."
    assert _merge("Maricel", older, said) == [older[0]]
    assert _merge("Maricel", older, "Maricel's friend got a job at St. Luke's too.") == []


def test_a_partner_named_as_an_ex_is_no_partner_and_an_ex_boss_no_ex() -> None:
    """ "My ex Joel sent me flowers", "Ex-boyfriend Joel …", "Joel, my ex, …": the line that
    has Joel as the partner is past; an ex-colleague or another's ex ends nothing."""
    older = ["Saoirse's boyfriend is Joel.", "Saoirse lives in Galway."]
    for said in [
        "Saoirse's ex Joel sent them flowers, awkward.",
        "Joel, Saoirse's ex, sent them flowers.",
    ]:
        assert _merge("Saoirse", older, said) == [older[0]], said
    memory = _memory_after(
        ("My boyfriend is Joel.", "Saoirse", "s"),
        ("Ex-boyfriend Joel sent me flowers, awkward.", "Saoirse", "s"),
    )
    assert "boyfriend is Joel" not in memory, memory
    for said in [
        "Saoirse's ex-colleague Joel sent them flowers.",
        "Saoirse's sister's ex Joel moved to Cork.",
    ]:
        assert _merge("Saoirse", older, said) == [], said
