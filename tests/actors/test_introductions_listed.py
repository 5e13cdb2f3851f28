"""An introduction typed as a list after the name ("ola, tile setter, mostly bathrooms. work
at Flisbyen in Trondheim"), or after a lead of its own ("quick intro so you can help me: I'm
…"), says each thing of the speaker once, as a claim of its own: what the work mostly is is
no trade, nor is what the employer is ("private clinic in Stockholm"), nor a home ("flat in
Yaba")."""

from __future__ import annotations

from tests.actors.merging import lines_after as _lines


def test_what_the_work_mostly_is_is_no_trade() -> None:
    """ "mostly bathrooms and kitchens" after the trade is what the work is, and "work at Flisbyen" whom
    for: before, "Ola works as a mostly bathrooms." and "Ola works as a work."."""
    lines = _lines(
        "Ola", "hei. ola, tile setter, mostly bathrooms and kitchens. work at Flisbyen in Trondheim"
    )
    assert lines == [
        "Ola works as a tile setter.",
        "Ola mostly does bathrooms and kitchens.",
        "Ola works at Flisbyen.",
        "Ola is based in Trondheim.",
    ], lines
    lines = _lines("Kaja", "hej. kaja, ecologist, wetlands mostly. flat in Malmö w/ my cat Ost")
    assert "Kaja mostly does wetlands." in lines, lines
    assert "Kaja lives in a flat in Malmö w/ their cat Ost." in lines, lines
    assert not any(line.startswith("Kaja works as a flat") for line in lines), lines


def test_what_the_employer_is_said_without_an_article_is_the_employers() -> None:
    """ "radiologist at Sankt Erik, private clinic in Stockholm": the clinic is where she
    works, not a trade ("Pia works as a private clinic." before)."""
    lines = _lines("Pia", "hi, pia here. radiologist at Sankt Erik, private clinic in Stockholm.")
    assert lines == [
        "Pia works as a radiologist.",
        "Pia works at Sankt Erik, a private clinic in Stockholm.",
        "Pia is based in Stockholm.",
    ], lines
    lines = _lines("Vuk", "hi. vuk, QA tester at Kodbit, fintech startup. in Niš, rent 380e.")
    assert lines == [
        "Vuk works as a QA tester.",
        "Vuk works at Kodbit, a fintech startup.",
        "Vuk is based in Niš.",
        "Vuk's rent is 380e.",
    ], lines


def test_an_introduction_after_a_lead_of_its_own() -> None:
    """ "quick intro so you can help me: I'm Marit, 29, bookkeeper at …": the lead is no
    part of it (the line was "Marit is 29, bookkeeper at …", one claim, before)."""
    lines = _lines(
        "Marit",
        "hi! quick intro so you can keep track of things for me: I'm Marit, 29, bookkeeper at "
        "a bakery called Brødkurv here in Bergen.",
    )
    assert lines == [
        "Marit is 29 years old.",
        "Marit works as a bookkeeper.",
        "Marit works at a bakery called Brødkurv.",
        "Marit is based in Bergen.",
    ], lines


def test_what_a_home_costs_and_whose_a_pet_is_in_the_list() -> None:
    """ "live in Split, 480 a month for a tiny studio, cat Miš runs the place": the rent is a
    line the next rent replaces, and the cat is the speaker's (before, the two were one line
    of no one's that a move took with it)."""
    lines = _lines(
        "Ivana",
        "hi, Ivana. florist. live in Split, 480 a month for a tiny studio, cat Miš runs the place",
        "new flat in Zagreb, finally!! rent's 590 tho",
    )
    assert "Ivana's cat Miš runs the place." in lines, lines
    assert not any("480" in line for line in lines), lines
    assert any("590" in line for line in lines), lines


def test_a_trade_with_a_participle_after_here_is_still_the_speakers() -> None:
    """ "Gethin here, retired signalman, 40 years on the line in Machynlleth" is Gethin's
    trade: before, "Gethin here," was cut as a word before a past verb ("retired"), and the
    line named nobody."""
    lines = _lines("Gethin", "Gethin here, retired signalman, 40 years on the line in Machynlleth.")
    assert any(line.startswith("Gethin is a retired signalman") for line in lines), lines
    assert not any(line.startswith("Retired") for line in lines), lines


