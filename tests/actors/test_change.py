"""The golden table of a change said in other words (``change.displaced``, through ``truth.merge``).

Each row: who speaks, the scope's older lines, the new fact (third person, as
the extractive path writes it), and the older line it retires (None: nothing).
The rows are phenomena, not sentences of the development set: a swap, a
schedule moved, a hobby dropped for another, and what must never retire
anything (a plan, a question, a relative's change, another speaker's words,
a line that already names the new value). The real embedder decides.
"""

from __future__ import annotations

import pytest

from reverie.actors.consolidation.truth import merge
from reverie.store import Fact, MessageRecord, render_memory
from tests.actors.merging import facts_of as _facts
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge
from tests.actors.merging import merged as _merged

ROWS = [
    (
        "Ruth",
        ["Ruth plays all the keys on her old Roland synth.", "Ruth works as a pharmacist."],
        "Ruth swapped the old synth for a Korg Minilogue.",
        "Ruth plays all the keys on her old Roland synth.",
    ),
    (
        "Ruth",
        ["Ruth is learning Portuguese in the evenings.", "Ruth lives in Leiden."],
        "Ruth has dropped the language and signed up for Italian classes instead.",
        "Ruth is learning Portuguese in the evenings.",
    ),
    (
        "Omar",
        ["Omar's climbing session is on Monday nights.", "Omar is a baker in Tunis."],
        "From now on the climbing session is on Wednesdays.",
        "Omar's climbing session is on Monday nights.",
    ),
    (
        "Ruth",
        ["Ruth plays all the keys on her old Roland synth.", "Ruth works as a pharmacist."],
        "Ruth might switch to a digital piano one day.",
        None,
    ),
    (
        "Ruth",
        ["Ruth plays all the keys on her old Roland synth.", "Ruth works as a pharmacist."],
        "Ruth's brother swapped his old synth for a new one.",
        None,
    ),
    (  # a change said not to happen
        "Fatima",
        ["Fatima lives in Mohammedia.", "Fatima works as a nurse."],
        "Fatima and others are not moving to Rabat.",
        None,
    ),
    (  # a suggestion declined: "not now" changes nothing
        "Tigist",
        ["Tigist owns a small cafe called Buna Corner in Bole.", "Tigist drives a Suzuki."],
        "Not now, one cafe in Piassa is enough work.",
        None,
    ),
    (
        "Bob",
        ["Alice plays all the keys on her old Roland synth.", "Alice works in Leiden."],
        "Bob swapped the old synth for a Korg Minilogue.",
        None,
    ),
    (
        "Omar",
        ["Omar and others have moved to the early shift.", "Omar is a baker in Tunis."],
        "Omar's colleague Sami's shift just got moved to nights.",
        None,
    ),
    (
        "Lena",
        ["Lena sings in a choir called Blue Notes.", "Lena is a dentist."],
        "Lena and others are the Night Owls now.",
        "Lena sings in a choir called Blue Notes.",
    ),
    (
        "Lena",
        ["Lena's yoga class is at 6:30 before work.", "Lena is a dentist."],
        "Our instructor shifted the yoga class to 7:15.",
        "Lena's yoga class is at 6:30 before work.",
    ),
    (
        "Lena",
        ["Lena rides an old Vespa to the market.", "Lena is a dentist.", "Lena lives in Turin."],
        "The scooter's gone, Lena sold it.",
        "Lena rides an old Vespa to the market.",
    ),
    (  # an old thing given on ends the line of its kind (the embedder knows a ThinkPad)
        "Emre",
        ["Emre's ThinkPad is crying from all the open tabs.", "Emre lives in Kadikoy."],
        "They gave Emre a MacBook Pro, and the old laptop went to their little cousin.",
        "Emre's ThinkPad is crying from all the open tabs.",
    ),
    (  # a thing of a kind no line holds was never in memory: nothing nearer is taken
        "Tomasz",
        [
            "Tomasz works as a plumber.",
            "From Monday Tomasz is their own boss, the company is called Rurex Instalacje.",
            "Tomasz is based in Gdansk.",
        ],
        "Tomasz also sold the old van to their cousin and leased a Renault Master.",
        None,
    ),
    (  # a line's nearness is its nearest word's: "orchestra" beside "cello" is no rival
        "Hyun",
        [
            "Outside work Hyun plays cello in an amateur orchestra.",
            "Hyun is based in Busan.",
            "Hyun works as a marine biologist.",
        ],
        "Hyun sold their instrument, rehearsals clashed with lab hours.",
        "Outside work Hyun plays cello in an amateur orchestra.",
    ),
    (  # a thing that died is no pet: the dog's line stays (two lines name a ute: neither)
        "Losana",
        [
            "Our dog Bobo jumped in the ute this morning.",
            "Losana drives a Ford Ranger ute full of fittings.",
            "Losana lives in Suva.",
        ],
        "Also: The old ute died on Losana.",
        None,
    ),
    (
        "Reka",
        ["Our dog Pamacs got fan comments.", "Reka owns a bakery in Debrecen."],
        "The delivery car finally died on a hill last week.",
        None,
    ),
    (  # a thing up for sale is ended: the line of its make (a person or a place is none)
        "Ploy",
        [
            "Ploy draws everything on a Wacom Cintiq that's older than their nephew.",
            "Ploy's boyfriend Tawan brought them khao soi.",
            "Ploy is based in Chiang Mai.",
        ],
        "The old tablet is up for sale.",
        "Ploy draws everything on a Wacom Cintiq that's older than their nephew.",
    ),
    (  # a place is no make: "the van gave up" is not the bakery in Bristol
        "Amara",
        ["Amara runs a small bakery in Bristol called Rise.", "Amara sings on Sundays."],
        "And the van finally gave up.",
        None,
    ),
    (  # a death is no nearness to a line that says "die" in a figure of speech
        "Giorgos",
        [
            "Giorgos is PAOK till they die.",
            "Giorgos works at Vergina Constructions.",
            "Giorgos lives in Thessaloniki.",
        ],
        "Our little yellow bird died this morning, he was eleven years old.",
        None,
    ),
    (  # the day it keeps is no new day of another line: the hobby changed, not the day
        "Ada",
        [
            "Ada goes to a crochet circle every Thursday.",
            "Ada starts at the new lab on Monday.",
            "Ada is based in Tromsø.",
        ],
        "Ada joined a curling team that plays Thursdays instead.",
        "Ada goes to a crochet circle every Thursday.",
    ),
    (  # a sentence's capital opener is what it is about, not whose: "Badminton has moved"
        "Linh",
        [
            "Tuesday evenings Linh plays badminton with their team, so small talk helps.",
            "Linh is based in Danang.",
            "Linh lives with their mom.",
        ],
        "Badminton has moved to Thursday because the court was double booked.",
        "Tuesday evenings Linh plays badminton with their team, so small talk helps.",
    ),
    (  # a thing ended by a wider kind than its line names: "guitar" for the ukulele
        "Elodie",
        [
            "Elodie owns a flower shop in Nantes.",
            "Elodie is learning the ukulele on the side.",
            "Elodie has a boyfriend, Julien.",
        ],
        "Elodie gave up the little guitar.",
        "Elodie is learning the ukulele on the side.",
    ),
    (  # whose thing ended is its clause's: the bird is no bird of Luca's
        "Rosa",
        [
            "Rosa's sons Marco and Luca built a volcano in the kitchen.",
            "Our canary Pavarotti was not impressed.",
            "Rosa misses the sea.",
        ],
        "Luca is allergic to feathers, so the bird lives with Rosa's aunt now.",
        "Our canary Pavarotti was not impressed.",
    ),
    (  # "Lena's old Vespa" is a thing of hers, not a person ("Lena's coach Jim")
        "Lena",
        ["Lena's old Vespa does the market run.", "Lena is a dentist.", "Lena lives in Turin."],
        "The scooter's gone, sold it.",
        "Lena's old Vespa does the market run.",
    ),
    (
        "Nell",
        ["Nell runs a little bakery called Crumb in Leeds.", "Nell is a baker."],
        "Our new rhubarb tart.",
        None,
    ),
    (
        "Nell",
        ["Nell runs a little bakery called Crumb in Leeds.", "Nell is a baker."],
        "From next week the sign says Rise.",
        "Nell runs a little bakery called Crumb in Leeds.",
    ),
    (
        "Nell",
        ["Nell runs a little bakery called Crumb in Leeds.", "Nell is a baker."],
        "Our day off is Wednesday from now on.",
        None,
    ),
    (
        "Bo",
        ["Bo runs sheep on a farm outside Dubbo, about 1,200 head.", "Bo is a farmer."],
        "Bo and others are at 1,450 head after a good season.",
        "Bo runs sheep on a farm outside Dubbo, about 1,200 head.",
    ),
    (
        "Ines",
        ["Ines's old cat Tigre needs pills every morning.", "Ines is a dentist."],
        "Ines's old boy died on Sunday, he was seventeen.",
        "Ines's old cat Tigre needs pills every morning.",
    ),
    (
        "Thao",
        ["Thao's husband Minh does the deliveries on an old Honda.", "Thao sells ceramics."],
        "Minh sold the motorbike.",
        "Thao's husband Minh does the deliveries on an old Honda.",
    ),
    (
        "Thao",
        ["Thao rides a Honda to the market.", "Thao's husband Minh is a chef in a hotel."],
        "Minh sold his motorbike.",
        None,
    ),
    (
        "Kofi",
        [
            "Kofi rolls to the station in an old Ford pickup with a cooler in the back.",
            "Kofi made lieutenant.",
            "Kofi feeds Brutus twice a day.",
        ],
        "Kofi traded the pickup in for a Rivian.",
        "Kofi rolls to the station in an old Ford pickup with a cooler in the back.",
    ),
    (
        "Bo",
        ["Bo's kelpie Nugget does most of the work.", "Bo runs sheep.", "Bo drives a ute."],
        "Bo's old dog passed last week, fifteen years on the farm.",
        "Bo's kelpie Nugget does most of the work.",
    ),
    (
        "Dilan",
        ["Dilan's Acer laptop is slow.", "Dilan studies chemistry.", "Dilan works at a café."],
        "Dilan got a Chuwi laptop, cheap but runs Python fine.",
        "Dilan's Acer laptop is slow.",
    ),
    (
        "Dilan",
        ["Dilan rides a Gazelle bike to work.", "Dilan studies chemistry."],
        "Dilan got a new bike helmet.",
        None,
    ),
    (  # (a new name is of a line holding a name: not of one holding days only)
        "Dilan",
        ["Dilan's shifts are Mondays and Tuesdays, the rota is brutal.", "Dilan is 30."],
        "Dilan is on the Ward 7 rota now.",
        None,
    ),
    (  # (an amount moved is of a line holding an amount, not of one that shares a word)
        "Dilan",
        ["Dilan runs a juice stall called Green Cup, mostly mango and ginger.", "Dilan is 30."],
        "From Monday the mango smoothie goes up to 18 lira.",
        None,
    ),
    (  # (a thing to get, when something else happens: no change yet)
        "Dilan",
        ["Dilan rides a Gazelle bike to work.", "Dilan studies chemistry."],
        "Might visit the coast once Dilan has got the cargo bike.",
        None,
    ),
    (
        "Oksana",
        ["Oksana is Ukrainian, living in Kraków.", "Oksana is an accountant."],
        "Oksana lived in Kharkiv until 2022.",
        None,
    ),
    (
        "Yusuf",
        ["Yusuf's car is a Fiat Egea, white.", "Yusuf drives a taxi."],
        "Yusuf drove a truck in Germany in the nineties.",
        None,
    ),
    (
        "Nadia",
        [
            "Nadia does her drawings on a ThinkPad that's getting painfully slow with big models.",
            "Nadia is an architect.",
            "Nadia is based in Rabat.",
        ],
        "Nadia bought a new laptop, an ASUS ProArt.",
        "Nadia does her drawings on a ThinkPad that's getting painfully slow with big models.",
    ),
    (  # a pet gone to live elsewhere: the line naming its kind, never the home's
        "Kiri",
        ["Kiri is based in Napier.", "Kiri's partner Ana says the dog is the boss, Bruno's ours."],
        "The dog's gone to live with Ana's parents out west, heaps more room to run.",
        "Kiri's partner Ana says the dog is the boss, Bruno's ours.",
    ),
    (  # the thing left, apart from why: its clause alone is what ended
        "Ewa",
        ["Ewa is a nurse in Gdynia.", "Ewa plays in a brass band on Tuesdays."],
        "Ewa left the wind band, the new director shouts at everyone.",
        "Ewa plays in a brass band on Tuesdays.",
    ),
    (
        "Bo",
        ["Bo records the podcast on Saturday mornings.", "Bo drives an old Datsun."],
        "Bo picked up a Chery Tiggo yesterday.",  # ("yesterday" is no kind: the make is)
        "Bo drives an old Datsun.",
    ),
    (
        "Jonas",
        [
            "Jonas codes on a Dell XPS that sounds like a jet engine when he compiles.",
            "Jonas is a programmer.",
            "Jonas lives in Kaunas.",
            "Jonas's fiancée Rasa is a nurse.",
        ],
        "Moved, unpacked, and Jonas's old laptop finally died.",
        "Jonas codes on a Dell XPS that sounds like a jet engine when he compiles.",
    ),
    (
        "Maya",
        ["Maya is based in Haifa.", "Maya teaches yoga."],
        "Maya and others moved everything to a courtyard in Akko.",
        None,
    ),
    (
        "Diego",
        ["Diego and others are calling the garage Taller Sur.", "Diego is a mechanic."],
        "Diego is full time at Taller Sur now.",
        None,
    ),
    (  # a state already over ("as a teenager … lived") is history: no change retires it
        "Ingrid",
        [
            "As a teenager Ingrid lived in Bergen, and it rained so much they barely saw snow.",
            "Ingrid is coeliac, so strictly gluten-free.",
        ],
        "After Ingrid wrecked their knee they gave up the winter trails completely.",
        None,
    ),
    (  # a thing said to be over ends the line that names it, its day too
        "Kwame",
        ["Kwame wants to get fitter and eat better.", "Kwame plays five-a-side every Saturday."],
        "Saturday football is over for Kwame.",
        "Kwame plays five-a-side every Saturday.",
    ),
    (  # a pet rehomed, said in the present tense
        "Kwame",
        ["Our dog Bingo gets more exercise than Kwame.", "Kwame's wife Efua is the cook at home."],
        "Kwame had to rehome our dog with Kwame's uncle on his farm.",
        "Our dog Bingo gets more exercise than Kwame.",
    ),
    (  # a wider kind, given up on ("the strings" for the guitar)
        "Mateo",
        ["Mateo is learning guitar at night.", "Mateo works as an accountant."],
        "Mateo has given up on the strings, their fingertips hurt too much.",
        "Mateo is learning guitar at night.",
    ),
    (  # a thing that ended is the one its values name: Sunday barbecues are no futsal
        "Hamid",
        ["Futsal on Wednesdays with guys from work.", "Hamid sits at a desk all day."],
        "Our Sunday barbecues are over.",
        None,
    ),
    (
        "Hamid",
        ["Futsal on Wednesdays with guys from work.", "Barbecues with Farid on Sundays."],
        "Our Sunday barbecues are over.",
        "Barbecues with Farid on Sundays.",
    ),
    (  # a suggestion is no state: the food truck of Addis stays
        "Hirut",
        [
            "Hirut runs a coffee and sambusa food truck in Addis Ababa called Tizita.",
            "Hirut has two sons.",
        ],
        "A friend suggested Hirut opens a second truck in Hawassa.",
        None,
    ),
    (  # a home rented is a move: the town, not the trade near it in meaning ("the park")
        "Kalani",
        ["Kalani works as a park ranger.", "Kalani lives in Hilo."],
        "Kalani is renting a cottage in Kurtistown now, way closer to the park.",
        "Kalani lives in Hilo.",
    ),
    (  # someone of theirs ended something: the line of that someone (a supervisor retired)
        "Aigerim",
        ["Aigerim's supervisor is Professor Bekov.", "Aigerim studies glaciers in Almaty."],
        "Aigerim's supervisor retired last week, so now Aigerim works with Dr. Ospanova.",
        "Aigerim's supervisor is Professor Bekov.",
    ),
    (  # a change that names what it changed from: the line naming it, whatever else it holds
        "Lia",
        ["Lia is doing a pottery course on Mondays.", "Lia works as a nurse on Mondays."],
        "Lia switched from pottery to a watercolour class, still Mondays.",
        "Lia is doing a pottery course on Mondays.",
    ),
    (  # a thing switched whole by its noun: the one line naming it
        "Kofi",
        ["Kofi is doing a first-year geology module with the Open University.", "Kofi is a guard."],
        "Kofi switched their module to statistics, the old one wasn't clicking.",
        "Kofi is doing a first-year geology module with the Open University.",
    ),
    (  # a transfer is within the employer: a ward, a branch, a programme
        "Nomvula",
        ["Nomvula works at Umgeni Bay Hospital.", "Nomvula works as a nurse."],
        "Nomvula transferred to the oncology unit this week.",
        None,
    ),
    # a thing of a kind is not a noun it qualifies: "a camera shop" holds no camera
    (
        "Ines",
        ["Ines has a small camera shop in Braga.", "Ines shoots on an old Pentax camera."],
        "Ines picked up a Fujifilm X-T5 from a friend, the old camera went to their niece.",
        "Ines shoots on an old Pentax camera.",
    ),
    # a new name is weighed against lines holding a name: not a line of an amount
    (
        "Priya",
        ["Priya sells candles on Etsy.", "Shipping costs Priya 4 pounds a parcel."],
        "Priya switched the shop over to Shopify, shipping is simpler.",
        None,
    ),
    (
        "Lars",
        ["Lars streams on Twitch.", "Lars earns about 300 a month from subscribers."],
        "Lars switched to Kick this month, better cut for subscribers.",
        None,
    ),
]


