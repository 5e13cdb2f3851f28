"""A change of someone else's, or of another doing, is not the change of the speaker's line
beside it: "Mother fell, now she is in a care home" is the mother's; "quit the martial art"
is no job quit; "Swimming instead, Sunday 7am" is a new thing, not aikido's new day."""

from __future__ import annotations

from reverie.actors.consolidation.attributes import keys
from tests.actors.merging import lines_after as _lines


def test_a_relative_named_by_the_relation_alone_changes_none_of_the_speakers_lines() -> None:
    """ "Mother fell, now she is in Koivupirtti care home" is the mother's news: the visits
    stay the speaker's, and "I visit Wednesdays and Sundays now" changes their days, not
    the ski club's."""
    lines = _lines(
        "Matti",
        "My mother Aino is 84, lives alone in Pirkkala. I visit her Tuesdays and Saturdays "
        "with my old Volvo. I train with Hervanta Ski Club on Thursday evenings.",
        "Thanks. Also mother fell, now she is in Koivupirtti care home in Pirkkala, long term. "
        "So I visit Wednesdays and Sundays now, when they have family lunch.",
    )
    assert "Matti visits her Wednesdays and Sundays with their old Volvo." in lines, lines
    assert "Matti trains with Hervanta Ski Club on Thursday evenings." in lines, lines


def test_a_thing_quit_by_its_noun_is_a_job_only_by_a_jobs_noun() -> None:
    """ "quit the martial art" keeps the job and its trade ("QA" is no make of a thing);
    "quit my job" and "quit the production house" (the employer's kind) end the employer."""
    lines = _lines(
        "Kenji",
        "I'm a QA engineer at Keyence. I also have aikido Wednesday 7pm.",
        "Also quit the martial art. No time.",
    )
    assert "Kenji works at Keyence." in lines and "Kenji works as a QA engineer." in lines
    lines = _lines(
        "Sofia",
        "I'm a video editor at Fotograma, a small production house in Buenos Aires.",
        "And I quit the production house! Going freelance.",
    )
    assert not any("Fotograma" in line for line in lines), lines
    lines = _lines("Sofia", "I'm a video editor at Fotograma.", "I quit my job today.")
    assert not any("Fotograma" in line for line in lines), lines


def test_another_thing_done_instead_is_no_new_value_of_the_old_line() -> None:
    """ "Swimming instead, Sunday 7am at the ward pool" retires the aikido line rather than
    giving aikido a new day; "Pottery is on Thursdays instead" is pottery's new day."""
    lines = _lines(
        "Kenji",
        "I also have aikido Wednesday 7pm.",
        "Also quit the martial art. No time. Swimming instead, Sunday 7am at the ward pool.",
    )
    assert not any("aikido" in line for line in lines), lines
    assert any("Swimming" in line and "Sunday" in line for line in lines), lines
    lines = _lines(
        "Nadia", "I have a pottery class on Tuesday evenings.", "Pottery is on Thursdays instead."
    )
    assert "Nadia has a pottery class on Thursdays." in lines, lines
    # (whose it is is no thing done: "Ines swims …" gives "Ines does yoga" no Saturday)
    lines = _lines(
        "Ines",
        "I do yoga at the Lotus studio every Tuesday evening.",
        "I swim on Saturday mornings instead.",
    )
    assert not any("yoga" in line and "Saturday" in line for line in lines), lines


def test_someone_named_by_a_word_of_the_language_is_someone_else() -> None:
    """ "Can got a job in Mannheim and moved here" after "my boyfriend Can" is Can's news:
    the speaker's job and trade stay; "Hartung moved me onto sodium-ion batteries" is no
    move of home."""
    lines = _lines(
        "Elif",
        "I'm Elif, a chemist from Ankara, now doing a postdoc at Heidelberg University. My "
        "boyfriend Can is still in Istanbul.",
        "Best news: Can got a job at an engineering firm in Mannheim and moved here last week.",
    )
    assert any(line.startswith("Elif works as a chemist") for line in lines), lines
    lines = _lines(
        "Elif",
        "Big twist: Hartung moved me onto sodium-ion batteries.",
        "Found a small studio in Handschuhsheim, 720 a month, but so quiet.",
    )
    assert "Hartung moved Elif onto sodium-ion batteries." in lines, lines
    said = "The group got a new grant and Hartung moved Elif onto sodium-ion batteries."
    assert not any(key.attribute == "residence" for key in keys(said))