def test_what_follows_a_trade_or_a_name_said_here_is_still_the_speakers() -> None:
    """ "Hamish here, moved back to Oban last year" is Hamish's move, and "…, retired
    signalman, 40 years on the line in Machynlleth" how long he was one (before, each was a
    line naming no one, or was dropped)."""
    lines = _lines("Hamish", "Hamish here, moved back to Oban last year after the divorce.")
    assert "Hamish moved back to Oban last year after the divorce." in lines, lines
    lines = _lines("Gethin", "Gethin here, retired signalman, 40 years on the line in Machynlleth.")
    assert "Gethin is a retired signalman, 40 years on the line in Machynlleth." in lines, lines


def test_a_trade_alone_after_the_name_is_what_they_are() -> None:
    """ "I'm Khadija, architect, I run a small studio" says Khadija is an architect (before,
    the line was "Khadija is Khadija, architect.", the name said twice and no trade read)."""
    lines = _lines("Khadija", "I'm Khadija, architect, I run a small studio in Casablanca.")
    assert lines[0] == "Khadija is an architect.", lines
    assert "Khadija runs a small studio." in lines


def test_who_they_are_by_a_persons_noun_or_where_from_is_said_of_them_not_of_their_name() -> None:
    """ "I'm Serkan, stay-at-home dad to 3yo twins in Istanbul, my wife …" and "I am Selasi
    from the Volta Region": what they are, said of them (before, "Serkan is Serkan, stay-at-
    home dad …" and "Selasi is Selasi from the Volta Region"); "I'm Ana, nice to meet you"
    says no such thing."""
    lines = _lines(
        "Serkan",
        "hey. I'm Serkan, stay-at-home dad to 3yo twins in Istanbul, my wife Asli is a "
        "cardiologist at Acibadem.",
    )
    assert "Serkan is a stay-at-home dad to 3yo twins." in lines, lines
    assert not any(line.startswith("Serkan is Serkan") for line in lines), lines
    lines = _lines("Selasi", "Hello, I am Selasi from the Volta Region. I keep layers.")
    assert "Selasi is from the Volta Region." in lines, lines
    assert not any("Ana is a nice" in line for line in _lines("Ana", "I'm Ana, nice to meet you."))
    # (and what they are said with a dash or a bracket after it: before, "Wilma is Wilma, …")
    said = "I'm Wilma, retired librarian — 36 years at the Bull Street library in Savannah."
    lines = _lines("Wilma", said)
    assert any(line.startswith("Wilma is a retired librarian") for line in lines), lines
    said = "Hallo! I'm Annika, apprentice electrician (2nd year) at Elektro Brandt in Hamburg."
    lines = _lines("Annika", said)
    assert any(line.startswith("Annika is an apprentice electrician") for line in lines), lines


def test_what_they_are_doing_after_the_name_is_no_trade() -> None:
    """ "I'm Wanjiru, doing a diploma in nursing at Kenyatta University": what they are doing,
    said of them, not a trade ("works as a doing a diploma") nor an employer (before, "works at
    Kenyatta University", which a new job then retired)."""
    lines = _lines(
        "Wanjiru", "Habari! I'm Wanjiru, doing a diploma in nursing at Kenyatta University."
    )
    assert lines == ["Wanjiru is doing a diploma in nursing at Kenyatta University."], lines


def test_a_year_of_a_field_is_a_student_of_it_where_they_study() -> None:
    """ "I'm Duarte, 2nd year law at FDUL" studies law there: no trade "a 2nd year law" nor an
    employer FDUL, which the next job would retire (before, "works as a 2nd year law" and
    "works at FDUL"); a year of a master's too (before, no line); "2nd year sparky apprentice"
    is a doer's noun, a trade."""
    lines = _lines(
        "Duarte", "Boas! I'm Duarte, 2nd year law at FDUL.", "I started at Zara on Monday."
    )
    assert "Duarte is a 2nd year law student." in lines, lines
    assert "Duarte studies at FDUL." in lines, lines
    lines = _lines("Da-som", "Hello. I'm Da-som, second year master's at SNU in chemistry.")
    assert lines == [
        "Da-som is a second year master's student.",
        "Da-som studies at SNU in chemistry.",
    ], lines
    lines = _lines("Tevita", "Tevita here. 2nd year sparky apprentice with Sparkright Electrical.")
    assert "Tevita works as a 2nd year sparky apprentice." in lines, lines


def test_an_age_after_the_name_then_a_clause_of_theirs() -> None:
    """ "My name is Chidi, 29, I live in Surulere": an age, then a clause of theirs (before,
    "Chidi's name is Chidi, 29.")."""
    lines = _lines("Chidi", "good evening. My name is Chidi, 29, I live in Surulere.")
    assert lines == ["Chidi is 29 years old.", "Chidi lives in Surulere."], lines
