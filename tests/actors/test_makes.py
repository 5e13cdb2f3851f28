"""A thing acquired or now used, named by its make alone (``change._GOT_MAKE``, through
``truth.merge``; docs/design.md "Facts that stay true"): the speaker's one line whose make
the embedder puts nearest, and clearly so, is the thing it replaces. No brand list says
what a Silverado is: the real embedder decides.

Rows: speaker, older lines, the new fact, the line it retires (None: nothing)."""

from __future__ import annotations

import pytest

from tests.actors.merging import facts_of
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge
from tests.actors.merging import merged as _merged

ROWS = [
    (
        "Marcus",
        ["Marcus drives an old Ford F-150.", "Marcus is an electrician in Detroit."],
        "Marcus picked up a used Silverado, the towing package is better for the boat.",
        "Marcus drives an old Ford F-150.",
    ),
    (
        "Jakub",
        ["Jakub rides a Specialized Allez.", "Jakub works at an architecture studio."],
        "Jakub is riding a Canyon Endurace now.",
        "Jakub rides a Specialized Allez.",
    ),
    (
        "Jakub",
        ["Jakub's Skoda Fabia is making a noise.", "Jakub works at an architecture studio."],
        "Now Jakub drives a Kia Picanto, small but economical.",
        "Jakub's Skoda Fabia is making a noise.",
    ),
    (  # (chosen: "went for a MacBook Air")
        "Kofi",
        ["Kofi's Dell XPS fan sounds like a jet engine.", "Kofi works at Hubtel."],
        "Kofi went for a MacBook Air M3 in the end, silent and the battery lasts forever.",
        "Kofi's Dell XPS fan sounds like a jet engine.",
    ),
    # a make the embedder does not know: the speaker's one thing owned by its name
    (
        "Efua",
        ["Efua takes photos on their Tecno Camon 20.", "Efua runs a salon in Osu."],
        "Efua bought a Samsung Galaxy A54, the camera is much better.",
        "Efua takes photos on their Tecno Camon 20.",
    ),
    # ("it's Kofi Talks now" owns nothing: "it's" is no one's)
    (
        "Efua",
        ["Efua and others renamed the show, it's Kofi Talks now.", "Efua records on their Yeti."],
        "Efua got a Shure MV7 and it sounds much warmer.",
        "Efua records on their Yeti.",
    ),
    # what is used without "now" is not said to be new: "stuck in traffic on the M6"
    (
        "Tomás",
        ["Tomás rides a Brompton to work.", "Tomás's laptop is a Dell XPS 13."],
        "Tomás got stuck in traffic on the M6, so much for a quick trip.",
        None,
    ),
    # a thing got for someone is theirs, and a thing of another kind is new
    (
        "Tomás",
        ["Tomás's laptop is a Dell XPS 13.", "Tomás lives in Birmingham."],
        "Tomás picked up a cheap Chromebook for the girls to do homework on.",
        None,
    ),
    (
        "Maya",
        ["Maya drives a blue Fiat Panda.", "Maya's phone is an iPhone 12."],
        "Maya bought a Kindle for the train.",
        None,
    ),
    # a make of any name, by the verb it is driven with (no list names Proton or Perodua)
    (
        "Ngozi",
        ["Ngozi drives a battered Proton Saga to the depot.", "Ngozi lives in Klang."],
        "Ngozi is driving a Perodua Axia to the depot now, the old one died on Federal Highway.",
        "Ngozi drives a battered Proton Saga to the depot.",
    ),
    # a car used for a while is not one's own: rented, borrowed, driven once on a test drive;
    # and the one they drive, said by its model alone, is the same car
    (
        "Ngozi",
        ["Ngozi drives a Toyota Corolla.", "Ngozi lives in Klang."],
        "Ngozi drove a rental Kia in Penang last week, the roads were lovely.",
        None,
    ),
    (
        "Ngozi",
        ["Ngozi drives a Toyota Corolla.", "Ngozi lives in Klang."],
        "Ngozi is driving a borrowed Proton Saga while the Corolla is at the garage.",
        None,
    ),
    (
        "Ngozi",
        ["Ngozi drives a Toyota Corolla.", "Ngozi lives in Klang."],
        "Ngozi drove a Polestar 2 on a test drive, fun but no.",
        None,
    ),
    # (nor is a relative's, said by whose it is: the speaker drives it, it stays the relative's)
    (
        "Ngozi",
        ["Ngozi drives a Toyota Corolla.", "Ngozi lives in Klang."],
        "Ngozi drove their uncle's Nissan Navara to Shah Alam to move a wardrobe.",
        None,
    ),
    (
        "Ngozi",
        ["Ngozi drives a battered Proton Saga.", "Ngozi lives in Klang."],
        "Ngozi drives the Saga to the depot every morning.",
        None,
    ),
    # what is used "these days", as "now": a make of the thing they go about on
    (
        "Aroha",
        ["Aroha gets around on their old Pashley bicycle.", "Aroha cleans baches in Raglan."],
        "Good thing Aroha is on a Sym Jet these days, the hills would kill them.",
        "Aroha gets around on their old Pashley bicycle.",
    ),
    # a thing's holder is said by its first mention, not by the make named after it
    (
        "Kwabena",
        ["Kwabena reads on their Nokia G21 mostly, the screen's cracked.", "Kwabena is a guard."],
        "Kwabena got a new phone as well, a Samsung Galaxy A54, big screen.",
        "Kwabena reads on their Nokia G21 mostly, the screen's cracked.",
    ),
    # a thing used since a moment ago is new: "on a Galaxy Tab S9 since this morning"; a
    # thing used since a year is no news of a change
    (
        "Ananya",
        ["Ananya tracks everything on their iPad Pro in Notion.", "Ananya lives in Jaipur."],
        "Ananya is on a Samsung Galaxy Tab S9 since this morning, Notion synced everything.",
        "Ananya tracks everything on their iPad Pro in Notion.",
    ),
    (
        "Ananya",
        ["Ananya tracks everything on their iPad Pro.", "Ananya lives in Jaipur."],
        "Ananya has had a Samsung Galaxy phone since 2021.",
        None,
    ),
    # a make got by its model year too; the thing one drives "a" make of is one's own
    (
        "Brodie",
        ["Brodie drives a Navara, drinks like a fish.", "Brodie lives in Fremantle."],
        "Brodie got a 2019 Triton off a mate, bit easier on diesel.",
        "Brodie drives a Navara, drinks like a fish.",
    ),
    # a thing supplied to them, its kind then its make, is theirs
    (
        "Bronwyn",
        [
            "Bronwyn writes on a Luminex, which they have had for years.",
            "Bronwyn is based in Adelaide.",
        ],
        "The court also supplied Bronwyn with a new writer, a Diamante.",
        "Bronwyn writes on a Luminex, which they have had for years.",
    ),
    # a make already held is no new thing ("got new tyres on the Panda")
    (
        "Maya",
        ["Maya drives a blue Fiat Panda.", "Maya's phone is an iPhone 12."],
        "Maya got new tyres on the Panda.",
        None,
    ),
]


