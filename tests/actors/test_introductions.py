"""An introduction, however it is said (``extractive._here``): who is speaking, their age,
trade, employer and city, each a fact of its own (docs/design.md, "Facts that stay true")."""

from __future__ import annotations

import pytest

from tests.actors.merging import facts_of as _facts
from tests.actors.merging import memory_after as _memory_after


def test_an_introduction_that_says_here_is_who_is_speaking() -> None:
    """ "Carl here, 38, pharmacist at a clinic in Pune": a name, an age, a trade, an employer
    and a place; "Firefighter in Atlanta here" a trade and a place ("Line cook at Casa Brava
    here, 27" an employer and an age; "44, sound engineer at Tonhalle" an age first); "Anyone
    here?" nothing."""
    memory = _memory_after(("Hey! Carl here, 38, pharmacist at a clinic in Pune.", None, "s"))
    for fact in [
        "The user's name is Carl.",
        "The user is 38 years old.",
        "The user works as a pharmacist.",
        "The user works at a clinic.",
        "The user is based in Pune.",
    ]:
        assert f"{fact} <!--" in memory
    memory = _memory_after(("Firefighter in Atlanta here, need help with meal prep.", "Dee", "s"))
    assert _facts(memory) == ["Dee works as a firefighter.", "Dee is based in Atlanta."]
    memory = _memory_after(("Hi. 44, sound engineer at Tonhalle in Zurich. Help!", "Dee", "s"))
    assert _facts(memory) == [
        "Dee is 44 years old.",
        "Dee works as a sound engineer.",
        "Dee works at Tonhalle.",
        "Dee is based in Zurich.",
    ]
    memory = _memory_after(("Hiya! Line cook at Casa Brava here, 27. Need recipes.", "Dee", "s"))
    assert _facts(memory) == [
        "Dee works as a line cook.",
        "Dee works at Casa Brava.",
        "Dee is 27 years old.",
    ]
    memory = _memory_after(("Gunnar here, electrician with Rafstraumur in Reykjavik.", None, "s"))
    assert "The user works as an electrician. <!--" in memory
    assert "The user works at Rafstraumur. <!--" in memory
    assert _facts(_memory_after(("Anyone here? Nobody here knows.", "Dee", "s"))) == []
    # (what they do in the next sentence, without a verb: the introduction's apposition)
    said = "Hi there, I'm Kwame. Backend developer at Nkwa Labs here in Accra."
    assert _facts(_memory_after((said, "Kwame", "s"))) == [
        "Kwame works as a backend developer.",
        "Kwame works at Nkwa Labs.",
        "Kwame is based in Accra.",
    ]
    said = "Hi, I'm Priya! UX designer at a fintech startup called Pinewheel in Bengaluru."
    assert _facts(_memory_after((said, "Priya", "s"))) == [
        "Priya works as a UX designer.",
        "Priya works at a fintech startup called Pinewheel.",
        "Priya is based in Bengaluru.",
    ]
    said = "Hi! I'm Marta — physio at a clinic called FisioMar in Valencia."  # (after a dash)
    assert _facts(_memory_after((said, "Marta", "s"))) == [
        "Marta works as a physio.",
        "Marta works at a clinic called FisioMar.",
        "Marta is based in Valencia.",
    ]
    said = (
        "Hello, I'm Ahmed, pediatric dentist. Hi, I'm Ahmed, nice to meet you."  # (a trade alone)
    )
    assert _facts(_memory_after((said, "Ahmed", "s"))) == ["Ahmed works as a pediatric dentist."]
    # (after an emoji, or in lower case: "hi, I'm Mirae 👋 junior designer at …")
    for said in (
        "hi, I'm Mirae 👋 junior designer at Orbit Labs in Busan.",
        "Hi there, I'm Mirae. junior designer at Orbit Labs in Busan.",
    ):
        assert _facts(_memory_after((said, "Mirae", "s"))) == [
            "Mirae works as a junior designer.",
            "Mirae works at Orbit Labs.",
            "Mirae is based in Busan.",
        ], said
    said = "I'm Kwame. Coffee in Accra is amazing."  # (a sentence with a verb is no apposition)
    assert not any("works as" in fact for fact in _facts(_memory_after((said, "Kwame", "s"))))


