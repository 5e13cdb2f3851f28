"""A change of a value of a kind closed word classes tell (``kinds.py``, ``truth.merge``,
docs/design.md "Facts that stay true", step 4): a month with its day, a weekday, a time, an
amount and what it counts, written into the speaker's one line holding a value of that kind,
nearest in meaning."""

from __future__ import annotations

import pytest

from tests.actors.merging import facts_of as _facts
from tests.actors.merging import lines_after as _lines_after
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge
from tests.actors.merging import merged as _merged

#: A change of a value of a kind closed word classes tell (a weekday, a time, a number):
#: the speaker's line holding one value of that kind, nearest in meaning, takes the new
#: value and keeps its other claims; a line with two values of the kind is not guessed at.
#: Rows: speaker, older lines, new fact, lines the memory then holds, words it no longer has.
KINDS = [
    (
        "Ana",
        ["Ana and others play Thursdays at Riverside Park, kick-off 6pm.", "Ana is a nurse."],
        "From now on kick-off is 7:45, the pitch was double-booked.",
        ["Ana and others play Thursdays at Riverside Park, kick-off 7:45."],
        "6pm",
    ),
    (
        "Ines",
        ["Ines paddles on Saturday mornings.", "Ines is a dentist in a big clinic."],
        "Training's moved to Sunday afternoons from now on.",
        ["Ines paddles on Sunday afternoons.", "Ines is a dentist in a big clinic."],
        "Saturday",
    ),
    (
        "Nora",
        ["Site visits on Mondays, and a yoga class on Tuesday evenings.", "Nora is a surveyor."],
        "The studio changed the timetable, so yoga is on Fridays from now on.",
        [
            "Nora is a surveyor.",
            "The studio changed the timetable, so yoga is on Fridays from now on.",
        ],
        "Site visits on Fridays",
    ),
    (
        "Nora",
        ["Nora swims on Tuesdays at 7am.", "Nora is a surveyor."],
        "Nora's sister's swim club moved to Wednesdays from now on.",
        ["Nora swims on Tuesdays at 7am."],
        "Wednesdays at 7am",
    ),
    (  # a move said in the present tense
        "Hemi",
        ["Wednesday night is darts with the club.", "Hemi is a builder."],
        "Darts move to Monday nights, the pub needs the room in midweek.",
        ["Hemi is a builder."],
        "Wednesday",
    ),
]


@pytest.mark.parametrize(("speaker", "older", "new", "holds", "gone"), KINDS)
def test_a_change_of_a_kind_takes_the_value_of_the_speakers_line(
    speaker: str, older: list[str], new: str, holds: list[str], gone: str
) -> None:
    memory = _merged(speaker, older, new).memory
    for line in holds:
        assert line in memory
    assert gone not in memory


def test_an_amount_of_another_thing_is_not_the_one_that_changed() -> None:
    """ "Aim for 76 kg instead" changes a target weight, not Greta's age of 57."""
    older = ["Greta is 57, not what she wrote.", "Greta is a librarian."]
    new = "Greta's doctor said aim for 76 kg instead, so let's use that."
    memory = _merged("Greta", older, new).memory
    assert "Greta is 57" in memory and "Greta is 76" not in memory


def test_when_an_amount_starts_is_not_what_it_is_an_amount_of() -> None:
    """ "the landlord bumped it to €960 starting next month": "next month" says when, and is
    no likeness to the "€140 a month" of the heating oil, which stays."""
    memory = _memory_after(
        ("Rent is €890 for a studio in Ranelagh.", "Nia", "s"),
        ("Heating oil is maybe €140 a month.", "Nia", "s"),
        ("ugh, renewal came in. the landlord bumped it to €960 starting next month.", "Nia", "s"),
    )
    assert "Heating oil is maybe €140 a month" in memory and "€960" in memory


def test_a_time_of_day_is_no_amount() -> None:
    """ "raised the quota to 90 an hour" is the quota's line, not the "2pm till 10pm" of the
    hours worked: the 2 of "2pm" is a time, no amount."""
    older = [
        'Efe, asked "What hours are they on?", answered "Lates, 2pm till 10pm".',
        "Quota is 70 boxes an hour.",
        "Efe is a packer.",
    ]
    merged = _merged("Efe", older, "They raised the quota to 90 an hour, brutal.")
    assert "Quota is 90 boxes an hour" in merged.memory and "2pm till 10pm" in merged.memory


