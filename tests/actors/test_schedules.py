"""A day or a time of a schedule (``kinds.py``'s weekday and time kinds, through
``truth.merge``; docs/design.md "Facts that stay true", step 4): a new one takes the line
holding the old one, whole; a day something starts, a date or one occasion is no new day."""

from __future__ import annotations

from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge
from tests.actors.merging import merged as _merged


def test_a_new_time_replaces_the_whole_time() -> None:
    """ "Shifted the yoga batch to 7:15" after "yoga at 6:30": 7:15, not "7:15:30"."""
    older = ["Priya does yoga at 6:30 on Tuesdays.", "Priya is a manager."]
    memory = _merged("Priya", older, "Our instructor shifted the yoga batch to 7:15.").memory
    assert "7:15:30" not in memory and "6:30" not in memory

    # (a time is no number: "6:15" is no new "8 weeks" of a line on training)
    memory = _memory_after(
        ("i coach the Henderson Hawks under 10s, need a training plan for 8 weeks", "Sefa", "s"),
        ("16 kids, 1 hour, monday and wednesday at 5:30 after school", "Sefa", "s"),
        ("my forklift shift at the Pak'nSave depot starts at 6am lol", "Sefa", "s"),
        ("club had an AGM, we're Henderson Kahu now, new jerseys coming.", "Sefa", "s"),
        ("also training moves to 6:15 from next week, the lights only come on then", "Sefa", "s"),
    )
    assert "8 weeks" in memory and "6 weeks" not in memory
    # (thousands said with a k are an amount, and a rent being raised changes)
    memory = _memory_after(
        ("My rent is 180k pesos a month for a tiny room.", "Sefa", "s"),
        ("ok update: the landlord is raising the rent to 240k starting next month.", "Sefa", "s"),
    )
    assert "180k" not in memory and "240k" in memory
    # (an amount after its currency's letter, stated as the topic's value with no change word)
    memory = _memory_after(
        ("My stall rent is R2,800 a month and I sell about R14,000 a month.", "Sefa", "s"),
        (
            "We signed a lease on a shop. The rent is R6,500, but the foot traffic is better.",
            "Sefa",
            "s",
        ),
    )
    assert "R2,800" not in memory and "R6,500" in memory and "R14,000" in memory
    # (the topic first: "Rent is GH₵1,350" takes the amount said with "rent", not the next one)
    memory = _memory_after(
        (
            "We pay GH₵800 rent for our room in Tafo, and together we earn about GH₵5,900.",
            "Esi",
            "s",
        ),
        ("We moved last weekend. Rent is GH₵1,200 but it's bigger.", "Esi", "s"),
    )
    assert "GH₵800" not in memory and "GH₵5,900" in memory and "GH₵1,200 rent" in memory
    # (after "but" and with "there": "But rent there is $2250")
    memory = _memory_after(
        ("My rent is $1900 a month so I must be careful.", "Esi", "s"),
        ("The landlord sold the plaza, so we moved the shop. But rent there is $2250.", "Esi", "s"),
    )
    assert "$1900" not in memory and "$2250" in memory
    # (after a word that leads in: "Argh, membership is 1,100 …")
    memory = _memory_after(
        ("Membership is 950 a year, courts on Mondays.", "Esi", "s"),
        ("Argh, membership is 1,100, I forgot the locker.", "Esi", "s"),
    )
    assert "950" not in memory and "Membership is 1,100 a year" in memory


def test_a_topics_time_stated_takes_the_line_on_that_topic() -> None:
    """ "Warm-up time is 8:40" (no change word) takes the time of "Warm-up at 8:15, matches
    by noon"; a time of another topic ("Dinner is 7:30 tonight") takes none."""
    older = ["Warm-up at 8:15, matches by noon.", "Lior coaches under-12s."]
    memory = _merged("Lior", older, "Warm-up time is 8:40.").memory
    assert "Warm-up at 8:40, matches by noon." in memory and "8:15" not in memory
    assert "8:15" in _merged("Lior", older, "Dinner is 7:30 tonight.").memory
    # (said "at", and of the plural: "Check-ins are at 9:45" of "The team check-in is at 9:00")
    older = ["The team check-in is at 9:00, before the school run.", "Lior coaches under-12s."]
    memory = _merged("Lior", older, "Check-ins are at 9:45, which suits everyone.").memory
    assert "check-in is at 9:45, before the school run" in memory and "9:00" not in memory


