"""A name said wrong and corrected (``renaming.corrected_name``, through the extractive
path): the line naming the thing or the person by the old name takes the new one, and a name
said anew corrects nothing. Renames are ``test_renaming.py``'s."""

from __future__ import annotations

from tests.actors.merging import facts_of as _facts
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge


def test_a_name_corrected_takes_the_line_naming_the_thing_by_the_old_one() -> None:
    """ "the rams are Texels, not the breed I said" corrects "40 Merino rams"; "the bulbs I
    planted aren't the kind I told you … it's Queen of Night" corrects "Ballerina from bulb"."""
    memory = _memory_after(
        ("Wool from my 40 Merino rams, shearing in May.", "Aroha", "s"),
        ("Oh, I must correct myself: the rams are Texels, not the breed I said.", "Aroha", "s"),
    )
    assert "Merino" not in memory and "40 Texel rams" in memory
    memory = _memory_after(
        ("I'm growing Ballerina from bulb this year, plus some herbs.", "Aroha", "s"),
        (
            "Small correction: the bulbs I planted aren't the kind I told you. I checked the bag "
            "and it's Queen of Night, the dark ones.",
            "Aroha",
            "s",
        ),
    )
    assert "Ballerina" not in memory and "growing Queen of Night from bulb" in memory


def test_a_name_corrected_after_mistakes_owned_takes_the_beings_line() -> None:
    """ "Two mistakes! The cat's name is Mochi, … And my day off is Friday, not what I wrote":
    the cat called by its old name after its kind takes the new one, the day its own."""
    memory = _memory_after(
        ("Tell them my cat Biscuit sleeps on the counter. My day off is Tuesday.", "Nia", "s"),
        (
            "Oops, two mistakes! The cat's name is Mochi, I was thinking of my sister's cat. "
            "And my day off is Friday, not what I wrote.",
            "Nia",
            "s",
        ),
    )
    assert "Biscuit" not in memory and "cat Mochi sleeps on the counter" in memory
    assert "Tuesday" not in memory


def test_a_persons_name_corrected_by_whose_it_is_takes_the_line_naming_them() -> None:
    """ "I wrote his name wrong, it's Mr Okonkwo", "autocorrect again, her name is Saoirse":
    a person's name corrected takes the line naming them after a title or who they are;
    "Her name is Nneka, she's new" corrects nothing."""
    older = ["Emeka does pottery with Mr Okafor on Saturdays.", "Emeka lives in Enugu."]
    said = "Sorry, I wrote his name wrong, it's Mr Okonkwo."
    assert _merge("Emeka", older, said) == [older[0]]
    older = ["Emeka shares a flat in Enugu with their flatmate Siobhan.", "Emeka is a nurse."]
    memory = _memory_after(
        ("I share a flat in Enugu with my flatmate Siobhan. I'm a nurse.", "Emeka", "s"),
        ("Ugh, autocorrect again, her name is Saoirse.", "Emeka", "s"),
    )
    assert "Siobhan" not in memory and "flatmate Saoirse" in memory
    assert _merge("Emeka", older, "Her name is Nneka, she's new at the clinic.") == []


def test_a_name_corrected_is_never_the_speakers_own_in_a_line_of_theirs() -> None:
    """ "I wrote my roommate's name wrong, it's Abena": the roommate's name, in the line
    naming her, and not the speaker's in "… because Akua walks to the café"."""
    memory = _memory_after(
        (
            "Rent is 900 cedis, I share a place in Adabraka with my friend Efua. Transport is"
            " cheap because I walk to the café.",
            "Akua",
            "s",
        ),
        ("Oops, I wrote my roommate's name wrong, it's Abena 🙈", "Akua", "s"),
    )
    assert "because Akua walks to the café" in memory and "Abena walks" not in memory
    assert "with their friend Abena" in memory


def test_a_wrong_name_owned_then_its_right_one_is_said_of_the_thing() -> None:
    """ "I gave you the wrong gym name, it's Iron Works": the name corrects the gym, said
    whole ("Wiremu's gym is Iron Works"), though the mistake's clause says a thing itself."""
    memory = _memory_after(
        ("My gym is Peak Fitness, I go after work.", "Wiremu", "s"),
        ("Sorry, I gave you the wrong gym name, it's Iron Works, I mix them up.", "Wiremu", "s"),
    )
    assert "Peak Fitness" not in memory and "Wiremu's gym is Iron Works" in memory


def test_a_name_corrected_apart_from_its_noun_takes_the_one_line_on_that_noun() -> None:
    """ "the wrong school name, it's Hillcrest" corrects the one line on the school holding one
    name of no person, however far from the word "school" the name is said; a price said
    with a correction's word is no name."""
    memory = _memory_after(
        (
            "Fees, uniforms and school for my son Tevita, he goes to Kingsgate five days a week.",
            "Losa",
            "s",
        ),
        (
            "Sorry, I gave you the wrong school name, it's Hillcrest, I always mix them up.",
            "Losa",
            "s",
        ),
    )
    assert "Kingsgate" not in memory and "Hillcrest" in memory
    memory = _memory_after(
        ("I'm a tailor in Kota Bharu, mostly baju melayu and shirts.", "Aini", "s"),
        ("So a baju melayu is RM150 now, the rent is higher and nobody has blinked.", "Aini", "s"),
    )
    assert "Aini works as a tailor." in memory and "Aini is based in Kota Bharu" in memory


