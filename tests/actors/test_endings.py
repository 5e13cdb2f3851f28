"""A thing of the speaker's that ended (``signals.ending``, ``change.displaced``, through
``truth.merge``): it retires the line naming it, and gives no value of its sentence to
that line (docs/design.md, "Facts that stay true")."""

from __future__ import annotations

from reverie.actors.consolidation.modifiers import is_modifier
from tests.actors.merging import facts_of as _facts
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge
from tests.actors.merging import merged as _merged


def test_a_course_finished_ends_its_line_and_work_finished_nothing() -> None:
    """ "Finished the Excel course" ends the course; "finished work at 6" is a day's end."""
    older = [
        "Mere is doing a night course in Excel at the Harbour Skills Centre on Mondays.",
        "Mere works at the front desk of the Kauri Hotel.",
    ]
    assert _merge("Mere", older, "Mere finished the Excel course.") == [older[0]]
    assert _merge("Mere", older, "Mere finished work at 6 and went home.") == []


def test_a_thing_stopped_is_named_by_the_last_noun_and_keeps_no_new_day() -> None:
    """ "Stopped my art class, now I do pottery on Sundays" ends the line with a class (its
    noun is "class", not "art"), and Sunday is pottery's: it is written into no old line."""
    older = [
        "After school, Noor's watercolour painting class on Saturday morning, a treat.",
        "Noor teaches Year 2.",
    ]
    said = "Noor stopped their art class, now they do pottery on Sunday afternoons."
    merged = _merged("Noor", older, said)
    assert [f.text for f in merged.retired] == [older[0]]
    assert "Noor teaches Year 2. <!--" in merged.memory
    assert "Sunday afternoon, a treat" not in merged.memory


def test_a_thing_said_with_how_often_is_the_thing_and_ends_by_its_noun() -> None:
    """ "has shamisen lessons twice a month": "lessons" is the thing, not a qualifier of
    "twice", so "stopped the lessons" ends it (before, nothing ended)."""
    older = ["Setsuko has shamisen lessons twice a month.", "Setsuko lives in Kanazawa."]
    assert _merge("Setsuko", older, "Setsuko stopped the lessons.") == [older[0]]


def test_a_thing_swapped_for_another_ends_and_exams_finished_end_their_study() -> None:
    """ "Swapped the climbing for a running club on Thursdays" ends the climbing line (it
    does not take Thursday); "Finished all my exams!" ends the studying for them."""
    older = ["Abebe climbs at Entoto on Tuesday evenings.", "Abebe is a pharmacist."]
    said = "Abebe swapped the climbing for a running club on Thursday evenings."
    merged = _merged("Abebe", older, said)
    assert [f.text for f in merged.retired] == [older[0]]
    assert "Entoto on Thursday" not in merged.memory
    older = ["Abebe is studying for ACCA part-time, exams in June.", "Abebe is a pharmacist."]
    assert _merge("Abebe", older, "Abebe finished all their exams!") == [older[0]]


def test_a_pet_adopted_by_others_ends_and_one_adopted_by_them_begins() -> None:
    """ "My foster dog got adopted!!" ends the foster's line; "adopted a retired greyhound"
    is a new pet, and a sister's cat adopted is hers."""
    older = ["Kiri is fostering a dog called Biscuit for the shelter.", "Kiri is a barista."]
    assert _merge("Kiri", older, "Kiri's foster dog got adopted!!") == [older[0]]
    assert _merge("Kiri", older, "Kiri adopted a retired greyhound!") == []
    assert _merge("Kiri", older, "Kiri's sister's dog got adopted.") == []


def test_a_pet_living_with_someone_else_now_has_left_the_speaker() -> None:
    """ "Ines's pup is living with her sister in Tavira now" ends the line of her dog; her
    sister living with someone is no pet's news."""
    older = ["Ines's dog Bolacha chews the sofa.", "Ines lives in Faro."]
    said = "Ines's pup is living with her sister in Tavira now, the flat doesn't allow dogs."
    assert _merge("Ines", older, said) == [older[0]]
    assert _merge("Ines", older, "Ines's sister is living with her boyfriend in Tavira now.") == []


