"""Facts said in passing: where a greeting comes from, a post by the first spell of it or by
the speaker's own name and title with a remark, a lead-in before an introduction, and a
clause whose "I" was left out before "didn't" (``places.greeted_from``, ``casual``,
``extractive``)."""

from __future__ import annotations

from reverie.actors.consolidation.places import arrived_in, greeted_from
from tests.actors.merging import lines_after as _lines


def test_a_greeting_from_a_place_says_where_the_speaker_is() -> None:
    """ "Goeiemorgen from Deventer!" and "cheers from Napier" place the speaker (before, both
    were dropped as chatter); a stay away, a way back, a name signed and a phrase that is
    no greeting do not."""
    assert greeted_from("Goeiemorgen from Deventer!", "Goeiemorgen from Deventer!", "Joop") == (
        "I'm based in Deventer."
    )
    assert greeted_from("cheers from Napier", "touch on Thursdays. cheers from Napier", "Rua") == (
        "I'm based in Napier."
    )
    for sentence, turn in (
        ("Greetings from Rome!", "Greetings from Rome! Here for the conference."),
        ("Just got back from Lisbon.", "Just got back from Lisbon."),
        ("Love from Anna", "see you soon. Love from Anna"),
        ("A potter from Rishtan.", "A potter from Rishtan."),
    ):
        assert greeted_from(sentence, turn, "Joop") == sentence
    lines = _lines("Joop", "Goeiemorgen from Deventer! I'm Joop, a glazier at Helder Glas.")
    assert "Joop is based in Deventer." in lines, lines


def test_a_post_by_its_first_spell_or_by_name_and_title_is_the_trade() -> None:
    """ "First week as a ferry mate done!!" and "Joop the ferry mate, has a ring to it" change
    the trade (before, neither keyed one and "glazier" stayed)."""
    for said in (
        "First week as a ferry mate done!! they gave me a radio and a very orange jacket.",
        "they gave me a radio and a very orange jacket. Joop the ferry mate, has a ring to it.",
    ):
        lines = _lines("Joop", "I'm Joop, a glazier at Helder Glas in Deventer.", said)
        assert any(line.startswith("Joop works as a ferry mate") for line in lines), lines
        assert not any("glazier" in line for line in lines), lines
    # (a parent is no post: "First week as a dad done", "Joop the proud dad, who knew")
    for said in ("First week as a dad done!! no sleep at all.", "Joop the proud dad, who knew."):
        lines = _lines("Joop", "I'm Joop, a glazier at Helder Glas in Deventer.", said)
        assert "Joop works as a glazier." in lines and not any("dad" in x for x in lines), lines


def test_an_introduction_after_a_lead_is_no_labelled_value() -> None:
    """ "Quick one: I'm Rua, a shearer at Tūtira Station" is an introduction (before, it was
    written "Rua's quick one is they're Rua, …"); "Bike: Cube Attain." stays a value."""
    lines = _lines("Rua", "Kia ora! Quick one: I'm Rua, a shearer at Tūtira Station.")
    assert "Rua works as a shearer." in lines and "Rua works at Tūtira Station." in lines, lines
    assert "Rua's bike is Cube Attain." in _lines("Rua", "Bike: Cube Attain.")


def test_a_clause_opening_with_didnt_is_the_speakers() -> None:
    """ "didn't go back after the leave, joined Corvane instead": the speaker's, so the new
    employer replaces the old (before, "Didn't" was read as its subject)."""
    lines = _lines(
        "Obi",
        "I'm Obi, an underwriter at Halden Mutual.",
        "quick update: didn't go back after the leave, joined Corvane instead, great offer.",
    )
    assert not any("Halden" in line for line in lines), lines
    assert any(line.startswith("Obi didn't go back") and "Corvane" in line for line in lines)


def test_a_trade_typed_without_its_article_is_a_trade_and_an_employer() -> None:
    """ "my name is Szymon, I am millwright at Carrow Foods": the trade stays when the
    employer changes (before, the whole line went with "got job at Glanbrook"); a word that
    is no doer's, "I am happy at Zentra", is no trade."""
    lines = _lines(
        "Szymon",
        "ok. my name is Szymon, I am millwright at Carrow Foods, good job but night shifts.",
        "good news! I got job at Glanbrook, day shifts only.",
    )
    assert "Szymon works as a millwright." in lines, lines
    assert not any("Carrow" in line for line in lines), lines
    lines = _lines("Ana", "I'm Ana, I am happy at Zentra, the team is great.")
    assert not any("works as" in line for line in lines), lines