def test_an_introduction_with_an_apposition_says_what_and_where_they_are() -> None:
    """ "I'm Kenji, sous-chef at Kaiyo, a seafood place in Osaka": a trade, an employer and a
    place, not "Kenji is Kenji, …"; "I'm Ingrid, from Trondheim" where she is from; an
    apposition that is no trade or place ("I'm Ana, and I'm new") stays as said."""
    memory = _memory_after(
        ("I'm Kenji, sous-chef at Kaiyo, a seafood place in Osaka.", "Kenji", "s")
    )
    assert _facts(memory) == [
        "Kenji works as a sous-chef.",
        "Kenji works at Kaiyo, a seafood place in Osaka.",
        "Kenji is based in Osaka.",
    ]
    memory = _memory_after(("Hei! I'm Ingrid, from Trondheim.", "Ingrid", "s"))
    assert _facts(memory) == ["Ingrid is from Trondheim."]
    memory = _memory_after(("I'm Nino, a tour guide in Tbilisi, I work for Narikala.", "Nino", "s"))
    assert _facts(memory) == [
        "Nino works as a tour guide.",
        "Nino is based in Tbilisi.",
        "Nino works for Narikala.",
    ]
    assert "Ana is Ana" not in _memory_after(("I'm Ana, and I love rowing.", "Ana", "s"))


def test_a_name_said_again_is_no_fact() -> None:
    """ "My name's Thandi" from Thandi says nothing every fact of hers does not."""
    memory = _memory_after(("My name's Thandi, by the way. I drive a Polo.", "Thandi", "s"))
    assert _facts(memory) == ["Thandi drives a Polo."]
    # (after a greeting, and as typed in lower case)
    memory = _memory_after(("buenas noches, my name's thandi. I drive a Polo.", "Thandi", "s"))
    assert _facts(memory) == ["Thandi drives a Polo."]


def test_an_introduction_with_an_age_and_a_trade_without_an_article() -> None:
    """ "I'm Eero, 31, junior programmer at …" is an age, a trade, an employer and a place;
    "I'm Omar, second-year civil engineering student at …" is where he studies."""
    memory = _memory_after(
        ("Hei! I'm Eero, 31, junior programmer at a studio called Lumikko in Tampere.", "Eero", "s")
    )
    assert _facts(memory) == [
        "Eero is 31 years old.",
        "Eero works as a junior programmer.",
        "Eero works at a studio called Lumikko.",
        "Eero is based in Tampere.",
    ]
    memory = _memory_after(
        ("I'm Omar, second-year civil engineering student at Alexandria University.", "Omar", "s")
    )
    assert _facts(memory) == [
        "Omar is a second-year civil engineering student.",
        "Omar studies at Alexandria University.",
    ]
    memory = _memory_after(("Hi! I'm Priya, 26, a data analyst at Zentrix.", "Priya", "s"))
    assert _facts(memory) == [  # (with its own article: not "an a data analyst")
        "Priya is 26 years old.",
        "Priya works as a data analyst.",
        "Priya works at Zentrix.",
    ]
    # (a trade that opens with an initialism, said with "here" or with "I'm")
    for said in (
        "Hej! Rasmus here, UX designer at Kvist Design in Aarhus.",
        "Hi! I'm Rasmus, a UX designer at Kvist Design in Aarhus.",
    ):
        assert _facts(_memory_after((said, "Rasmus", "s"))) == [
            "Rasmus works as a UX designer.",
            "Rasmus works at Kvist Design.",
            "Rasmus is based in Aarhus.",
        ], said
    # (an age said in a sentence of its own, however short, and before another claim)
    assert _facts(_memory_after(("Sure. I'm 47.", "Rasmus", "s"))) == ["Rasmus is 47."]
    memory = _memory_after(("I am 38 and my daughter Freja is 9.", "Rasmus", "s"))
    assert _facts(memory) == ["Rasmus is 38.", "Rasmus's daughter Freja is 9."]