def test_how_much_an_amount_changed_is_not_its_new_value() -> None:
    """ "put the fee up by 40, so it's 610 now": 610, not 40; the difference alone ("cut by
    €25") is no new value written into the line."""
    older = ["Oksana's course fee is 570 dollars a term.", "Oksana is a welder."]
    said = "The college put the fee up by 40, so it's 610 now."
    memory = _merged("Oksana", older, said).memory
    assert "fee is 610 dollars" in memory and "40 dollars" not in memory
    older = ["Oksana pays €180 a month for the allotment.", "Oksana is a welder."]
    memory = _merged("Oksana", older, "The council cut the allotment charge by €25.").memory
    assert "€25 a month" not in memory


def test_a_word_after_an_amount_that_counts_nothing_is_no_unit() -> None:
    """ "I'm on the 745 these days" counts no "these": the amount is the one of the speaker's
    line holding one of its scale ("the 712 out of Ballina depot")."""
    memory = _memory_after(
        ("I drive trams, mostly the 712 out of Ballina depot.", "Orla", "s"),
        ("Earlier starts now, I'm on the 745 these days.", "Orla", "s"),
    )
    assert "712" not in memory and "the 745 out of Ballina depot" in memory


def test_an_amount_of_the_same_period_needs_no_change_word() -> None:
    """ "the owner agreed to 11,000 a month" is the rent "12,000 pesos a month" (a line of a
    month's amount), with no change word; the past ("was only 600 a month") is none."""
    older = ["Rent is 12,000 pesos a month, on Calle Chapala.", "Diego is 31."]
    said = "The owner agreed to 11,000 a month if Diego and others sign for two years."
    assert _merged("Diego", older, said).memory.count("11,000 pesos a month") == 1
    said = "Diego's old flat in Jalisco was only 6,000 a month, those were the days."
    assert _merge("Diego", older, said) == []


def test_an_amount_thought_of_is_no_change() -> None:
    """ "I was thinking 85 soles" (a price for an order) is an idea, no new pay of "pay them
    10 soles the hour"; what is said before the amount decides, not a condition after it."""
    older = ["Ayo pays them 10 soles the hour.", "Ayo is 44."]
    for said in ["Ayo was thinking 85 soles.", "Ayo is just thinking 150 soles for the lot."]:
        assert _merge("Ayo", older, said) == []
    assert _merge("Ayo", older, "Ayo pays them 12 soles the hour from now on.") == [older[0]]


def test_a_count_said_in_words_is_an_amount_of_the_same_thing() -> None:
    """ "Now we have four grandchildren" replaces "three grandchildren"; "two weeks" is a
    time, not a count of anything the memory holds."""
    memory = _memory_after(
        ("I have three grandchildren who help me carry the pots.", "Kenji", "s"),
        ("Happy news! Now we have four grandchildren.", "Kenji", "s"),
    )
    assert "three" not in memory and "Kenji has four grandchildren" in memory
    memory = _memory_after(
        ("I have three grandchildren.", "Kenji", "s"),
        ("I'm off to Kyoto for two weeks now.", "Kenji", "s"),
    )
    assert "Kenji has three grandchildren." in memory


def test_a_date_pushed_back_is_a_change_of_its_month() -> None:
    """ "Change of plans, the wedding is pushed to September" replaces "the wedding is in
    June" (the opener is cut; "pushed to" says the change)."""
    memory = _memory_after(
        ("Also the wedding is in June, so the month before is going to be chaos.", "Amira", "s"),
        ("Change of plans, the wedding is pushed to September.", "Amira", "s"),
    )
    assert "June" not in memory and "] The wedding is pushed to September. <!--" in memory


def test_a_date_changes_whole_and_a_thing_that_will_not_move_is_no_move() -> None:
    """ "going out November 30 instead" makes "March 31" "November 30" (not "November 31");
    "the car refused to move" moves nobody, and "he lives near Bistrita", with no one named
    before him, is no line of the speaker's."""
    memory = _memory_after(
        ("March 31 is the date I gave the hall.", "Marcus", "s"),
        ("The hall asked me to stay, so I'm going out November 30 instead.", "Marcus", "s"),
    )
    assert "November 31" not in memory and "November 30 is the date" in memory
    memory = _memory_after(
        ("Bogdan here, a teacher in Cluj. My Dacia Logan simply refused to move.", "Bogdan", "s"),
        ("He went for four-wheel drive; he lives in the mountains near Bistrita.", "Bogdan", "s"),
    )
    assert "refused to move." in memory and "Bogdan is based in Cluj." in memory