@pytest.mark.parametrize(("speaker", "older", "new", "retired"), ROWS)
def test_a_make_named_alone_replaces_the_speakers_thing_of_its_kind(
    speaker: str, older: list[str], new: str, retired: str | None
) -> None:
    assert _merge(speaker, older, new) == ([retired] if retired else [])


def test_a_name_given_to_a_thing_is_no_new_thing() -> None:
    """ "The kids named the car Bluey" names the car the speaker has, not a new one."""
    older = ["Goran and others bought a used Skoda Fabia.", "Goran is a welder."]
    for said in ["The kids named the car 'Bluey'.", "Goran calls the new car Bluey."]:
        assert _merge("Goran", older, said) == []
    assert _merge("Goran", older, "Goran bought a Dacia Sandero.") == [older[0]]


def test_a_thing_given_to_the_speaker_is_theirs_and_replaces_their_old_one() -> None:
    """ "My niece set me up with a tablet, a Lenovo Tab" is the speaker's new tablet (not the
    niece's): it replaces the line with their old MatePad; "my niece got a Kindle" does not."""
    said = ("I read the news on my old Huawei MatePad every morning. I live in Tartu.", "Aino", "s")
    memory = _memory_after(said, ("My niece got a Kindle, a Paperwhite.", "Aino", "s"))
    assert "MatePad" in memory
    memory = _memory_after(said, ("My niece set me up with a tablet, a Lenovo Tab.", "Aino", "s"))
    assert "MatePad" not in memory and "Aino lives in Tartu." in memory
    # (written as many who learnt English late write it: "give me her old phone")
    said = ("I have only an old Nokia phone.", "Rui", "s")
    given = (
        "My daughter Inês give me her old phone, a Samsung Galaxy A54, because she buy a new one."
    )
    memory = _memory_after(said, (given, "Rui", "s"))
    assert "Nokia" not in memory and "Galaxy A54" in memory, memory
    # (and the car sold in the same turn is the old one: "…, so I've sold my car")
    said = ("I drive them around in my old Mazda 2.", "Chloe", "s")
    given = "Yep, and they're giving me their Kia Carnival for school runs, so I've sold my car."
    memory = _memory_after(said, (given, "Chloe", "s"))
    assert "Mazda" not in memory and "Kia Carnival" in memory, memory