@pytest.mark.parametrize(("speaker", "older", "new", "retired"), ROWS)
def test_a_change_retires_the_speakers_nearest_line_or_nothing(
    speaker: str, older: list[str], new: str, retired: str | None
) -> None:
    assert _merge(speaker, older, new) == ([retired] if retired else [])


def test_the_old_thing_traded_in_is_named_by_its_noun_not_by_old() -> None:
    """ "Traded in the old 12 … walked out with a 14": "old" is no kind of thing, so no line
    of the speaker's is taken for the thing that ended by meaning alone (it took the age)."""
    older = ["Maya is 31.", "Maya's phone is an iPhone 12.", "Maya lives in Manchester."]
    said = "Maya traded in the old 12 at the Apple Store and walked out with a 14."
    assert "Maya is 31." not in _merge("Maya", older, said)


def test_a_turn_changes_a_thing_once_though_two_of_its_clauses_say_it() -> None:
    """ "I've switched roles at Pixelworks, I'm a UX researcher now, no more graphic design":
    the first clause retires the trade; the second, nearest that same line, takes no other
    (it took the employer)."""
    said = "Big news: I've switched roles at Pixelworks, I'm a UX researcher now, no more design."
    turn = MessageRecord(seq=9, id="m9", role="user", content=said, ts=1.8e9, tokens=9, name="Maya")
    older = [
        "Maya works as a graphic designer.",
        "Maya works at Pixelworks.",
        "Maya lives in Leeds.",
    ]
    memory = render_memory(
        [Fact(text=t, date="2026-01-01", sources={"s": [f"m{i}"]}) for i, t in enumerate(older)]
    )
    new = [
        Fact(text=t, date="2026-01-02", sources={"s": ["m9"]})
        for t in [
            "Maya has switched roles at Pixelworks.",
            "Maya is a UX researcher now, no more graphic design.",
        ]
    ]
    merged = merge(memory, new, 2000, lambda t: len(t.split()), turns=[turn])
    assert [f.text for f in merged.retired] == [older[0]]


