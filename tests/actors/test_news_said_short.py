"""News said as chat says it, short or inside other news: "I've been offered the head ghillie
job at Ardlossit … Took it.", "I accepted the Kaamos Analytics offer", "ok so the Framework
arrived", "rent's 1020 but worth it", "I mistyped my birthday, it's the 28th", "…got worse
and the cat has gone to live with my mum", "I LOVE that …"."""

from __future__ import annotations

from reverie.actors.consolidation.third_person import third_person
from tests.actors.merging import lines_after as _lines


def test_an_offer_to_i_ve_been_taken_with_no_i_is_the_new_job() -> None:
    """ "I've been offered …. Took it." is the job; and the line holding it owns no thing
    called "Spey" that a car bought later would replace."""
    lines = _lines(
        "Fergus",
        "Evening all. Fergus here, I'm a ghillie on the Glenmorven estate, 30 years on the river.",
        "Bigger news: I've been offered the head ghillie job at Ardlossit up on the Spey. Took it.",
        "The old Land Rover finally gave up on the Slochd summit. Bought a Suzuki Jimny.",
    )
    assert "Fergus works as a head ghillie." in lines, lines
    assert "Fergus works at Ardlossit up on the Spey." in lines, lines
    assert not any("Glenmorven" in line or "offered" in line for line in lines), lines


def test_an_offer_accepted_by_who_made_it_is_the_new_employer() -> None:
    lines = _lines(
        "Tuula",
        "Hei! I'm Tuula, meteorologist at Sääpalvelu Pohjola in Oulu.",
        "huomenta! I accepted the Kaamos Analytics offer, first day is Monday.",
    )
    assert "Tuula works at Kaamos Analytics." in lines, lines
    assert "Tuula works as a meteorologist." in lines, lines
    assert not any("Pohjola" in line for line in lines), lines


def test_a_thing_by_its_make_that_arrived_replaces_the_one_they_had() -> None:
    """ "ok so the Framework arrived": a new laptop, however the sentence opens; not one of
    the family, "my Nan arrived"."""
    lines = _lines(
        "Soraya",
        "my ThinkPad's keyboard is dying. should I get a MacBook?",
        "Morning! ok so the Framework arrived and I LOVE that I can swap the keyboard myself.",
    )
    assert "The Framework arrived." in lines, lines
    assert not any("ThinkPad" in line for line in lines), lines
    assert "Soraya LOVES that they can swap the keyboard themselves." in lines, lines
    lines = _lines("Soraya", "my ThinkPad's keyboard is dying.", "My Nan arrived today.")
    assert "Soraya's ThinkPad's keyboard is dying." in lines, lines


def test_an_amount_of_theirs_with_is_contracted_replaces_the_old_one() -> None:
    lines = _lines(
        "Tuula",
        "rent is 890 so no fancy gym for me haha.",
        "our new flat in Tampere has a sauna in the building! rent's 1020 but worth it.",
    )
    assert "Tuula's rent is 1020 but worth it." in lines, lines
    assert not any("890" in line for line in lines), lines


def test_an_amount_of_another_thing_by_the_same_period_is_no_change_of_pay() -> None:
    """ "floorball …, 300 a month for the hall" is no new pay of "earns 42000 a month": an
    amount far from the line's shares no topic with it by its period alone."""
    lines = _lines(
        "Ivo",
        "I earn 42000 a month gross.",
        "and floorball on Monday nights, 300 a month for the hall",
    )
    assert "Ivo earns 42000 a month gross." in lines, lines


def test_pay_said_where_it_goes_is_the_new_pay() -> None:
    """ "salary goes to 51000" (not "salary goes to is 51000") replaces "earns 42000"."""
    lines = _lines(
        "Ivo", "I earn 42000 a month gross.", "passed the CNC course. salary goes to 51000."
    )
    assert "Ivo's salary goes to 51000." in lines, lines
    assert not any("42000" in line for line in lines), lines