def test_someone_of_theirs_moving_here_ends_where_they_were() -> None:
    """ "Can got a job in Mannheim and moved here" ends "boyfriend Can is still in Istanbul"
    (not rewritten: "still in Mannheim" was never said), and keeps who Can is."""
    lines = _lines(
        "Elif",
        "I'm a chemist. My boyfriend Can is still in Istanbul, so lots of video calls.",
        "Best news: Can got a job at an engineering firm in Mannheim and moved here last week.",
    )
    assert not any("Istanbul" in line for line in lines), lines
    assert "Elif's boyfriend is Can." in lines, lines


def test_a_partner_replaced_by_a_new_one_is_not_kept_as_a_relation() -> None:
    """ "I'm seeing someone new, Deniz" after a break-up keeps no "girlfriend is Elif"."""
    lines = _lines(
        "Mehmet",
        "My girlfriend Elif helps with the photos.",
        "Things ended with my girlfriend, we'd been drifting.",
        "And I'm seeing someone new, Deniz.",
    )
    assert not any("Elif" in line for line in lines), lines


def test_a_thing_of_hers_or_his_is_not_the_speakers() -> None:
    """ "Her physio is on Fridays", said of the sister just named, leaves the speaker's physio
    on Mondays; the speaker's own "physio is now Wednesdays" then moves it."""
    lines = _lines(
        "Siobhan",
        "Physio every Monday at 9:30 at a clinic on the Douglas Road.",
        "My sister Niamh broke her wrist falling off her bike last week, so the two of us are "
        "a right pair. Her physio is on Fridays.",
    )
    assert any("Monday" in line for line in lines), lines
    lines = _lines(
        "Siobhan",
        "Physio every Monday at 9:30 at a clinic on the Douglas Road.",
        "My sister Niamh broke her wrist last week. Her physio is on Fridays.",
        "And the clinic changed my slot, physio is now Wednesdays at 11 with a new physio, Aoife.",
    )
    assert not any("Monday" in line or "Friday at 9:30" in line for line in lines), lines


def test_the_clause_after_and_is_of_whom_it_names() -> None:
    """ "Three years, and he says he wants to move to London alone": the ex-boyfriend's wish,
    which moves neither the speaker's home nor anything else of theirs."""
    lines = _lines(
        "Paola",
        "I live in Leith, Edinburgh.",
        "Three years, and he says he wants to move to London alone.",
    )
    assert any("Leith" in line for line in lines), lines


def test_news_of_someone_named_by_a_persons_noun_is_theirs_not_the_speakers() -> None:
    """ "My teacher also plays at a church in Leiden, so only the venue changes" and "Markku,
    the other vet, is moving to Oulu" are the teacher's and Markku's: the speaker's post and
    practice stay (the embedder tells a teacher, a person, from a kiln, a thing)."""
    for speaker, theirs, news, kept in [
        (
            "Femke",
            "I have accepted a post as senior archivist at the Nationaal Archief in The Hague.",
            "My teacher also plays at the Hooglandse Kerk in Leiden, so only the venue changes.",
            "Nationaal Archief",
        ),
        (
            "Aino",
            "I work at a two-vet practice in Siilinjärvi, Eläinlääkäri Koivu.",
            "Markku, the other vet, is moving to Oulu in spring, so the practice is hiring.",
            "Koivu",
        ),
    ]:
        lines = _lines(speaker, theirs, news)
        assert any(kept in line for line in lines), lines
    # (a thing of theirs is theirs: the kiln's news is the speaker's)
    lines = _lines(
        "Wanjiru",
        "I fire everything in an old gas kiln called Moto.",
        "My kiln finally died, so I bought a second-hand Skutt electric kiln.",
    )
    assert not any("Moto" in line for line in lines), lines


def test_someone_named_by_a_role_a_name_said_with_who_they_are_or_he_is_not_the_speaker() -> None:
    """A manager's new car, the new intern's home, a plumber's stolen van, "the woman who
    runs the café", "he": their news retires none of the speaker's lines; what they do to a
    thing of the speaker's does ("put the rent up", "so no more Friday lessons")."""
    older = [
        "I drive a silver Skoda Fabia and live in Didsbury.",
        "I take piano lessons on Friday evenings.",
    ]
    for said in [
        "My line manager just bought a Porsche Macan.",
        "Oksana, the new receptionist, lives in Salford and drives a Kia.",
        "My electrician's van got broken into last night, he's fuming.",
        "The woman who runs the corner café has moved to Stockport.",
        "Bumped into my old maths teacher. He drives a Tesla now.",
    ]:
        lines = _lines("Dev", *older, said)
        assert any("Skoda Fabia" in line for line in lines), (said, lines)
        assert any("Didsbury" in line for line in lines), (said, lines)
    lines = _lines("Dev", *older, "My piano teacher moved to Leeds, so no more Friday lessons.")
    assert not any("Friday evenings" in line for line in lines), lines
