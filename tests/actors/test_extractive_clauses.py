"""What the extractive path keeps of chat, clause by clause, and what supersedes what.

The sentences are written in the style of the LoCoMo development conversations
(first-person chat with family, pets, work, places and dates), plus the
sequences a user reported: a move must not drop the employer named in the
same sentence, "Actually I moved" must supersede, and a relative's home or a
pet's name is not the user's.
"""

from __future__ import annotations

import pytest

from reverie.actors.consolidation.extractive import extractive_facts
from reverie.store import MessageRecord
from tests.actors.merging import facts_of as _facts
from tests.actors.merging import memory_after as _memory_after

#: (what Carl said, the facts kept), in the order they are kept.
TABLE = [
    (
        "I live in Porto and I work at Acme Robotics.",
        ["Carl lives in Porto.", "Carl works at Acme Robotics."],
    ),
    ("Actually I moved to Berlin last month.", ["Carl moved to Berlin last month."]),
    (
        "I live in Lisbon and work nights at the hospital.",
        ["Carl lives in Lisbon.", "Carl works nights at the hospital."],
    ),
    ("My brother lives in Paris.", ["Carl's brother lives in Paris."]),
    # a subject of two after a comma opens a clause of its own
    (
        "We love it here, Leo and I got a dog.",
        ["Carl and others love it here.", "Carl and Leo got a dog."],
    ),
    # a verb whose "I" was left out, before a name or "one"
    ("Left Pixelworks last month.", ["Carl left Pixelworks last month."]),
    ("Just got a Pixel 9.", ["Carl just got a Pixel 9."]),
    # (any past tense the third person keeps as it is; an age)
    (
        "Quit the deliveries, they were killing me.",
        ["Carl quit the deliveries, they were killing them."],
    ),
    ("Turned 30 on Saturday!", ["Carl turned 30 on Saturday!"]),
    (
        "Found one, moved into a one-bed in Drumcondra.",
        ["Carl found one, moved into a one-bed in Drumcondra."],
    ),
    # (where they live, said with "over" or "out": "Live over in D'Iberville.")
    ("Live over in D'Iberville.", ["Carl lives over in D'Iberville."]),
    # (a state kept up, its "I've" left out; not a time gone by)
    ("been with Plomberie Gagnon 8 years.", ["Carl has been with Plomberie Gagnon 8 years."]),
    # one of theirs named first, then who they are
    ("And Pip, our whippet, needs two walks a day.", ["Carl's whippet Pip needs two walks a day."]),
    ("Anna, my sister, lives in Oslo.", ["Carl's sister Anna lives in Oslo."]),
    # (with "our" before the name: before, the sentence was dropped as nobody's)
    (
        "And our Alfie, my grandson, is moving into the spare room.",
        ["Carl's grandson Alfie is moving into the spare room."],
    ),
    (
        "My dog is called Rex and my cat is called Miso.",
        ["Carl's dog is called Rex.", "Carl's cat is called Miso."],
    ),
    ("I'm a nurse at Santa Maria hospital.", ["Carl is a nurse at Santa Maria hospital."]),
    ("So I started a pottery class in January!", ["Carl started a pottery class in January!"]),
    ("Yeah, I've been vegetarian since 2019.", ["Carl has been vegetarian since 2019."]),
    (
        "I was really scared when we got into the accident in July.",
        ["Carl was really scared when Carl and others got into the accident in July."],
    ),
    (
        "I live in Peckham and go climbing on Wednesdays.",
        ["Carl lives in Peckham.", "Carl goes climbing on Wednesdays."],
    ),
    (
        "Lambing's done, we're at 1,450 head after a good season.",
        ["Carl and others are at 1,450 head after a good season."],
    ),
    ("Wood-fired everything, even the peaches.", []),
    ("Moved to Leeds last week.", ["Carl moved to Leeds last week."]),
    (
        "It's in Salvador, we move at the end of the month.",
        ["Carl and others move to Salvador at the end of the month."],
    ),
    ("Going freelance from next month.", ["Carl is going freelance from next month."]),
    # (a gerund that is the subject of its own verb: no "I'm" was left out)
    (
        "Arriving at work not sweaty is the best thing about the new bike.",
        ["Arriving at work not sweaty is the best thing about the new bike."],
    ),
    (
        "Also got a Framework laptop, repairable and fast.",
        ["Carl got a Framework laptop, repairable and fast."],
    ),
    ("I live in Peckham, can you add that to the page?", ["Carl lives in Peckham."]),
    ("Should I move to Porto, or stay?", []),
    (
        "We practise on Thursdays in the old garage.",
        ["Carl and others practise on Thursdays in the old garage."],
    ),
    (
        "I got the idea from that trip to England a few years ago.",
        ["Carl got the idea from that trip to England a few years ago."],
    ),
    (
        "I don't eat meat, but my wife Ana loves steak.",
        ["Carl doesn't eat meat.", "Carl's wife Ana loves steak."],
    ),
    ("My daughter's birthday is on March 3rd.", ["Carl's daughter's birthday is on March 3rd."]),
    (
        "I'm allergic to peanuts; my son is allergic to shellfish.",
        ["Carl is allergic to peanuts.", "Carl's son is allergic to shellfish."],
    ),
    (
        "I've known these friends for 4 years, since I moved from Brazil.",
        ["Carl has known these friends for 4 years, since they moved from Brazil."],
    ),
    ("Hey, how are you doing today?", []),
    # a state in one word ("Which diet do I follow?"; a passing one is the merge's chatter)
    ("I'm vegetarian.", ["Carl is vegetarian."]),
    ("I'm married.", ["Carl is married."]),
    ("That sounds great, thanks!", []),
    (
        "I love the self-acceptance and love theme of the book.",
        ["Carl loves the self-acceptance and love theme of the book."],
    ),
    ("I painted it because it was calming.", ["Carl painted it because it was calming."]),
    (
        "I'm currently reading The Lean Startup for my business.",
        ["Carl is currently reading The Lean Startup for their business."],
    ),
    ("I always run 10 km on Sundays.", ["Carl always runs 10 km on Sundays."]),
    (
        "My name is Carl Jensen and I teach maths at Lincoln High.",
        ["Carl's name is Carl Jensen.", "Carl teaches maths at Lincoln High."],
    ),
    (
        "I used to go horseback riding with my dad when I was a kid.",
        ["Carl used to go horseback riding with their dad when they were a kid."],
    ),
    (
        "Well, I prefer trains over planes, and my budget is 800 euros.",
        ["Carl prefers trains over planes.", "Carl's budget is 800 euros."],
    ),
    (
        "I joined the Lisbon Runners club and started training for the marathon in October.",
        [
            "Carl joined the Lisbon Runners club.",
            "Carl started training for the marathon in October.",
        ],
    ),
    ("I have two kids, Maya and Leo.", ["Carl has two kids, Maya and Leo."]),
    ("My favourite band is Radiohead.", ["Carl's favourite band is Radiohead."]),
    (
        "I went to the Coldplay concert with Sarah on Friday.",
        ["Carl went to the Coldplay concert with Sarah on Friday."],
    ),
    ("I'll keep pushing and make my dreams come true.", []),
    ("I work as a designer for Figma and I love it.", ["Carl works as a designer for Figma."]),
    ("Btw my husband Tom works at the bank.", ["Carl's husband Tom works at the bank."]),
    (
        "I speak Portuguese and study German at the Goethe Institut.",
        ["Carl speaks Portuguese.", "Carl studies German at the Goethe Institut."],
    ),
    ("I bought a house in Sintra in 2023.", ["Carl bought a house in Sintra in 2023."]),
    (
        "We adopted a puppy named Biscuit last week.",
        ["Carl and others adopted a puppy named Biscuit last week."],
    ),
    # a thing of theirs and someone's: "our" is "their" as "my" is
    (
        "My husband does the school run in our old Skoda.",
        ["Carl's husband does the school run in their old Skoda."],
    ),
    # nobody before the speaker to say "their" of: their first mention is their name
    ("Someone stole my bike outside the gym!", ["Someone stole Carl's bike outside the gym!"]),
    (
        "They promoted me: I'm the head chef now.",
        ["They promoted Carl.", "Carl is the head chef now."],
    ),
    (
        "They're in Kaunas, so my fiancée Rasa and I are moving there.",
        ["Carl and their fiancée Rasa are moving to Kaunas."],
    ),
    (
        "They made me operations manager, I run the whole team now.",
        ["They made Carl operations manager.", "Carl runs the whole team now."],
    ),
    # "my" in apposition opens no clause
    ("Holm Træ, my own workshop.", ["Holm Træ, Carl's own workshop."]),
    (
        "And I gotta feed Brutus too, my pitbull, he eats more than me.",
        ["Carl has to feed Brutus too, their pitbull, he eats more than them."],
    ),
    (
        "Got rid of the old car, now I drive a Chery Tiggo.",
        ["Got rid of the old car, now Carl drives a Chery Tiggo."],
    ),
    (
        "We train on Saturdays at 7 and play league matches on Sundays.",
        [
            "Carl and others train on Saturdays at 7.",
            "Carl and others play league matches on Sundays.",
        ],
    ),
    (
        "Eight years of laminated doughs, plus I'm learning German twice a week.",
        ["Carl is learning German twice a week."],
    ),
    (
        "I work evenings at Hill Brew café and play cricket on Saturdays.",
        ["Carl works evenings at Hill Brew café.", "Carl plays cricket on Saturdays."],
    ),
    ("Baram Airlines hired me!", ["Carl was hired by Baram Airlines!"]),
    # (others doing something to the speaker, whatever the verb; a time the state holds from)
    (
        "Amazing news: they offered me a full-time analyst role!",
        ["They offered Carl a full-time analyst role!"],
    ),
    ("From next month we pay 750 leva.", ["From next month Carl and others pay 750 leva."]),
    # (a state or a number said alone, its "I'm" or "I have" left out; not a greeting)
    ("Officially retired now. Feels strange.", ["Carl is officially retired now."]),
    ("Nine employees now.", ["Carl has nine employees now."]),
    (
        "Live in Westside with my boyfriend Cian.",
        ["Carl lives in Westside with their boyfriend Cian."],
    ),
    ("Three times now.", ["Three times now."]),  # (a count of times is nothing had)
    (  # a title's abbreviation ends no sentence
        "On Monday I start at St. Nicholas Hospital, and I work with Dr. Okafor and M. Lefort.",
        [
            "On Monday Carl starts at St. Nicholas Hospital.",
            "Carl works with Dr. Okafor and M. Lefort.",
        ],
    ),
    (  # a named being of theirs, whatever the verb
        "Our husky Muki got leftover foam on his nose somehow.",
        ["Carl's husky Muki got leftover foam on his nose somehow."],
    ),
    (  # a clause that says when first still has its own subject
        "I handed in my keys on Friday, and on Monday I start as a welder at Dockside Works.",
        [
            "Carl handed in their keys on Friday.",
            "On Monday Carl starts as a welder at Dockside Works.",
        ],
    ),
    # a verb whose "I" was left out, before a gerund or what the speaker became
    ("Started eating meat again after years.", ["Carl started eating meat again after years."]),
    ("Turned vegan last month.", ["Carl turned vegan last month."]),
    (
        "I'm leaving the lab: next month I join Kelp Watch, a small charity.",
        ["Carl is leaving the lab.", "Next month Carl joins Kelp Watch, a small charity."],
    ),
    # what they do next, after "then", is a claim of its own; someone else's is not theirs
    (
        "I paint in Krita on an old Huion, then print at a little shop in Leith.",
        ["Carl paints in Krita on an old Huion.", "Carl prints at a little shop in Leith."],
    ),
    (
        "I work at the bakery till 2, then Maria takes over the till.",
        ["Carl works at the bakery till 2, then Maria takes over the till."],
    ),
    # where they work, said as where they go after, is a claim of its own
    (
        "I train at Gymkhana at 6 every morning before going to work at Access Bank.",
        ["Carl trains at Gymkhana at 6 every morning.", "Carl works at Access Bank."],
    ),
    # a "no" that answers is no word of the claim (before, "No Carl is fine on price")
    ("nah, my Sony is perfect.", ["Carl's Sony is perfect."]),
]


