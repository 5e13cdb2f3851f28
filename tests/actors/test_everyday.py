"""Everyday sentences against one memory (``truth.merge``): what each may retire.

A red team's single-scope findings, as golden rows (third person, as the extractive
path writes them): another person's news, a state of the same thing, a word of a table
in another sense, a wish, the past, an ending that names what it ends, and a new role.
``evals/everyday/`` counts the same over 220 sentences written blind to the code.
"""

from __future__ import annotations

import pytest

from tests.actors.merging import lines_after
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge

MAYA = [
    "Maya works as a graphic designer.",
    "Maya works at Pixelworks.",
    "Maya lives in Manchester.",
    "Maya's boyfriend is Leo.",
    "Maya drives a blue Fiat Panda.",
    "Maya's phone is an iPhone 12.",
    "Maya drinks green tea every morning.",
    "Maya is vegetarian.",
    "Maya has a cat called Miso.",
    "Maya plays volleyball on Thursday evenings.",
    "Maya's sister Ana lives in Porto.",
    "Maya's rent is 950 pounds a month.",
    "Maya is learning Spanish on Duolingo.",
]
#: Everyday sentences a red team said (third person, as the extractive path writes them):
#: another person's news, a state of the same thing, a word of a table in another sense.
EVERYDAY = [
    ("Maya's best mate Priya is moving to Glasgow.", None),
    ("Our neighbour moved out and there's a new couple next door.", None),
    ("Her fiancé proposed on a boat on the Douro.", None),
    ("Maya's phone is on 5%.", None),
    ("Maya updated their iPhone to the latest iOS.", None),
    ("Our office moved to the second floor and now Maya has a window seat.", None),
    ("Maya skipped their green tea this morning because Maya and others ran out.", None),
    ("Maya has stopped drinking green tea, it was giving them stomach aches.", MAYA[6]),
    ("Maya has officially left Pixelworks, today was their last day.", MAYA[1]),
    # a wish, a hypothetical, the past, an idiom, a new thing that replaces nothing
    ("Maya is tempted to try eating fish again.", None),
    ("A recruiter messaged Maya saying they'd be perfect for a UX job in London.", None),
    ("Maya's first car was an old Corsa that broke down every winter.", None),
    ("When Maya was a teenager they ate meat every day, hard to imagine now.", None),
    ("Maya's old flat in Didsbury was only 600 a month, those were the days.", None),
    ("Maya sold Leo on the idea of a cooking class.", None),
    ("Maya quit scrolling TikTok for Lent and so far so good.", None),
    ("Our team ended the season top of the league!", None),
    ("Maya started a new book last night and couldn't put it down.", None),
    # a pet named, a relative not named again, a sport quit (no employer)
    ("Miso passed away this morning.", "Maya has a cat called Miso."),
    ("Miso lives with Maya's parents now, their garden suits her better.", MAYA[8]),
    ("Maya's sister lives in Madrid now for her new job.", "Maya's sister Ana lives in Porto."),
    ("Maya and Leo called it quits.", "Maya's boyfriend is Leo."),
    ("The landlord put Maya's rent up to 1,000 a month.", "Maya's rent is 950 pounds a month."),
    ("Maya stopped using Duolingo.", "Maya is learning Spanish on Duolingo."),
    ("Maya has dropped Duolingo.", "Maya is learning Spanish on Duolingo."),
    ("Maya cancelled Duolingo, the owl won.", "Maya is learning Spanish on Duolingo."),
    # someone of theirs ended something: only a line of that someone's
    ("Maya's manager left Pixelworks.", None),
    ("Maya switched from Duolingo to a Spanish class at the library.", MAYA[12]),
    ("Maya was let go by Pixelworks.", MAYA[1]),
    # "she" is someone named before, never the speaker ("they"), and a relative named is the
    # relative: Ana's home changes, not Maya's; "Leo and I split" ends Leo
    ("Ana finally came home, she's renting a place in Stockport.", MAYA[10]),
    ("Maya and Leo split and he took Miso.", "Maya's boyfriend is Leo."),
    # a thing's noun qualifying another is that other thing; someone else's thing is theirs;
    # a name that says where or what for is no make
    ("Maya changed their phone wallpaper to a photo of Miso.", None),
    ("The car park at work changed to permit only, so annoying.", None),
    ("The car's at the garage for its MOT.", None),
    ("Maya borrowed Ana's phone while they were in Porto because theirs died.", None),
    ("Maya bought Leo a new phone for his birthday, a Pixel.", None),
]