def test_a_pet_named_before_its_breed_in_an_answer_goes_when_its_kind_does() -> None:
    """ "The dog went to live with my nephew" ends the answer that named a beagle, its name
    first ("Walking Bolacha, Ines's beagle"); not a line of a relative's beagle."""
    older = [
        'Ines, asked "Anything else daily?", answered "Walking Bolacha, Ines\'s beagle, twice a day".',
        "Ines lives in Faro.",
    ]
    said = "Sad news, the dog went to live with my nephew in Tavira."
    assert _merge("Ines", older, said) == [older[0]]
    relative = ["Ines's sister walks Bolacha, Marta's beagle, every day.", older[1]]
    assert _merge("Ines", relative, said) == []


def test_a_thing_left_is_named_by_its_kind_in_a_name_too_and_a_room_left_ends_nothing() -> None:
    """ "Left the old club" ends the line at "Otter Swimming Club"; "finally left the tiny
    bedsit" names no line's thing, and retires nobody's studies by a make's meaning."""
    older = [
        "Priya swims with the Otter Swimming Club on Tuesday evenings.",
        "Priya is doing a PhD in hydrology at the University of Leeds.",
    ]
    assert _merge("Priya", older, "Priya left the old club last month.") == [older[0]]
    assert _merge("Priya", older, "Priya finally left the tiny bedsit.") == []


def test_a_place_of_work_being_left_ends_its_line_and_a_thought_of_leaving_does_not() -> None:
    """ "I'm leaving the bakery" ends the line at a bakery; "thinking of leaving the bakery"
    is a plan and ends nothing."""
    older = ["Kofi works as a baker at a bakery in Kumasi.", "Kofi plays the drums."]
    assert _merge("Kofi", older, "Kofi is leaving the bakery.") == [older[0]]
    assert _merge("Kofi", older, "Kofi is thinking of leaving the bakery.") == []


def test_a_pet_retired_to_another_home_ends_its_line() -> None:
    """ "The dog has retired to my parents' farm": the dog lives elsewhere now."""
    older = ["Ana's old dog Rex sleeps all day.", "Ana works at a bakery."]
    said = "Rex is too stiff for walks now, so the dog has retired to Ana's parents' farm."
    assert _merge("Ana", older, said) == [older[0]]


def test_an_old_thing_that_ended_is_the_one_thing_the_speaker_owns_by_name() -> None:
    """The embedder knows few makes ("Infinix Hot" is no nearer "phone" than a city is), but
    the old thing that ended is the speaker's one line owning a thing by its name, however
    the ending is said; with two such lines, or no old or new one said, nothing goes."""
    older = ["Dayo's Infinix Hot dies by noon every day.", "Dayo works as a nurse in Ikeja."]
    for said in (
        "Dayo finally retired that old phone. Pixel 8 now, the battery lasts all day.",
        "The clinic gave Dayo a Galaxy A35, the old phone is retired.",
        "The old phone was too slow, so Dayo sold it.",
        "Dayo has given the old phone to their nephew.",
    ):
        assert _merge("Dayo", older, said) == [older[0]], said
    assert _merge("Dayo", older, "Dayo's boss retired last week.") == []
    assert _merge("Dayo", older, "Dayo sold a bike at the market.") == []
    two = [*older, "Dayo drives their Toyota Vitz to work."]
    assert _merge("Dayo", two, "Dayo finally retired that old phone.") == []
    # (or the one it rides in: "in the Saab")
    sven = ["Sven may drive down in the Saab this summer.", "Sven lives in Uppsala."]
    said = "Sven and others traded their old estate car for a small Kia Niro hybrid."
    assert _merge("Sven", sven, said) == [sven[0]]


def test_a_thing_that_ended_said_before_the_ending_by_it() -> None:
    """ "And the old car was too tired, so I sold it." is the old car sold: the sentence
    opens with the thing, not the speaker, and is kept all the same."""
    memory = _memory_after(
        ("My Toyota Vitz is making a noise again.", "Kojo", "s"),
        ("And the old car was too tired, so I sold it.", "Kojo", "s"),
    )
    assert "Vitz" not in memory and "Kojo sold the old car" in memory


