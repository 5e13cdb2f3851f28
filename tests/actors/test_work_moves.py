"""Changes at work and home said in one sentence with what stays (``claims.py``,
``places.transferred``, through the extractive path): a transfer keeps the trade and the
employer, a post taken elsewhere moves the base, another person's news moves nothing."""

from __future__ import annotations

from tests.actors.merging import facts_of as _facts
from tests.actors.merging import lines_after, lines_of_days
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge
from tests.actors.merging import merged as _merged


def test_a_move_at_work_keeps_the_trade_and_the_employer_the_same_one_names() -> None:
    """ "A controller in the tower at Keflavik" is the trade and the part of the workplace; a
    transfer "to the pediatric ward at the same hospital" ends the old ward, keeps the trade
    and the hospital it names; "Calmer shifts, finally." says of no one nothing new."""
    tower = _merged("Sigrun", [], "Sigrun is an air traffic controller in the tower at Keflavik.")
    said = ["Sigrun works as an air traffic controller.", "Sigrun works in the tower at Keflavik."]
    assert all(f"{line} <!--" in tower.memory for line in said), tower.memory
    memory = _memory_after(
        (
            "Hey! Oskar here, 44, nurse in the emergency department at Nordvik Hospital.",
            "Oskar",
            "s",
        ),
        (
            "Also I transferred to the pediatric ward at the same hospital. Calmer shifts, finally.",
            "Oskar",
            "s",
        ),
    )
    facts = _facts(memory)
    assert "Oskar works as a nurse." in facts and "Oskar works at Nordvik Hospital." in facts
    assert "emergency" not in memory, facts


def test_a_post_taken_elsewhere_moves_where_they_are_based_and_keeps_their_trade() -> None:
    """ "Seismologist at the geophysics station in Yogyakarta, mostly watching Merapi tremors"
    is four claims; "accepted a research post at the volcanology institute in Bandung" ends
    the station and the city, not the trade; "sold the bike before we left, got a Yamaha NMAX
    here in Bandung" ends the bike, not the post in Bandung it names."""
    said = [
        "halo! aku Dewi, seismologist at the geophysics station in Yogyakarta, mostly watching "
        "Merapi tremors. I ride a Honda Vario to work.",
        "big news: I accepted a research post at the volcanology institute in Bandung!!",
        "sold the bike before we left, got a Yamaha NMAX here in Bandung, the hills need it",
    ]
    facts = _facts(_memory_after(*((text, "Dewi", "s") for text in said)))
    assert "Dewi works as a seismologist." in facts, facts
    assert "Dewi is mostly watching Merapi tremors." in facts
    assert (
        "Dewi is based in Bandung." in facts and "Dewi works at the volcanology institute." in facts
    )
    assert not any("Yogyakarta" in f or "geophysics" in f or "Vario" in f for f in facts), facts
    # (a job taken, with no more said of it than where, is one claim as said)
    assert _facts(_memory_after(("I got a job in Helsinki.", "Leena", "s"))) == [
        "Leena got a job in Helsinki."
    ]


def test_a_transfer_accepted_ends_the_workplace_not_the_trade() -> None:
    """ "I accepted the transfer and have been reporting in the District Court" is a change of
    workplace: the Magistrates Court goes, the trade stays."""
    older = [
        "Bronwyn works as a court stenographer.",
        "Bronwyn works at the Adelaide Magistrates Court.",
        "Bronwyn is based in Adelaide.",
    ]
    said = (
        "Bronwyn accepted the transfer and has been reporting in the District Court since Monday."
    )
    assert _merge("Bronwyn", older, said) == ["Bronwyn works at the Adelaide Magistrates Court."]


