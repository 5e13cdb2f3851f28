"""Someone who took another's place for the speaker (``successors.succeeded``, through
``truth.merge``): the one line of theirs naming the role with someone else in it goes; a new
thing is no one in a role."""

from __future__ import annotations

from tests.actors.merging import lines_after
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge

CARER = "A carer from the agency comes Tuesday and Friday, a nice girl called Anh."


def test_a_new_one_in_a_role_named_after_it_replaces_the_line_of_that_role() -> None:
    """ "the agency sent a new carer, Fatima": the carer line with Anh goes."""
    older = [CARER, "Gianni lives in Brunswick with their wife Carla."]
    said = "The agency sent a new carer, Fatima, because the other girl went to study nursing."
    assert _merge("Gianni", older, said) == [CARER]
    said = "We have a new cleaner called Rui."  # (a role no line names: nothing goes)
    assert _merge("Gianni", older, said) == []


def test_the_new_one_called_by_name_replaces_the_line_of_that_role() -> None:
    """ "The new carer is called Grace": the carer line with Mary goes, as "the new payroll
    manager is Raj" does; a carer line with Grace already in it is no change."""
    older = ["Fiona's carer Mary comes at 8 every morning.", "Fiona lives in Kirkcaldy."]
    assert _merge("Fiona", older, "The new carer is called Grace, lovely girl.") == [older[0]]
    older = ["Fiona's carer Grace comes at 8 every morning.", "Fiona lives in Kirkcaldy."]
    assert _merge("Fiona", older, "The new carer is called Grace, lovely girl.") == []


def test_a_new_one_said_as_news_of_no_one_replaces_the_speakers_line_of_that_role() -> None:
    """ "New roommate too, Karine" opens with the new one, as news does: the speaker's line
    with their roommate Odile goes (before, the sentence named no one of the speaker's, and
    nothing went); "My sister has a new roommate, Karine" is the sister's."""
    older = ["Chantal's roommate Odile is a photographer.", "Chantal lives in Rosemont."]
    said = "New roommate too, Karine, she's a nurse and loves dogs."
    assert _merge("Chantal", older, said) == older[:1]
    assert _merge("Chantal", older, "My sister has a new roommate, Karine.") == []


def test_a_new_one_in_a_role_of_two_words_replaces_the_line_of_that_role() -> None:
    """ "New home help, Kirsty": the line of their home help Shona goes (before, only a role
    of one word was read, and "home" named none)."""
    first = "My home help Shona does the hoovering Tuesdays."
    assert not any(
        "Shona" in line for line in lines_after("Hamish", first, "New home help, Kirsty.")
    )
    lines = lines_after("Hamish", first, "My sister has a new home help, Kirsty.")
    assert any("Shona" in line for line in lines), lines


def test_a_new_one_of_two_roles_in_one_replaces_the_line_of_the_last() -> None:
    """ "New lead and mentor is Kasia": the line of their mentor Marek goes (before, a role
    said with another was read as no role)."""
    older = [
        "Dawid's mentor Marek gave them a task on idempotency keys.",
        "Dawid lives in Wroclaw.",
    ]
    assert _merge("Dawid", older, "new lead and mentor is Kasia, I've heard she's great.") == [
        older[0]
    ]


def test_the_speakers_new_one_in_a_role_is_their_change_not_another_persons_news() -> None:
    """ "my new consultant is Dr Okafor": a new one in a role of theirs, so the line of the
    doctor before goes (before, the sentence was read as the consultant's own news, which
    changes nothing of the speaker's)."""
    first = "I'm on my psychiatry posting under Dr Adeyemi."
    lines = lines_after("Bukola", first, "my new consultant is Dr Okafor and she is STRICT.")
    assert not any("Adeyemi" in line for line in lines), lines
    lines = lines_after("Bukola", first, "my sister's new consultant is Dr Okafor.")
    assert any("Adeyemi" in line for line in lines), lines