def test_what_one_turn_says_stands_together() -> None:
    """ "Our bassist quit, so I switched to bass": both clauses are true, neither replaces
    the other."""
    turn = MessageRecord(seq=9, id="m9", role="user", content="", ts=1.8e9, tokens=9, name="Lena")
    said = ["Our bassist quit.", "Lena switched to bass."]
    facts = [Fact(text=t, date="2026-01-02", sources={"s": ["m9"]}) for t in said]
    merged = merge("", facts, 2000, lambda t: len(t.split()), turns=[turn])
    assert merged.retired == [] and all(t in merged.memory for t in said)
    # what a turn ends is older than what it starts, whichever is merged first
    said = ["Sofie starts at Fjord Creative.", "Sofie quit the studio."]
    facts = [Fact(text=t, date="2026-01-02", sources={"s": ["m9"]}) for t in said]
    merged = merge("", facts, 2000, lambda t: len(t.split()), turns=[turn])
    assert "Sofie starts at Fjord Creative." in merged.memory


def test_a_thing_written_in_lower_case_elsewhere_is_no_person() -> None:
    """ "Hockey's Sunday nights now" after "plays hockey on Tuesday nights": hockey is no
    one, so the change is the speaker's; a name with an accent is a name ("Étienne …")."""
    older = ["Étienne plays beer-league hockey on Tuesday nights.", "Étienne is a sound engineer."]
    memory = _merged("Étienne", older, "Hockey's Sunday nights this season, new league.").memory
    assert "Étienne plays beer-league hockey on Sunday nights." in memory
    intro = _merged("Étienne", [], "Étienne is a sound engineer at Studio Boréal in Montreal.")
    assert "Étienne is based in Montreal. <!--" in intro.memory
    # "Practice" opens the sentence but is written nowhere as a name: the speaker's practice
    older = ["Mateo and others practise Thursdays in a garage.", "Mateo plays a cheap Giannini."]
    memory = _merged("Mateo", older, "Practice moved to Saturdays, the garage is free then.")
    assert "Mateo and others practise Saturdays in a garage." in memory.memory


