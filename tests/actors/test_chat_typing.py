"""What people type in chat, read as what they mean: an apostrophe left out ("its my own
business", "ive got"), an aside before a claim ("nah not on the sign, but fyi i drive …"),
a sign-off opening one ("Must dash, …"), an aside to the assistant after a dash, a thing
named alone with its when said next ("Choir! Every Wednesday at 6pm"), a company's "Co.", one
of theirs named after a comma, "=" for "is", and a pet named without its "my"."""

from __future__ import annotations

from reverie.actors.consolidation.casual import as_meant
from tests.actors.merging import lines_after as _lines


def test_its_before_what_never_follows_the_possessive_is_it_is() -> None:
    """ "its my own business" is "it's"; "its" before a noun stays the possessive."""
    assert as_meant("its my own business, about 40 hives", "Aroha").startswith("It's my own")
    assert as_meant("the hive lost its queen", "Aroha") == "The hive lost its queen"


def test_ive_typed_without_its_apostrophe_is_i_have() -> None:
    """ "so ive got a vauxhall vivaro now" is the speaker's new van, a clause of its own."""
    lines = _lines("Chi", "gearbox went on the old van so ive got a vauxhall vivaro now")
    assert "Chi has got a Vauxhall Vivaro now." in lines, lines


def test_a_claim_after_but_and_an_aside_is_a_clause_of_its_own() -> None:
    """ "nah not on the sign, but fyi i drive an old toyota hilux …": the "nah" reply says
    nothing, the car is the speaker's."""
    said = "nah not on the sign, but fyi i drive an old toyota hilux to all the sites"
    assert _lines("Aroha", said) == ["Aroha drives an old toyota hilux to all the sites."]


def test_a_sign_off_opening_a_sentence_is_no_claim() -> None:
    """ "Must dash, Tuesday badminton at 8": what follows the sign-off is kept, not it."""
    lines = _lines("Priya", "Must dash, Tuesday badminton at 8 and our tortoise needs feeding.")
    assert not any("dash" in line.casefold() for line in lines), lines
    assert any("Tuesday badminton at 8" in line for line in lines), lines


def test_an_aside_to_the_assistant_after_a_dash_leaves_the_claim_before_it() -> None:
    """ "… based in Naas — yes, a woman farrier, before you ask, ha.": the aside speaks to
    the assistant, the trade and the place are the speaker's."""
    said = (
        "Hi there, Siobhan here. I'm a farrier based in Naas, County Kildare — yes, a woman "
        "farrier, before you ask, ha."
    )
    lines = _lines("Siobhan", said)
    assert "Siobhan works as a farrier." in lines, lines
    assert "Siobhan is based in Naas, County Kildare." in lines, lines
    assert not any("you ask" in line for line in lines), lines


def test_a_thing_named_alone_takes_the_when_said_after_it() -> None:
    """ "Choir! Every Wednesday at 6pm …": the choir's day, and a thing joined's ("I've joined
    parkrun! every Saturday"); "Yes! Every Wednesday" names no thing."""
    lines = _lines("Amara", "Choir! Every Wednesday at 6pm at the community centre.")
    assert "Choir every Wednesday at 6pm at the community centre." in lines, lines
    lines = _lines("Amara", "Yes! Every Wednesday at 6pm at the community centre.")
    assert not any(line.startswith("Yes") for line in lines), lines
    # (and a thing joined: "I've joined parkrun! every Saturday, Graves Park." is parkrun's
    # day, not a time said of nothing, and the old Saturday club it took the place of goes)
    lines = _lines(
        "Amara",
        "I run with the Harbour Striders on Saturday mornings.",
        "new thing: I've joined parkrun! every Saturday, Holywells Park.",
    )
    assert "Amara has joined parkrun, every Saturday, Holywells Park." in lines, lines
    assert not any("Harbour Striders" in line for line in lines), lines