def test_a_pet_given_a_new_home_and_a_new_supervisor_end_the_old_ones() -> None:
    """ "We found our cat a new home with my aunt" ends the cat's line; "Prof. Esposito is my
    new supervisor" ends the line naming the old one (someone else's new boss does not)."""
    older = ["Margo's cat Tartine needs a sitter, he's fussy.", "Margo is a translator."]
    assert _merge("Margo", older, "Margo found their cat a new home with their aunt.") == [older[0]]
    older = ["Margo's supervisor, Prof. Rossi, wants results first.", "Margo lives in Pisa."]
    assert _merge("Margo", older, "Prof. Bassi is Margo's new supervisor.") == [older[0]]
    assert _merge("Margo", older, "Prof. Bassi is Ana's new supervisor.") == []


def test_a_dog_gone_to_live_elsewhere_is_the_one_named_by_its_breed() -> None:
    """ "My little dog went to live with my son" ends "Dolly's dachshund Biscuit …" (the
    embedder knows a dachshund is a dog), and not the line of a friend named the same way."""
    memory = _memory_after(
        (
            "I have water aerobics on Monday mornings. My dachshund Biscuit is barking at "
            "the mailman while I type this.",
            "Dolly",
            "s",
        ),
        ("My dear friend Marge moved into assisted living in Phoenix.", "Dolly", "s"),
        (
            "And I made a hard decision. My little dog was too strong on the leash for my hip, "
            "so he went to live with my son in Marana.",
            "Dolly",
            "s",
        ),
    )
    assert "Biscuit" not in memory and "Marge" in memory
    # (or called by its name after its breed: "with a lazy dachshund called Noodle")
    memory = _memory_after(
        ("I live in Tucson with a lazy dachshund called Noodle.", "Dolly", "s"),
        ("The dog went to live with my daughter, she has a yard.", "Dolly", "s"),
    )
    assert "Noodle" not in memory and "Tucson" in memory
    # (buried, or taken to live elsewhere; not taken to the vet)
    for said, gone in [
        ("My dad took the dog to his farm in Bisbee, more room to run.", True),
        ("We buried the dog under the lemon tree on Sunday.", True),
        ("I took the dog to the vet, he has a cough.", False),
    ]:
        memory = _memory_after(
            ("My dog Noodle naps all day. I live in Tucson.", "Dolly", "s"), (said, "Dolly", "s")
        )
        assert ("Noodle" not in memory) is gone, said


def test_a_thing_cancelled_ends_the_line_of_its_make() -> None:
    """ "I cancelled my old magazine" ends "… my Reader's Digest …" (the embedder knows what
    a Reader's Digest is), and the tablet stays."""
    memory = _memory_after(
        ("My granddaughter set up this app on my iPad for me.", "Dolly", "s"),
        ("I'll sit with my Reader's Digest and a cup of tea.", "Dolly", "s"),
        (
            "I cancelled my old magazine, the print was too small. Now I get Guideposts.",
            "Dolly",
            "s",
        ),
    )
    assert "Digest" not in memory and "iPad" in memory


def test_a_pet_put_to_sleep_is_gone() -> None:
    older = ["Tomasz's old dog Burek comes out on the boat.", "Tomasz is a fisherman."]
    said = "Tomasz and others had to put their old dog to sleep yesterday."
    assert _merge("Tomasz", older, said) == [older[0]]
    assert _merge("Tomasz", older, "Tomasz put the kids to sleep early.") == []


def test_a_pet_that_left_takes_only_its_clause() -> None:
    """The rabbit went to live on a farm: the dog in the same line stays."""
    line = "Ines's dog Rufo steals the bed and chases our rabbit Nube."
    merged = _merged("Ines", [line, "Ines is a dentist."], "The rabbit went to live on a farm.")
    assert [f.text for f in merged.retired] == [line]
    assert "Ines's dog Rufo steals the bed. <!--" in merged.memory and "Nube" not in merged.memory


def test_a_pet_taken_back_or_taken_by_someone_is_gone() -> None:
    """ "My gran took the rabbit back to her house" and "my uncle took the parrot, he has an
    aviary" end the pet's line; "my uncle took the tram" is no pet's."""
    older = ["Wiremu's rabbit Kūmara chews the cables.", "Wiremu lives in Rotorua."]
    for said in [
        "Wiremu's gran took the rabbit back to her house, it's calmer there.",
        "Wiremu's uncle took the rabbit, he has a big garden.",
    ]:
        assert _merge("Wiremu", older, said) == [older[0]], said
    assert _merge("Wiremu", older, "Wiremu's uncle took the tram.") == []