@pytest.mark.parametrize(("new", "retired"), EVERYDAY)
def test_an_everyday_sentence_retires_only_what_it_ends(new: str, retired: str | None) -> None:
    assert _merge("Maya", MAYA, new) == ([retired] if retired else [])


def test_a_thing_replaced_by_its_name_is_the_line_naming_it() -> None:
    laptop = "Maya's laptop is a Dell XPS 13."
    assert _merge("Maya", [*MAYA, laptop], "Maya got a ThinkPad to replace the old Dell.") == [
        laptop
    ]


TOMAS = [
    "Tomás's wife is Hana.",
    "Tomás has a dog called Biscuit.",
    "Tomás's laptop is a Dell XPS 13.",
    "Tomás's brother Diego lives in Valencia.",
]
#: A relative named once is the same person by name alone; an ending said in other words
#: (a separation, a thing that died by a word of its make).
ENDINGS = [
    ("Diego has moved back to Seville.", TOMAS[3]),
    ("Tomás and Hana are separating.", TOMAS[0]),
    ("Tomás and Hana separated a few weeks ago.", TOMAS[0]),
    # a partner is the holder's: "Tomás's girlfriend" is Tomás's partner, not someone else
    ("Tomás's girlfriend is Sara now.", TOMAS[0]),
    ("Tomás's girlfriend Sara is moving in with them.", TOMAS[0]),
    ("Hana's new boyfriend is nice.", None),
    ("Tomás got remarried last spring, to Lucía.", TOMAS[0]),
    ("The XPS died for good, typing this on a Lenovo Yoga.", TOMAS[2]),
    ("Bob's brother Diego moved to Oslo.", None),
    ("Tomás and Hana are separating the recycling better now.", None),
    ("The divorce came through last week.", TOMAS[0]),
    ("Tomás and others gave Biscuit away to a family with a farm.", TOMAS[1]),
    # (a dog handed over for a while is still theirs)
    ("Tomás and others gave Biscuit to Tomás's mum for the weekend.", None),
]


def test_a_partner_said_by_one_person_is_no_change_of_anothers() -> None:
    alice = ["Alice's husband is Pedro.", "Alice lives in Porto."]
    assert _merge("Bob", alice, "Bob's girlfriend is Sara now.") == []


@pytest.mark.parametrize(("new", "retired"), ENDINGS)
def test_an_ending_in_other_words_retires_the_line_it_names(new: str, retired: str | None) -> None:
    assert _merge("Tomás", TOMAS, new) == ([retired] if retired else [])


def test_a_trade_retrained_for_a_first_shift_with_and_a_thing_let_go_or_nicked() -> None:
    job, work = "Tomás works as a paramedic.", "Tomás works at the Ambulance Service."
    gym, bike = "Tomás has a membership at PureGym.", "Tomás rides a Brompton to work."
    older = [job, work, gym, bike]
    assert _merge("Tomás", older, "Tomás has retrained as a physiotherapist.") == [job]
    assert _merge("Tomás", older, "Tomás qualified as a nurse last month.") == [job]
    new = "Tomás's first shift with London Ambulance Service is tomorrow."
    assert _merge("Tomás", older, new) == [work]
    assert _merge("Tomás", older, "Tomás let PureGym go.") == [gym]
    assert _merge("Tomás", older, "The Brompton got nicked, so Tomás bought a Carrera.") == [bike]