def test_a_thing_sold_to_the_speaker_by_someone_is_their_new_one() -> None:
    """ "My cousin sold me her Pixel 6" replaces the speaker's old phone, a Redmi Note."""
    memory = _memory_after(
        ("My phone plan is $30 (it's on the old Redmi Note 9).", "Mele", "s"),
        (
            "Bad news, the phone fell in the sea 😩 my cousin sold me her Pixel 6 for $150.",
            "Mele",
            "s",
        ),
    )
    assert "Redmi" not in memory and "Pixel 6" in memory
    # (a thing given with no article: "my son gave me Leica binoculars")
    memory = _memory_after(
        ("I use my old Nikon binoculars, they were my husband's.", "Mele", "s"),
        ("Also my son gave me Leica binoculars for my birthday. Sharp!", "Mele", "s"),
    )
    assert "Nikon" not in memory and "Leica binoculars" in memory


def test_a_make_acquired_replaces_the_old_thing_and_the_need_it_meets() -> None:
    """ "Got a Pixel 7 at the airport" meets "needs a new phone" (its key) and replaces the
    Sony Xperia whose camera died (its make, by meaning): both lines go."""
    memory = _memory_after(
        (
            "I'm a nurse. My Sony Xperia's camera died, I need a new phone before the move.",
            "Omar",
            "s",
        ),
        ("Got a Pixel 7 at the airport, the camera is great for Noor's photos.", "Omar", "s"),
    )
    assert "Xperia" not in memory and "needs a new phone" not in memory
    assert "Omar got a Pixel 7 at the airport, the camera is great for Noor's photos." in memory


def test_a_make_measured_against_the_old_thing_is_the_new_one() -> None:
    """ "The Sprinter is so much better for the bakery run than the old van": a make said
    with "the", measured against the old thing of its kind, is the speaker's new one; it
    replaces the line of their van (by its make, when no line says "van")."""
    memory = _memory_after(
        ("I do the bakery run every morning in my old Ford Transit.", "Ilse", "s"),
        ("The Sprinter is so much better for the bakery run than the old van.", "Ilse", "s"),
    )
    assert "Transit" not in memory and "The Sprinter is so much better" in memory
    memory = _memory_after(
        ("I sew everything on my Singer, it's older than me.", "Ilse", "s"),
        ("The Janome never jams on denim like the old machine did.", "Ilse", "s"),
    )
    assert "Singer" not in memory and "Janome" in memory
    # (a thing of someone else's measured so is theirs: nothing of the speaker's goes)
    memory = _memory_after(
        ("I do the bakery run every morning in my old Ford Transit.", "Ilse", "s"),
        ("My sister says her Sprinter is better than her old van.", "Ilse", "s"),
    )
    assert "Transit" in memory


def test_many_of_a_kind_are_not_the_one_thing_a_new_one_replaces() -> None:
    """ "Got a new route to run to" replaces no line that says there are loads of routes, nor
    one with two bikes; a line holding the one thing of its kind goes."""
    older = ["Nadia lives in Kelvinside so there's loads of routes.", "Nadia is a pharmacist."]
    assert _merge("Nadia", older, "Nadia has got a new route to run to.") == []
    older = ["Nadia keeps two bikes in the hall.", "Nadia is a pharmacist."]
    assert _merge("Nadia", older, "Nadia got a new bike for the commute.") == []
    older = ["Nadia's bike is a rusty old thing.", "Nadia is a pharmacist."]
    assert _merge("Nadia", older, "Nadia got a new bike for the commute.") == [older[0]]