@pytest.mark.parametrize(("said", "facts"), TABLE, ids=[s[:40] for s, _ in TABLE])
def test_each_clause_is_its_own_fact_with_its_subject(said: str, facts: list[str]) -> None:
    turn = MessageRecord(seq=1, id="m", role="user", content=said, ts=0, tokens=1, name="Carl")
    assert [f.text for f in extractive_facts([turn])] == facts


def test_a_move_supersedes_the_home_and_keeps_the_employer() -> None:
    memory = _memory_after(
        ("I live in Porto and I work at Acme Robotics.", "Carl", "s"),
        ("I moved to Lisbon.", "Carl", "s"),
        ("Actually I moved to Berlin last month.", "Carl", "s"),
    )
    assert _facts(memory) == ["Carl works at Acme Robotics.", "Carl moved to Berlin last month."]


def test_a_relative_or_a_pet_is_their_own_subject() -> None:
    memory = _memory_after(
        ("My name is Carl and I live in Porto.", "Carl", "s"),
        ("My brother lives in Paris.", "Carl", "s"),
        ("My dog is called Rex.", "Carl", "s"),
    )
    assert _facts(memory) == [
        "Carl lives in Porto.",
        "Carl's brother lives in Paris.",
        "Carl's dog is called Rex.",
    ]