def test_a_company_abbreviation_with_its_street_ends_no_sentence() -> None:
    """ "a baker at Crumb & Co. on Thomas Street in Dublin": one sentence, a trade, an
    employer and a city (test_renaming_targets: "Kvas & Co. younger customers …" ends at
    "Co.")."""
    lines = _lines("Declan", "I'm a baker at Crumb & Co. on Thomas Street in Dublin.")
    assert lines == [
        "Declan works as a baker.",
        "Declan works at Crumb & Co. on Thomas Street.",
        "Declan is based in Dublin.",
    ], lines


def test_one_of_theirs_named_after_a_comma_is_kept() -> None:
    """ "… with my partner Niamh and our rescue greyhound, Rocket.": the greyhound too."""
    lines = _lines(
        "Declan", "Live in Stoneybatter with my partner Niamh and our rescue greyhound, Rocket."
    )
    assert any("greyhound" in line and "Rocket" in line for line in lines), lines


def test_an_equals_sign_is_typed_for_is() -> None:
    """ "thursday nights = netball": the speaker's Thursday nights ("class =" is one class)."""
    lines = _lines("Aroha", "live in Newtown. thursday nights = netball.")
    assert "Thursday nights are netball." in lines, lines
    assert (
        as_meant("my pilates class = tuesdays at 7", "Aroha") == "My pilates class is Tuesdays at 7"
    )


def test_the_speaker_named_before_their_i_is_only_emphasis() -> None:
    """ "Myself I'm rated 1840" is the speaker rated 1840 ("Kofi they're rated" was read),
    as "Me, I prefer tea" is their preference; "Me and my sister" stay two."""
    assert as_meant("Myself I'm rated 1840 FIDE.", "Kofi") == "I'm rated 1840 FIDE."
    assert as_meant("As for me, I prefer tea.", "Kofi") == "I prefer tea."
    assert "Kofi is rated 1840 FIDE." in _lines("Kofi", "Mixed. Myself I'm rated 1840 FIDE.")
    assert as_meant("Me and my sister live in Kumasi.", "Kofi").startswith("My sister and I")


def test_a_pet_named_without_its_my_is_theirs() -> None:
    """ "Dog Otso." is the speaker's dog, as "Partner Mikko." is their partner."""
    lines = _lines("Sanna", "Dog Otso. Partner Mikko.")
    assert lines == ["Sanna's dog is called Otso.", "Sanna's partner is Mikko."], lines


def test_an_amount_typed_as_a_label_is_theirs() -> None:
    """ "Call-out fee 150 cedis.", "Rent 1,120 euros.": their fee and rent; "Friday 8pm." and
    "Room 12." are no amounts of theirs."""
    lines = _lines("Kwame", "Call-out fee 150 cedis. Rent 1,120 euros. Friday 8pm. Room 12.")
    assert lines == ["Kwame's call-out fee is 150 cedis.", "Kwame's rent is 1,120 euros."], lines


def test_an_order_for_what_the_assistant_writes_is_no_claim() -> None:
    """ "Put nothing on Monday.", "Add the address at the bottom.": asked of the assistant;
    "Put in my notice today." is the speaker's news."""
    lines = _lines("Stavros", "Put nothing on Monday. Add the address at the bottom.")
    assert lines == [], lines
    assert _lines("Stavros", "Put in my notice at the depot today.") != []


def test_a_one_word_reply_before_a_past_verb_leaves_the_claim_said_without_its_i() -> None:
    """ "nah, went with a Framework 13, …": what they did; not a name before it ("Tom,
    moved to Leeds" is no claim of the speaker's)."""
    lines = _lines("Anouk", "nah, went with a Framework 13, I like that I can repair it myself")
    assert "Anouk went with a Framework 13." in lines, lines
    assert as_meant("Tom, moved to Leeds last week.", "Anouk").startswith("Tom, moved")


