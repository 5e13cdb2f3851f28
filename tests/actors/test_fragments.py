"""A value said alone, as a fragment, after the topic it is the value of: announced by the
speaker ("new phone!!", "update: new job", "replaced it."), asked for by the assistant
("What's the role?"), or said as what they are now ("vegetarian now") (``fragments``)."""

from __future__ import annotations

from reverie.actors.consolidation.fragments import valued
from tests.actors.merging import lines_after as _lines
from tests.actors.merging import lines_of_days

_INTRO = [
    "hi, I'm Tove. I'm a props maker at Teater Grenland in Skien.",
    "A: Hi Tove!",
    "My phone is a Doro 8100 and my laptop is a Dell Latitude 5420. I'm vegan.",
    "A: Noted.",
]


def test_a_new_employer_named_after_an_announcement_and_a_question_replaces_the_old() -> None:
    """ "update: new job" … "Ooh, where?" … "Brakstad Scenografi, sets for TV." names the new
    employer (before, it was kept as a question and its answer, and Teater Grenland stayed)."""
    lines = lines_of_days(
        "Tove", _INTRO, ["update: new job", "A: Ooh, where?", "Brakstad Scenografi, sets for TV."]
    )
    assert any("new job is at Brakstad Scenografi" in line for line in lines), lines
    assert not any("Teater Grenland" in line for line in lines), lines


def test_a_thing_named_after_its_announcement_replaces_the_old_one() -> None:
    """ "new phone!! a Cubot KingKong 9, rugged" and "and new laptop: Tuxedo Pulse 15, runs
    linux" replace the Doro and the Dell (before, neither fragment keyed a thing)."""
    lines = lines_of_days(
        "Tove",
        _INTRO,
        [
            "new phone!! a Cubot KingKong 9, rugged",
            "A: Nice.",
            "and new laptop: Tuxedo Pulse 15, runs linux",
        ],
    )
    assert any("Cubot KingKong 9" in line for line in lines), lines
    assert any("Tuxedo Pulse 15" in line for line in lines), lines
    assert not any("Doro" in line or "Latitude" in line for line in lines), lines


def test_a_home_found_then_where_it_is_is_where_they_live() -> None:
    """ "found a room!!" … "Ruzafa, with two Italian guys", and "new flat!!" … "Poblenou, near
    the beach": where they live now, the old place gone (before, the fragment was dropped,
    and the cousin's place in Benimaclet stayed)."""
    first = ["for now I'm staying at my cousin's place in Benimaclet till I find something."]
    lines = lines_of_days("Pedro", first, ["found a room!!", "Ruzafa, with two Italian guys."])
    assert any("lives in Ruzafa" in line for line in lines), lines
    assert not any("Benimaclet" in line for line in lines), lines
    lines = lines_of_days("Pedro", first, ["new flat!!", "Poblenou, near the beach"])
    assert any("lives in Poblenou" in line for line in lines), lines


def test_a_thing_of_their_own_at_last_is_the_make_named_next() -> None:
    """ "finally got my own car!! a Nissan Sunny": their car now, the borrowed one gone (before,
    "got my own car" announced nothing, and a make of words the vocabulary holds was no
    name)."""
    lines = lines_of_days(
        "Nia",
        ["I drive a borrowed Corolla from my friend."],
        ["finally got my own car!! a Nissan Sunny, 2021, on installments."],
    )
    assert any("new car is a Nissan Sunny" in line for line in lines), lines
    assert not any("Corolla" in line for line in lines), lines


def test_a_trade_said_alone_answers_what_the_role_is() -> None:
    """ "What's the role?" "scenographer." is the new trade (before, it said nothing)."""
    lines = lines_of_days(
        "Tove", _INTRO, ["GOT IT", "A: Congratulations! What's the role?", "scenographer."]
    )
    assert "Tove works as a scenographer now." in lines, lines
    assert not any("props maker" in line for line in lines), lines