def test_a_transfer_by_others_and_new_premises_and_the_pay_change_what_they_replace() -> None:
    """ "Some news, they transferred me to the Padar post" ends the ranger post on Rinca;
    "found a bigger shop in Toumba" the shop in Kalamaria (the wider place kept); "…, and the
    pay is 118,000" the salary, whatever its word."""
    ranger = _facts(
        _memory_after(
            (
                "I'm Yohanes, a park ranger. I work at the ranger post on Rinca island.",
                "Yohanes",
                "s",
            ),
            (
                "Some news, they transferred me to the Padar post. Much more tourists!",
                "Yohanes",
                "s",
            ),
        )
    )
    assert "Yohanes was transferred to the Padar post." in ranger, ranger
    assert not any("Rinca" in f for f in ranger), ranger
    shop = _memory_after(
        ("I'm Nikos, locksmith, I have a small shop in Kalamaria, Thessaloniki.", "Nikos", "s"),
        ("I found a bigger shop in Toumba, right by the stadium, signed yesterday.", "Nikos", "s"),
    )
    assert "Kalamaria" not in shop and "Toumba, Thessaloniki" in shop, shop
    pay = _memory_after(
        ("Salary is 95,000 rupees. Rent for our annex in Kandy is 30,000.", "Dilani", "s"),
        (
            "I took the post at Hillcrest. Fewer patients per nurse and the pay is 118,000.",
            "Dilani",
            "s",
        ),
    )
    assert "95,000" not in pay and "118,000" in pay and "30,000" in pay, pay


def test_a_colleagues_news_a_salary_revised_and_a_house_completed_on() -> None:
    """ "I am an actuary at Northgate Re, a reinsurance firm in the City of London": the trade,
    the employer and the city; "A colleague of mine, Mr Hargreaves, has just accepted a
    position at Lloyd's" is his news; "my salary has been revised to £86,000" the salary now;
    "we have completed on a house in Herne Hill" a move, which ends Peckham."""
    said = [
        "My name is Olumide Adeyemi. I am an actuary at Northgate Re, a reinsurance firm in the "
        "City of London. I live in Peckham with my wife, Funmilayo. My salary is £78,000.",
        "A colleague of mine, Mr Hargreaves, has just accepted a position at Lloyd's with a "
        "salary of £95,000. I am content at Northgate Re.",
        "I have been promoted to senior actuary; my salary has been revised to £86,000.",
        "Further news: we have completed on a house in Herne Hill and moved in last weekend.",
    ]
    memory = _memory_after(*((text, "Olumide", "s") for text in said))
    facts = _facts(memory)
    assert "Olumide works at Northgate Re, a reinsurance firm in the City of London." in facts
    assert "Olumide is based in City of London." in facts, facts
    assert not any(word in memory for word in ("£78,000", "Peckham")), facts
    assert "Herne Hill" in memory


def test_a_move_said_before_its_place_after_a_comma() -> None:
    """ "We have moved flat, to Eimsbüttel." ends the home in Altona."""
    said = [("I live in Altona with my husband Karim.", "Amira", "s")]
    said.append(("We have moved flat, to Eimsbüttel. The new apartment is closer.", "Amira", "s"))
    memory = _memory_after(*said)
    assert "Altona" not in memory and "Eimsbüttel" in memory, memory


def test_a_move_said_with_its_place_and_now_is_to_that_place_not_the_next_sentences() -> None:
    """ "also we moved, bornova now, easier to reach the hotel. my friend Burak moved to
    Stuttgart": the move is to Bornova (before, "moved to Stuttgart", the place of the friend's
    news said next); "the tasting has moved, from now on it's 16:30" moves no one to "From"."""
    said = (
        "also we moved, bornova now, easier to reach the hotel. my friend Burak moved to Stuttgart."
    )
    facts = _facts(
        _memory_after(("I live in Karsiyaka, by the ferry.", "Emre", "s"), (said, "Emre", "s"))
    )
    assert any("moved to Bornova" in f for f in facts), facts
    assert not any("Emre and others moved to Stuttgart" in f for f in facts), facts
    facts = _facts(
        _memory_after(("The staff tasting has moved, from now on it's 16:30.", "Ana", "s"))
    )
    assert not any("to From" in f for f in facts), facts