def test_a_new_one_the_speaker_got_replaces_the_line_of_the_one_in_that_role() -> None:
    """ "we got a new nanny, Blessing": the nanny's own line, "Funmilayo's nanny Mama Bisi will
    feed him", goes (before, a line about the nanny was no line of the speaker's); a sister's
    new nanny takes nobody's place."""
    first = "my nanny Mama Bisi will feed him from the bottle"
    news = "the old nanny isn't coming back, so we got a new nanny, Blessing."
    assert not any("Bisi" in line for line in lines_after("Funmilayo", first, news))
    lines = lines_after("Funmilayo", first, "My sister got a new nanny, Blessing.")
    assert any("Bisi" in line for line in lines), lines


def test_someone_who_does_it_now_replaces_the_one_the_line_names() -> None:
    """ "so now Mwangi takes the milk" retires "sells their milk to Kiganjo Dairy Cooperative"
    (before, it stayed); "now Mwangi takes the eggs" is another thing."""
    first = "I sell my milk to Kiganjo Dairy Cooperative."
    news = "The cooperative was paying late, so now Mwangi takes the milk, he pays cash."
    assert not any("Kiganjo" in line for line in lines_after("Wairimu", first, news))
    lines = lines_after("Wairimu", first, "so now Mwangi takes the eggs, he pays cash.")
    assert any("Kiganjo" in line for line in lines), lines


def test_a_new_thing_named_after_its_kind_is_no_one_in_a_role() -> None:
    """ "bought a new bike, a Brompton" names a make, not a person; the carer stays."""
    assert _merge("Gianni", [CARER], "Gianni bought a new bike, a Brompton.") == []


def test_a_team_joined_replaces_the_one_team_of_theirs_and_no_employer() -> None:
    """ "a bunch of us joined the Southside Stingers" (a team, by its plural name) replaces
    "netball with the Manurewa Mavericks" and leaves the employer; "also joined" is beside."""
    older = (
        "I play netball on Saturdays with the Manurewa Mavericks. I work at Aramex.",
        "Aroha",
        "s",
    )
    said = ("Half our team quit so a bunch of us joined the Southside Stingers.", "Aroha", "s")
    memory = _memory_after(older, said)
    assert "Mavericks" not in memory and "works at Aramex" in memory, memory
    memory = _memory_after(older, ("I also joined the Harbour Harriers.", "Aroha", "s"))
    assert "Mavericks" in memory and "works at Aramex" in memory, memory


def test_one_who_will_be_in_a_role_now_is_in_it() -> None:
    """ "my supervisor will be Dr. Bakker now" is decided, not a plan: Prof. de Vries goes
    (a plan still replaces nothing: "my supervisor will be Dr. Bakker next year, maybe")."""
    older = ("My supervisor is Prof. de Vries.", "Ji-woo", "s")
    said = "Our professor retires at the end of the month, so my supervisor will be Dr. Bakker now."
    memory = _memory_after(older, (said, "Ji-woo", "s"))
    assert "de Vries" not in memory and "Bakker" in memory, memory
    memory = _memory_after(
        older, ("Maybe my supervisor will be Dr. Bakker one day.", "Ji-woo", "s")
    )
    assert "de Vries" in memory, memory


def test_a_new_one_in_a_role_after_the_old_ones_news_replaces_the_old_one() -> None:
    """ "my assistant got married and moved to Irbid. new assistant is Dana": the line of
    Rawan goes; the old one's news said just before is no line of the role to keep open."""
    memory = _memory_after(
        ("My assistant Rawan does the afternoons.", "Hiba", "s"),
        (
            "sad news, my assistant got married and moved to Irbid. new assistant is Dana, she's great",
            "Hiba",
            "s",
        ),
    )
    assert "Rawan" not in memory and "Dana" in memory, memory


def test_one_taking_over_a_role_being_left_replaces_the_line_naming_it_anywhere() -> None:
    """ "my supervisor is retiring … Dr. Okafor … is taking over my supervision" takes the line
    "Group meeting with Ilse's supervisor Prof. Brandt …", which names the role past its
    start (before, only "someone new, Nuala" was a successor, and only of a line opening with
    the role); someone else's taking over leaves it."""
    older = ("group meeting with my supervisor Prof. Brandt on Tuesdays", "Ilse", "s")
    said = (
        "bigger news: my supervisor is retiring early, and Dr. Okafor from the same institute "
        "is taking over my supervision."
    )
    memory = _memory_after(older, (said, "Ilse", "s"))
    assert "Brandt" not in memory and "Okafor" in memory, memory
    said = "my sister's boss is retiring, Tom is taking over her team."
    assert "Brandt" in _memory_after(older, (said, "Ilse", "s"))