def test_a_weight_is_no_age_and_a_lead_in_that_says_something_is_kept() -> None:
    """ "I'm 82 kilos right now" is no age (the age, 52, stays); "I weighed myself
    this morning: 76 kilos!" is a statement, not a lead-in: what they weigh now, as it is
    said without its "I" too ("Weighed in at the gym: 74 kilos")."""
    memory = _memory_after(
        ("I'm a nurse at Hospital Civil, 52 years old.", "Lola", "s"),
        ("I'm 82 kilos right now, I'd love to get to 75.", "Lola", "s"),
        ("I weighed myself this morning: 76 kilos!", "Lola", "s"),
    )
    assert "Lola is 52. <!--" in memory and "82" not in memory
    assert "Lola weighs 76 kilos!" in _facts(memory)
    memory = _memory_after(
        ("I weigh 82 kilos, I'd love to get to 75.", "Lola", "s"),
        ("Weighed in at the gym: 74 kilos! Getting there.", "Lola", "s"),
    )
    assert "82" not in memory and "Lola weighs 74 kilos" in memory


def test_a_lead_in_that_is_something_done_is_kept() -> None:
    """A lead-in with a subject ("I lifted a new deadlift best: 140 kilos", "Ines lifted
    …") or a verb whose "I" was left out ("Set a new record: 58.2 seconds") is no opener."""
    memory = _memory_after(
        ("I lifted a new deadlift best: 140 kilos.", "Ines", "s"),
        ("Set a new record at the gala: 58.2 seconds!", "Ines", "s"),
        ("Small typo in my intro: I'm 29.", "Ines", "s"),
    )
    assert "Ines lifted a new deadlift best: 140 kilos." in memory
    assert "Ines set a new record at the gala: 58.2 seconds!" in memory
    assert "Ines is 29." in memory and "typo" not in memory


def test_a_lead_in_names_what_it_is_and_a_thing_sold_by_its_size() -> None:
    """ "The Polish course also changed: it is now on Saturday mornings" is the course's
    day; "so glad I sold the big car" names a car, not a thing called "big"."""
    memory = _memory_after(
        ("I attend a Polish language course on Tuesday evenings.", "Olena", "s"),
        ("The Polish course also changed: it is now on Saturday mornings.", "Olena", "s"),
    )
    assert "Tuesday" not in memory and "The Polish course is now on Saturday mornings." in memory
    memory = _memory_after(
        ("I drive an old Honda Civic to work. I have a cat called Miso.", "Bec", "s"),
        ("The RAV4 fits everything, so glad I sold the big car.", "Bec", "s"),
    )
    assert "Civic" not in memory and "Miso" in memory


def test_a_membership_quit_is_no_job_and_a_start_day_no_schedule() -> None:
    """ "I quit the rowing club" ends the rowing line (no employer's), and the new hobby's
    Mondays go into no other line; "Marc-André starts Monday" is a date, not the day the
    league plays; "Three apprentices now, …" is the count of the speaker's apprentices."""
    memory = _memory_after(
        ("I row with a club on the Alster on Saturday mornings.", "Jonas", "s"),
        ("I quit the rowing club, the early mornings were killing me.", "Jonas", "s"),
        ("Bouldering now, Mondays after work.", "Jonas", "s"),
    )
    assert "Alster" not in memory and "Mondays after work" in memory
    memory = _memory_after(
        ("We play Tuesday at 9pm. Right now I have two apprentices.", "Mathieu", "s"),
        ("I hired someone! Three apprentices now, Marc-André starts Monday.", "Mathieu", "s"),
    )
    assert "Mathieu and others play Tuesday at 9pm." in memory
    assert "two" not in memory and "Mathieu has three apprentices now" in memory


def test_an_amount_of_something_is_kept_and_changes_said_as_a_move_of_it() -> None:
    """ "VO2max is 48 ml" is kept though it names nobody (an amount of something); "the
    fees jumped to 1,200" and a lead-in "Retested VO2max: 52 ml" change it."""
    memory = _memory_after(
        ("Gym fees are 950 rand a month. VO2max is 48 ml, I run with a Garmin.", "Sipho", "s"),
        ("The gym renewed my contract but the fees jumped to 1,200.", "Sipho", "s"),
        ("Retested VO2max yesterday: 52 ml!", "Sipho", "s"),
    )
    assert "950" not in memory and "Gym fees are 1,200 rand a month." in memory
    assert "48" not in memory and "Sipho retested VO2max yesterday: 52 ml!" in memory