def test_a_baby_announced_by_name_then_born_is_theirs() -> None:
    """ "she's here!! Zofia, 3.4 kg, born last night." names their baby."""
    lines = _lines("Teodor", "she's here!! Zofia, 3.4 kg, born last night. everyone's healthy.")
    assert "Teodor's baby Zofia was born last night." in lines, lines


def test_a_verb_is_no_word_of_an_amount_s_label() -> None:
    """ "insurance pays 1800" says who pays, not "my insurance pays is 1800" (which a rent
    said next then rewrote)."""
    assert "pays is" not in as_meant("Insurance pays 1800.", "Marguerite")
    assert as_meant("Call-out fee 150 cedis.", "Kwame") == "My call-out fee is 150 cedis."


def test_guess_who_and_their_own_name_with_a_title_are_the_speaker() -> None:
    """ "guess who's the new intern at Zawadi Capital 🎉" and "Ngozi, supervisor of C-shift 😎"
    or "Shigeru the caretaker!" say what the speaker is; another's name titled says nothing
    of them ("Otieno, captain of the men's team")."""
    lines = _lines("Njeri", "guess who's the new intern at Zawadi Capital 🎉 three days a week")
    assert "Njeri is the new intern at Zawadi Capital 🎉." in lines, lines
    lines = _lines("Ngozi", "And guess who got promoted! Ngozi, supervisor of C-shift 😎")
    assert "Ngozi works as a supervisor of C-shift." in lines, lines
    lines = _lines(
        "Shigeru", "Too much bending at the park. Shigeru the caretaker! Easier on the back."
    )
    assert "Shigeru works as a caretaker." in lines, lines
    lines = _lines("Njeri", "rugby update! Otieno, captain of the men's team 😎")
    assert not any("Njeri is a captain" in line for line in lines), lines


def test_a_new_address_is_a_new_home_however_it_is_spelt() -> None:
    """ "new adress: Kadıköy, Moda side" and "my new address is Moda" replace the home
    (before, an address was no home and the old one stayed); a sister's address is hers."""
    for said in ("new adress: Kadıköy, Moda side. movers was chaos", "my new address is Moda"):
        lines = _lines("Cem", "I live in Beşiktaş.", said)
        assert not any("Beşiktaş" in line for line in lines), lines
    lines = _lines("Cem", "I live in Beşiktaş.", "my sister's address is Rome now")
    assert "Cem lives in Beşiktaş." in lines, lines


def test_where_rent_is_paid_is_a_home_a_move_replaces() -> None:
    """ "rent in Talisay 5k" says where they live: "we moved to Mandaue" replaces it (before,
    the rent line was no home, and stayed); a rent without a place is no home."""
    lines = _lines(
        "Mayet",
        "hello po! I'm Mayet, room attendant at Tala Cove Resort in Mactan, Cebu.",
        "18k a month. rent in Talisay 5k, fare, food, school for my son.",
        "salamat! and we moved to Mandaue, near the new work.",
    )
    assert not any("Talisay" in line for line in lines), lines
    lines = _lines("Luz", "my rent is 5k a month.", "we moved to Mandaue")
    assert any("rent is 5k" in line for line in lines), lines


def test_a_number_said_alone_on_the_speakers_birthday_is_their_new_age() -> None:
    """ "birthday weekend! 43 and feeling like 30" is the speaker turned 43, in place of 42;
    "it's my birthday today 🎂 35 officially" too; a son's birthday is no age of theirs."""
    lines = _lines("Mercedes", "I'm 42, I dance tango.", "birthday weekend! 43 and feeling like 30")
    assert "Mercedes is 43 and feeling like 30." in lines and not any("42" in x for x in lines)
    lines = _lines("Eun-ji", "yes!! also it's my birthday today 🎂 35 officially")
    assert "Eun-ji is 35 officially." in lines, lines
    lines = _lines("Eun-ji", "I'm 34.", "my son's birthday party, 8 today and so loud!")
    assert "Eun-ji is 34." in lines, lines