def test_a_thing_stolen_is_told_with_the_words_a_theft_is_told_with() -> None:
    """ "Somebody pinched my scooter" is a theft as "stole" is: the one thing of theirs owned
    by its name ends, whatever the thief's verb; a verb of no theft ends nothing."""
    older = ["Oisin rides their Vespa to the bakery.", "Oisin bakes sourdough for a living."]
    for verb in ("stole", "nicked", "pinched", "swiped"):
        said = f"Somebody {verb} Oisin's scooter outside the gym."
        assert _merge("Oisin", older, said) == [older[0]], said
    assert _merge("Oisin", older, "Somebody parked Oisin's scooter outside the gym.") == []


def test_a_thing_wrecked_by_someone_else_is_the_speakers_ended() -> None:
    """ "someone ran a red light and totaled Jada's car": the car a line names by its make ends
    (before, the verb of a wreck was not read first, and another's act ended nothing); "Jada's
    brother totaled his car" is his."""
    older = ["Jada drives their old Civic to campus.", "Jada lives in Columbus."]
    said = "Someone ran a red light and totaled Jada's car."
    assert _merge("Jada", older, said) == [older[0]]
    assert _merge("Jada", older, "Jada's brother totaled his car on the highway.") == []


def test_a_pet_gone_to_live_with_someone_ends_and_a_person_gone_there_does_not() -> None:
    """ "The cat's gone to my aunt's" and "the dog has moved in with my parents" end the
    pet's line; a sister who moved in with them ends nothing."""
    older = ["Tamsin has a cat, Luna, who hates being alone.", "Tamsin works at a garden centre."]
    said = "The cat's gone to Tamsin's aunt's, Dad's allergic."
    assert _merge("Tamsin", older, said) == [older[0]]
    older = [
        "Tamsin has a dog, Bramble, who steals socks.",
        "Tamsin works at a garden centre.",
        "Tamsin lives in Truro with their partner.",
    ]
    said = "The dog has moved in with Tamsin's parents in Penzance."
    assert _merge("Tamsin", older, said) == [older[0]]
    assert _merge("Tamsin", older, "Tamsin's sister has moved in with Tamsin's parents.") == []


def test_a_pet_sent_or_given_to_someone_ends_the_one_they_live_with_and_nothing_else() -> None:
    """Each one they live with is a claim of its own, so "the dog went to my parents farm" or
    "we had to give the cat to my mum" ends the pet's line and leaves the home and the family
    (as one line, it had stayed, or the home went with it)."""
    older = [
        "Tomasz lives in Wrzeszcz.",
        "Tomasz lives with their wife Marta.",
        "Tomasz lives with their dog Burek.",
    ]
    said = "The dog went to Tomasz's parents farm near Kartuzy."
    assert _merge("Tomasz", older, said) == [older[2]]
    memory = _memory_after(
        (
            "I live in Kilimani with my husband Kamau, our two boys, and a cat called Pilipili.",
            "Wanjiru",
            "s",
        ),
        ("Sad news though: we had to give the cat to my mum in Nyeri.", "Wanjiru", "s"),
    )
    assert "Pilipili" not in memory and "Kilimani" in memory and "Kamau" in memory, memory
    assert "two boys" in memory, memory


def test_a_thing_switched_by_its_kinds_plural_ends_the_one_of_that_kind() -> None:
    """ "Switched gyms" ends the gym they had, named by its make alone ("a Snap Fitness
    membership": the embedder knows it is a gym), not the classes they go to."""
    older = [
        "Tunde has a Snap Fitness membership.",
        "Tunde goes for strength classes twice a week.",
    ]
    assert _merge("Tunde", older, "Tunde switched gyms.") == [older[0]]