def test_a_number_before_a_verb_is_no_amount_of_anything() -> None:
    """ "client 3 says the river is high, note 12" states no value ("3 says" counts no
    "says"): it is no fact, and the next such message rewrites nothing."""
    memory = _memory_after(
        ("client 3 says the river is high, note 12", "Ana", "s"),
        ("client 7 says the river is high, note 13", "Ana", "s"),
    )
    assert "river" not in memory


def test_an_amount_said_bare_takes_the_one_line_of_its_scale() -> None:
    """ "I'm on 21,000 now!" names no topic and no unit: the speaker's one line holding an
    amount of the same scale (a raise of 18,400) takes it; the rent (7,000) and the weekly
    kilometres are other things. Two lines of that scale leave it open."""
    memory = _memory_after(
        ("My take-home is 18,400 kroner a month and my rent is 7,000 kroner.", "Sunniva", "s"),
        ("I run about 30 km a week.", "Sunniva", "s"),
        ("Update: the yearly pay step came through, I'm on 21,000 now!", "Sunniva", "s"),
    )
    assert "18,400" not in memory and "21,000 kroner a month" in memory
    assert "7,000 kroner" in memory and "30 km a week" in memory
    both = _memory_after(
        ("My take-home is 18,400 kroner a month.", "Sunniva", "s"),
        ("Our rent is 16,900 kroner a month.", "Sunniva", "s"),
        ("Update: the yearly pay step came through, I'm on 21,000 now!", "Sunniva", "s"),
    )
    assert "18,400" in both and "16,900" in both


@pytest.mark.parametrize(
    ("older", "said", "gone", "now"),
    [
        (
            "I play futsal with friends every Monday night.",
            "From next week we change futsal to Thursday, the pitch is cheaper.",
            "Monday",
            "Thursday",
        ),
        (
            "I have small workshop, Oak Joinery, in Toumba. I make furniture.",
            "We move the workshop to Kalamaria, bigger space and three-phase power.",
            "Toumba",
            "Kalamaria",
        ),
    ],
)
def test_a_change_said_in_the_present_is_a_change(
    older: str, said: str, gone: str, now: str
) -> None:
    """Said in the present, as many write it ("we change futsal to Thursday", "we move the
    workshop to Kalamaria"), a thing moved to a new value is a change, not news."""
    memory = _memory_after((older, "Nikos", "s"), (said, "Nikos", "s"))
    assert gone not in memory and now in memory


def test_a_word_of_a_longer_name_opening_a_sentence_is_nobody() -> None:
    """ "Choir moved rehearsal to Fridays now" after "my choir, Grace Tabernacle Choir": a
    word of a longer name is not a person whose line the change must be, so the speaker's
    choir line takes the new day."""
    memory = _memory_after(
        ("Also my choir, Zion Gospel Choir, rehearses Wednesday nights.", "Shanice", "s"),
        ("Also choir moved rehearsal to Fridays now, the pastor needs the church.", "Shanice", "s"),
    )
    assert "Wednesday" not in memory and "Zion Gospel Choir, rehearses Fridays" in memory


def test_an_amount_in_a_currency_by_its_code_is_a_value_stated() -> None:
    """ "Salary also better, 17,500 UAH." states an amount of money by its currency's code
    (as "$" or "€" say it): kept, it takes the line with the old salary."""
    memory = _memory_after(
        ("My salary is 14,500 UAH per month, I live with my parents.", "Oksana", "s"),
        (
            "Big news! New company, more creative work! Salary also better, 17,500 UAH.",
            "Oksana",
            "s",
        ),
    )
    assert "14,500" not in memory and "17,500 UAH" in memory


def test_a_topics_price_said_with_go_for_or_costs_is_its_amount() -> None:
    """ "Kayaks go for 18 this summer": a topic's price said by what it goes for, sells for
    or costs is its amount stated, and replaces the line's ("kayak hire is 15 euro an hour")."""
    older = ["Kayak hire is 15 euro an hour, by the jetty.", "Nuno lives in Tavira."]
    for said in ["Kayaks go for 18 this summer.", "Kayak hire costs 18 now."]:
        assert _merge("Nuno", older, said) == [older[0]], said