def test_an_introduction_by_the_bare_name_and_as_typed_in_lower_case() -> None:
    """ "Grace Wambui, senior auditor at KPMG in Nairobi.": the speaker's own name and an
    apposition, without "I'm", is an introduction; so is "name's Marcus, i coach …" typed in
    lower case; a name that is not the speaker's is someone else's."""
    said = "Hello there. Grace Wambui, senior auditor at KPMG in Nairobi. I need a routine."
    assert _facts(_memory_after((said, "Grace", "s"))) == [
        "Grace works as a senior auditor.",
        "Grace works at KPMG.",
        "Grace is based in Nairobi.",
        "Grace needs a routine.",
    ]
    said = "Merhaba! Zeynep, 27, PhD student in marine biology at Istanbul University."
    assert _facts(_memory_after((said, "Zeynep", "s"))) == [
        "Zeynep is 27 years old.",
        "Zeynep is a PhD student in marine biology at Istanbul University.",
    ]
    said = "yo. name's Marcus, i coach a 10U flag football team in Columbus."
    assert _facts(_memory_after((said, "Marcus", "s"))) == [
        "Marcus coaches a 10U flag football team.",
        "Marcus is based in Columbus.",
    ]
    said = "Laptop died mid-export 😭 Bought a Dell XPS 15 this morning."  # (an emoji ends one)
    assert "Marcus bought a Dell XPS 15 this morning." in _facts(
        _memory_after((said, "Marcus", "s"))
    )
    said = "Priya, my sister, works at Infosys."  # (not the speaker's name)
    assert not any(f.startswith("Priya is") for f in _facts(_memory_after((said, "Grace", "s"))))


def test_what_they_do_besides_said_as_a_participle_is_a_claim_of_its_own() -> None:
    """ "a pharmacist in Amman, working at an Al-Dawaa branch in Sweifieh": the trade and
    city, and the employer with its own place (no second city); "…, working remote for a
    Singapore company called Lumora" after an introduction is theirs too."""
    said = "I'm Amira, a pharmacist in Amman, working at an Al-Dawaa branch in Sweifieh."
    assert _facts(_memory_after((said, "Amira", "s"))) == [
        "Amira works as a pharmacist.",
        "Amira is based in Amman.",
        "Amira works at an Al-Dawaa branch in Sweifieh.",
    ]
    said = "Minh here, backend dev in Saigon, working remote for a company called Lumora."
    assert _facts(_memory_after((said, "Minh", "s")))[-1] == (
        "Minh is working remote for a company called Lumora."
    )
    said = "Moin! Jonas, 25, finishing my master's and working part-time at Hapag-Lloyd."
    assert _facts(_memory_after((said, "Jonas", "s"))) == [
        "Jonas is 25 years old.",
        "Jonas is finishing their master's.",
        "Jonas works part-time at Hapag-Lloyd.",
    ]


def test_what_the_assistant_is_asked_to_write_down_is_the_speakers_claim() -> None:
    """ "add that I'm vegetarian" is Lucía's diet (a later "went fully vegan" replaces it);
    "They hired me away from the old place" names no employer and keeps the one just said."""
    memory = _memory_after(("And add that I'm vegetarian, lol.", "Lucía", "s"))
    assert _facts(memory) == ["Lucía is vegetarian."]
    memory = _memory_after(
        ("And add that I'm vegetarian, lol.", "Lucía", "s"),
        ("Also, I went fully vegan last week.", "Lucía", "s"),
    )
    assert _facts(memory) == ["Lucía went fully vegan last week."]
    said = "I'm the new manager at Bluestone Café. They hired me away from the old place!"
    assert _facts(_memory_after((said, "Tash", "s"))) == [
        "Tash is the new manager at Bluestone Café.",
        "They hired Tash away from the old place!",
    ]