def test_a_thing_binned_thrown_out_or_gone_off_has_ended() -> None:
    """ "Binned the old trainers" ends the shoes they answered with ("Pegasus"), as "chucked
    out" or "threw away" would; "gone off the caffeine stuff" ends the coffee they lived on."""
    shoes = 'Nerea, asked "What shoes are they training in?", answered "Pegasus, the old ones".'
    older = [shoes, "Nerea basically lives on coffee during nights.", "Nerea lives in Bilbao."]
    for said in [
        "Nerea binned the old trainers, got Novablast now.",
        "Nerea chucked out the old trainers.",
        "Nerea threw away the old trainers.",
    ]:
        assert _merge("Nerea", older, said) == [shoes], said
    said = "Nerea has gone off the caffeine stuff, it makes them jittery."
    assert _merge("Nerea", older, said) == [older[1]]


def test_a_compound_ending_in_a_lines_noun_is_another_thing() -> None:
    """ "My headphones broke" ends no phone: a thing whose name ends with a line's noun
    ("head" + "phones") is another kind, however near the embedder puts the two words."""
    older = ["Maya's phone is an iPhone 12.", "Maya lives in Manchester.", "Maya is 31."]
    said = "Maya's headphones broke so they're stuck listening to the office playlist."
    assert _merge("Maya", older, said) == []


def test_a_noun_before_a_preposition_is_the_thing_itself() -> None:
    """ "Lives on coffee during nights" holds coffee ("during" qualifies nothing, as "in" or
    "at" do not), so "gone off the coffee" ends it."""
    older = ["Nerea basically lives on coffee during nights.", "Nerea lives in Bilbao."]
    assert _merge("Nerea", older, "Nerea has gone off the coffee.") == [older[0]]
    assert not is_modifier("lives on coffee during nights", len("lives on coffee"))


def test_an_adverb_after_the_opener_is_no_one_who_ended_it() -> None:
    """ "Oh and: Weirdly Nerea has gone off the caffeine stuff" is Nerea's ending: "Weirdly", after
    words that only open the sentence, names no one (as "Only" opening it names no one)."""
    older = ["Nerea basically lives on coffee during nights.", "Nerea lives in Bilbao."]
    said = "Oh and: Weirdly Nerea has gone off the caffeine stuff, it makes them jittery."
    assert _merge("Nerea", older, said) == [older[0]]


def test_a_kinds_plural_in_es_or_ies_is_read_as_its_one() -> None:
    """ "Switched coaches" is one coach for another, as "switched agencies" is one agency:
    the plural is read back to its noun, not to "coache" or "agencie", which no line holds."""
    older = ["Nerea's club coach is Josu.", "Nerea's recruitment agency is Randstad."]
    said = "Nerea switched coaches, training with Garazi now."
    assert _merge("Nerea", older, said) == [older[0]]
    assert _merge("Nerea", older, "Nerea switched agencies, with Hays now.") == [older[1]]


def test_the_one_they_report_to_now_is_their_new_boss() -> None:
    """ "I report to Fontana now" ends the line naming their boss; a sister's boss is hers."""
    older = ["Margo's boss Rinaldi wants reports on Fridays.", "Margo lives in Pisa."]
    assert _merge("Margo", older, "Margo reports to Fontana now, she's the new director.") == [
        older[0]
    ]
    assert _merge("Margo", older, "Margo's sister reports to Fontana now.") == []


def test_a_thing_someone_else_sold_or_gave_away_ends_nothing_of_the_speakers() -> None:
    """The one who sells is the one whose thing ends: "The landlord sold the house" leaves
    the speaker's home, "Iva's cousin sold his old phone" their phone; the speaker's own
    sale, with or without their name before it, ends the line."""
    older = ["Iva lives in a house in Split.", "Iva has an old Nokia."]
    assert _merge("Iva", older, "The landlord sold the house.") == []
    assert _merge("Iva", older, "Good news: a neighbour gave away the old phone.") == []
    assert _merge("Iva", older, "Iva's cousin sold his old phone.") == []
    assert _merge("Iva", older, "News: Iva sold the old phone.") == [older[1]]
    assert _merge("Iva", older, "Finally sold the old phone.") == [older[1]]
    # (what the sentence says after another's sale is still the speaker's change)
    band = ["Iva's band rehearses in a garage in Split.", *older]
    said = "The garage owner sold the house, so now Iva's band rehearses in Zadar."
    assert _merge("Iva", band, said) == [band[0]]