def test_a_weight_said_without_its_unit_is_what_they_weigh() -> None:
    """ "Weighed myself this morning: 91!" is what they weigh: it takes the line holding
    their weight in kilos or pounds, not another amount ("a 10K in 58 minutes"); what a
    son weighs is his."""
    memory = _memory_after(
        ("I'm 96 kg right now and I run a 10K in 58 minutes.", "Tevita", "s"),
        ("Weighed myself this morning: 91! 🎉", "Tevita", "s"),
    )
    assert "96" not in memory and "91 kg" in memory and "58 minutes" in memory
    # (with a word after it that is no unit: "Scale says 89 this morning")
    memory = _memory_after(
        ("I'm 96 kg right now and I run a 10K in 58 minutes.", "Tevita", "s"),
        ("Scale says 89 this morning!!", "Tevita", "s"),
    )
    assert "96" not in memory and "89 kg" in memory
    older = ["Tevita is 96 kg right now.", "Tevita lives in Nuku'alofa."]
    assert _merge("Tevita", older, "Tevita's son weighs 30 now.") == []
    # (said by its noun, with no "I": "weigh-in this morning: 88!!!" names what the value is)
    memory = _memory_after(
        ("I'm 96 kg right now and I run a 10K in 58 minutes.", "Tevita", "s"),
        ("weigh-in this morning: 88!!! lowest in years", "Tevita", "s"),
    )
    assert "96" not in memory and "88 kg" in memory
    # (and with its unit: "Weighed myself after the run: 90kg!!")
    memory = _memory_after(
        ("I'm 96 kg right now and I run a 10K in 58 minutes.", "Tevita", "s"),
        ("Weighed myself after the run: 90kg!! 🎉", "Tevita", "s"),
    )
    assert "96" not in memory and "Tevita weighs 90kg" in memory


def test_an_amount_going_up_to_a_value_is_the_new_one() -> None:
    """ "The rent is going up to 1,600" is said as "went up to" is: the rent line takes it."""
    memory = _memory_after(
        ("Rent is 1,450 a month for our flat in Tartu.", "Liis", "s"),
        ("ugh, the rent is going up to 1,600.", "Liis", "s"),
    )
    assert "1,450" not in memory and "Rent is 1,600 a month" in memory
    # (or "bumped it to": "the landlord bumped it to $1,020")
    memory = _memory_after(
        ("Rent is $950 for a studio in Dayton.", "Liis", "s"),
        ("ugh, the landlord bumped it to $1,020.", "Liis", "s"),
    )
    assert "950" not in memory and "1,020" in memory
    # (or brought down to one: "knocked my 10k time down to 49:15")
    older = ["Dafydd's 10k PB is 52:40.", "Dafydd works as a porter."]
    said = "Dafydd knocked their 10k time down to 49:15 at the Mumbles race on Sunday!!"
    assert _merge("Dafydd", older, said) == older[:1]
    # (or a price one goes to: "I'll go to 4,000 from Monday")
    older = ["A plate is 3,500 shillings.", "Amani opens at 11 and closes at 21:00."]
    assert _merge("Amani", older, "Amani will go to 4,000 from Monday.") == older[:1]
    assert _merge("Amani", older, "Amani will go to 2 weddings this month.") == []


def test_an_amount_an_hour_is_of_the_period_whatever_it_counts() -> None:
    """ "Got a raise, 15.50 an hour from Monday" takes "gets paid 14 pounds an hour": "an
    hour" is a period, as "a week" is (the target's topic says it without one)."""
    older = ["Target is 120 picks an hour.", "Tomek lives in Kettering."]
    assert _merge("Tomek", older, "They raised the target to 135 an hour, mad.") == older[:1]
    older = ["Tomek gets paid 14 pounds an hour.", "Tomek lives in Kettering."]
    assert _merge("Tomek", older, "Got a raise, 15.50 an hour from Monday.") == older[:1]


def test_an_amount_a_day_is_of_the_period() -> None:
    """ "Kojo is on 60 a day since this month" takes "pays Kojo 50 cedis a day": "a day" is
    a period, as "a week" is."""
    older = ["Ama's driver Kojo gets 50 cedis a day, more on Saturdays.", "Ama lives in Accra."]
    assert _merge("Ama", older, "Kojo is on 60 a day since this month, he earned it.") == older[:1]