@pytest.mark.parametrize(
    "said",
    [
        "A Yamaha P-45 at home. And I should mention I'm vegan, so no cheese boards for me.",
        "I forgot to say that I'm vegan.",
        "I have to admit I'm vegan these days.",
    ],
)
def test_what_the_speaker_says_they_are_saying_is_their_claim(said: str) -> None:
    """ "I should mention I'm vegan" is Marta's diet, which "I'm vegetarian now" replaces; the
    words that say she is saying it are no part of it."""
    memory = _memory_after((said, "Marta", "s"))
    assert any(f.startswith("Marta is vegan") for f in _facts(memory)), memory
    memory = _memory_after(
        (said, "Marta", "s"), ("I eat eggs again, so I'm vegetarian now.", "Marta", "s")
    )
    assert "vegan" not in memory and "Marta is vegetarian now." in _facts(memory)


def test_a_role_said_alone_after_the_job_is_theirs() -> None:
    """ "And I got the job: junior engineer at Airbus." and "Got promoted. First mate now."
    say the speaker's new role (and employer); a fragment after other words is as said."""
    memory = _memory_after(
        ("I work part-time at Hapag-Lloyd.", "Jonas", "s"),
        ("Thesis submitted!! And I got the job: junior engineer at Airbus.", "Jonas", "s"),
    )
    assert "Hapag" not in memory
    assert {"Jonas works as a junior engineer.", "Jonas works at Airbus."} <= set(_facts(memory))
    said = "Got promoted. First mate now. Better pay, worse hours."
    assert "Henrik is a first mate now." in _facts(_memory_after((said, "Henrik", "s")))
    said = "Lovely walk today. Sunset at Bondi now."  # (no job said before it)
    assert not any("I'm" in f or "is a" in f for f in _facts(_memory_after((said, "Tash", "s"))))
    # (a statement after a job someone else got is no role: "She's moving in June")
    said = "My girlfriend Marta got offered a job in Turin. She's moving in June."
    assert _facts(_memory_after((said, "Tash", "s"))) == [
        "Tash's girlfriend Marta got offered a job in Turin.",
        "Marta is moving in June.",
    ]


def test_a_relative_named_tersely_is_theirs_and_a_couple_is_one_subject() -> None:
    """ "Girlfriend Sigrid joins some Sundays." is Henrik's girlfriend; "me and my girlfriend
    split up" is Henrik and her, which ends the partner."""
    memory = _memory_after(("Girlfriend Sigrid joins some Sundays.", "Henrik", "s"))
    assert _facts(memory) == ["Henrik's girlfriend Sigrid joins some Sundays."]
    memory = _memory_after(
        ("Girlfriend Sigrid joins some Sundays.", "Henrik", "s"),
        ("Also, me and my girlfriend split up. Amicable.", "Henrik", "s"),
    )
    assert _facts(memory) == ["Henrik and their girlfriend split up."]
    said = "My supervisor and I moved my thesis to river otters instead."
    assert _facts(_memory_after((said, "Hana", "s"))) == [
        "Hana and their supervisor moved their thesis to river otters instead."
    ]


def test_an_introduction_typed_casually_still_says_who_and_where() -> None:
    """ "im mateo, 22, studying logistics …" (an "I'm" without its apostrophe) and "Sione here,
    from Otahuhu in South Auckland" (where, after the name) are the speaker's."""
    said = "ok so i need help w a cover letter. im Mateo, 22, studying logistics at the uni."
    assert "Mateo is 22." in _facts(_memory_after((said, "Mateo", "s")))
    said = "Kia ora! Sione here, from Otahuhu in South Auckland. I coach a rugby team."
    assert _facts(_memory_after((said, "Sione", "s")))[:2] == [
        "Sione is from Otahuhu.",
        "Sione is based in South Auckland.",
    ]


