"""An introduction typed as fragments (``introduction.opened_by_name``): the speaker's name
alone, then an age, a place, a trade or where they live, each a sentence or a list; and a
move said with the place alone after it ("Nara now.")."""

from __future__ import annotations

import pytest

from reverie.actors.consolidation.casual import cased
from tests.actors.merging import facts_of, memory_after
from tests.actors.merging import lines_after as _lines


@pytest.mark.parametrize(
    ("speaker", "said", "facts"),
    [
        (
            "Gareth",
            "Gareth. 58, plumber, live in Mumbles. I let out two flats.",
            ["Gareth is 58 years old.", "Gareth works as a plumber.", "Gareth lives in Mumbles."],
        ),
        (
            "Kenji",
            "Kenji. 34. Osaka. New dad, 3 weeks in.",
            ["Kenji is 34 years old.", "Kenji is based in Osaka."],
        ),
        (
            "Matti",
            "Matti, Tampere. 55. I drive trams for Tampere Tramway.",
            ["Matti is based in Tampere.", "Matti is 55 years old."],
        ),
        (  # (typed all in lower case: the name and the place are names all the same)
            "Ingrid",
            "hei. ingrid. lighthouse keeper in svolvaer. need a packing list.",
            ["Ingrid works as a lighthouse keeper.", "Ingrid is based in Svolvaer."],
        ),
        (  # (a place with the wider one after it is one place, not two)
            "Sjoerd",
            "Hello. Sjoerd. Dairy farmer near Dokkum, Friesland. 140 cows.",
            ["Sjoerd works as a dairy farmer.", "Sjoerd is based in Dokkum, Friesland."],
        ),
    ],
)
def test_an_introduction_in_fragments_says_who_they_are(
    speaker: str, said: str, facts: list[str]
) -> None:
    lines = _lines(speaker, said)
    assert all(fact in lines for fact in facts), lines


def test_a_name_before_a_question_is_no_introduction() -> None:
    """ "Kwame, quick question: …" says nothing of Kwame."""
    assert _lines("Kwame", "Kwame, quick question: what's a good bike lock?") == []


def test_a_move_then_the_place_alone_now_is_a_move_there() -> None:
    """ "We moved last weekend. Nara now." is a move to Nara: the old home goes."""
    lines = _lines("Kenji", "I live in Osaka.", "We moved last weekend. Nara now. Bigger flat.")
    assert "Kenji and others moved to Nara last weekend." in lines, lines
    assert not any("Osaka" in line for line in lines), lines


def test_an_introduction_after_a_dash_lists_what_they_are() -> None:
    """ "Ilse here — cellist, based in Utrecht": a trade and a place, the dash a comma."""
    lines = _lines("Ilse", "Hoi! Ilse here — cellist, based in Utrecht. I need help with gigs.")
    assert "Ilse works as a cellist." in lines and "Ilse is based in Utrecht." in lines, lines


def test_a_name_said_here_then_fragments_and_a_thing_typed_without_my() -> None:
    """ "alright, Segun here. drummer, south London, Peckham.": a trade and where; "band's
    called The Velvet Okra", typed without "my", is their band, which a rename then takes."""
    lines = _lines(
        "Segun",
        "alright, Segun here. drummer, south London, Peckham. need help with gig admin",
        "band's called The Velvet Okra, afrobeat-ish. i also do 3 days a week at Bassline Records",
        "and we voted on a new name, the old one sounded like a veggie box. we're Lagos Lullaby now.",
    )
    assert "Segun works as a drummer." in lines and "Segun is based in Peckham." in lines, lines
    assert "Segun's band's called Lagos Lullaby, afrobeat-ish." in lines, lines
    assert any("Bassline Records" in line for line in lines), lines


def test_an_emoji_after_here_is_the_introductions_comma() -> None:
    """ "Leilani here 🌺 29, dental hygienist at Kapiolani Smiles in Honolulu"."""
    lines = _lines("Leilani", "Aloha! Leilani here 🌺 29, dental hygienist at Kapiolani Smiles.")
    assert "Leilani is 29 years old." in lines and "Leilani works as a dental hygienist." in lines


def test_a_roads_letter_and_a_thing_of_theirs_said_as_mine() -> None:
    """ "died on I-110" keeps the road's name; "Mine's Fridays" is theirs."""
    lines = _lines("Thanh", "Truck finally died on I-110. Picked up a used Tundra.")
    assert any("I-110" in line for line in lines), lines
    lines = _lines(
        "Thanh", "I told you the wrong day. That's my cousin's stall. Mine's Fridays, same hours."
    )
    assert not any("'s's" in line for line in lines), lines