def test_a_membership_is_no_job_and_work_instead_names_no_employer() -> None:
    work = ["Tomás works as a paramedic.", "Tomás works at the Ambulance Service."]
    gym = "Tomás has a membership at PureGym."
    assert _merge("Tomás", [*work, gym], "Tomás is a member at David Lloyd now.") == [gym]
    assert _merge("Tomás", work, "Tomás cycles to work instead of driving.") == []


KIDS = ["Tomás has two daughters.", "Tomás works as a paramedic."]
#: A child of the speaker's born or adopted retires the count of their children; a
#: relative's or a friend's baby, or a barbecue "had", does not.
BIRTHS = [
    ("Tomás and others had a baby boy last week!", KIDS[0]),
    ("Baby number three arrived on Tuesday, a little girl.", KIDS[0]),
    ("Tomás and others have adopted a son, Leo, he's six.", KIDS[0]),
    ("Our twins were born on Friday, so four kids now.", KIDS[0]),
    ("Hana gave birth to our son yesterday.", KIDS[0]),
    ("Tomás's sister had a baby boy last week!", None),
    ("Diego and his wife had a baby girl.", None),
    ("Baby Lily was born today!", None),
    ("Tomás and others had a barbecue for the girls.", None),
    ("Tomás and others had a baby shower for Hana's sister.", None),
    ("Tomás's daughter had a baby tooth fall out!", None),
]


@pytest.mark.parametrize(("new", "retired"), BIRTHS)
def test_a_child_born_to_the_speaker_retires_the_count_of_their_children(
    new: str, retired: str | None
) -> None:
    assert _merge("Tomás", KIDS, new) == ([retired] if retired else [])


def test_a_day_alone_names_no_thing_the_line_on_that_day_changes() -> None:
    runs, coffee = "Maya runs with a club on Saturday mornings.", "Maya drinks a flat white."
    new = "Maya is swimming on Saturday mornings instead of running now."
    assert _merge("Maya", [runs, coffee], new) == [runs]


BEN = ["Ben works as a junior developer.", "Ben works at Acme.", "Ben lives in Leeds."]
#: A new role of the speaker (``roles.promoted``): the trade line goes when the turn says a
#: promotion, the role keeps the trade's field, or a rank is given; "a dad now" is no role.
ROLES = [
    ("They made Ben head of engineering.", BEN[0]),
    ("Ben is the team lead now.", BEN[0]),
    ("As of this month Ben is a senior developer.", BEN[0]),
    ("Ben is a dad now!", None),
    ("Mum made Ben dinner.", None),
    ("Ben is moving to a bigger desk now.", None),
]


@pytest.mark.parametrize(("new", "retired"), ROLES)
def test_a_new_role_replaces_the_trade_it_follows(new: str, retired: str | None) -> None:
    assert _merge("Ben", BEN, new) == ([retired] if retired else [])


def test_a_post_in_a_group_is_replaced_by_the_one_they_were_elected_to() -> None:
    """ "They elected Ben chair" replaces "Ben is secretary of the allotment society" (a post
    said without an article); someone else elected replaces nothing."""
    post = ["Ben is secretary of the allotment society.", "Ben lives in Leeds."]
    assert _merge("Ben", post, "They elected Ben chair at the AGM.") == [post[0]]
    assert _merge("Ben", post, "They elected Anna chair at the AGM.") == []


def test_a_future_change_that_says_what_it_replaces_is_decided() -> None:
    """ "we'll be shut on Tuesdays instead" is a decision; "we'll maybe shut on Tuesdays" a
    plan, and "will" alone a plan too."""
    older = ["Mateo and others are closed on Mondays.", "Mateo runs a restaurant."]
    decided = "Mateo and others will be shut on Tuesdays instead."
    assert _merge("Mateo", older, decided) == [older[0]]
    assert _merge("Mateo", older, "Mateo and others might be shut on Tuesdays instead.") == []
    assert _merge("Mateo", older, "Mateo and others will be shut on Tuesdays.") == []