def test_a_thing_replaced_is_the_thing_named_next() -> None:
    """ "replaced it. a Tern Vektron, german" after the bike was stolen is the speaker's new
    bike; "we adopted a dog! Birk." names the dog (before, neither was kept)."""
    lines = lines_of_days(
        "Tove",
        ["I'm Tove, a props maker in Skien.", "A: Hi!", "my bike got stolen at the station."],
        [
            "replaced it. a Tern Vektron, german, folds small",
            "A: Nice.",
            "and we adopted a dog! Birk.",
        ],
    )
    assert any("Tern Vektron" in line for line in lines), lines
    assert any("dog is called Birk" in line for line in lines), lines


def test_what_the_speaker_is_now_said_alone_replaces_what_they_were() -> None:
    """ "vegetarian now, eggs are back" replaces "vegan", and so does the state after a dash,
    "I eat cheese again — vegetarian now, still no meat" (before, neither said anything)."""
    for said in (
        "confession: cheese won. vegetarian now, eggs are back",
        "I eat cheese again — vegetarian now, still no meat",
    ):
        lines = lines_of_days("Tove", _INTRO, [said])
        assert any(line.startswith("Tove is vegetarian now") for line in lines), lines
        assert "Tove is vegan." not in lines, lines


def test_a_fragment_with_no_topic_or_no_name_stays_as_it_is() -> None:
    """No announcement, no question: a name alone is left to the other keys; nor is a phrase of
    common words a name ("Starting Monday."), nor "just now" a state."""
    assert valued("Brakstad Scenografi.", ["I went to the theatre."], "") == "Brakstad Scenografi."
    assert valued("Starting Monday.", ["update: new job"], "") == "Starting Monday."
    assert valued("Just now, sorry.", [], "") == "Just now, sorry."
    assert valued("Monday now.", [], "") == "Monday now."


def test_a_thing_named_after_a_question_of_what_replaced_it_is_of_the_kind_just_lost() -> None:
    """ "dropped my phone in the fjord" … "What did you replace it with?" … "a Cubot X30." is a
    new phone; "sold the car" … "Did you get something else?" … "a Citroën Ami." a new car
    (before, each was kept only as a question and its answer, and the Doro stayed)."""
    lines = lines_of_days(
        "Tove",
        _INTRO,
        [
            "dropped my phone in the fjord",
            "A: Oh no! What did you replace it with?",
            "a Cubot X30.",
        ],
        ["I drive a Skoda Fabia.", "A: Noted."],
        ["sold the car, parking is hopeless", "A: Did you get something else?", "a Citroën Ami."],
    )
    assert "Tove's new phone is a Cubot X30." in lines, lines
    assert not any("Doro" in line for line in lines), lines
    assert "Tove's new car is a Citroën Ami." in lines, lines


def test_an_amount_alone_answers_the_thing_the_question_asks_about() -> None:
    """ "What's the rent like there?" "8400. bigger too" is the new rent (before, it said
    nothing and the old rent stayed); "so vegetarian now" is a state too, after its "so"."""
    lines = lines_of_days(
        "Tove",
        ["I'm Tove. I rent a small flat in Skien, 7200 a month. I'm vegan.", "A: Noted."],
        [
            "we found a bigger place!",
            "A: Congrats! What's the rent like there?",
            "8400. bigger too, with a shed",
            "A: Nice.",
            "cheese won. so vegetarian now",
        ],
    )
    assert "Tove's rent is 8400." in lines, lines
    assert not any("7200" in line for line in lines), lines
    assert "Tove is vegetarian now." in lines and "Tove is vegan." not in lines, lines


def test_a_new_things_day_names_its_kind() -> None:
    """ "new laptop day: Asus Zenbook 14, silent and light. the old one's gone to my niece."
    is a new laptop and the old laptop gone (before, its kind read as "day": the value was
    kept as said, the old Dell stayed, and "the old day's gone")."""
    lines = lines_of_days(
        "Tove",
        _INTRO,
        ["new laptop day: Asus Zenbook 14, silent and light. the old one's gone to my niece."],
    )
    assert "Tove's new laptop is Asus Zenbook 14, silent and light." in lines, lines
    assert "The old laptop's gone to Tove's niece." in lines, lines
    assert not any("Latitude" in line for line in lines), lines