def test_a_change_naming_nobody_never_rewrites_a_relatives_line() -> None:
    """ "The boxes are unpacked in Baner" is the speaker's home, never their cousin's: the
    cousin's move to Bangalore stays as it was said."""
    cousin = "Priya's cousin Arjun just moved to Bangalore for work."
    older = [cousin, "Priya lives in Kothrud.", "Priya is a manager."]
    merged = _merged("Priya", older, "The boxes are finally unpacked in Baner.")
    assert cousin in merged.memory and "Arjun just moved to Baner" not in merged.memory


def test_a_new_employer_or_partner_is_never_written_into_the_old_line() -> None:
    """The old line's words describe the old one ("a small clinic called Pazur", "boyfriend
    Leo"): the new one stands in its own words ("First week at Animalia done." as where Aga
    works now), the old line goes to history."""
    clinic = "Aga works at a small clinic called Pazur, and fosters cats."
    memory = _merged("Aga", [clinic, "Aga is a vet nurse."], "First week at Animalia done.").memory
    assert "small clinic called" not in memory and "Aga works at Animalia." in memory
    home = "Maya lives in Manchester with her boyfriend Leo."
    memory = _merged("Maya", [home], "Maya's girlfriend Priya is coming over tonight.").memory
    assert "boyfriend Priya" not in memory