def test_a_new_post_by_selection_a_shift_and_a_start_as_replace_what_they_change() -> None:
    """ "a zookeeper at Kaveri Wildlife Park in Mysuru, mostly with the elephants" is four
    claims; "selected at Bannerghatta Biological Park" ends the park, "shifted to Bengaluru"
    the city; "started as a data analyst at Vitalis, a health start-up in Part-Dieu" ends the
    trade, and where the new employer is moves no one out of their home."""
    rahul = _memory_after(
        (
            "I'm Rahul, I work as a zookeeper at Kaveri Wildlife Park in Mysuru, mostly with "
            "the elephants.",
            "Rahul",
            "s",
        ),
        (
            "Huge news: I've been selected at Bannerghatta Biological Park! We've shifted to "
            "Bengaluru this week.",
            "Rahul",
            "s",
        ),
    )
    facts = _facts(rahul)
    assert (
        "Rahul works as a zookeeper." in facts and "Rahul works mostly with the elephants." in facts
    )
    assert not any(word in rahul for word in ("Kaveri", "Mysuru")), facts
    chloe = _memory_after(
        (
            "I'm Chloé, an actuary at Assurances Mistral in Lyon. I live in Croix-Rousse.",
            "Chloé",
            "s",
        ),
        (
            "I quit insurance and started as a data analyst at Vitalis, a health start-up in "
            "Part-Dieu.",
            "Chloé",
            "s",
        ),
    )
    facts = _facts(chloe)
    assert "Chloé works as a data analyst." in facts and "Chloé lives in Croix-Rousse." in facts
    assert "actuary" not in chloe, facts


def test_a_move_to_the_town_of_a_new_job_or_a_car_bought_leaves_the_job() -> None:
    """Moving to Valparaiso is no change of a job "at Caleta, a seafood place in
    Valparaiso"; a car bought replaces no job "at Kalpana Hospital's ENT department" (a
    part of a place named, not a make owned)."""
    memory = _memory_after(
        (
            "I got offered sous chef at Caleta, a seafood place in Valparaiso! I said yes!!",
            "Ximena",
            "s",
        ),
        ("we moved to Valparaiso with Matias this weekend, flat on Cerro Alegre.", "Ximena", "s"),
    )
    assert "Caleta" in memory and "Cerro Alegre" in memory, memory
    memory = _memory_after(
        ("news: started at Kalpana Hospital's ENT department this week!", "Radhika", "s"),
        ("it's far though, so we bought a Tata Nexon EV and sold the scooter.", "Radhika", "s"),
    )
    assert "Kalpana" in memory and "Nexon" in memory, memory


def test_a_firm_been_with_for_years_is_an_employer_notice_ends() -> None:
    """ "been with Plomberie Gagnon 8 years" is where they work: "I gave my notice" ends it
    (before, the line was no employer's and stayed); "been with Sarah 8 years" is no firm."""
    said = [
        (
            "salut, Mathieu here, plumber in Sherbrooke. been with Plomberie Gagnon 8 years.",
            "Mathieu",
            "s",
        ),
        ("passed the RBQ exam!!! and I gave my notice.", "Mathieu", "s"),
    ]
    assert "Gagnon" not in _memory_after(*said)
    said = [
        ("I've been with Sarah 8 years, she's a nurse.", "Mathieu", "s"),
        ("passed the RBQ exam!!! and I gave my notice.", "Mathieu", "s"),
    ]
    assert "Sarah" in _memory_after(*said)


def test_a_move_to_a_school_or_an_account_at_work_is_no_new_home() -> None:
    """ "moved to the Ahorn clinic" is a new workplace, said with its kind in lower case;
    "moved to a new account, Holloway" is a change at work: neither is a home, so the town
    they live in stays."""
    said = [
        ("Hi, I'm Vesna, a nurse at the Kestrel clinic. I live in Graz.", "Vesna", "s"),
        ("I moved to the Ahorn clinic, nearer the station.", "Vesna", "s"),
    ]
    memory = _memory_after(*said)
    assert "Ahorn" in memory and "Graz" in memory and "Kestrel" not in memory, memory
    said = [
        ("I'm a team lead at a call centre, based in Davao.", "Ligaya", "s"),
        (
            "we moved to a new account, Holloway, it's an insurer. we start at noon now.",
            "Ligaya",
            "s",
        ),
    ]
    memory = _memory_after(*said)
    assert "Holloway" in memory and "Davao" in memory, memory