def test_of_two_times_in_a_line_the_change_takes_the_one_of_its_word() -> None:
    """ "I close at 22:30 now" of "Tamar opens at 10 and close at 20:00": the closing time,
    though the speaker's name sits before the opening one ("closes" is "close")."""
    memory = _memory_after(
        ("I open at 10 and close at 20:00, five days a week.", "Tamar", "s"),
        ("The evening crowd is big, so I close at 22:30 now.", "Tamar", "s"),
    )
    assert "opens at 10 and close at 22:30" in memory


def test_a_day_something_starts_is_no_new_weekday_of_a_schedule() -> None:
    """ "From Monday I'm on my own" is a date: the sailing stays on Saturdays."""
    sailing = "Henrik sails with the club on Saturday mornings."
    older = [sailing, "Henrik is a carpenter."]
    memory = _merged("Henrik", older, "From Monday Henrik is working for themselves now.").memory
    assert sailing in memory and "Monday mornings" not in memory


def test_a_thing_being_moved_to_a_day_is_a_change_and_talk_of_moving_is_none() -> None:
    """ "We're moving the meetups to Thursdays" changes the meetups' day (said with
    "moving", not only "moved"); "we keep talking about moving to Porto now" is talk,
    and Braga stays."""
    memory = _memory_after(
        ("I live in Braga. New meetups of my sketch club are every Tuesday.", "Inês", "s"),
        ("Mum and I keep talking about moving to Porto now, the rent is lower.", "Inês", "s"),
        ("And we're moving the meetups to Thursdays, the cafe is quieter.", "Inês", "s"),
    )
    assert "Inês lives in Braga." in memory
    assert "Tuesday" not in memory and "Thursdays" in memory


def test_of_two_days_in_a_line_the_change_takes_the_one_said_after_its_word() -> None:
    """ "Sprints on Mondays, long swim Saturday" then "sprints go to Wednesdays from now on":
    the sprints' day changes, the long swim's stays."""
    memory = _memory_after(
        ("Sprints on Mondays, long swim Saturday. I teach maths.", "Ayasha", "s"),
        ("Timetable changed, so sprints go to Wednesdays from now on.", "Ayasha", "s"),
    )
    assert "Sprints on Wednesdays, long swim Saturday." in memory and "Mondays" not in memory


def test_hours_from_one_time_to_another_replace_the_line_of_such_hours() -> None:
    """ "I start at 6am and finish at 2pm now" of nights "9pm till 5am": the hours are that
    line's, and no time of another line ("gets home around 5:30") is rewritten."""
    older = [
        'Efe, asked "What hours are they on?", answered "Nights, 9pm till 5am".',
        "Efe gets home around 5:30.",
        "Efe is a packer.",
    ]
    merged = _merged("Efe", older, "I'm on earlies, I start at 6am and finish at 2pm now.")
    assert "9pm till 5am" not in merged.memory
    assert "Efe gets home around 5:30." in merged.memory and "around 6am" not in merged.memory


def test_the_last_weekday_of_the_month_is_a_schedule_and_moving_to_it_a_change() -> None:
    """ "Meetings are moving to the last Thursday of the month" takes "the first Tuesday of
    every month"; "last Thursday" alone is a date ("last Thursday we met at the pub")."""
    older = [
        "Diego and others meet the first Tuesday of every month at the library.",
        "Diego teaches.",
    ]
    said = "Meetings are moving to the last Thursday of the month."
    assert _merge("Diego", older, said) == [older[0]]
    assert _merge("Diego", older, "Last Thursday Diego and others met at the pub.") == []
    # (the line is not rewritten into a day nobody said: "the first Thursday")
    assert "first Thursday" not in _merged("Diego", older, said).memory


def test_a_topics_day_stated_is_that_topics_lines_and_one_occasion_is_not() -> None:
    """ "The extra session here is on Sunday mornings" takes the line on the extra session;
    "on Wednesday this week only" is one occasion, no new day."""
    older = [
        "Regular classes on weekdays, plus an extra revision session on Saturday mornings.",
        "Diego teaches maths.",
    ]
    said = "And the extra session here is on Sunday mornings."
    assert _merge("Diego", older, said) == [older[0]]
    once = "The extra session is on Wednesday this week only, because of the holiday."
    assert _merge("Diego", older, once) == []