def test_a_value_mistyped_is_corrected() -> None:
    lines = _lines(
        "Renata",
        "oh and my birthday is the 23rd of March, Caio always forgets",
        "ai, I mistyped my birthday, it's the 28th. Caio forgot anyway lol.",
    )
    assert not any("23rd" in line for line in lines), lines
    assert any("28th" in line for line in lines), lines


def test_a_pet_that_went_to_live_elsewhere_after_other_news_in_its_sentence() -> None:
    """ "Ivana's allergies got worse and the cat has gone to live with my mum": two clauses,
    the second the cat's."""
    lines = _lines(
        "Mirko",
        "and my cat Pero eats like a king",
        "so Ivana's allergies got worse and the cat has gone to live with my mum in Sinj.",
    )
    assert not any("Pero" in line for line in lines), lines
    assert "The cat has gone to live with Mirko's mum in Sinj." in lines, lines


def test_some_of_their_people_moving_is_no_move_of_theirs() -> None:
    """ "half my cousins are moving to Brisbane" is the cousins' news."""
    lines = _lines(
        "Tevita",
        "moving day! we're renting a bigger place in Manurewa, the kids almost get a room each",
        "half my cousins are moving to Brisbane, they keep saying come over",
    )
    assert any("Manurewa" in line for line in lines), lines


def test_a_thing_by_a_hyphened_noun_that_was_stolen_is_theirs() -> None:
    """ "my e-bike got stolen" ends the Gazelle e-bike: an e-bike is a bike, not a person."""
    lines = _lines(
        "Marguerite",
        "swimming on Tuesday mornings at 7, and I cycle to the office on my Gazelle e-bike.",
        "ugh. my e-bike got stolen from outside the office, lock cut clean through.",
    )
    assert not any("Gazelle" in line for line in lines), lines


def test_a_move_by_its_noun_or_of_everyone_is_no_move_of_theirs() -> None:
    """ "sold my camera kit to fund the move" moves nobody to the camera bought; "everyone is
    moving this year" after a brother's move is no move of anyone's to his city."""
    lines = _lines(
        "Hiroshi",
        "Tsubame Design in Kobe made an offer and I accepted. my brother just moved to Nagoya "
        "for work, everyone is moving this year haha",
        "first days at Tsubame done. sold my camera kit to fund the move and bought a Ricoh "
        "GR III, tiny, fits in my pocket.",
    )
    assert "Hiroshi works at Tsubame Design." in lines, lines
    assert "Hiroshi is based in Kobe." in lines, lines
    assert not any("moving to Nagoya" in line for line in lines), lines


def test_a_thing_given_replaces_no_make_said_of_another_kind() -> None:
    """ "gave me her old smartphone, a Sharp Aquos" is no new "electric bicycle, a Panasonic
    Vivi": the make is said with its kind."""
    lines = _lines(
        "Shigeru",
        "So now I ride an electric bicycle, a Panasonic Vivi. Very comfortable!",
        "My granddaughter gave me her old smartphone, a Sharp Aquos.",
    )
    assert "Now Shigeru rides an electric bicycle, a Panasonic Vivi." in lines, lines


def test_a_retraction_after_why_takes_back_its_topic() -> None:
    """ "pulled my hamstring too, so forget what I said about April" takes back the April
    marathon; "so forgive the typos" is talk to the assistant."""
    lines = _lines(
        "Kwabena",
        "also signed up for the marathon in April!! first one ever.",
        "pulled my hamstring too, so forget what I said about April, I'm not running it.",
    )
    assert not any("marathon" in line for line in lines), lines
    lines = _lines("Ngozi", "just got off shift so forgive the typos")
    assert lines == [], lines