def test_the_unnamed_user_of_every_session_of_a_scope_is_one_person() -> None:
    memory = _memory_after(
        ("I live in Porto.", None, "s-0"),
        ("My sister lives in Paris.", None, "s-1"),
        ("I moved to Faro.", None, "s-2"),
    )
    assert _facts(memory) == ["The user's sister lives in Paris.", "The user moved to Faro."]


@pytest.mark.parametrize(
    ("question", "reply", "facts"),
    [
        (
            "Sounds fun. What kind of food do you serve?",
            "Wood-fired everything.",
            ['Carl, asked "What kind of food do they serve?", answered "Wood-fired everything"'],
        ),
        (
            "How many guests?",
            "About 120.",
            ['Carl, asked "How many guests?", answered "About 120"'],
        ),
        ("Want me to add walk times?", "Yes please, 7 and 19.", []),
        (
            "New fieldwork sites, then?",
            "Yep, along the Svratka.",
            ['Carl, asked "New fieldwork sites, then?", answered "Yep, along the Svratka"'],
        ),
        (
            "Would you be on your own?",
            "With my cousin Rodrigo.",
            ['Carl, asked "Would they be on their own?", answered "With Carl\'s cousin Rodrigo"'],
        ),
        (
            "What's it called?",
            "Midnight Danfo. It's afrobeats with live horns.",
            [
                'Carl, asked "What\'s it called?", answered "Midnight Danfo. It\'s afrobeats with live horns"'
            ],
        ),
        ("How are you settling in?", "Grand, thanks.", []),
        (  # (every week's day alone answers how often)
            "How often does the choir rehearse?",
            "every Wednesday evening at 7:30.",
            [
                'Carl, asked "How often does the choir rehearse?", answered "Every Wednesday evening at 7:30"'
            ],
        ),
        (  # (a when alone answers a yes or no question, after a "Yes!" too)
            "Will you start a book club there too?",
            "Yes! Sunday afternoons at 2pm, once a month.",
            [
                'Carl, asked "Will they start a book club there too?", answered "Sunday '
                'afternoons at 2pm, once a month"'
            ],
        ),
    ],
)
def test_a_reply_that_only_answers_keeps_its_question(
    question: str, reply: str, facts: list[str]
) -> None:
    """A fragment says something only with the question it answers, and what it goes on to
    say of it ("It's afrobeats …"); a yes/no question answered without naming anything, or a
    reply of pleasantries, makes no fact."""
    turns = [
        MessageRecord(seq=1, id="a", role="assistant", content=question, ts=0, tokens=1),
        MessageRecord(seq=2, id="u", role="user", content=reply, ts=0, tokens=1, name="Carl"),
    ]
    assert [f.text for f in extractive_facts(turns)] == facts