def test_a_make_said_with_the_that_no_line_holds_is_the_new_thing_of_that_use() -> None:
    """ "The Kangoo is brilliant for the cake runs" speaks of a thing as known that no line
    holds: it is the speaker's new one, in place of the thing of theirs nearest in use. A make
    a line holds is the same thing; a question, or no thing of theirs near, replaces nothing."""
    older = [
        "Ama delivers cakes around Kumasi in their Fiat Doblo, it fits ten boxes.",
        "Ama is a baker.",
    ]
    said = "The Kangoo is brilliant for the cake deliveries, twenty boxes fit."
    assert _merge("Ama", older, said) == [older[0]]
    assert _merge("Ama", older, "The Doblo is brilliant for the cake deliveries.") == []
    assert _merge("Ama", older, "Should Ama get the Kangoo for the cake deliveries?") == []
    assert _merge("Ama", older[1:], said) == []
    # (said alone, with no "I", it is a fact all the same)
    memory = _memory_after(
        ("I deliver cakes around Kumasi in my Fiat Doblo, it fits ten boxes.", "Ama", "s"),
        ("The Kangoo is brilliant for the cake deliveries, twenty boxes fit.", "Ama", "s"),
    )
    assert "Doblo" not in memory and "Kangoo" in memory, memory


def test_a_make_whose_state_is_said_replaces_the_one_thing_of_theirs_nearer_its_kind() -> None:
    """ "The Corolla's been brilliant on the night runs, heater actually works": the one thing
    of theirs ("… in Siobhan's Skoda Fabia") is it, near as a thing of its kind; "actually"
    there is emphasis, no correction. A make that names a thing by its noun ("the Iten
    marathon") is no new one of theirs."""
    older = [
        "About 40 minutes in Siobhan's Skoda Fabia, which is on its last legs to be honest.",
        "Siobhan's base is Bandon station.",
        "Siobhan is on nights Wednesday to Saturday now, same hours.",
    ]
    said = (
        "The Corolla's been brilliant on the night runs, heater actually works and the seat's "
        "comfy."
    )
    assert _merge("Siobhan", older, said) == [older[0]]
    said = "Siobhan jumped into the Iten marathon last weekend as a training run."
    assert _merge("Siobhan", older, said) == []


def test_a_game_played_is_no_make_of_a_thing_acquired() -> None:
    """ "Plays Mobile Legends" names a game, not a phone: a new phone replaces no line of the
    game the embedder finds near "phone"."""
    older = ["Pau plays Mobile Legends for a semi-pro team.", "Pau studies civil engineering."]
    assert _merge("Pau", older, "Pau got a ROG Phone 8 with the prize money.") == []


def test_a_thing_said_with_the_of_which_something_is_said_is_the_one_a_make_replaces() -> None:
    """ "The Tecno is finished" is the speaker's thing, said as known: with no thing of theirs
    said otherwise, a make got replaces it; "the Scottish Ambulance Service" is no thing."""
    older = ["Imran's screen cracked again, the Tecno is finished.", "Imran teaches at a school."]
    assert _merge("Imran", older, "Imran got a Redmi Note 13 from the market.") == [older[0]]
    older = ["Euan is a paramedic with the Scottish Ambulance Service.", "Euan lives in Leith."]
    assert _merge("Euan", older, "Euan finally binned the old phone, got a Pixel 8.") == []


def test_ones_new_thing_by_its_make_and_kind_replaces_the_old_one_of_that_kind() -> None:
    """ "Broke in my new Scarpa boots on the Wicklow hike": new boots, whatever is done with
    them, replace the old ones ("Karrimor boots"); breaking them in ends nothing (not the
    day hikes, nearer in words)."""
    older = [
        'Dara, asked "Have they hiked before?", answered "Only day hikes to Howth".',
        "Dara has some old Karrimor boots from their brother.",
        "Dara is a baker.",
    ]
    memory = _merged(
        "Dara", older, "Broke in my new Scarpa boots on the Wicklow hike, no blisters."
    ).memory
    assert "Karrimor" not in memory and "Only day hikes to Howth" in memory