def test_the_make_of_the_thing_that_just_ended_said_with_now() -> None:
    """ "finally retired the old phone — Fairphone 5 now" and "sold the car. a Microlino now."
    are the new phone and car (before, the make alone with "now" said nothing and, after a
    dash, the whole sentence was lost)."""
    lines = lines_of_days(
        "Tove",
        _INTRO,
        ["Also finally retired the old phone — Fairphone 5 now, I can swap the battery myself!"],
    )
    assert "Tove's phone is Fairphone 5 now." in lines, lines
    assert not any("Doro" in line for line in lines), lines
    lines = lines_of_days(
        "Tove",
        ["I'm Tove. I drive an old Volvo V70.", "A: Hi!"],
        ["sold the car last week. a Microlino now."],
    )
    assert "Tove's car is a Microlino now." in lines, lines
    assert not any("Volvo" in line for line in lines), lines


def test_a_doing_said_with_now_after_an_ending_is_no_make_of_what_ended() -> None:
    """ "dropped my old defence … Playing the Caro-Kann now, solid." is what they play now,
    not a defence whose make is "Playing the Caro-Kann"."""
    lines = _lines("Kofi", "I've dropped my old defence. Playing the Caro-Kann now, solid.")
    assert "Kofi is playing the Caro-Kann now, solid." in lines, lines
    assert not any("is Playing" in line for line in lines), lines


def test_a_job_changed_said_alone_announces_the_employer_named_next() -> None:
    """ "changed job!!" … "Where?" … "Bakkerij Vos, night shift." and "I got new job
    already! Holmen Trykk in Halden, print line QC" and "also changed company. now with
    Nordvakt Security, better pay" name the new employer: Teater Grenland goes (before, the
    first was kept as a question and its answer, and the others said nothing)."""
    for day, employer in [
        (["changed job!!", "A: Congrats! Where?", "Bakkerij Vos, night shift."], "Bakkerij Vos"),
        (
            ["contract ended. but I got new job already! Holmen Trykk in Halden, print line QC"],
            "Holmen Trykk",
        ),
        (["also changed company. now with Nordvakt Security, better pay"], "Nordvakt Security"),
    ]:
        lines = lines_of_days("Tove", _INTRO, day)
        assert any(employer in line and "Tove" in line for line in lines), (employer, lines)
        assert not any("Teater Grenland" in line for line in lines), lines
        assert not any("as a now" in line for line in lines), lines  # (not "I'm a now with …")


def test_a_new_one_had_or_come_announces_the_name_said_next() -> None:
    """ "I have new boyfriend." then "Jonne, he is a tram driver" is the new boyfriend by
    name, and "new laptop is in! Tuxedo Pulse 15." the new laptop (before, the name was
    dropped as another person's news, and the make said nothing)."""
    lines = lines_of_days(
        "Tove",
        ["hi, I'm Tove. my bf Rasmus says hi.", "A: Hi Tove!"],
        ["and… I have new boyfriend. Jonne, he is a tram driver, very kind to my mum"],
    )
    assert any("new boyfriend Jonne is a tram driver" in line for line in lines), lines
    lines = lines_of_days("Tove", _INTRO, ["new laptop is in! Tuxedo Pulse 15. runs linux"])
    assert any("laptop is Tuxedo Pulse 15" in line for line in lines), lines
    assert not any("Dell" in line for line in lines), lines


def test_a_new_job_said_before_what_it_is_after_a_comma() -> None:
    """ "new job, scenic painter at Brakstad Scenografi, mornings" is the new post and employer,
    as "new job: …" is (before, the line stayed whole, naming nobody, and Teater Grenland
    stayed)."""
    lines = lines_of_days(
        "Tove", _INTRO, ["new job, scenic painter at Brakstad Scenografi, mornings 7 to 3."]
    )
    assert any("Tove works at Brakstad Scenografi" in line for line in lines), lines
    assert not any("Teater Grenland" in line for line in lines), lines