def test_a_pet_buried_has_died() -> None:
    """ "We buried the hamster on Sunday" ends the line with the hamster, as "died" would; a
    thing buried somewhere by a relative ("Iva's dad buried the old safe") ends nothing."""
    older = ["Iva's kids keep talking to the hamster Biscuit.", "Iva lives in Split."]
    assert _merge("Iva", older, "We buried the hamster on Sunday, the kids were so sad.") == [
        older[0]
    ]
    assert _merge("Iva", older, "Iva's dad buried the old safe in the garden.") == []


def test_the_other_one_gone_to_a_relative_is_the_pet_not_the_one_just_got() -> None:
    """ "We have a tortoise now, Lenteur, because my son is allergic to cats, so the other one
    went to my aunt": the cat's line goes, the tortoise is new."""
    older = ["The cat Gribouille sleeps on Fatou's code book.", "Fatou lives in Ouakam."]
    said = (
        "Fatou and others have a tortoise now, Lenteur, because Fatou's son is allergic to "
        "cats, so the other one went to their aunt."
    )
    assert _merge("Fatou", older, said) == [older[0]]


def test_someone_new_found_for_a_role_that_is_being_left_takes_its_place() -> None:
    """ "The childminder is retiring in June 😢 we've found someone new, Nuala" retires the
    line of the childminder they had; someone new with no role left replaces nobody."""
    older = ["Sorcha's childminder Bernie has them till 3.", "Sorcha drives for Dublin Bus."]
    memory = _memory_after(
        ("My childminder Bernie has them till 3.", "Sorcha", "s"),
        (
            "Bit of upheaval, the childminder is retiring in June 😢 we've found someone new, "
            "Nuala, she's lovely.",
            "Sorcha",
            "s",
        ),
    )
    assert "Bernie" not in memory and "Nuala" in memory, memory
    assert (
        _merge("Sorcha", older, "Sorcha and others found someone new, Nuala, for the choir.") == []
    )


def test_a_group_left_or_joined_by_its_kind_is_no_job_and_a_membership_is_its_group() -> None:
    """ "Quit my old dance class" ends the class, not the job; "cancelled my gym membership"
    the gym a line names (no line holds a membership), not the line nearest "membership";
    "joined Ledgehouse, a climbing gym" is no new employer."""
    older = [
        "Linh works at Lotus Pixel, a branding studio in Saigon.",
        "K-pop dance class Thursday 7pm, and feeding Linh's cat Mochi on time.",
    ]
    assert _merge("Linh", older, "Linh quit their old dance class.") == [older[1]]
    older = [
        "Marc goes to Gym Le Phare on Mondays and Wednesdays after their shift.",
        "Marc will supervise the crews now, more meetings and less sitting in a truck.",
    ]
    said = "Marc cancelled their gym membership, the place was always packed."
    assert _merge("Marc", older, said) == [older[0]]
    older = [
        "First week at Tandem Health done, remote-first, nice people.",
        "Tyler is paying $45/month for IronWorks gym and barely goes.",
    ]
    said = "Tyler finally cancelled the gym and joined Ledgehouse, a climbing gym."
    assert _merge("Tyler", older, said) == [older[1]]


def test_what_started_after_an_ending_is_not_what_ended() -> None:
    """ "Left the school kitchen and now I cook at Taverna Thalassa in Messini": the line of
    the school canteen ends, not the olive groves outside Messini, though the new place's
    name and town are said; "since the divorce I've been having tea instead of my flat white"
    ends the marriage and the coffee both."""
    older = [
        "Eleni and others have olive groves outside Messini, mostly Koroneiki trees.",
        "In the mornings Eleni also cooks at the primary school canteen.",
    ]
    said = "Eleni left the school kitchen and now they cook at Taverna Thalassa in Messini."
    assert _merge("Eleni", older, said) == [older[1]]
    older = ["Tomás drinks a flat white every morning.", "Tomás is married to Lucía."]
    said = "Since the divorce Tomás has been having tea in the mornings instead of a flat white."
    assert sorted(_merge("Tomás", older, said)) == sorted(older)