def test_a_thing_known_by_whose_it_is_takes_the_name_its_turn_says_was_wrong() -> None:
    """ "I gave you the wrong name for my coach. The group is Coach Bekele's" corrects "Coach
    Tesfaye's group": the turn says a name was wrong, and the thing is known by whose it is.
    Without a word of a wrong name, someone else's group is no correction of the speaker's."""
    memory = _memory_after(
        ("I train with Coach Tesfaye's group on Tuesdays at Meskel Square.", "Selam", "s"),
        (
            "Sorry, I gave you the wrong name for my coach. The group is Coach Bekele's.",
            "Selam",
            "s",
        ),
    )
    assert "Selam trains with Coach Bekele's group on Tuesdays at Meskel Square." in _facts(memory)
    assert "Tesfaye" not in memory.split("# Memory")[-1]
    news = _memory_after(
        ("I train with Coach Tesfaye's group on Tuesdays at Meskel Square.", "Selam", "s"),
        ("My cousin's running group is Coach Bekele's.", "Selam", "s"),
    )
    assert "Tesfaye" in news


def test_where_a_thing_is_corrected_by_its_noun_alone_takes_its_line() -> None:
    """ "got the ground wrong before, touch is at Sturges Park this season" corrects where
    touch rugby is played: "Bledisloe Park" in its line."""
    said = [
        ("also touch rugby Monday nights at Bledisloe Park, so no late runs Mondays", "Tane", "s"),
        (
            "oops got the ground wrong before, touch is at Sturges Park this season, dunno why "
            "I said the other one lol",
            "Tane",
            "s",
        ),
    ]
    memory = _facts(_memory_after(*said))
    assert "Touch rugby Monday nights at Sturges Park." in memory, memory
    assert not any("Bledisloe" in line for line in memory), memory


def test_a_roles_name_corrected_takes_the_titled_one_not_a_partner() -> None:
    """ "my PI's name is Hartung" renames "Prof. Hartmann's group", up to whose it is, and
    never "boyfriend Can", named by a relation the PI is not."""
    said = [
        (
            "I work on perovskite solar cells in Prof. Hartmann's group. My boyfriend Can is "
            "still in Istanbul, so lots of video calls.",
            "Elif",
            "s",
        ),
        ("Small correction from my side: my PI's name is Hartung, not what I wrote.", "Elif", "s"),
    ]
    memory = _facts(_memory_after(*said))
    assert "Elif works on perovskite solar cells in Prof. Hartung's group." in memory, memory
    assert any("boyfriend Can" in line for line in memory), memory


def test_a_name_the_phone_autocorrected_then_its_right_one_is_said_of_whom() -> None:
    """ "my phone autocorrected my wife's name earlier. It's Carol!" puts the wife's name
    right (before, an autocorrection owned no mistake: Coral went and no line said Carol)."""
    lines = _facts(
        _memory_after(
            ("I live in Norwood with my wife Coral and our two kids.", "Evander", "s"),
            (
                "ha, sorry, my phone autocorrected my wife's name earlier. It's Carol! She'd "
                "kill me.",
                "Evander",
                "s",
            ),
        )
    )
    assert "Evander's wife is Carol!" in lines, lines
    assert not any("Coral" in line for line in lines), lines


def test_a_name_given_wrong_for_someone_of_theirs_takes_the_line_naming_them() -> None:
    """ "I gave you the wrong name for the doctor. It's Dr Frazer" puts the doctor right in
    the line that names "Dr Fraser" (a doctor by title, though the line says no "doctor"),
    and "wrong name - his tutor is Mr Oduya" the line saying "his tutor"; the right one is
    said of the speaker, "Moira's doctor is Dr Frazer", not "Moira's name for"."""
    lines = _facts(
        _memory_after(
            ("I'll ask about it at my check-up with Dr Fraser on Monday.", "Moira", "s"),
            (
                "Oh, I gave you the wrong name for the doctor, silly me. It's Dr Frazer.",
                "Moira",
                "s",
            ),
        )
    )
    assert "Moira will ask about it at their check-up with Dr Frazer on Monday." in lines, lines
    assert "Moira's doctor is Dr Frazer." in lines and not any("Fraser" in x for x in lines)
    lines = _facts(
        _memory_after(
            ("My son Ade is in year 5 and his tutor Mr Odoya sets too much homework.", "Kemi", "s"),
            ("sorry, wrong name - his tutor is Mr Oduya, I mix them up", "Kemi", "s"),
        )
    )
    assert any("his tutor Mr Oduya sets too much homework" in x for x in lines), lines
    assert not any("Odoya" in x for x in lines), lines
    # (someone else's doctor, said with no mistake owned, puts nothing right)
    lines = _facts(
        _memory_after(
            ("I'll ask about it at my check-up with Dr Fraser on Monday.", "Moira", "s"),
            ("My sister's doctor is Dr Frazer, she likes her.", "Moira", "s"),
        )
    )
    assert any("check-up with Dr Fraser" in x for x in lines), lines


def test_a_place_given_wrong_takes_the_line_saying_it_the_same_way() -> None:
    """ "I wrote the wrong town. the farm is at Kpando" puts right "The farm is at Dodi, close
    to Ho" (not "Kpando farm is at Dodi", the article read as a name, nor the farm's own
    name in another line)."""
    lines = _facts(
        _memory_after(
            (
                "I have a goat farm, Mawu Goats, about 80 animals. The farm is at Dodi, close "
                "to Ho.",
                "Edem",
                "s",
            ),
            (
                "sorry, I wrote the wrong town. the farm is at Kpando, not where I said.",
                "Edem",
                "s",
            ),
        )
    )
    assert "The farm is at Kpando, close to Ho." in lines, lines
    assert any("Mawu Goats" in x for x in lines) and not any("Dodi" in x for x in lines), lines