def test_a_name_after_a_two_word_greeting_then_capitalised_fragments() -> None:
    """ "Kia ora. Tane. Paramedic with St John, based at the Christchurch station. Live in
    Riccarton with my partner Mere.": a trade, an employer, where they work and live."""
    lines = _lines(
        "Tane",
        "Kia ora. Tane. Paramedic with St John, based at the Christchurch station. Live in "
        "Riccarton with my partner Mere and our two girls.",
    )
    for fact in [
        "Tane works as a paramedic.",
        "Tane works at St John.",
        "Tane lives in Riccarton.",
    ]:
        assert fact in lines, lines


def test_a_move_down_the_coast_typed_without_i_and_still_here_are_the_speakers() -> None:
    """ "moving down the coast to Matanzas" is the speaker's move; "still here in Nakuru" names
    no one called Still."""
    memory = memory_after(
        ("I live in Pichilemu.", "Joaquín", "s"),
        (
            "big change: moving down the coast to Matanzas. got a job at Roca Surf School there",
            "Joaquín",
            "s",
        ),
    )
    assert (
        "Pichilemu" not in memory and "Joaquín is moving down the coast to Matanzas." in memory
    ), memory
    memory = memory_after(("said yes!! still here in Nakuru obviously", "Wanjiru", "s"))
    assert "is Still" not in memory, memory


def test_a_name_said_again_by_a_pronoun_is_who_it_says() -> None:
    """ "Imran, he's a DJ I met at a sangeet" says who Imran is (and, after "I'm seeing
    someone.", whom they are dating)."""
    memory = memory_after(
        ("I'm seeing someone. Imran, he's a DJ I met at a sangeet 🙈", "Anjali", "s")
    )
    assert "Anjali is dating Imran, a DJ they met at a sangeet" in memory, memory
    memory = memory_after(("Imran, he's a DJ I met at a sangeet 🙈", "Anjali", "s"))
    assert "Imran is a DJ Anjali met at a sangeet" in memory, memory


def test_a_choir_joined_is_no_employer_and_getting_around_on_a_scooter_is_theirs() -> None:
    """ "joined Naiskoor Lumi, a women's choir" is a membership a new job leaves; "get around
    on a Piaggio Liberty" is how the speaker gets around, which a theft ends."""
    memory = memory_after(
        ("I left the choir and joined Naiskoor Lumi, a women's choir.", "Kertu", "s"),
        (
            "I start at the Kliinikum dental department next month, handed in my notice.",
            "Kertu",
            "s",
        ),
    )
    assert "Naiskoor Lumi" in memory, memory
    memory = memory_after(("I live on Aegina. get around on a Piaggio Liberty", "Stavros", "s"))
    assert "Stavros gets around on a Piaggio Liberty." in memory, memory


def test_a_post_said_alone_is_the_speakers_new_trade_and_employer() -> None:
    """ "I GOT IT!!! Deputy manager at Elmhurst House" is the speaker's post: it replaces the
    nurse at Willow Court; a noun at a place that is no post, or a post said of someone, is
    not theirs."""
    lines = _lines(
        "Thandiwe",
        "I'm a nurse at Willow Court, a care home in Bristol.",
        "I GOT IT!!! Deputy manager at Elmhurst House, I start in a month.",
    )
    assert "Thandiwe works at Elmhurst House." in lines, lines
    assert not [line for line in lines if "Willow Court" in line], lines
    for said in [
        "Dinner at Nandos tonight.",
        "My manager at Tesco is nice.",
        "Manager at Tesco is nice.",
    ]:
        assert not [line for line in _lines("Thandiwe", said) if "works" in line], said


def test_a_name_with_its_surname_a_home_by_its_kind_and_a_bare_move_before_the_place() -> None:
    """ "Morning. Lars Holm. Welder at Eriksberg Marine, the shipyard in Gothenburg." says the
    trade and the employer; "Flat in Majorna, 9,800 kronor." where they live; "Moved.
    Masthugget now." a move there, which ends Majorna."""
    said = [
        "Morning. Lars Holm. Welder at Eriksberg Marine, the shipyard in Gothenburg.",
        "Flat in Majorna, 9,800 kronor. Cat called Smilla.",
        "Moved. Masthugget now. Same rent, believe it or not.",
    ]
    memory = memory_after(*((text, "Lars", "s") for text in said))
    facts = facts_of(memory)
    assert "Lars works as a welder." in facts, facts
    assert "Lars moved to Masthugget." in facts and "Majorna" not in memory, facts