def test_an_amount_by_the_period_it_recurs_is_kept_and_takes_the_old_one() -> None:
    """ "780 lari a month, worth it for the light" says no subject, but an amount that recurs
    by a period is a value of the speaker's: kept, it takes the rent it replaces."""
    memory = _memory_after(
        ("Rent here is 640 lari, so I cannot splurge on a new camera yet.", "Nino", "s"),
        (
            "Moving update: the new place in Vake is bigger. 780 lari a month, worth it.",
            "Nino",
            "s",
        ),
    )
    assert "640" not in memory and "780 lari" in memory


def test_an_amount_corrected_as_it_is_of_what_its_turn_says_it_corrects() -> None:
    """ "I made a mistake about the pension. It is 1,150": "it" is the pension, not the flat
    nor the choir's fee, which other amounts of the scope also are."""
    memory = _memory_after(
        (
            "My pension is 1,200 lari a month. Members of my choir pay 300 lari each month. "
            "The flat costs me 900 lari a month.",
            "Nino",
            "s",
        ),
        (
            "Sorry, I made a mistake about the pension. It is 1,150, I forgot the deduction.",
            "Nino",
            "s",
        ),
    )
    assert "pension is 1,150 lari a month" in memory
    assert "pay 300 lari each month" in memory and "costs Nino 900 lari" in memory


def test_an_amount_worked_out_again_or_said_to_be_off_corrects_the_one_of_its_scale() -> None:
    """ "I recalculated …, total is 9,800" is a correction; an amount of the same scale is a
    correction's old value whatever its words ("the whole course is 8,500", "We've saved
    $52,000" of "the savings number was off"), not the rent of another scale."""
    memory = _memory_after(
        ("Budget-wise the whole course with the exam is 8,500 lari.", "Nino", "s"),
        ("ok I recalculated with the books and the fees, total is 9,800 😬", "Nino", "s"),
    )
    assert "8,500" not in memory and "course with the exam is 9,800 lari" in memory
    memory = _memory_after(
        ("We've saved $52,000. We rent in Parramatta for $610 a week.", "Nino", "s"),
        ("hmm, the savings number was off, it's $57,400 with the tax refund.", "Nino", "s"),
    )
    assert "have saved $57,400" in memory and "for $610 a week" in memory


def test_an_amount_of_someone_of_theirs_the_speaker_pays_changes_with_a_notice_sent() -> None:
    """ "Our son's school fee is 5,100 a month" is a line of the speaker's household; "the
    school sent a notice, the fee is going up to 5,900" changes it (a notice sent is no
    notice handed in), not the 7,000 they give for the household."""
    memory = _memory_after(
        (
            "My salary is 38,000. Our son's school fee is 5,100 a month. "
            "We contribute 7,000 for the household.",
            "Farid",
            "s",
        ),
        ("School sent a notice, the fee is going up to 5,900 from April.", "Farid", "s"),
    )
    assert "school fee is 5,900 a month" in memory and "contribute 7,000" in memory


def test_an_amount_after_a_currency_of_two_letters_is_an_amount() -> None:
    """ "RM180", "Rs450": the number after a currency's two letters is the amount, which a new
    one of the same topic replaces in the line holding it."""
    older = ["Rs450 for a haircut with a shave, more for colour.", "Aisha runs a salon in Pune."]
    assert _merge("Aisha", older, "A haircut is Rs520 now, the rent went up.") == [older[0]]


def test_a_price_moved_by_its_currency_is_the_one_line_priced_so() -> None:
    """ "rates go up to £110 from June" of "Four rooms, £95 a night": the one line holding an
    amount in a currency; with two such lines ("£40 a week on petrol"), which one is not
    guessed."""
    said = ("And rates go up to £110 from June, everything's costing more.", "Fiona", "s")
    memory = _memory_after(
        ("I run a B&B in Dunvegan. Four rooms, £95 a night.", "Fiona", "s"), said
    )
    assert "£110 a night" in memory and "£95" not in memory, memory
    two = ("Four rooms, £95 a night. I spend £40 a week on petrol.", "Fiona", "s")
    memory = _memory_after(two, said)
    assert "£95 a night" in memory and "£40 a week" in memory, memory
    # (a price raised to a new amount: "Raised my lesson rate to $75")
    memory = _memory_after(
        ("I teach bass lessons on the side too, $60 an hour.", "Aroha", "s"),
        ("Raised my lesson rate to $75, nobody complained.", "Aroha", "s"),
    )
    assert "$75 an hour" in memory and "$60" not in memory, memory