def test_a_make_said_with_the_and_what_it_does_is_kept_and_replaces_the_old_one() -> None:
    """ "The Vario handles the hill way better, and it carries two crates of fruit": a make
    known by "the" doing something is a fact of theirs though no "I" is said, and takes the
    place of the thing used for the same ("the fruit … on my Lambretta")."""
    memory = _memory_after(
        ("I get the fruit every morning on my Lambretta from the market in Tabanan.", "Wayan", "s"),
        (
            "The Vario handles the hill way better, and it carries two crates of fruit.",
            "Wayan",
            "s",
        ),
    )
    assert "Lambretta" not in memory and "The Vario handles the hill" in memory


def test_a_make_used_now_replaces_the_one_their_thing_of_that_kind_was() -> None:
    """ "I ride a Cube Stereo now" of "my own bike is a Marin Rift Zone": a thing owned by its
    kind and then its make is theirs, and the make used now takes its place."""
    memory = _memory_after(
        ("My own bike is a Marin Rift Zone, which is heavy on the climbs.", "Nikos", "s"),
        ("On the trails I ride a Cube Stereo now, lighter and quicker.", "Nikos", "s"),
    )
    assert "Marin" not in memory and "Cube Stereo" in memory


def test_a_thing_worked_on_by_its_make_is_theirs_and_a_new_one_takes_its_place() -> None:
    """ "works on a Husqvarna that's fully paid off", then "stitches on a Juki now, the old
    machine died": what they work on is theirs by its make, and the make used now replaces
    it (not "on a Monday": a day is no make)."""
    older = [
        "The workshop rent is 430 a month, electricity maybe 55.",
        "Ines works on a Husqvarna that's fully paid off.",
        "Orders come in on a Monday, so that's Ines's busy day.",
    ]
    said = "Ines stitches on a Juki now, the motor on the old machine died the week of the move."
    memory = _merged("Ines", older, said).memory
    assert "Husqvarna" not in memory and "Juki" in memory and "on a Monday" in memory


def test_a_thing_lost_and_the_make_that_replaced_it_may_be_said_apart_in_one_turn() -> None:
    """ "Someone pinched my bike at the lab. Got a folding Dahon now": the theft ends the
    one thing of theirs owned by a name the embedder does not know (a Bombtrack), as "sold
    my bike, got a Dahon" does in one sentence; the bike got back ends nothing."""
    said = [
        ("Hi, Oskar here, I'm a lab technician.", "Oskar", "s"),
        ("Cycle in on my Bombtrack from Moda, about 20 minutes.", "Oskar", "s"),
    ]
    for last in (
        "Someone pinched my bike at the lab. Got a folding Dahon now, it lives under my desk.",
        "Also someone nicked my bike from the lab, so I've got a folding Dahon now.",
    ):
        assert "Bombtrack" not in _memory_after(*said, (last, "Oskar", "s")), last
    back = "Someone pinched my bike at the lab. Got it back from the police though!"
    assert "Bombtrack" in _memory_after(*said, (back, "Oskar", "s"))


def test_a_thing_of_theirs_said_in_a_line_opening_with_where_is_theirs_to_replace() -> None:
    """ "In Wiremu's old Nissan Navara, which rattles …" names no one as its subject (and "In"
    opening two lines is no person), but the Navara is the speaker's: a make bought replaces
    it, its end ends it, and the car of Aroha (someone else of the scope) stays hers."""
    older = [
        "In Wiremu's old Nissan Navara, which rattles like a tractor.",
        "In June Wiremu will run the Rotorua marathon.",
        "Aroha lives in Taupō.",
        "Aroha drives a Mazda 3.",
    ]
    assert _merge("Wiremu", older, "Wiremu bought a used Ford Ranger 🚙.") == [older[0]]
    assert _merge("Wiremu", older, "The Navara is gone, sold it to a mate.") == [older[0]]


def test_new_things_got_without_an_i_are_the_speakers_and_replace_the_old_ones() -> None:
    """ "Got new boots, Scarpa Zodiacs, …" leaves its "I" out as "Got a Pixel 7" does: the
    speaker got them, and the boots of a line are the old ones."""
    memory = _memory_after(
        ("My boots are Salomon X Ultras, pretty worn though.", "Tavita", "s"),
        ("also got new boots, Scarpa Zodiacs, they feel like slippers", "Tavita", "s"),
    )
    assert "Salomon" not in memory and "Tavita got new boots, Scarpa Zodiacs" in memory