def test_a_quoted_answer_is_never_rewritten() -> None:
    """What someone answered stays what they answered: a correction retires it, it does not
    put new words in their mouth."""
    quote = 'Grace, asked "How many guests?", answered "140 guests"'
    memory = _merged("Grace", [quote], "Correction: the couple says 180.").memory
    assert '"180 guests"' not in memory and "180" in memory
    # (nor a review quoted between single quotes: the guest wrote $18)
    review = "'Great value at $18 a night, but the wifi was slow.' Rooms are fan rooms."
    memory = _merged("Sokha", [review], "Sokha added air-con, so a room is $22 a night now.").memory
    assert "'Great value at $22" not in memory and "$22" in memory


def test_what_any_line_shares_is_no_evidence_of_the_thing_that_changed() -> None:
    """Nearness counts what two lines are about: not the speaker's own name ("… Sione's
    nephew" is not near "… surprised Sione") nor a size ("the little guitar" is not the
    "little flower shop")."""
    gift = "Ana surprised Sione for their birthday with a Kamaka, a real Hawaiian one!"
    older = ["Sione's wife Ana sings.", gift, "Sione drives buses for Harbourline."]
    assert gift not in _merge("Sione", older, "The old one went to Sione's nephew.")
    shop = "Elodie owns a little flower shop in Nantes called Verdure."
    older = [shop, "Elodie is also learning the ukulele on the side, so they'll practise."]
    assert shop not in _merge("Elodie", older, "Elodie gave up the little guitar.")