def test_a_being_lost_or_put_down_ends_the_pet_and_lost_keys_nothing() -> None:
    """ "We lost our dog last week" and "we had to put Biscuit down" end the pet (the end is
    its own cue); "lost my keys" ends nothing, "lost my job" the employer."""
    older = ["Siobhan has a dog called Biscuit.", "Siobhan works at Acme."]
    assert _merge("Siobhan", older, "Siobhan lost their dog last week.") == [older[0]]
    # (said of "the" old one too: "we lost the old dog on Sunday")
    assert _merge("Siobhan", older, "Siobhan and others lost the old dog on Sunday.") == older[:1]
    said = "Siobhan had to put Biscuit down on Thursday, the house feels so empty."
    assert _merge("Siobhan", older, said) == [older[0]]
    assert _merge("Siobhan", older, "Siobhan lost their keys on Monday.") == []
    assert _merge("Siobhan", older, "Siobhan lost their job on Monday.") == [older[1]]


def test_a_job_lost_ends_the_employer_and_keeps_the_trade() -> None:
    """ "I got laid off", "my studio laid off half of us, me included": the speaker's
    employer line goes, their trade stays; a brother laid off ends nothing of theirs."""
    older = ("I work as a QA tester at Frostline Games. I live in Columbus.", "Marcus", "s")
    for said in (
        "I got laid off last week.",
        "bad news, my studio laid off half of us, me included.",
    ):
        memory = _memory_after(older, (said, "Marcus", "s"))
        assert "Frostline" not in memory and "QA tester" in memory, memory
    memory = _memory_after(older, ("My brother got laid off last week.", "Marcus", "s"))
    assert "works at Frostline Games" in memory, memory


def test_an_event_cancelled_ends_its_line() -> None:
    """ "The fair's been cancelled" ends "doing the Cork Christmas craft fair"; a sister's
    wedding cancelled ends nothing of the speaker's."""
    fair = (
        "I'm doing the Cork Christmas craft fair in December, my first big one.",
        "Saoirse",
        "s",
    )
    memory = _memory_after(fair, ("The fair's been cancelled, the venue flooded.", "Saoirse", "s"))
    assert "Cork" not in memory, memory
    memory = _memory_after(fair, ("My sister's wedding got cancelled.", "Saoirse", "s"))
    assert "Cork Christmas craft fair" in memory, memory


def test_a_thing_that_ended_is_never_what_someone_is() -> None:
    """ "sold my old camera body and got a Lumix S5": "Diego works as a photographer" holds no
    camera, though the embedder puts the words near."""
    memory = _memory_after(
        (
            "I'm Diego, a photographer in Mexico City, mostly food and editorial stuff.",
            "Diego",
            "s",
        ),
        ("I sold my old camera body and got a Lumix S5.", "Diego", "s"),
    )
    assert "Diego works as a photographer" in memory, memory


def test_a_job_left_by_where_it_was_ends_the_employer() -> None:
    """ "handed in my notice at the hospital" ends "works nights … at riverside hospital"
    (however it is typed); a sister's notice ends nothing of the speaker's."""
    job = ("i also work nights as a pharmacy tech at riverside hospital.", "Priya", "s")
    said = (
        "i handed in my notice at the hospital, starting at oakwood pharmacy on the 1st.",
        "Priya",
        "s",
    )
    assert "riverside" not in _memory_after(job, said)
    sister = ("My sister handed in her notice at the hospital.", "Priya", "s")
    assert "riverside hospital" in _memory_after(job, sister)


def test_a_thing_left_by_its_noun_ends_the_line_naming_it_in_another_language() -> None:
    """ "we left the cooperative" ends "sells everything to the Cooperativa El Molino"."""
    older = ["Rodrigo sells everything to the Cooperativa El Molino.", "Rodrigo milks 85 cows."]
    assert _merge("Rodrigo", older, "Rodrigo and others left the cooperative.") == [older[0]]