def test_a_new_one_after_the_old_one_left_or_the_speaker_given_the_job_replaces_the_role() -> None:
    """ "our manager got moved to the Milton site so we've got a new one, Marisol" and "the new
    payroll manager is Raj" take the line of their manager Dale; "my boss is leaving and
    they've offered me his job" takes the line of their boss Trevor (the speaker is the new
    one); the old one's news said in the same turn is no line of the role to keep open."""
    older = ("my manager Dale wants it documented. my boss Trevor thinks it's soft.", "Nathan", "s")
    for said in (
        "some changes at work. our manager got moved to the Milton site so we've got a new one, "
        "Marisol.",
        "bit of news at work, my manager retired and the new payroll manager is Raj.",
    ):
        memory = _memory_after(older, (said, "Nathan", "s"))
        assert "Dale" not in memory and "Trevor" in memory, memory
    said = "mate. my boss is leaving and they've offered me his job."
    memory = _memory_after(older, (said, "Nathan", "s"))
    assert "Trevor" not in memory and "Dale" in memory, memory
    said = "my sister's boss is leaving and they've offered her his job."
    assert "Trevor" in _memory_after(older, (said, "Nathan", "s"))


def test_a_new_one_named_after_or_found_replaces_the_households_one_who_left() -> None:
    """ "our babysitter is leaving … New one starts monday, her name's Yasmine" takes "The
    babysitter Amandine …"; "Our caregiver resigned … We found Sister Funke through the
    church" takes "Their caregiver Kehinde …"; "her teacher went on maternity leave, the
    replacement is M. Lefort" takes her teacher's line, "Lilou's teacher Mme Garnier …"."""
    older = (
        "The babysitter Amandine picks them up when I'm on early shifts. Lilou's teacher Mme "
        "Garnier wants me to come in for a meeting.",
        "Corentin",
        "s",
    )
    said = "our babysitter is leaving for Paris. New one starts monday, her name's Yasmine."
    memory = _memory_after(older, (said, "Corentin", "s"))
    assert "Amandine" not in memory and "Garnier" in memory, memory
    said = "Also her teacher went on maternity leave, the replacement is M. Lefort, seems fair"
    memory = _memory_after(older, (said, "Corentin", "s"))
    assert "Garnier" not in memory and "Lefort" in memory and "Amandine" in memory, memory
    older = ("Their caregiver Kehinde handles the daytime doses.", "Babajide", "s")
    said = (
        "Our caregiver resigned, she got a job in Lagos. We found Sister Funke through the church"
    )
    memory = _memory_after(older, (said, "Babajide", "s"))
    assert "Kehinde" not in memory and "Funke" in memory, memory


def test_a_title_in_another_language_ends_no_sentence_before_the_one_it_names() -> None:
    """ "now it is a young lady, Dra. Velasco. Very serious": "Dra." (as "Sra.", "Mme.")
    is a title, so the new doctor is named in the line, not cut off at her title."""
    lines = lines_after(
        "Aurelio",
        "I live in Tlacolula. My doctor at the health centre is Dr. Ramirez.",
        "Buenas. I went to the health centre, my old doctor finally retired, now it is a young "
        "lady, Dra. Velasco. Very serious, very good.",
    )
    assert any("Velasco" in line for line in lines), lines
    assert not any(line.rstrip().endswith("Dra.") for line in lines), lines


def test_a_doctor_seen_now_by_title_replaces_the_line_of_another_doctor() -> None:
    """ "telehealth with a Dr Sinclair now": the title says the role, as a noun does, so the
    one line of theirs naming another doctor goes (before, meaning alone found it no nearer
    than the ute's); the same doctor said again takes none, nor does a wife's doctor."""
    older = [
        "Gladys keeps bees out of Tenterfield.",
        "The Rodeo's done its diff again, 22 years old that ute.",
        "Dr Nguyen says Gladys's blood pressure's up, probably the Rodeo's fault ha.",
        "Gladys's son reckons buy a Ranger like his.",
    ]
    said = "Gladys is doing telehealth with a Dr Sinclair now for the blood pressure."
    assert _merge("Gladys", older, said) == [older[2]]
    for said in (
        "Dr Nguyen now says Gladys's blood pressure is fine.",
        "Gladys's wife sees Dr Muthoni now for her sugar.",
    ):
        assert older[2] not in _merge("Gladys", older, said), said