def test_everyday_statements_of_who_and_what_are_kept() -> None:
    """An age after a name is an age ("I am Rosa, 70 years old"), a trade from a place an
    introduction ("Game developer from Oulu here"), and a relative's gift a statement; the
    phone that broke is ended by the one given."""
    memory = _memory_after(("I am Rosa, 70 years old, and I weave textiles in Cusco.", "Rosa", "s"))
    assert _facts(memory)[0] == "Rosa is 70 years old."
    memory = _memory_after(("Game developer from Oulu here.", "Mikko", "s"))
    assert _facts(memory) == ["Mikko works as a game developer.", "Mikko is from Oulu."]
    memory = _memory_after(
        ("My phone is an Alcatel.", "Rosa", "s"),
        ("The phone broke, so my granddaughter gave me a Hisense with big letters.", "Rosa", "s"),
    )
    assert _facts(memory) == [
        "The phone broke.",
        "Rosa's granddaughter gave them a Hisense with big letters.",
    ]
    memory = _memory_after(("My dachshund Bublyk misses me during the day.", "Oksana", "s"))
    assert _facts(memory) == ["Oksana's dachshund Bublyk misses them during the day."]


def test_a_bare_move_is_to_the_place_the_turn_named_before() -> None:
    """ "… a job at Klangwerk in Berlin. Moved last weekend!": the move is to Berlin, and it
    replaces the city said with the old job; a new job in a district ("at a school in
    Bornova") is no move from the city ("Izmir")."""
    memory = _memory_after(
        ("I'm a sound engineer at Havstudio in Bergen.", "Henrik", "s"),
        ("I took a job at Klangwerk in Berlin. Moved last weekend!", "Henrik", "s"),
    )
    assert "Henrik moved to Berlin last weekend!" in _facts(memory) and "Bergen" not in memory
    memory = _memory_after(
        ("I drive a taxi in Izmir and want to learn English.", "Yusuf", "s"),
        ("I'm a driving instructor now at a school in Bornova.", "Yusuf", "s"),
    )
    assert "Yusuf is based in Izmir." in _facts(memory)
    assert "Yusuf drives a taxi." not in _facts(memory)
    # a bare move with nothing before it is to the place the next sentence names
    memory = _memory_after(
        ("I'm a teacher at SD Harapan in Surabaya.", "Budi", "s"),
        ("We have moved. The air in Malang is so cool!", "Budi", "s"),
    )
    assert "Budi and others have moved to Malang." in _facts(memory) and "Surabaya" not in memory
    # (a noun named by the move is none: "moving boxes" are no move to where the turn named)
    said = "We took a flat in Malang, moving crates all over the hallway."
    assert not any("to Malang crates" in f for f in _facts(_memory_after((said, "Budi", "s"))))
    # (nor are people moved by others: "they moved a few of us around" moves nobody's home)
    for moved in ("they moved a few of us around", "they moved me", "the firm moved half of us"):
        said = f"I'm at Hillhead depot now, {moved}."
        memory = _memory_after(("We live in Dennistoun.", "Budi", "s"), (said, "Budi", "s"))
        assert "Dennistoun" in memory and "to Hillhead" not in memory, memory
    # a place named before it in its own clause comes before the next sentence's
    memory = _memory_after(
        (
            "My cousin Rhea got an offer in Bengaluru and is moving next month. I'm happy in Pune.",
            "Arjun",
            "s",
        )
    )
    assert "moving to Bengaluru next month" in memory and "moving to Pune" not in memory