def test_work_said_remote_now_for_a_name_and_a_place_of_work_left_are_the_job() -> None:
    """ "I'm working remote now for Norrlys" names the employer ("now" between the verb and
    "for" hid it); "I left the studio" ends the one employer of theirs, not the line that
    only says something happened outside the studio."""
    said = [
        ("Ciao! I'm Carla, an architect at Atelier Vetro in Turin.", "Carla", "s"),
        ("someone stole my bike outside the studio yesterday, in San Salvario.", "Carla", "s"),
        ("I'm working remote now for Norrlys, a Copenhagen firm.", "Carla", "s"),
    ]
    memory = _memory_after(*said)
    assert "Vetro" not in memory and "Norrlys" in memory, memory
    memory = _memory_after(*said[:2], ("BIG news. I left the studio.", "Carla", "s"))
    assert "Vetro" not in memory and "San Salvario" in memory, memory


def test_a_workplace_said_short_is_the_same_one() -> None:
    """ "first two weeks at Tyger done" is the employer they started at, "Tygerberg Hospital",
    said short as a place one knows is (before, the new value retired the line); a thing moved
    "for me" is no move of theirs to the place just named."""
    memory = _memory_after(
        ("also I got the job!! I start at Tygerberg Hospital pharmacy on 1 March.", "Lerato", "s"),
        (
            "first two weeks at Tyger done, it's chaos but I love it. also parkrun moved for me, "
            "I go to Delta Park now",
            "Lerato",
            "s",
        ),
    )
    assert "Tygerberg" in memory and "moved to" not in memory, memory


def test_a_doing_said_now_after_a_name_is_no_employer() -> None:
    """ "For wood now Edgar buys at Maderera Pucallpa" is where he buys, no job taken: it
    retires no employer; "Edgar is now head carpenter at Taller Sillar" is one."""
    older = ["Edgar works at Maderas Arequipa.", "Edgar lives in Arequipa."]
    said = "For wood now Edgar buys at Maderera Pucallpa, they have tornillo and cedar."
    assert _merge("Edgar", older, said) == []
    assert _merge("Edgar", older, "Edgar is now head carpenter at Taller Sillar.") == [older[0]]


def test_a_place_of_work_another_left_ends_no_job_of_the_speakers() -> None:
    """ "Also flamenco: the teacher left the academy" is the teacher's leaving: the opener
    before it is no one, and the speaker's new job stays (before, "flamenco" was read as who
    left, and the speaker's one employer went)."""
    lines = lines_of_days(
        "Elena",
        ["Changes at work: I've left the shop and I'm now at Mercadona, still mornings."],
        ["Also flamenco: the teacher left the academy, so now Vega has Maribel, same day."],
    )
    assert "Elena is now at Mercadona, still mornings." in lines, lines


def test_a_job_left_ends_the_part_time_job_and_leaves_an_offer() -> None:
    """ "handed in my notice at the shop" ends "works part time at Wildflower Books" ("part
    time" spelled with a space is a job's hours too; before, the line held no job) and
    leaves "has been offered a job teaching art at Cotham School", a job not yet held."""
    lines = lines_after(
        "Harriet",
        "I also work part time at Wildflower Books so the prints don't have to pay the bills.",
        "AND I've been offered a job teaching art at Cotham School!",
        "I start properly on Monday, three days a week. handed in my notice at the shop",
    )
    assert not any("Wildflower" in line for line in lines), lines
    assert any("Cotham School" in line for line in lines), lines


def test_notice_given_at_a_place_with_its_i_left_out_ends_the_job_there() -> None:
    """ "yes. gave notice at the bank today." ends "day job at millennium bank": notice given
    is handed in (before, only "handed in my notice at" was), and "Gave notice at the bank"
    is the speaker's, its "I" left out before a bare noun and where (before, it was dropped);
    "Married life in Leeds is great" is no marriage of theirs."""
    lines = lines_after(
        "Henrique",
        "i only coach evenings, day job at millennium bank, branch in the center",
        "yes. gave notice at the bank today. 14 years in banks enough",
    )
    assert not any("millennium" in line.lower() for line in lines), lines
    assert "Henrique gave notice at the bank today." in lines, lines
    lines = lines_after("Henrique", "I work at Millennium Bank.", "Married life in Leeds is great.")
    assert "Henrique works at Millennium Bank." in lines, lines
    assert not any(line.startswith("Henrique married") for line in lines), lines