def test_actually_as_emphasis_after_a_change_is_no_correction_of_the_first_day() -> None:
    """ "moved my cello lessons to Thursday evenings, which actually suits me better" is a
    change of the cello's day, not a correction of the line's first day (parkrun's)."""
    memory = _memory_after(
        (
            "Outside work I do parkrun on Saturdays and take cello lessons on Wednesday evenings.",
            "Priya",
            "s",
        ),
        (
            "My teacher moved my cello lessons to Thursday evenings, which actually suits me better.",
            "Priya",
            "s",
        ),
    )
    assert "parkrun on Saturdays" in memory and "parkrun on Thursday" not in memory, memory
    assert "Wednesday" not in memory, memory


def test_two_days_are_one_value_replaced_whole() -> None:
    """ "practice is Mondays and Thursdays now" of "on Tuesdays and Fridays": both days go,
    not the first alone (which kept "Mondays and Fridays", a day nobody said)."""
    memory = _memory_after(
        ("I also play volleyball for the uni team on Tuesdays and Fridays.", "Aigerim", "s"),
        (
            "volleyball change: we got a new coach and practice is Mondays and Thursdays now",
            "Aigerim",
            "s",
        ),
    )
    assert "volleyball for the uni team on Mondays and Thursdays" in memory, memory
    assert "Fridays" not in memory and "Tuesdays" not in memory, memory


def test_a_new_group_of_the_activity_a_line_opens_with_takes_its_day() -> None:
    """ "Found a new futsal group that plays Wednesdays now": "futsal" qualifies "group", and
    the line "Futsal on Mondays …" is about it, so that line is the one the day changes."""
    older = [
        "Futsal on Mondays with the Umeda Raccoons, that's fixed.",
        "Other nights Kenji just scrolls on their phone honestly.",
        "Kenji works at Kurobune Games.",
    ]
    said = "Kenji found a new futsal group in Shimokitazawa that plays Wednesdays now."
    assert _merge("Kenji", older, said) == [older[0]]


def test_a_day_said_of_no_thing_is_of_the_thing_its_sentence_names() -> None:
    """ "the food bank reorganized their shifts, so I'm on Fridays now": the claim "Dee is on
    Fridays now" names no thing, its sentence does; the food bank's day changes, not the book
    club's "First Monday of the month"."""
    memory = _memory_after(
        (
            "I volunteer at the Community Food Bank every Wednesday, and I run a book club.",
            "Dee",
            "s",
        ),
        ("First Monday of the month, in my living room.", "Dee", "s"),
        (
            "Well, the food bank reorganized their volunteer shifts, so I'm on Fridays now.",
            "Dee",
            "s",
        ),
    )
    assert "Food Bank every Friday" in memory, memory
    assert "Wednesday" not in memory and "First Monday of the month" in memory, memory


def test_a_time_said_with_at_takes_the_place_of_the_time_alone() -> None:
    """ "now it starts at 9" of "tai chi at 7am": "tai chi at 9", never "at at 9"."""
    memory = _memory_after(
        ("My own time is tai chi at 7am in Minoru Park, three mornings a week.", "Mei", "s"),
        ("My tai chi group moved indoors, and now it starts at 9.", "Mei", "s"),
    )
    assert "tai chi at 9 in Minoru Park" in memory and "at at" not in memory, memory


def test_a_day_chosen_is_no_new_name() -> None:
    """ "Tuesdays and Fridays it is." decides a schedule; it renames no team ("coaches … at
    Felsina Volley Navile" keeps its name)."""
    memory = _memory_after(
        ("I coach a volleyball team at Felsina Volley Navile in Bologna.", "Chiara", "s"),
        ("Nice idea, but no. Tuesdays and Fridays it is.", "Chiara", "s"),
    )
    assert "at Felsina Volley Navile" in memory and "at Tuesdays" not in memory, memory


def test_a_schedules_day_and_time_said_anew_together_both_change() -> None:
    """ "practice is now Tuesdays and Fridays at 18:00" of "Mondays and Thursdays at 17:30";
    days listed without "and" are one value too ("tuesday thursday saturday")."""
    memory = _memory_after(
        ("Mondays and Thursdays at 17:30 in a school gym.", "Chiara", "s"),
        (
            "The school needs the gym, so practice is now Tuesdays and Fridays at 18:00.",
            "Chiara",
            "s",
        ),
    )
    assert "Tuesdays and Fridays at 18:00 in a school gym" in memory, memory
    assert "17:30" not in memory and "Mondays" not in memory, memory
    memory = _memory_after(
        ("i stream tuesday thursday saturday from 8pm.", "Marcus", "s"),
        (
            "new job hours run later so the schedule is now friday and sunday from 9pm.",
            "Marcus",
            "s",
        ),
    )
    assert "Marcus streams Friday and Sunday from 9pm." in memory, memory
    assert "Saturday" not in memory and "8pm" not in memory, memory