def test_a_mistake_owned_about_a_thing_corrects_that_thing() -> None:
    """ "my mistake about the diploma: it's at WSB": "it" is the diploma, corrected (before,
    "It's at WSB." stood alone and the diploma at Politechnika stayed)."""
    lines = _lines(
        "Zofia",
        "I'm Zofia. I'm starting an evening diploma in production engineering at Politechnika.",
        "my mistake about the diploma: it's at WSB, not the other one.",
    )
    assert not any("Politechnika" in line for line in lines), lines
    assert any(line.startswith("The diploma's at WSB") for line in lines), lines


def test_a_newborn_announced_by_name_is_the_speakers_baby() -> None:
    """ "he's here! Amaru, 3.1kg, both doing great" and "Amaru is here! born Tuesday" are a
    baby born (before, neither kept the name); a guest come is none, nor a pet's weight."""
    for said in (
        "he's here! Amaru, 3.1kg, both doing great. can you write an announcement?",
        "Amaru is here! born Tuesday, 7lbs, pray for us",
    ):
        lines = _lines("Inti", "I'm Inti, a surveyor. It's our first, due any day.", said)
        assert any(line.startswith("Inti's baby Amaru was born") for line in lines), lines
    for said in ("my sister arrived. Tom is here!", "Bruno, 30kg, is here with us now"):
        lines = _lines("Inti", "I'm Inti, a surveyor.", said)
        assert not any("baby" in line for line in lines), lines


def test_a_new_pet_marvelled_at_then_named_is_kept_with_its_name() -> None:
    """ "we adopted a second cat?? Myrsky, grey, pure chaos.": a statement marvelled at, not
    a question, and the name after it is the cat's (before, both were dropped); a question
    stays one."""
    lines = _lines(
        "Oona",
        "I'm Oona. Our cat Pipsa hates being alone.",
        "and, um, we adopted a second cat?? Myrsky, grey, pure chaos. Pipsa is coping.",
    )
    assert any("second cat, Myrsky, grey" in line for line in lines), lines
    lines = _lines("Oona", "I'm Oona.", "did we adopt the right cat?? no idea")
    assert not any("adopt" in line for line in lines), lines


def test_work_as_a_trade_without_its_article_keeps_the_trade_apart() -> None:
    """ "I work as machinist at Ferrotex": a trade and an employer, so a new employer keeps
    the trade (before, the one line went with "First week at Hidrotek done!")."""
    lines = _lines(
        "Benedek",
        "I am Benedek, I work as machinist at Ferrotex here in Gyor.",
        "first week at Hidrotek done! new commute is brutal.",
    )
    assert "Benedek works as a machinist." in lines, lines
    assert not any("Ferrotex" in line for line in lines), lines


def test_a_listed_introduction_may_end_in_a_clause_of_theirs() -> None:
    """ "I am Nanami, embroiderer, working at Hanaito workshop in Kanazawa, we make obi": the
    list is read and the clause is its own (before, the whole was one line, "is Nanami, …")."""
    lines = _lines(
        "Nanami",
        "I am Nanami, embroiderer, working at Hanaito workshop in Kanazawa, we make obi and bags.",
    )
    assert "Nanami works as an embroiderer." in lines, lines
    assert "Nanami is based in Kanazawa." in lines, lines


def test_where_we_are_now_said_as_news_after_a_move_is_home() -> None:
    """ "and yes we did it, we're in Pelotas!! boxes everywhere": a move made (before, no key
    read it and the old town stayed); "we're in Rome!" on a trip is no home."""
    lines = _lines(
        "Ana",
        "I'm Ana. We live in Campinas.",
        "yes we did it, we're in Pelotas!! boxes everywhere.",
    )
    assert not any("Campinas" in line for line in lines), lines
    assert "Ana and others are living in Pelotas now!!" in lines, lines
    trip = "we're in Rome! the hotel is lovely, here for the week"
    assert arrived_in("we're in Rome!", trip) == "we're in Rome!"
    assert arrived_in("done: we're in Grenoble.", "done: we're in Grenoble. first week at …") == (
        "done: we're living in Grenoble now."
    )


def test_a_title_after_a_dash_or_with_a_remark_by_name_is_the_trade() -> None:
    """ "I'm officially freelance — Joop, ferry mate, no more lanyard!", "Joop the ferry mate,
    Anke's dad loves it." and "Officially Joop the ferry mate lol." change the trade (before,
    a dash, a remark opening with a name and a laugh hid the title); a nickname "they call
    me" is no post."""
    for said in (
        "I'm officially freelance — Joop, ferry mate, no more lanyard!",
        "Joop the ferry mate, Anke's dad loves it.",
        "Officially Joop the ferry mate lol.",
    ):
        lines = _lines("Joop", "I'm Joop, a glazier at Helder Glas in Deventer.", said)
        assert any(line.startswith("Joop works as a ferry mate") for line in lines), lines
        assert not any("glazier" in line for line in lines), lines
    lines = _lines(
        "Joop",
        "I'm Joop, a glazier at Helder Glas in Deventer.",
        "I'm a ferry mate now — Joop the boat guy, they call me.",
    )
    assert not any("boat guy" in line and "works as" in line for line in lines), lines