def test_a_weekly_line_opening_with_its_day_is_theirs_where_others_are_named() -> None:
    """ "On Friday afternoons Mariko plays shogi …" is Mariko's (its day said first), so the
    shogi club meeting on Saturdays replaces it where the scope names someone else too."""
    lines = _lines(
        "Mariko",
        "I live with my husband Takeshi. On Friday afternoons I play shogi at the community hall.",
        "Takeshi says when he turns 75 we should move to Okinawa. Takeshi has bought his own "
        "electric bicycle, a Bridgestone.",
        "The shogi club here meets on Saturday mornings, so now I play every Saturday.",
    )
    assert not any("Friday" in line for line in lines), lines


def test_a_name_at_the_place_of_a_weekly_line_is_no_make_of_theirs() -> None:
    """ "… line dancing at the VFW hall" holds no make called VFW: a machine bought replaces
    the old Singer."""
    lines = _lines(
        "Esperanza",
        "I do alterations at Gutierrez Cleaners on weekdays and sew at home on my old Singer "
        "in the evenings.",
        "Friday nights I go line dancing at the VFW hall with my comadres.",
        "Bought a Juki industrial machine for the shop, it goes like a rocket.",
    )
    assert not any("Singer" in line for line in lines), lines


def test_a_verb_in_capitals_is_said_of_them_in_capitals() -> None:
    assert (
        third_person("I LOVE that I can swap it.", "Soraya")
        == "Soraya LOVES that they can swap it."
    )
    assert third_person("I TRY every day.", "Soraya") == "Soraya TRIES every day."


def test_a_name_with_the_speakers_tie_after_it_is_their_relative_by_name() -> None:
    """ "Zawadi my girlfriend says I'm always tired" names her, then the tie: she is the
    speaker's girlfriend Zawadi (before, "Zawadi Baraka's girlfriend says …", and "Megan
    (Caleb's girlfriend) took it"), in brackets or between commas too."""
    said = third_person("Zawadi my girlfriend says I'm always tired.", "Baraka")
    assert said == "Baraka's girlfriend Zawadi says they're always tired."
    said = third_person("Megan (my girlfriend) took it last year.", "Caleb")
    assert said == "Caleb's girlfriend Megan took it last year."
    said = third_person("Tomás, my cousin, lives in Nairobi now.", "Baraka")
    assert said == "Baraka's cousin Tomás lives in Nairobi now."
    # (and with "and I" after it, one subject: before, "Jade (Brooke's girlfriend)." and
    # "Brooke is looking at …" apart)
    lines = _lines("Brooke", "also Jade (my girlfriend) and I are looking at a flat in Verdun")
    assert lines == ["Brooke and their girlfriend Jade are looking at a flat in Verdun."], lines


def test_a_name_with_a_doers_noun_of_theirs_after_it_is_that_one_by_name() -> None:
    """ "Owain our bassist just moved to Bristol" is the bassist's move: the band stays based
    in Cardiff (before, "Owain Gareth's bassist just moved …" read as the speaker's)."""
    said = third_person("Owain our bassist just moved to Bristol.", "Gareth")
    assert said == "Gareth's bassist Owain just moved to Bristol."
    lines = _lines(
        "Gareth",
        "I play guitar in an indie band, we're based in Cardiff.",
        "Oh and Owain our bassist just moved to Bristol for his girlfriend's job.",
    )
    assert any("Cardiff" in line for line in lines), lines


def test_a_name_with_a_tie_or_a_pets_kind_in_brackets_is_that_one_by_name() -> None:
    """ "Jun-jun (husband) says …", "my" left out, and "Negrito (our dog) will miss her most"
    name the speaker's husband and dog (before, the pet's line was lost)."""
    said = third_person("Jun-jun (husband) says he'll buy me an iPhone.", "Carmela")
    assert said == "Carmela's husband Jun-jun says he'll buy them an iPhone."
    lines = _lines("Graciela", "Negrito (our dog) will miss her most.")
    assert lines == ["Graciela's dog Negrito will miss her most."], lines