def test_a_future_change_that_says_the_day_it_starts_is_decided() -> None:
    """ "will work at Kestrel from Monday" says when the change starts: a decision, as
    "starting March" is; "will work at Kestrel one day" stays a plan."""
    older = ["Sana works at Pixelworks.", "Sana lives in Leeds."]
    for said in [
        "Sana will work at Kestrel from Monday.",
        "Sana will work at Kestrel starting March.",
    ]:
        assert _merge("Sana", older, said) == [older[0]], said
    assert _merge("Sana", older, "Sana will work at Kestrel one day.") == []


#: Everyday ways of saying a slot changed, with no change word: (speaker, older, new, retired).
IDIOMS = [
    (
        "Bea",
        ["Bea is based in Recife.", "Bea is a midwife."],
        "Bea and others move to Salvador at the end of the month.",
        "Bea is based in Recife.",
    ),
    (
        "Elena",
        ["Elena's boyfriend Andrei helps with the cooking.", "Elena studies biology."],
        "It's over with their boyfriend.",
        "Elena's boyfriend Andrei helps with the cooking.",
    ),
    (
        "Carlos",
        ["Carlos drives an old Nissan Tsuru.", "Carlos is retired.", "Carlos dances salsa."],
        "Carlos said goodbye to the car and bought a Chirey.",
        "Carlos drives an old Nissan Tsuru.",
    ),
    (
        "Oksana",
        ["Oksana is an accountant.", "Oksana works at Baltic Ledger, a small firm."],
        "Oksana finished their first week at Wawel Finance!",
        "Oksana works at Baltic Ledger, a small firm.",
    ),
    (
        "Vale",
        ["Vale works at Forno Ricci.", "Vale is a pastry chef."],
        "First week at Bertone done.",
        "Vale works at Forno Ricci.",
    ),
    (
        "Priya",
        ["Priya lives in Kothrud, so the commute is short.", "Priya is a manager."],
        "The boxes are finally unpacked in Baner.",
        "Priya lives in Kothrud, so the commute is short.",
    ),
    (
        "Hana",
        ["Hana is 19, vegan.", "Hana studies architecture."],
        "Hana eats fish again, doctor's orders.",
        "Hana is 19, vegan.",
    ),
    (
        "Elena",
        ["Elena is on keto, so meal prep on Sundays.", "Elena studies biology."],
        "Elena quit that diet, it was making her miserable.",
        "Elena is on keto, so meal prep on Sundays.",
    ),
]


@pytest.mark.parametrize(("speaker", "older", "new", "retired"), IDIOMS)
def test_an_everyday_idiom_replaces_its_slot(
    speaker: str, older: list[str], new: str, retired: str
) -> None:
    assert _merge(speaker, older, new) == [retired]


ROSA = [
    "Rosa drives a white Seat Ibiza.",
    "Rosa takes bass lessons on Fridays.",
    "Rosa sings in a choir on Mondays.",
    "Rosa's laptop is a Lenovo Yoga 7.",
    "Rosa's phone is a Pixel 7.",
    "Rosa has a dog called Canela.",
]
#: Everyday news of a thing that is not the end of one of the speaker's: someone else's
#: thing sold, a breakdown, a part worn out, a want, one got beside theirs, a child's.
NOT_ENDED = [
    "Rosa sold Inés's old couch for her.",
    "Rosa sold their aunt's old sofa for her.",
    "The Ibiza broke down on the A-4, waiting for the tow truck.",
    "Rosa needs a new laptop sleeve, the zip's gone on hers.",
    "Rosa's choir needs a new alto.",
    "Rosa got an acoustic bass to go with their electric.",
    "Rosa got a work phone, a Nokia, so now they carry two.",
    "Rosa's eldest got a new laptop for uni.",
    # (a price risen by no figure is an amount's change: no line holds one)
    "Rosa renewed the Ibiza's insurance, the price went up again.",
]
#: The same things said to end, or to be replaced ("as well" is also "besides other news").
ENDED = [
    ("Rosa sold their old Ibiza to a neighbour.", ROSA[0]),
    ("The Ibiza finally broke, it's gone for scrap.", ROSA[0]),
    ("Rosa got a new phone as well, a Nokia, the screen is huge.", ROSA[4]),
    # (once: the old one said to end where the make got has replaced it is no second thing)
    ("Rosa got a second-hand Nokia, so the Pixel is retired.", ROSA[4]),
]