def test_a_count_changed_is_never_a_models_number() -> None:
    """ "we're milking 62 now" changes "milking 85 cows", not "Massey Ferguson 135"."""
    lines = _facts(
        _memory_after(
            ("We're milking 85 cows. The tractor is an old Massey Ferguson 135.", "Declan", "s"),
            ("We let a few of the older girls go, we're milking 62 now.", "Declan", "s"),
        )
    )
    assert "Declan and others are milking 62 cows." in lines, lines
    assert any("Massey Ferguson 135" in line for line in lines), lines


def test_a_figure_far_from_a_lines_is_another_quantitys() -> None:
    """ "my salary is 42k now" is no new rent of "Rent's 1350 a month" (thirty times it is
    another quantity, by key or by meaning); "the new place is 1,500 a month" is."""
    lines = _lines_after("Lena", "Rent's 1350 a month here in Leeds.", "my salary is 42k now")
    assert "Rent's 1350 a month here in Leeds." in lines, lines
    assert any("salary is 42k" in line for line in lines), lines
    lines = _lines_after(
        "Lena",
        "Rent's 1350 a month here in Leeds.",
        "my salary is 42k now",
        "the new place is 1,500 a month",
    )
    assert not any("1350" in line for line in lines) and any("42k" in line for line in lines)


def test_the_period_an_amount_recurs_by_is_no_topic() -> None:
    """ "$110 an hour now" is a rate, no new count of "60 hour weeks": "an hour" says how
    the amount recurs, not what it is of (before, the line became "110 hour weeks")."""
    lines = _lines_after(
        "Darren",
        "honestly I'm doing 60 hour weeks and the missus is over it.",
        "put my rate up. $110 an hour now, callout stays $80.",
    )
    assert any("doing 60 hour weeks" in line for line in lines), lines
    assert not any("110 hour" in line for line in lines), lines


def test_a_count_in_a_unit_is_no_new_rate_and_a_rate_takes_the_slot_of_its_period() -> None:
    """ "doing 60 hour weeks" is no new figure of "$95 an hour plus callout $80" (money and a
    count in hours are two quantities: before, it took that line by meaning), and "$110 an hour
    now, callout stays $80" writes the hourly rate, not the callout (before, "callout $110")."""
    lines = _lines_after(
        "Darren",
        "I charge $95 an hour plus callout $80.",
        "honestly I'm doing 60 hour weeks and the missus is over it.",
        "put my rate up. $110 an hour now, callout stays $80.",
    )
    assert "Darren charges $110 an hour plus callout $80." in lines, lines
    assert any("60 hour weeks" in line for line in lines), lines


def test_a_claim_of_the_speakers_own_takes_no_line_of_we_by_nearness_alone() -> None:
    """ "I stay up till 1am now" is no new closing time of "we are closing earlier now, 9pm"
    (before, the shop's line became "closing earlier now, 1am"); a change of the speaker's
    own line still takes it ("my shift starts at 7 now" of "my shift starts at 6")."""
    lines = _lines_after(
        "Kulwinder",
        "We are closing earlier now, 9pm. Balbir's back is bad.",
        "Arjun got me hooked on Korean dramas, I stay up till 1am now",
    )
    assert any("closing earlier now, 9pm" in line for line in lines), lines
    lines = _lines_after("Kulwinder", "My shift starts at 6am.", "My shift starts at 7am now.")
    assert not any("6am" in line for line in lines), lines


def test_a_change_done_to_the_speaker_is_theirs_and_a_rate_takes_only_a_line_with_an_amount() -> (
    None
):
    """ "The dentist in Denver let Ikaika go, she's retiring" is a change of Ikaika's, though
    the dentist does it (before, a sentence owned by no one changed nothing); and a new rate,
    "The café gave Bram a raise, it's 14 euros an hour now", takes no line holding no amount
    by meaning alone (before, "works as a barista at Café Loos")."""
    older = ["Ikaika's main client Dana is a dentist in Denver.", "Ikaika lives in Hilo."]
    new = "The dentist in Denver let Ikaika go, she's retiring 😢."
    assert _merge("Ikaika", older, new) == older[:1]
    older = ["Bram works as a barista at Café Loos.", "Bram lives in Utrecht."]
    new = "The café gave Bram and others a raise, it's 14 euros an hour now."
    assert _merge("Bram", older, new) == []