def test_an_employer_taking_the_speaker_on_is_their_employer() -> None:
    """ "Derwent Sparks took me on as …" is who employs them and their trade; a verb whose
    "I" was left out may be any irregular past ("Hung up my apron")."""
    memory = _memory_after(
        ("I'm a barista at Salamanca Grind in Hobart.", "Matilda", "s"),
        (
            "Derwent Sparks took me on as a first-year apprentice electrician. "
            "Hung up my apron on Friday.",
            "Matilda",
            "s",
        ),
    )
    assert "Matilda works at Derwent Sparks." in _facts(memory)
    assert "Matilda works as a first-year apprentice electrician." in _facts(memory)
    assert "Matilda hung up their apron on Friday." in _facts(memory)
    assert "Salamanca Grind" not in memory and "barista" not in memory
    memory = _memory_after(
        ("I work at Pixelworks.", "Maya", "s"), ("Pixelworks let me go last week.", "Maya", "s")
    )
    assert _facts(memory) == ["Maya was let go by Pixelworks last week."]


def test_we_will_and_we_had_are_said_out() -> None:
    """ "we'll" is "will", "we'd been" is "had been", and "a live episode" is no home."""
    memory = _memory_after(
        ("Maybe we'll record a live episode in Brussels one day.", "Vikram", "s"),
        ("We'd been living in Pune for years.", "Vikram", "s"),
    )
    assert _facts(memory) == [
        "Maybe Vikram and others will record a live episode in Brussels one day.",
        "Vikram and others had been living in Pune for years.",
    ]