@pytest.mark.parametrize("new", NOT_ENDED)
def test_news_of_a_thing_that_is_not_the_end_of_the_speakers_retires_nothing(new: str) -> None:
    assert _merge("Rosa", ROSA, new) == []


@pytest.mark.parametrize(("new", "retired"), ENDED)
def test_the_same_things_said_to_end_or_be_replaced_retire_their_line(
    new: str, retired: str
) -> None:
    assert _merge("Rosa", ROSA, new) == [retired]


def test_someone_named_after_who_they_are_to_the_speaker_moves_alone() -> None:
    """ "One of Nadia's students, Omar, is moving to Leeds" is Omar's move, as "Omar,
    Nadia's student, is moving" is: the speaker's home stays."""
    older = ["Nadia lives in York.", "Nadia teaches piano."]
    for new in (
        "One of Nadia's students, Omar, is moving to Leeds next month.",
        "Nadia's best student, Omar, is moving to Leeds next month.",
    ):
        assert _merge("Nadia", older, new) == []


def test_someone_of_the_family_a_retired_line_named_stays_as_a_line_of_their_own() -> None:
    """ "Weekends are for my daughter Vesna and fishing on the Sava" names Vesna; a new hobby
    in place of the fishing ends the fishing, not the daughter. A partner named so is not
    kept: a change of partner is what such a line is about."""
    memory = _memory_after(
        (
            "Good. My weekends are for my daughter Vesna and fishing on the Sava, so it has to "
            "work without me.",
            "Goran",
            "s",
        ),
        (
            "With a newborn there's no time for the river, so I gave my rods to my brother. "
            "Chess on my phone is my hobby now.",
            "Goran",
            "s",
        ),
    )
    assert "fishing on the Sava" not in memory and "Goran's daughter is Vesna." in memory


def test_a_child_born_to_the_speaker_ends_the_pregnancy_a_line_holds() -> None:
    """ "Baby Adanna, born on Sunday" (their baby, named as it is announced) retires "is 7
    months pregnant", and a partner's too; a friend's baby retires neither."""
    pregnant = ["Ifeoma is 7 months pregnant.", "Ifeoma owns a salon in Woji."]
    assert _merge("Ifeoma", pregnant, "Ifeoma's baby Adanna was born on Sunday.") == [pregnant[0]]
    wife = ["Budi's wife Dewi is pregnant, 6 month.", "Budi works as a conductor."]
    assert _merge("Budi", wife, "Our daughter was born last night!") == [wife[0]]
    assert _merge("Ifeoma", pregnant, "Ifeoma's friend Nneka had a baby boy.") == []
    lines = lines_after("Ifeoma", "I'm 7 months pregnant.", "Baby Adanna, born on Sunday, 3.2kg.")
    assert lines == ["Ifeoma's baby Adanna was born on Sunday, 3.2kg."], lines


def test_one_of_theirs_a_line_names_who_left_their_employer_leaves_the_speakers() -> None:
    """ "my manager left Paddle", with a line naming the manager, is the manager's leaving:
    the speaker still works at Paddle (before, the line naming them made the news the
    speaker's own, and it took their employer)."""
    lines = ["Karabo's manager Gareth keeps saying it will help.", "Karabo works at Paddle."]
    assert _merge("Karabo", lines, "Karabo's manager left Paddle.") == []