def test_a_list_aside_between_a_trade_and_its_employer_is_left_out() -> None:
    """ "So I'm Diego, I'm a vet (mostly cats and dogs, the occasional very angry parrot) at
    Turia Vet Clinic here in Valencia.": the trade, the employer and the city."""
    said = (
        "Hey there! So I'm Diego, I'm a vet (mostly cats and dogs, the occasional very angry "
        "parrot) at Turia Vet Clinic here in Valencia."
    )
    assert facts_of(memory_after((said, "Diego", "s"))) == [
        "Diego works as a vet.",
        "Diego works at Turia Vet Clinic.",
        "Diego is based in Valencia.",
    ]


def test_a_terse_introduction_its_trade_in_capitals_its_own_business_and_a_move_house() -> None:
    """ "Kwame. Plumber, own business, Osei Pipeworks. Accra, Osu area.": the trade (the
    embedder places "my plumber" as a person, "my Tampere" as a place), the business by its
    name and the area; "Drive a Toyota Hilux." what they drive; "Moved house. East Legon
    now." a move there."""
    said = [
        "Kwame. Plumber, own business, Osei Pipeworks. Accra, Osu area.",
        "Drive a Toyota Hilux. Dog: Simba.",
        "Morning. Moved house. East Legon now.",
    ]
    facts = facts_of(memory_after(*((text, "Kwame", "s") for text in said)))
    for line in (
        "Kwame is a plumber.",
        "Kwame runs their own business called Osei Pipeworks.",
        "Kwame drives a Toyota Hilux.",
        "Kwame moved to East Legon.",
    ):
        assert line in facts, facts
    place = facts_of(memory_after(("Matti, Tampere. 55.", "Matti", "s")))
    assert "Matti is based in Tampere." in place, place


def test_an_amount_said_alone_as_it_is_now_after_what_changed_it() -> None:
    """ "Got a raise. 2650 now." is the salary now; "2650 now." alone, after nothing, is
    no claim."""
    said = [("My salary is 2400 euros.", "Lukas", "s"), ("Got a raise. 2650 now.", "Lukas", "s")]
    memory = memory_after(*said)
    assert "2400" not in memory and "Lukas's salary is 2650 euros." in facts_of(memory), memory
    alone = memory_after(said[0], ("2650 now.", "Lukas", "s"))
    assert "Lukas's salary is 2400 euros." in facts_of(alone), alone
    # (how long it has been is no amount they are on: "stopped smoking!! 2 weeks now.")
    memory = memory_after(("I stopped smoking!! 2 weeks now.", "Lorna", "s"))
    assert "is on 2 weeks" not in memory, memory


def test_a_pet_taken_to_live_elsewhere_an_extra_on_another_day_and_a_name_in_lower_case() -> None:
    """ "hey, i'm jules. radio producer at Harbour FM": the trade after a name typed in lower
    case; "the pub's added an extra quiz on thursdays now but we're sticking with wednesday"
    moves no quiz; "my nan … she's taken the cat to live with her" ends the cat; "drive a
    little Toyota Aqua" is what they drive."""
    said = [
        "hey, i'm jules. radio producer at Harbour FM, i do the breakfast show. every wednesday "
        "i do the pub quiz with mates. we've got a cat called Kumara. drive a little Toyota Aqua",
        "the pub's added an extra quiz on thursdays now but we're sticking with wednesday",
        "update: my nan was so lonely she's taken the cat to live with her, they're besties now",
    ]
    memory = memory_after(*((text, "Jules", "s") for text in said))
    facts = facts_of(memory)
    assert "Jules works as a radio producer." in facts, facts
    assert "Every Wednesday Jules does the pub quiz with mates." in facts, facts
    assert "Kumara" not in memory and "Jules drives a little Toyota Aqua." in facts, facts


def test_a_conjunction_opens_no_thing_of_theirs_and_an_initialism_is_no_typed_name() -> None:
    """ "and bjj is friday nights w the new coach" is no "Tanya's and bjj"; "but that's like a
    10 year dream lol" is no line of theirs; an initialism ("RN at the clinic outside
    grbavica") leaves the names typed in lower case to be cased."""
    said = [
        "i do bjj on tuesday nights. someday i wanna open my own gym",
        "yes. and bjj is friday nights w the new coach. but that's like a 10 year dream lol",
    ]
    facts = facts_of(memory_after(*((text, "Tanya", "s") for text in said)))
    assert not any("Tanya's and" in f or "Tanya's but" in f for f in facts), facts
    assert cased("RN at the clinic outside grbavica") == "RN at the clinic outside Grbavica"