def test_a_life_event_in_two_words_is_a_fact_and_keeps_the_partner_it_names() -> None:
    """ "Jordan proposed! We're engaged!": the engagement is a fact, and Jordan, named in the
    turn, is still the partner; "We're exhausted!" is a feeling of the moment."""
    memory = _memory_after(
        ("My boyfriend is Jordan.", "Ana", "s"),
        ("Jordan proposed! We're engaged! We're exhausted!", "Ana", "s"),
    )
    assert _facts(memory) == ["Ana's boyfriend is Jordan.", "Ana and others are engaged!"]


def test_an_amount_said_without_its_unit_replaces_the_one_on_the_same_thing() -> None:
    """ "Rent is 9,000 crowns." is a statement though it names nobody; "put the rent up to
    10,500" is a change of it, said without the unit (and not of the stipend's 7,000)."""
    memory = _memory_after(
        ("Rent is 9,000 crowns. My stipend is 7,000 crowns.", "Hana", "s"),
        ("My landlord put the rent up to 10,500 from next month.", "Hana", "s"),
    )
    assert _facts(memory) == [
        "Rent is 10,500 crowns.",  # (the value swapped into the line that held it)
        "Hana's stipend is 7,000 crowns.",
        "Hana's landlord put the rent up to 10,500 from next month.",
    ]


def test_a_team_supported_for_life_is_a_fact() -> None:
    memory = _memory_after(
        ("Football, yes. Arsenal for life, even when they stress me.", "Chidi", "s")
    )
    assert _facts(memory) == ["Arsenal for life, even when they stress Chidi."]


def test_a_pet_named_in_the_next_sentence_is_named() -> None:
    """ "We got the boys a tortoise instead. They named him Gennaro." names the tortoise."""
    memory = _memory_after(
        ("We got the boys a tortoise instead. They named him Gennaro.", "Rosa", "s")
    )
    assert any("tortoise" in f and "Gennaro" in f for f in _facts(memory))
    memory = _memory_after(("Adopted a rescue whippet! His name's Noodle.", "Kiri", "s"))
    assert _facts(memory) == ["Kiri adopted a rescue whippet, his name's Noodle."]


def test_a_new_name_said_without_a_first_person_is_read() -> None:
    """ "From next week the sign says Brasa", "Lanternfall it is": renames, though they name
    nobody."""
    memory = _memory_after(
        ("I run a little restaurant called Candela.", "Mateo", "s"),
        ("Update: we're changing the name. From next week the sign says Brasa.", "Mateo", "s"),
    )
    assert "Candela" not in memory and "called Brasa" in memory
    memory = _memory_after(
        ("I'm making a small indie game at night called Fogwalker.", "Jonas", "s"),
        ("Emberfall is cool but no, Lanternfall it is.", "Jonas", "s"),
    )
    assert "Fogwalker" not in memory and "called Lanternfall" in memory


def test_a_passing_state_said_alone_is_not_memory_and_a_lasting_one_is() -> None:
    for passing in ["I'm fine.", "I'm back!", "I'm so hooked!", "I'm exhausted."]:
        assert "- [" not in _memory_after((passing, "Carl", "s")), passing
    assert "Carl is vegetarian." in _memory_after(("I'm vegetarian.", "Carl", "s"))