def test_first_days_counted_with_an_employer_name_where_they_work() -> None:
    """ "First three days with Veerdienst Texel — Joop the ferry mate now, ha" keeps the new
    employer beside the new trade (before, the title cut off a clause no key read, and it was
    dropped)."""
    lines = _lines(
        "Joop",
        "I'm Joop, a glazier at Helder Glas in Deventer.",
        "First three days with Veerdienst Texel — Joop the ferry mate now, ha",
    )
    assert any("Veerdienst Texel" in line for line in lines), lines
    assert any(line.startswith("Joop works as a ferry mate now") for line in lines), lines


def test_a_post_after_a_clause_is_its_own_statement() -> None:
    """ "I fix boilers for a living, service tech at Vaillo in Olomouc." is the clause and the
    post, so a new employer ends the post, not the trade the clause says (before, one line
    held both and the new employer retired it whole); a home said so is no post."""
    lines = _lines(
        "Radim",
        "I fix boilers for a living, service tech at Vaillo in Olomouc.",
        "and new job: Termex, smaller boiler company, better pay",
    )
    assert "Radim fixes boilers for a living." in lines, lines
    assert any("Termex" in line for line in lines), lines
    assert not any("Vaillo" in line for line in lines), lines
    lines = _lines("Radim", "I moved in May, flat at Hradební in Olomouc.")
    assert not any("works as" in line for line in lines), lines
    # (nor a clause opened by a pronoun: "he studies" is no trade, UP Visayas no employer)
    lines = _lines("Lorna", "I live with my grandson Paolo, he studies at UP Visayas.")
    assert not any("works" in line for line in lines), lines


def test_a_trade_said_by_what_the_speaker_is_gives_way_to_a_new_one() -> None:
    """ "I'm a commercial fisherman — …" (a trade no key reads) ends with "Makana the deckhand
    now" (before, both stayed); a line of what one is that names no trade ("a big eater"),
    or says more ("… at the little port in Kona"), stays."""
    lines = _lines(
        "Makana",
        "I'm a commercial fisherman — ahi and opah longline trips.",
        "Did it. Makana the deckhand now, ha.",
    )
    assert not any("fisherman" in line for line in lines), lines
    assert any(line.startswith("Makana works as a deckhand now") for line in lines), lines
    lines = _lines("Makana", "I'm a big eater, honestly.", "I work as a deckhand now.")
    assert any("big eater" in line for line in lines), lines
    # (nor one that says more, a place with it: it is not cut, and the place stays)
    lines = _lines(
        "Makana", "I'm the harbourmaster at the little port in Kona.", "I work as a deckhand now."
    )
    assert any("Kona" in line for line in lines), lines


def test_a_lone_trade_after_here_or_after_the_name_in_another_language() -> None:
    """ "Noor here, muralist, 63 and still climbing ladders" and "hola, soy Noor. stuntman,
    mostly car and fall work, signed with the Acción Sur agency." say the trade (before, a
    trade alone after "here," was dropped unless another part followed it, and a name after
    "soy" opened no introduction); "Noor here, quick question, …" says none."""
    lines = _lines("Noor", "buenas! Noor here, muralist, 63 and still climbing ladders.")
    assert "Noor works as a muralist." in lines and "Noor is 63 years old." in lines, lines
    lines = _lines(
        "Noor",
        "hola, soy Noor. stuntman, mostly car and fall work, signed with the Acción Sur agency.",
    )
    assert "Noor works as a stuntman." in lines, lines
    assert "Noor signed with the Acción Sur agency." in lines, lines
    assert not any("works as" in line for line in _lines("Noor", "Noor here, quick question, ok?"))


def test_a_first_real_shift_worked_today_is_the_post_held() -> None:
    """ "first real shift as conductor today, Cluj–Oradea regio" is the new trade, in place
    of the waiter's (before, a first spell had to be plain and said done)."""
    lines = _lines(
        "Noor",
        "Noor, 29, waiter at Roata restaurant in Cluj.",
        "first real shift as conductor today, Cluj–Oradea regio. tired but happy",
    )
    assert any(line.startswith("Noor works as a conductor now") for line in lines), lines
    assert not any("waiter" in line for line in lines), lines