def test_a_trade_alone_after_here_then_the_employer_or_a_clause_of_theirs() -> None:
    """ "Kasimir here, bricklayer, with Krause Bau in Leipzig, living in Connewitz" and
    "Jarrah here, boatbuilder, I work at Saltbush Boatworks in Hobart": the trade, the
    employer and the place, each a claim."""
    said = "moin moin. Kasimir here, bricklayer, with Krause Bau in Leipzig, living in Connewitz."
    assert facts_of(memory_after((said, "Kasimir", "s"))) == [
        "Kasimir works as a bricklayer.",
        "Kasimir works at Krause Bau.",
        "Kasimir is based in Leipzig.",
        "Kasimir is living in Connewitz.",
    ]
    said = "g'day. Jarrah here, boatbuilder, I work at Saltbush Boatworks in Hobart."
    assert facts_of(memory_after((said, "Jarrah", "s"))) == [
        "Jarrah works as a boatbuilder.",
        "Jarrah works at Saltbush Boatworks.",
        "Jarrah is based in Hobart.",
    ]


def test_an_emoji_of_several_characters_ends_a_sentence_as_one_does() -> None:
    """ "hairdresser in Recife 💇‍♀️ I work at Studio Bella": an emoji joined from several
    characters, or with its variation selector ("❤️"), ends its sentence as "🌙" does (before,
    the two were one line, "… based in Recife 💇‍♀️ they work at Studio Bella …", which no key
    of the employer read whole)."""
    lines = _lines(
        "Juliana",
        "oii! I'm Juliana, hairdresser in Recife 💇‍♀️ I work at Studio Bella in Boa Viagem",
    )
    assert "Juliana works at Studio Bella." in lines, lines


def test_a_list_of_news_says_each_line_as_a_sentence_without_its_mark() -> None:
    """ "- moved to Villeray, …" and "2) new flatmate, Odile" are sentences typed without "I":
    the mark of a list opens no word of them (before, "- moved to Villeray" was a line of
    nobody's, and the home it replaced stayed)."""
    lines = _lines(
        "Maude",
        "I'm a dog walker and I live in Ahuntsic.",
        "ok lots of news:\n- moved to Villeray, the new flat has a yard!!\n2) I'm on Pawshake now",
    )
    assert "Maude moved to Villeray, the new flat has a yard!!" in lines, lines
    assert "Maude is on Pawshake now." in lines and not any("Ahuntsic" in f for f in lines)
    # (numbered in one line, each its own sentence: "… 2) raised my rate to 0.08 per word")
    lines = _lines(
        "Linh",
        "I translate games. I charge 0.06 USD per word.",
        "life update: 1) my flatmate went back to Hue, now I live with Vy 2) raised my rate to "
        "0.08 per word for new jobs",
    )
    assert "Linh raised their rate to 0.08 per word for new jobs." in lines, lines
    assert not any("0.06" in f for f in lines)
    # (a number closing an aside is no list: "with Adam (our son, 4) in the morning")
    lines = _lines(
        "Youssef",
        "we commute from our flat in Gueliz by taxi, it's tiring with Adam (our son, 4) in the "
        "morning",
    )
    assert lines == [
        "Youssef and others commute from their flat in Gueliz by taxi, it's tiring with Adam in "
        "the morning."
    ], lines


def test_where_one_is_from_said_without_i_m_is_theirs() -> None:
    """ "… Palawan 🐠 originally from Iloilo." and "From Cork originally." are where the speaker
    is from (before, a sentence of no subject, and dropped)."""
    lines = _lines("Rhea", "I'm Rhea, dive instructor in El Nido 🐠 originally from Iloilo.")
    assert "Rhea is originally from Iloilo." in lines, lines
    assert (
        _lines("Niamh", "From Cork originally. I teach yoga.")[0]
        == "Niamh is from Cork originally."
    )


def test_the_speakers_name_alone_before_a_dash_opens_an_introduction() -> None:
    """ "Hi! Devika — architect at Mistry Associates, Bangalore." is "Devika here, …" (before,
    no fact at all); another's name before a dash is no introduction of the speaker's."""
    lines = _lines("Devika", "Hi! Devika — architect at Mistry Associates, Bangalore.")
    assert lines == [
        "Devika works as an architect.",
        "Devika works at Mistry Associates.",
        "Devika is based in Bangalore.",
    ], lines
    assert not any("architect" in f for f in _lines("Devika", "Hi! Arvind — architect at Mistry."))


def test_a_thing_stolen_said_without_my_was_is_theirs_and_ends_the_one_they_had() -> None:
    """ "Also bike stolen outside the institute." is "My bike was stolen …": before, it was
    no one's, and, a change naming nothing, replaced the line nearest it, where they live."""
    lines = _lines(
        "Bartosz",
        "I live in Kraków. I cycle to work on my Kross bike.",
        "Also bike stolen outside the institute. U-lock cut.",
    )
    assert "Bartosz's bike was stolen outside the institute." in lines, lines
    assert "Bartosz lives in Kraków." in lines and not any("Kross" in x for x in lines), lines