def test_an_internship_got_announces_the_workplace_named_with_its_kind() -> None:
    """ "got an internship!!" … "Where?" … "Kerpic studio, a small office in Cankaya" is where
    they now work, named with its kind in lower case (before, a question and its answer, and
    Teater Grenland stayed)."""
    lines = lines_of_days(
        "Tove",
        _INTRO,
        ["got an internship!!", "A: Where?", "Kerpic studio, a small office in Cankaya"],
    )
    assert any("new job is at Kerpic studio" in line for line in lines), lines
    assert not any("Teater Grenland" in line for line in lines), lines


def test_a_name_now_after_a_move_is_where_they_live() -> None:
    """ "I moved last week! Bellavista now, a flat with big windows": a name with "now" after a
    move is the new home, written as its name (before, "Ximena is bellavista now", which
    moved no one; a name of two words, "East Legon now", was no sentence); "Pescatarian now",
    a word, is still a state."""
    lines = _lines(
        "Ximena",
        "I live in Recoleta, close to the market.",
        "btw I moved last week! Bellavista now, a flat with big windows",
    )
    assert "Ximena lives in Bellavista now, a flat with big windows." in lines, lines
    assert not any("Recoleta" in line for line in lines), lines
    said = valued("East Legon now, closer to her office.", ["my fiancée and I moved!"], "")
    assert said == "I live in East Legon now, closer to her office."
    assert valued("Pescatarian now, it's easier.", ["I eat fish again."], "") == (
        "I'm pescatarian now, it's easier."
    )


def test_a_name_now_after_a_kind_changed_is_the_new_one_of_that_kind() -> None:
    """ "I changed doctor, the old one retired. Dr. Bianco now.": a name with "now" after a
    kind changed for another is the new one of that kind (before, the title's stop kept it
    from reading as a name, and "Bianco now." alone was "I'm bianco now")."""
    lines = _lines(
        "Bruno",
        "My doctor is Dr. Ferrero, very kind.",
        "I changed doctor, the old one retired. Dr. Bianco now.",
    )
    assert "Bruno's doctor is Dr. Bianco now." in lines, lines
    assert not any("Ferrero" in line for line in lines), lines
    assert valued("Bianco now.", ["I changed doctors."], "") == "My doctor is Bianco now."
    assert valued("Fairphone 5 now.", ["I switched phones."], "") == "My phone is Fairphone 5 now."


def test_a_clause_with_now_after_a_move_is_no_place() -> None:
    """ "they moved me to the Tortona depot." … "I drive the 55 now.": a clause opening with
    its subject is no name said alone (before, a number made it one, and it read "Bruno lives
    in they drive the 55 now")."""
    assert valued("I drive the 55 now.", ["they moved me to the Tortona depot."], "") == (
        "I drive the 55 now."
    )
    assert valued("We drive the 55 now.", ["we moved to Tortona."], "") == "We drive the 55 now."


def test_a_name_said_alone_after_a_thing_of_theirs_switched_is_its_new_one() -> None:
    """ "Doctor swapped my inhaler. Symbicort, one for both.": before, "swapped my inhaler"
    (with "my") named no kind, and the name alone said nothing; now it is the new inhaler,
    and the old one's line goes. "I changed my mind. Vegan now." is a state, no new mind."""
    lines = _lines(
        "Bartosz",
        "I use Ventolin, 2 puffs 4x a day.",
        "Doctor swapped my inhaler. Symbicort, one for both.",
    )
    assert "Bartosz's new inhaler is Symbicort, one for both." in lines, lines
    assert not any("Ventolin" in line for line in lines), lines
    assert "Bartosz is vegan now." in _lines("Bartosz", "I changed my mind. Vegan now.")