def test_someone_moving_the_speaker_to_a_group_is_no_move_of_home() -> None:
    """ "They moved me to their Monday group" moves a class, not a home: the city stays, and
    no line says the speaker lives in themselves."""
    memory = _memory_after(
        ("I live in Inverness. I have a class every Wednesday evening.", "Eilidh", "s"),
        ("They moved me to their Monday online group instead.", "Eilidh", "s"),
    )
    facts = _facts(memory)
    assert "Eilidh lives in Inverness." in facts
    assert not any("in Eilidh" in fact for fact in facts)


def test_a_thing_moved_after_a_move_is_no_move_of_home() -> None:
    """After "I moved to Vake", "I've moved my choir to a hall by the river, Mondays now"
    moves the choir, not the speaker to Vake again, and the rehearsals are on Monday."""
    memory = _memory_after(
        ("I lead a community choir in Tbilisi, we rehearse on Friday evenings.", "Nino", "s"),
        (
            "I moved! Found a flat in Vake. I've moved my choir to a hall by the river, on "
            "Monday evenings now.",
            "Nino",
            "s",
        ),
    )
    facts = _facts(memory)
    assert "Nino and others rehearse on Monday evenings." in facts and "Friday" not in memory
    assert "Nino has moved their choir to a hall by the river, on Monday evenings now." in facts


def test_a_correction_never_rewrites_a_line_said_in_its_own_turn() -> None:
    """ "Tuesday is my daughter's netball. Our training is actually Thursday": the netball is
    on Tuesday, as said in the same breath; the correction is the training's."""
    memory = _memory_after(
        ("Training is Tuesday at 5:30.", "Tevita", "s"),
        (
            "Sorry, mixed that up. Tuesday is my daughter's netball. "
            "Our training is actually Thursday at 5:30.",
            "Tevita",
            "s",
        ),
    )
    facts = _facts(memory)
    assert "Tuesday is Tevita's daughter's netball." in facts
    assert not any("Thursday" in fact and "netball" in fact for fact in facts)
    assert not any("Tuesday" in fact and "raining" in fact for fact in facts)


def test_what_was_done_to_the_speaker_said_without_i_is_theirs() -> None:
    """ "Also got promoted to shift leader at work" is the speaker's, written with their name;
    "Got stuck in traffic" is no fact at all."""
    said = "Moved in with my girlfriend Rasa in Antakalnis. Also got promoted to shift leader."
    facts = _facts(_memory_after((said, "Jonas", "s")))
    assert "Jonas got promoted to shift leader." in facts, facts
    assert _facts(_memory_after(("Got stuck in traffic on the ring road.", "Jonas", "s"))) == []
    # ("Went fully vegan" says what they became; "Went home early" where they went)
    assert _facts(_memory_after(("Went fully vegan last week.", "Jonas", "s"))) == [
        "Jonas went fully vegan last week."
    ]
    assert _facts(_memory_after(("Went home early, so tired.", "Jonas", "s"))) == []
    facts = _facts(_memory_after(("Finished all my exams! Sold our old van too.", "Jonas", "s")))
    assert facts == ["Jonas finished all their exams!", "Jonas sold their old van too."], facts


def test_a_person_with_who_they_are_in_apposition_is_the_one_who_moved() -> None:
    """ "Milos, our drummer, just moved to Split for work": Milos moved, not the speaker, whose
    home stays; "Dunja, my flatmate, …" likewise."""
    for said in [
        "Milos, our drummer, just moved to Split for work, but he'll come back for gigs.",
        "Dunja, my flatmate, moved to Split last week.",
    ]:
        memory = _memory_after(
            ("I live in Zadar. I play bass.", "Ivana", "s"), (said, "Ivana", "s")
        )
        assert "Ivana lives in Zadar." in _facts(memory), said


def test_a_bare_move_before_where_a_group_meets_is_no_move_of_home() -> None:
    """ "The hall is being painted, so we moved. We rehearse at the school in Hareid now": the
    choir moved, the speaker still lives where they did."""
    memory = _memory_after(
        ("I live in Volda and sing in a choir at the church hall.", "Ragnhild", "s"),
        (
            "The hall is being painted, so we moved. We rehearse at the school in Hareid now.",
            "Ragnhild",
            "s",
        ),
    )
    assert "Ragnhild lives in Volda." in _facts(memory)