def test_a_words_is_written_with_an_s_owns_nothing() -> None:
    """ "It's Paper Moths now" says what something is, not whose: the one thing the speaker
    owns by its name is the e-reader, which a make bought replaces."""
    older = [
        "Greta reads on a PocketBook Era mostly.",
        "Greta runs a small book club called Paper Moths.",
        "It's Paper Moths now, it sounded less stuffy.",
    ]
    new = "First thing Greta did: bought a Tolino Vision."
    assert _merge("Greta", older, new) == [older[0]]


def test_a_make_got_off_someone_is_the_speakers_new_one() -> None:
    """ "got a Raleigh off Gumtree" says whom it came from, as "from" does: the make is the
    speaker's new thing, and the one they rode to work on is the old."""
    older = [
        "Ahmed cycles to work on their Giant, saves a fortune on the bus.",
        "Ahmed lives in Leith.",
    ]
    new = "Ahmed got a Raleigh off Gumtree, it's actually nicer."
    assert _merge("Ahmed", older, new) == [older[0]]


def test_a_thing_someone_helped_the_speaker_get_is_their_new_one() -> None:
    """ "gogo helped me get a Xiaomi Redmi" retires the slow Samsung: the speaker got it."""
    older = ["Zanele's Samsung is sooo slow, it's an A14.", "Zanele lives in Soweto."]
    new = "Gogo helped Zanele get a Xiaomi Redmi on contract, the camera is actually lekker."
    assert _merge("Zanele", older, new) == [older[0]]


def test_a_car_written_off_leaves_what_was_done_with_it() -> None:
    """ "The car is totaled" ends the Prius, and what they did with it stays ("drives Uber …,
    full time"); "found a used Camry hybrid" is a new car, not a new Uber."""
    said = [
        ("I drive Uber in Houston, full time, in my Toyota Prius.", "Rafael", "s"),
        ("A guy ran a red light and hit me. I'm ok but the car is totaled.", "Rafael", "s"),
        ("Insurance paid, and I found a used Camry hybrid, 2019.", "Rafael", "s"),
    ]
    lines = facts_of(_memory_after(*said))
    assert "Rafael drives Uber in Houston, full time." in lines, lines
    assert not any("Prius" in line for line in lines), lines


def test_a_make_that_opens_in_lower_case_given_to_them_replaces_their_old_one() -> None:
    """ "My grandchildren gave me an iPad" retires the slow Samsung tablet; the dog's name
    "Lola" is no make to compare."""
    said = [
        (
            "My little dog Lola, schnauzer, she is 9. I use an old Samsung tablet for the "
            "WhatsApp with my children, but is very slow.",
            "Carmen",
            "s",
        ),
        ("My grandchildren gave me an iPad for my santo. Is so fast!", "Carmen", "s"),
    ]
    lines = facts_of(_memory_after(*said))
    assert not any("Samsung" in line for line in lines), lines
    assert any("Lola" in line for line in lines), lines


def test_a_make_said_better_than_the_previous_thing_of_its_kind_replaces_it() -> None:
    """ "The Fujifilm X-T5 is far better than my previous camera": the camera they had, by
    its make, is the previous one (as "than the old camera" is)."""
    memory = _memory_after(
        ("The menu photos will be taken with my own Nikon D750.", "Ilse", "s"),
        (
            "The Fujifilm X-T5 that came on Friday is far better than my previous camera.",
            "Ilse",
            "s",
        ),
    )
    assert "Nikon" not in memory and "Fujifilm X-T5" in memory, memory


def test_a_make_typed_in_lower_case_after_what_is_driven_or_got_is_a_name() -> None:
    """ "i drive a navara", then "ute finally carked it. got a 2019 triton off a mate": words
    the embedder's vocabulary does not hold, after a thing driven or got, are makes, so the
    new one replaces the old; a word of the language stays one ("got a new tent")."""
    memory = _memory_after(
        ("i live in fremantle. oh and i drive a navara, drinks like a fish", "Brodie", "s"),
        (
            "ute finally carked it. got a 2019 triton off a mate, bit easier on diesel",
            "Brodie",
            "s",
        ),
        ("got a tent for the long weekend", "Brodie", "s"),
    )
    assert "navara" not in memory.casefold(), memory
    assert "Brodie got a 2019 Triton off a mate" in memory
    assert "Brodie got a tent for the long weekend." in facts_of(memory)