def test_a_value_under_a_label_is_theirs_and_a_verb_after_the_job_is_no_role() -> None:
    """ "Bike: Specialized Allez." is the speaker's bike ("Update: Leeds." is no label);
    "Name's Ana, from Lisbon" is where Ana is from; "I've left my job. Started at Tengri
    Labs" is a new employer, not a role called "started"; a question after the job is
    asked, not stated."""
    memory = _memory_after(("Need a plan. Bike: Specialized Allez. Weight: 74.", "Jakub", "s"))
    assert _facts(memory)[-2:] == ["Jakub's bike is Specialized Allez.", "Jakub's weight is 74."]
    # (and what is said of it after: "New laptop: ThinkPad X1, so much lighter.")
    memory = _memory_after(("New laptop: ThinkPad X1, so much lighter.", "Jakub", "s"))
    assert _facts(memory) == ["Jakub's new laptop is ThinkPad X1, so much lighter."]
    assert _facts(_memory_after(("Name's Ana, from Lisbon.", "Ana", "s"))) == [
        "Ana is from Lisbon."
    ]
    said = "I've left my job. Started at Tengri Labs on Monday, leading their mobile team."
    assert _facts(_memory_after((said, "Aigerim", "s")))[-1] == (
        "Aigerim started at Tengri Labs on Monday, leading their mobile team."
    )
    said = "I got the job! What should I wear on day one?"
    assert _facts(_memory_after((said, "Aigerim", "s"))) == ["Aigerim got the job!"]
    # (nor a day: "Start in July." is when, no role called "start")
    said = "They offered me the position at Kestrel Freight! Start in July."
    assert not any("is a start" in f for f in _facts(_memory_after((said, "Aigerim", "s"))))


def test_work_done_somewhere_with_an_employer_after_it_is_three_claims() -> None:
    """ "I do security in Kingston, working for Ironwall at a mall": a new employer takes the
    employer's claim and leaves the trade and the city."""
    memory = _memory_after(
        ("I drive a taxi in Kisumu, working for Lakeside Cabs at the airport.", "Otieno", "s"),
        ("Update: Nyanza Motors took me on last week, better pay.", "Otieno", "s"),
    )
    assert "Lakeside" not in memory and "Otieno is based in Kisumu." in _facts(memory)


def test_a_business_run_besides_a_trade_is_a_claim_of_its_own() -> None:
    """ "a wedding photographer based in Kandy, running a small studio called Petal Frames":
    a move takes the city and leaves the trade."""
    memory = _memory_after(
        (
            "I'm a wedding photographer based in Kandy, running a studio called Petal Frames.",
            "Dilani",
            "s",
        ),
        ("We have moved, we're in a flat in Nugegoda now.", "Dilani", "s"),
    )
    assert "Kandy" not in memory and "Dilani works as a wedding photographer." in memory


def test_a_full_name_a_retired_trade_and_a_place_called_my() -> None:
    """ "I am Hiroshi Tanaka, a retired mathematics teacher living in Sakai": no "Hiroshi is
    Hiroshi Tanaka", and no work as a retired teacher; "near My Khe beach" is a place's
    name, not "their Khe beach"; "Change of plans." alone is an opener and nothing else."""
    said = "Good afternoon. I am Hiroshi Tanaka, a retired mathematics teacher living in Sakai."
    assert _facts(_memory_after((said, "Hiroshi", "s"))) == [
        "Hiroshi is a retired mathematics teacher.",
        "Hiroshi is based in Sakai.",
    ]
    said = "Change of plans. I'm opening a homestay near My Khe beach."
    assert _facts(_memory_after((said, "Phuong", "s"))) == [
        "Phuong is opening a homestay near My Khe beach."
    ]