def test_an_old_thing_worn_out_ends_the_line_naming_its_kind_and_tired_legs_nothing() -> None:
    """ "The old shoes are dead after 700 km" ends the answer that named the shoes; "my legs
    are dead" is tiredness and ends no line."""
    older = [
        "Haruka runs with the Yodogawa Runners club.",
        'Haruka, asked "What shoes are they using?", answered "Asics Novablast".',
    ]
    assert _merge("Haruka", older, "The old shoes are dead after 700 km.") == [older[1]]
    assert _merge("Haruka", older, "The old tractor is finished.") == []
    legs = ["Haruka runs in Asics Novablast shoes, and their legs are strong."]
    assert _merge("Haruka", legs, "Haruka's legs are dead after the long run.") == []


def test_a_group_said_again_with_fewer_names_retires_the_line_naming_more() -> None:
    """ "We've only got Dolly and Marge now" after "three hens at home, Dolly, Marge and
    Bunty": the line naming Bunty goes; a line naming none more stays."""
    older = [
        "Priya also keeps three hens at home, Dolly, Marge and Bunty.",
        "Priya lives in Leicester.",
    ]
    said = "Priya and others have only got Dolly and Marge now."
    assert _merge("Priya", older, said) == [older[0]]
    assert _merge("Priya", older, "Priya is down to Dolly.") == [older[0]]
    for said in ["Priya only sees Dolly now.", "Priya only got home now."]:
        assert _merge("Priya", older, said) == [], said


def test_a_business_closed_for_good_ends_its_line_and_closed_for_a_while_nothing() -> None:
    """ "My bakery closed for good" ends the line of the bakery they deliver to, amid other
    news; closed for the holidays, or on Mondays, is no end."""
    older = [
        "Oskar delivers eggs every week to a bakery in Lund called Vete & Råg.",
        "Oskar's van is an old Citroën Berlingo.",
        "The hens' club lost the village hall, it meets in the school gym on Fridays now.",
    ]
    for ended in [
        "Oskar's bakery closed for good, the baker retired.",
        "Oskar's bakery shut down.",
    ]:
        assert _merge("Oskar", older, ended) == [older[0]], ended
    for not_ended in [
        "Oskar's bakery closed for the holidays.",
        "Oskar's bakery is closed on Mondays.",
    ]:
        assert _merge("Oskar", older, not_ended) == [], not_ended


def test_a_make_traded_in_a_home_moved_from_and_a_rent_in_its_currency_change_apart() -> None:
    """ "traded in the Perodua and drove home a Proton X50" ends the Myvi's line; the keys to
    a new unit elsewhere end the old condominium's line with its rent (no rent of the old
    home goes to the new one); "The rent is RM 3,600." is the rent, its currency before it."""
    said = [
        "Rent for our condominium in Bangsar is RM 3,200. The instalment on my Perodua Myvi "
        "is RM 550. My husband Hafiz covers groceries.",
        "Over the weekend I traded in the Perodua and drove home a Proton X50.",
        "An update: we collected the keys to our new unit in Damansara Heights on Sunday. "
        "The rent is RM 3,600.",
    ]
    memory = _memory_after(*((text, "Farah", "s") for text in said))
    assert not any(word in memory for word in ("Myvi", "Bangsar", "3,200")), memory
    assert "Damansara Heights" in memory and "RM 3,600" in memory
    assert "Farah's husband Hafiz covers groceries." in _facts(memory)


def test_a_thing_ended_by_its_name_retires_the_line_naming_it() -> None:
    """ "binned Notion", "left Rappi last month", "the Bajaj was stolen", "the Bancolombia
    account is closed": the line naming it goes (before, a name said with no kind's noun
    ended nothing); "dropped Younes at work", a breakdown and a brother's leaving end nothing."""
    older = [
        "Yasmin keeps all their notes in Notion.",
        "Yasmin does orders on Rappi.",
        "Yasmin rides a Bajaj Boxer.",
        "Yasmin banks with Bancolombia.",
        "Yasmin lives in Mississauga.",
    ]
    for said, gone in (
        ("Yasmin binned Notion last week.", older[0]),
        ("Yasmin left Rappi last month.", older[1]),
        ("The Bajaj was stolen.", older[2]),
        ("The Bancolombia account is closed.", older[3]),
    ):
        assert _merge("Yasmin", older, said) == [gone], said
    for said in (
        "Yasmin dropped Younes at work.",
        "The Bajaj broke down on the highway.",
        "Yasmin's brother left Rappi.",
    ):
        assert _merge("Yasmin", older, said) == [], said