def test_a_thing_sold_ends_its_own_line_only() -> None:
    """ "Sold my car" ends the car: not a truck driven in the nineties (a state already
    over), nor the school the same sentence names."""
    car = "Emre's car is a Fiat Egea, white."
    older = [car, "Emre drove a truck in Germany in the nineties.", "Emre works at a school."]
    assert _merge("Emre", older, "Emre sold their car, the school gives them a Togg.") == [car]


def test_someone_named_by_a_common_noun_changes_only_their_own_things() -> None:
    """ "A colleague just moved to Lisbon", "A colleague broke up with his girlfriend": the
    colleague's news, never the speaker's rent, home or partner."""
    rent = "Rafa pays 2,100 reais a month for a one-bedroom in Água Verde."
    older = [rent, "Rafa lives in Curitiba.", "Rafa's girlfriend is Ana.", "Rafa is a developer."]
    for said in [
        "A colleague just moved to Lisbon and pays double.",
        "A colleague broke up with his girlfriend.",
        "Someone from the gym sold his car and quit his job.",
    ]:
        assert _merge("Rafa", older, said) == [], said


def test_a_thing_replaced_by_its_kind_takes_the_line_of_its_make() -> None:
    """ "Finally replaced my car" ends the line with the Polo (a make of car, the embedder
    knows)."""
    polo = "Quick breakfasts Thandi can eat in their Polo on the way."
    older = [polo, "Thandi is based in Durban.", "Thandi's best friend Lerato moved to Cape Town."]
    assert _merge("Thandi", older, "Finally replaced Thandi's car.") == [polo]