def test_a_new_one_with_a_surname_or_after_the_role_changed_replaces_the_role() -> None:
    """ "we got a new accountant, Carla Rojas" (a name and a surname), and "driver changed,
    the old one went home. New one is Juma" or "cook also new … new one Wanjiku" (the role
    said to have changed, the new one by name): the line of the one before goes."""
    first = "My accountant Mr Nowak is retiring in June. I live in Lodz."
    lines = lines_after("Tomasz", first, "we got a new accountant, Carla Rojas, very online.")
    assert not any("Nowak" in line for line in lines), lines
    first = "My driver Otieno takes the kids to school. I live in Kisumu."
    said = "Driver changed, the old one went home to Siaya. New one is Juma, my cousin."
    assert not any("Otieno" in line for line in lines_after("Amani", first, said))
    first = "My cook Akinyi makes chapati on Sundays. I live in Kisumu."
    said = "ok. cook also new, the old one retired. new one Wanjiku, very good."
    assert not any("Akinyi" in line for line in lines_after("Amani", first, said))
    # (a role said to have changed with no one new named replaces no one)
    lines = lines_after("Amani", first, "ok. cook also new, we will see.")
    assert any("Akinyi" in line for line in lines), lines


def test_of_two_lines_of_a_role_the_one_naming_who_had_it_is_replaced() -> None:
    """ "new apprentice is Melike" after two lines of the apprentice (the one naming Esra, and
    her leaving): the line naming the one before goes (before, two lines held the role and
    neither went)."""
    lines = lines_after(
        "Zehra",
        "my apprentice Esra will print it, she knows the printer better than me.",
        "my apprentice leaves me, she goes to Izmir to open her own shop.",
        "new apprentice is Melike, 19 years old, very quick hands",
    )
    assert not any("Esra" in line for line in lines), lines
    assert any("Melike" in line for line in lines), lines


def test_one_who_helps_them_by_name_is_a_line_of_its_own_and_has_a_successor() -> None:
    """ "My stock is in a small room in Binh Thanh, and Linh helps me to pack orders" is two
    lines: the stock's move leaves Linh, and "my cousin Thao comes to pack now" takes her
    place."""
    said = (
        "My stock is in a small room in Binh Thanh, and Linh helps me to pack orders in the "
        "evening.",
        "I moved all the stock to a bigger room in Thu Duc, near my house.",
    )
    lines = lines_after("Bao", *said)
    assert any(line.startswith("Linh helps Bao to pack orders") for line in lines), lines
    assert not any("Binh Thanh" in line for line in lines), lines
    lines = lines_after("Bao", *said, "My cousin Thao comes to pack now, three evenings a week.")
    assert not any("Linh" in line for line in lines), lines
    assert any("Thao" in line for line in lines), lines


def test_one_who_helps_now_said_with_now_first_and_who_they_are_takes_the_place() -> None:
    """ "now Doña Lupe, my neighbour, helps me in the mornings" takes the place of "my
    nephew Ramiro helps me carry the pots"; the nephew stays theirs."""
    lines = lines_after(
        "Carmen",
        "my nephew Ramiro helps me carry the pots.",
        "news: my nephew went to work in Monterrey. now Doña Lupe, my neighbour, helps me in "
        "the mornings",
    )
    assert not any("helps them carry" in line for line in lines), lines
    assert any("Lupe" in line for line in lines), lines


def test_one_who_is_their_role_now_takes_the_place_of_the_one_named_in_it() -> None:
    """ "Harriet from the Berlin office is my manager now" takes the place of "my manager
    Gareth"."""
    lines = lines_after(
        "Karabo",
        "my manager Gareth keeps saying Afrikaans will help with SA clients.",
        "Harriet from the Berlin office is my manager now.",
    )
    assert not any("Gareth" in line for line in lines), lines
    assert any("Harriet" in line for line in lines), lines