def test_an_introduction_after_any_greeting_says_each_claim_apart() -> None:
    """A greeting no list holds ("Howdy, …", "Selam, …") opens an introduction all the same;
    "Run my own show" has its "I" left out; a title's abbreviation is part of an employer's
    name ("St. Mary's"), so the trade, the employer and the place are three claims."""
    said = "Howdy, Wade here, 41, welder up in Mackay. Run my own shop called Hot Bead."
    assert _facts(_memory_after((said, "Wade", "s"))) == [
        "Wade is 41 years old.",
        "Wade works as a welder.",
        "Wade is based in Mackay.",
        "Wade runs their own shop called Hot Bead.",
    ]
    said = "Salam, I'm Amina, a nurse at St. Mary's Hospital in Kisumu."
    assert _facts(_memory_after((said, "Amina", "s"))) == [
        "Amina works as a nurse.",
        "Amina works at St. Mary's Hospital.",
        "Amina is based in Kisumu.",
    ]


def test_a_negation_typed_without_its_apostrophe_is_read_as_one() -> None:
    """ "i dont want to miss that" is "doesn't want", not a verb "donts"."""
    said = "wednesday evening is zumba at the hall, i dont want to miss that"
    facts = _facts(_memory_after((said, "Mele", "s")))
    assert "Mele doesn't want to miss that." in facts, facts


def test_an_aside_inside_an_introduction_and_a_sentence_of_its_own_after_it() -> None:
    """ "I'm Joon by the way, a potter." is a name and a trade; "We live in …" after "I'm
    Joon." is a sentence with its own subject, not what Joon is ("Joon is a Joon and …")."""
    said = "Thanks. I'm Joon by the way, a potter. We live in a tiny flat in Mapo, Seoul."
    assert _facts(_memory_after((said, "Joon", "s"))) == [
        "Joon is a potter.",
        "Joon and others live in a tiny flat in Mapo, Seoul.",
    ]
    said = "I'm Joon btw, a potter at Clay Lab."
    assert _facts(_memory_after((said, "Joon", "s"))) == [
        "Joon works as a potter.",
        "Joon works at Clay Lab.",
    ]


def test_an_introduction_typed_all_in_lower_case_with_an_age_and_a_town() -> None:
    """ "hiii im paola, 20, from monterrey" is a name, an age and a town: the speaker's own
    name typed in lower case is theirs, and a greeting needs no comma; "i will go" is no
    name of a speaker called Will."""
    said = "hiii im paola, 20, from monterrey. i study law at UANL"
    assert _facts(_memory_after((said, "Paola", "s"))) == [
        "Paola is 20 years old.",
        "Paola is from monterrey.",
        "Paola studies law at UANL.",
    ]
    assert "Will" not in " ".join(_facts(_memory_after(("i will cook tonight", "Will", "s"))))


def test_a_trade_near_a_place_and_a_flag_that_ends_a_sentence() -> None:
    """ "Aksel here, sheep farmer near Røros." says a trade and where, as "in" would (each a
    claim of its own, so a move keeps the trade; "at Kijani Lodge outside Arusha" likewise); a
    flag ends a sentence as any emoji does: "… 🇳🇴 I do the books for Fjellgard" is a claim."""
    assert _facts(_memory_after(("Hello. Aksel here, sheep farmer near Røros.", "Aksel", "s"))) == [
        "Aksel works as a sheep farmer.",
        "Aksel is based in Røros.",
    ]
    said = "Habari! I'm Neema, sous-chef at Kijani Lodge outside Arusha."
    assert _facts(_memory_after((said, "Neema", "s"))) == [
        "Neema works as a sous-chef.",
        "Neema works at Kijani Lodge.",
        "Neema is based in Arusha.",
    ]
    # (or what they are and where, after "here": "Mum of three here in Toowoomba")
    said = "G'day! Dad of two here in Ballarat, completely frazzled."
    assert _facts(_memory_after((said, "Nick", "s"))) == [
        "Nick is a dad of two.",
        "Nick is based in Ballarat.",
    ]
    # (or where from, after "here": "Sefa here from West Auckland")
    said = "kia ora 😄 Sefa here from West Auckland. i coach the Henderson Hawks"
    assert _facts(_memory_after((said, "Sefa", "s"))) == [
        "Sefa is from West Auckland.",
        "Sefa coaches the Henderson Hawks.",
    ]
    said = "Hei 👋 greetings from the north 🇳🇴 I do the books for Fjellgard Dairy."
    assert _facts(_memory_after((said, "Aksel", "s"))) == [
        "Aksel does the books for Fjellgard Dairy."
    ]