def test_a_practice_moved_is_no_record_and_its_runner_moves_it_for_the_speaker() -> None:
    """ "practice moved to sundays at 19:00" changes the day and the time ("practice" is no
    "PR": before, the time alone read as a best, and "Wednesdays" stayed); "my yoga teacher
    moved the batch to 7am" moves the speaker's yoga class, the teacher's by its word."""
    memory = _memory_after(
        ("my Dota team Kilu Gaming practices wednesdays at 20:00.", "Siim", "s"),
        ("practice moved to sundays at 19:00.", "Siim", "s"),
    )
    assert "Kilu Gaming practices Sundays at 19:00" in memory, memory
    assert "Wednesdays" not in memory and "20:00" not in memory, memory
    # (by whoever runs it too, who is no other weekly thing: "our captain moved practice …")
    memory = _memory_after(
        ("my Dota team Kilu Gaming practices wednesdays at 20:00.", "Siim", "s"),
        ("our captain moved practice to sundays at 19:00.", "Siim", "s"),
    )
    assert "Kilu Gaming practices Sundays at 19:00" in memory, memory
    memory = _memory_after(
        ("I do a yoga class at 6:30 am near our place in Gachibowli.", "Sanjana", "s"),
        ("also my yoga teacher moved the batch to 7am, so more sleep.", "Sanjana", "s"),
    )
    assert "6:30" not in memory and "Gachibowli" in memory, memory


def test_a_topics_day_and_time_said_anew_change_both() -> None:
    """ "The exchange here is on Mondays at 19:30" of "a language exchange every Wednesday at
    19:00": the day and the time, never Monday at the old time."""
    memory = _memory_after(
        ("I go to a language exchange every Wednesday at 19:00.", "Kaito", "s"),
        ("The exchange here is on Mondays at 19:30, so please update my schedule.", "Kaito", "s"),
    )
    assert "19:00" not in memory and "Wednesday" not in memory, memory


def test_the_day_a_thing_was_renamed_is_no_new_day_of_a_schedule() -> None:
    """ "The airline rebranded on Monday" says when it was renamed: the swim stays on
    Fridays (it had become "Swim is Monday now")."""
    memory = _memory_after(
        ("Pool changed its timetable. Swim is Friday mornings now.", "Einar", "s"),
        ("Also the airline rebranded on Monday. We're Aurora Air now.", "Einar", "s"),
    )
    assert "Swim is Friday mornings now." in memory and "Swim is Monday" not in memory


def test_a_when_said_alone_after_a_thing_moved_is_that_things_new_when() -> None:
    """ "ok so futsal moved, the hall got booked … Thursdays 20:00 now": futsal is on
    Thursdays, in one line; a weekday after "moved" is no place moved to."""
    memory = _memory_after(
        ("Tuesday nights 20:00 is futsal with the guys, never miss it.", "Baurzhan", "s"),
        (
            "ok so futsal moved, the hall got booked on our old night. Thursdays 20:00 now",
            "Baurzhan",
            "s",
        ),
    )
    assert "Futsal is Thursdays 20:00 now." in memory and "Tuesday" not in memory, memory
    memory = _memory_after(
        ("My yoga class is on Mondays.", "Ola", "s"),
        ("The yoga class moved. Wednesdays now!", "Ola", "s"),
    )
    assert "The yoga class is Wednesdays now!" in memory and "moved to Wednesdays" not in memory
    # (after no thing moved, a when alone stays as said)
    memory = _memory_after(("I moved to Leeds. Sundays at 3 now.", "Ola", "s"))
    assert "Sundays at 3 now." in memory and "Leeds is" not in memory, memory


def test_a_new_day_alone_changes_only_a_line_that_says_one() -> None:
    """ "switched my riding to Saturday" says a when: the one line of theirs with no day (a
    van) is no thing of it."""
    memory = _memory_after(
        (
            "commute's fine, and the new-to-me Dacia Dokker is a dream, the boot fits two saddles.",
            "Ottilie",
            "s",
        ),
        (
            "the stables here do lessons on Saturday mornings so I've switched my riding to Saturday.",
            "Ottilie",
            "s",
        ),
    )
    assert "Dokker" in memory, memory