def test_a_thing_sold_and_the_one_got_in_its_place_are_two_claims() -> None:
    """ "Sold the Skoda to a guy from Kolding and picked up a Kia EV6": the Skoda ended and the
    Kia is theirs, so "I like the Kia" speaks of the thing they have and retires nothing."""
    memory = _memory_after(
        ("I drive the old Octavia to the heliport for crew change.", "Rasmus", "s"),
        ("Sold the Skoda to a guy from Kolding and picked up a Kia EV6.", "Rasmus", "s"),
        (
            "My brother says I should have waited for a Tesla Model Y. Meh. I like the Kia.",
            "Rasmus",
            "s",
        ),
    )
    facts = facts_of(memory)
    assert "Rasmus picked up a Kia EV6." in facts, facts
    assert "Octavia" not in memory and "Rasmus likes the Kia." in facts


def test_a_name_switched_to_replaces_the_line_naming_one_nearest_it() -> None:
    """ "swapped to Italian at the language school" ends "a Spanish course"; a name near
    none of theirs ("switched to Vodafone" beside a Spanish course) replaces nothing."""
    older = [
        "Fenna is taking a Spanish course on Tuesday evenings.",
        "Fenna works at Ooievaar Air.",
    ]
    said = "Fenna swapped to Italian at the language school here, the other one was too hard."
    assert _merge("Fenna", older, said) == [older[0]]
    assert _merge("Fenna", older, "Fenna switched to Vodafone, the signal is better.") == []


def test_a_new_thing_under_a_label_with_why_is_theirs_in_place_of_the_old() -> None:
    """ "new phone as a reward: Sony Xperia 1 V, …" is their phone now (the iPhone goes)."""
    memory = _memory_after(
        ("also my iPhone 11 battery dies by noon", "Zoltan", "s"),
        ("new phone as a reward: Sony Xperia 1 V, the camera is great", "Zoltan", "s"),
    )
    assert "iPhone" not in memory and "Zoltan's new phone is Sony Xperia 1 V" in memory, memory


def test_a_home_got_replaces_no_thing_of_theirs() -> None:
    """ "got a small flat in Panampilly Nagar" is a move: it leaves the scooter line (before,
    a flat was asked of the embedder as a kind of thing, and the Ather was nearest)."""
    older = [
        "Anjali works as a concierge.",
        "Anjali swapped their scooter for an Ather 450X, electric, charging at home.",
        "Anjali is 29 years old.",
    ]
    new = "Anjali got a small flat in Panampilly Nagar with a colleague."
    assert not any("Ather" in line for line in _merge("Anjali", older, new))


def test_a_time_a_date_or_an_age_is_no_make_beside_the_old_one() -> None:
    """ "got new phone, Motorola Edge 50" replaces the Huawei P30 though other lines hold
    "8pm", "1st" and "29 years old" (before, their numbers stood as makes near a phone, and
    the Huawei was not clearly the nearest)."""
    older = [
        "Bogdan is 29 years old.",
        "Bogdan's Huawei P30 has no Google, can't install CFR app.",
        "Football with friends every Thursday 8pm.",
        "Bogdan and others move on 1st.",
        "Bogdan and others moved into Gheorgheni flat, Ioana's cat already owns the sofa.",
    ]
    new = "Bogdan got new phone, Motorola Edge 50, CFR app works finally."
    assert _merge("Bogdan", older, new) == [older[1]]


def test_a_make_got_without_its_article_before_a_models_number() -> None:
    """ "phone fell in the pool 🙃 bought Infinix Zero 30, cheap but camera is good" replaces
    the old Galaxy (before, a make got needed its article: "bought an Infinix …")."""
    lines = facts_of(
        _memory_after(
            ("my old Galaxy A34 can't even run the clinic app", "Itzel", "s"),
            (
                "phone fell in the pool 🙃 bought Infinix Zero 30, cheap but camera is good",
                "Itzel",
                "s",
            ),
        )
    )
    assert not any("Galaxy" in line for line in lines), lines
    assert any("Infinix Zero 30" in line for line in lines), lines