def test_an_introduction_from_a_place_and_a_list_said_after_the_name() -> None:
    """ "I am Kenji from Osaka" is a name and a town, not "Kenji is Kenji from Osaka"; "I am
    Ravi, retired maths teacher, 67 years old, living in Pune" is a trade, an age and a home,
    each a claim of its own."""
    assert _facts(_memory_after(("Hello. I am Daisuke from Sendai.", "Daisuke", "s"))) == [
        "Daisuke is from Sendai."
    ]
    # (a trade "based in" a place: the place is no word of the trade)
    said = "Bonjour! I'm Margo, a freelance French-English translator based in Hull."
    assert _facts(_memory_after((said, "Margo", "s"))) == [
        "Margo is a freelance French-English translator.",
        "Margo is based in Hull.",
    ]
    said = "Namaste. I am Mohan, retired chemistry teacher, 71 years old, living in Nashik."
    assert _facts(_memory_after((said, "Mohan", "s"))) == [
        "Mohan is a retired chemistry teacher.",
        "Mohan is 71 years old.",
        "Mohan is living in Nashik.",
    ]


def test_a_lower_case_name_where_a_name_goes_is_a_name() -> None:
    """A user who types all in lower case still names places: "i live in dolac", "we moved to
    trnje" (words the embedder's vocabulary does not hold, where a name goes) are names, so
    the move replaces the home and keeps the partner said with it. A word of the language
    stays one ("allergic to shellfish", "need to restock")."""
    memory = _memory_after(
        ("i live in dolac with my bf luka, i play pickup volleyball on thursdays", "Ana", "s"),
        ("update lol. we moved to trnje, the flat is bigger", "Ana", "s"),
        ("im allergic to shellfish and i need to restock my pantry", "Ana", "s"),
    )
    facts = _facts(memory)
    assert "dolac" not in memory.casefold() and "Ana and others moved to Trnje" in memory
    assert "Ana lives with their bf luka." in facts
    assert (
        "Ana is allergic to shellfish." in facts and "Ana needs to restock their pantry." in facts
    )


def test_a_name_said_after_a_greeting_in_lower_case_takes_the_trade_after_it() -> None:
    """ "hi, Tomasz here. PhD student in linguistics at the Jagiellonian in Krakow": the
    trade said in the next sentence is the introduction's, its initialism as written."""
    said = (
        "hi, Tomasz here. PhD student in linguistics at the Jagiellonian in Krakow, "
        "writing about Silesian dialect vocabulary."
    )
    assert _facts(_memory_after((said, "Tomasz", "s"))) == [
        "Tomasz is a PhD student in linguistics at the Jagiellonian.",
        "Tomasz is based in Krakow.",
        "Tomasz is writing about Silesian dialect vocabulary.",
    ]


def test_a_pronoun_here_is_no_name_given() -> None:
    """ "He's here!! Cai, 7lb 2oz" announces a baby; it is no one introducing themselves."""
    memory = _memory_after(
        ("I'm an electrician in Cardiff.", "Owen", "s"),
        ("He's here!! Cai, 7lb 2oz, born on Tuesday at the Heath.", "Owen", "s"),
    )
    assert "He's" not in memory and "electrician" in memory, memory


def test_a_trade_said_with_where_they_live_or_by_initialism_is_the_speakers() -> None:
    """ "Walter here, 71, retired railway signalman living in Shrewsbury": the trade is
    Walter's; "Niko here, HVAC engineer in Tampere": an initialism of four letters too."""
    memory = _memory_after(
        (
            "Good morning! Walter here, 71, retired railway signalman living in Shrewsbury.",
            "Walter",
            "s",
        )
    )
    assert "Walter is a retired railway signalman." in memory, memory
    memory = _memory_after(("Niko here, HVAC engineer in Tampere.", "Niko", "s"))
    assert "Niko works as an HVAC engineer." in memory and "Tampere" in memory, memory