def test_the_past_said_in_passing_changes_nothing() -> None:
    """ "Before Rosa moved back here she taught in Turin" is her past, not a move now."""
    trip = "Two weeks in Sardinia in August."
    older = [trip, "Rosa is a teacher.", "Rosa is based in Naples."]
    said = "Before Rosa moved back here they taught in Turin for three years."
    assert _merge("Rosa", older, said) == []


def test_a_change_of_a_shared_plan_names_what_else_changed() -> None:
    """ "We moved everything to Akko, and the date is now the 21st": the plan made with her
    fiancé is the speaker's too, and a change naming a new place besides the new date is
    not written into the old line (no "Caesarea … on the 21st")."""
    venue = "Maya's fiancé Noam and Maya booked a venue in Caesarea on the 14th of September."
    said = "Maya and others moved everything to a courtyard in Akko, and the date is now the 21st."
    merged = _merged("Maya", [venue, "Maya teaches yoga."], said)
    assert [f.text for f in merged.retired] == [venue]
    assert "Caesarea" not in merged.memory


def test_a_habit_stopped_is_named_by_its_kind() -> None:
    """ "I've stopped the coffee" ends the iced americano (a coffee, by meaning); "dropped
    the girls off at school" ends nothing."""
    older = "I usually grab an iced americano on the way to the office."
    memory = _memory_after((older, "Ji-woo", "s"), ("I've stopped the coffee btw.", "Ji-woo", "s"))
    assert "americano" not in memory
    memory = _memory_after(
        ("I have two daughters.", "Tomás", "s"),
        ("Dropped the girls off at school and went straight back to bed.", "Tomás", "s"),
    )
    assert "Tomás has two daughters." in memory


def test_what_is_said_of_a_thing_named_is_not_what_changed() -> None:
    """ "found a new roaster, Koro Island Coffee, grown an hour from Suva": the change is of
    the roaster; where its beans grow says nothing of where the speaker lives."""
    memory = _memory_after(
        ("I run a tea stall in Suva.", "Mere", "s"),
        (
            "Also we found a new roaster, Koro Island Coffee, grown just an hour from Suva 🌱 "
            "and cheaper too.",
            "Mere",
            "s",
        ),
    )
    assert "Mere is based in Suva." in _facts(memory)


def test_someone_doing_a_thing_for_the_speaker_now_takes_the_place_of_the_one_who_did() -> None:
    """ "Auntie Rosa helps every morning now" takes the place of "Iva's nephew Marko helps
    them" (he stays their nephew, a line of its own); helping too takes no one's place."""
    older = ["Iva's nephew Marko helps them.", "Iva sells burek at the market."]
    merged = _merged("Iva", older, "Auntie Rosa from the next street helps every morning now.")
    assert [f.text for f in merged.retired] == [older[0]]
    assert "Iva's nephew is Marko." in merged.memory
    assert _merge("Iva", older, "Auntie Rosa helps every morning too.") == []
    assert _merge("Iva", older, "Auntie Rosa helps every morning now as well.") == []