def test_a_trade_opening_with_a_digit_and_the_employer_said_after_it() -> None:
    """ "Omar here, 3D artist at Basalt Pixels, a small VFX studio in Amman": the trade is
    Omar's, the studio is the employer's, not what Omar is."""
    memory = _memory_after(
        (
            "Marhaba! Omar here, 3D artist at Basalt Pixels, a small VFX studio in Amman.",
            "Omar",
            "s",
        )
    )
    assert "Omar is a 3D artist at Basalt Pixels." in memory and "based in Amman" in memory, memory
    assert "works as a small" not in memory, memory


def test_i_am_said_in_the_language_they_greet_in_introduces_them() -> None:
    """ "Hola! Soy Valentina, wedding photographer in Valparaíso.": "Soy" is "I'm"."""
    memory = _memory_after(
        ("Hola! Soy Valentina, wedding photographer in Valparaíso.", "Valentina", "s")
    )
    assert "Valentina works as a wedding photographer." in memory and "Valparaíso" in memory, memory


def test_a_trade_with_its_year_after_the_name_is_the_speakers_and_a_new_crew_ends_its_employer() -> (
    None
):
    """ "Tevita here. 2nd year sparky apprentice with Sparkright Electrical in Brisbane." says
    the trade, the employer and the city; "first day with the Volt Brothers crew done" then
    ends the employer, not the trade."""
    memory = _memory_after(
        (
            "g'day mate, Tevita here. 2nd year sparky apprentice with Sparkright Electrical in Brisbane.",
            "Tevita",
            "s",
        ),
        ("first day with the Volt Brothers crew done 💪 big site in Springfield.", "Tevita", "s"),
    )
    assert (
        "Sparkright" not in memory and "Tevita works as a 2nd year sparky apprentice." in memory
    ), memory


@pytest.mark.parametrize(
    ("name", "said", "trade"),
    [
        # a trade of four words, with where they do it between it and the employer
        (
            "Rasmus",
            "Hej! Rasmus here, wind turbine technician offshore at Horns Rev, living in Esbjerg.",
            "Rasmus works as a wind turbine technician offshore.",
        ),
        # "I am" in the language they greet in, one word before their name
        (
            "Dewi",
            "halo! aku Dewi, seismologist at the geophysics station in Yogyakarta, mostly "
            "watching Merapi tremors. need help with a study plan",
            "Dewi works as a seismologist.",
        ),
        (
            "Valentina",
            "hola! soy Valentina, stage manager at Teatro Colibri in Abasto. I live in Palermo.",
            "Valentina works as a stage manager.",
        ),
        # the trade said first of a list whose rest is no claim
        (
            "Rhys",
            "alright butt, rhys here. roofer, mostly slate jobs round cardiff. need a hand lol",
            "Rhys works as a roofer.",
        ),
    ],
)
def test_an_introduction_says_the_trade_however_it_is_typed(
    name: str, said: str, trade: str
) -> None:
    """The speaker's trade, said in their introduction, is a line of its own."""
    facts = _facts(_memory_after((said, name, "s")))
    assert trade in facts, facts


def test_a_thing_of_theirs_said_to_be_here_is_no_introduction() -> None:
    """ "our life is here in Adelaide" (after a semicolon, in lower case) is their life's
    place, not what they are ("Mum of three here in Toowoomba" is)."""
    said = "We discussed it at length and decided to stay put; our life is here in Adelaide."
    facts = _facts(_memory_after((said, "Bronwyn", "s")))
    assert "Bronwyn's life is here in Adelaide." in facts, facts
    assert not any(" is a" in f for f in facts), facts
    mum = _facts(_memory_after(("Mum of three here in Toowoomba, need recipes.", "Dee", "s")))
    assert "Dee is a mum of three." in mum, mum
