"""What is not memory, kept out whichever path wrote it: goodbyes, thanks said, and talk to
the assistant (docs/design.md, "Facts that stay true", step 1)."""

from __future__ import annotations

from tests.actors.merging import facts_of as _facts
from tests.actors.merging import memory_after as _memory_after


def test_talk_to_the_assistant_is_no_fact() -> None:
    """What the assistant is needed for, a proposal to it and its suggestion weighed are talk;
    a move that was a good idea is a move."""
    memory = _memory_after(
        ("Exactly why I need you.", "Carl", "s"),
        ("Let's rebuild the budget with the new salary next time.", "Carl", "s"),
        ("Automating it is a good idea.", "Carl", "s"),
        ("Weirdly I'm relieved.", "Carl", "s"),  # (and a feeling of the moment, after an adverb)
        ("Sorry, I mixed that up.", "Carl", "s"),  # (a mistake owned, with no claim)
        ("I moved to Leeds, which was a good idea.", "Carl", "s"),
    )
    assert _facts(memory) == ["Carl moved to Leeds, which was a good idea."]


def test_thanks_said_is_chatter_and_someone_thanking_is_not() -> None:
    """ "Thanks for the captions!" talks to the assistant; "my back thanks me" is a fact's tail."""
    memory = _memory_after(
        ("Thanks for the captions, they got loads of likes!", "Reka", "s"),
        ("I've started yoga on Monday mornings, my back thanks me.", "Reka", "s"),
    )
    assert _facts(memory) == ["Reka has started yoga on Monday mornings, their back thanks them."]
    # (thanks in words of another language, before what for; not a claim opening with a name)
    memory = _memory_after(
        ("Mil gracias for the gear list, it saved me on Saturday's shoot.", "Reka", "s"),
        ("Shukran for everything, my friend.", "Reka", "s"),
        ("Kasia and I foster cats for the city shelter.", "Reka", "s"),
    )
    assert _facts(memory) == ["Reka and Kasia foster cats for the city shelter."]
    said = "My fiancé Omar is handling the hall, thank God."  # (relief, not thanks)
    assert _facts(_memory_after((said, "Amira", "s"))) == [
        "Amira's fiancé Omar is handling the hall, thank God."
    ]


def test_a_goodbye_is_no_fact() -> None:
    """ "That's all for today, bye!" and "let me go and prepare the lesson" take leave; "I'm swimming
    instead for now" is a fact."""
    memory = _memory_after(
        ("That's all for today, bye! Arigatou, goodbye for now.", "Yuki", "s"),
        ("let me go and prepare the lesson for tomorrow.", "Yuki", "s"),  # (a leave taken)
        ("I'm swimming instead for now.", "Yuki", "s"),
        ("Ha, cheers mate. That's everything for now, ta-ra.", "Yuki", "s"),
    )
    assert _facts(memory) == ["Yuki is swimming instead for now."]


def test_a_feeling_of_the_moment_is_no_fact_and_a_fact_with_one_is() -> None:
    """ "Tomás is so excited" is a feeling and nothing else; "picked up a Nissan Leaf, the
    drummer is thrilled" says what was picked up first."""
    memory = _memory_after(
        ("I'm so excited!", "Eero", "s"),
        (
            "Picked up a used Nissan Leaf, the drummer is thrilled because it has heated seats.",
            "Eero",
            "s",
        ),
    )
    assert _facts(memory) == [
        "Eero picked up a used Nissan Leaf, the drummer is thrilled because it has heated seats."
    ]


def test_a_shrug_is_no_fact_and_leaves_the_fact_it_follows() -> None:
    """ "I'm furious but what can you do" says a feeling; "rent's mad but what can you do"
    after a home keeps the home."""
    memory = _memory_after(
        ("I'm furious but what can you do.", "Cian", "s"),
        ("I live in Westside, rent's mad but what can you do.", "Cian", "s"),
    )
    assert _facts(memory) == ["Cian lives in Westside, rent's mad."]


def test_a_wish_or_greeting_after_a_claim_and_a_funny_thing_before_it_are_cut() -> None:
    """ "…, fingers crossed", "…, cheers", "lmao" and a groan, "ugh", end no claim, and a laugh
    before a comma is none of it ("got moved lol, it's …"), in the languages people laugh in
    too ("jaja", "wkwk"); "Funny thing," opens none;
    "that's it for now, cheers" is a goodbye."""
    memory = _memory_after(
        (
            "I applied for a day-shift porter job at Auckland City Hospital, fingers crossed.",
            "Aroha",
            "s",
        ),
        ("nah that's it for now, cheers.", "Aroha", "s"),
        ("Funny thing, the run club rebranded lmao", "Aroha", "s"),
        ("the rent went up again ugh", "Aroha", "s"),
        ("the te reo class got moved lol, it's Thursdays now", "Aroha", "s"),
        ("jaja the waka ama crew is my second family wkwk", "Aroha", "s"),
    )
    assert _facts(memory) == [
        "Aroha applied for a day-shift porter job at Auckland City Hospital.",
        "The run club rebranded.",
        "The rent went up again.",
        "The te reo class got moved, it's Thursdays now.",
        "The waka ama crew is Aroha's second family.",
    ]


def test_a_laugh_of_any_length_its_tail_and_a_closing_line_are_cut() -> None:
    """ "hahaha as if" and "lol (kidding)" end no claim (before, "hahaha", a laugh of three,
    was kept with the claim); "quick question," opens none; "last thing for now." and "new
    job alert 😅" are no facts, nor is "righto," of a claim; "(husband)" after a name is the speaker's tie, "my" left out."""
    memory = _memory_after(
        (
            "Jun-jun (husband) says he'll buy me an iPhone when he gets his bonus hahaha as if",
            "Carmela",
            "s",
        ),
        (
            "I ride my gogoro there so maybe I'll do flashcards at red lights lol (kidding)",
            "Carmela",
            "s",
        ),
        ("quick question, laptop died for real, screen gone.", "Carmela", "s"),
        ("last thing for now. we moved! we share a place in Lahug now", "Carmela", "s"),
        ("new job alert 😅 first week at Moniepoint done", "Carmela", "s"),
        ("righto, handed in notice and started with NZ Post this week", "Carmela", "s"),
    )
    assert _facts(memory) == [
        "Carmela's husband Jun-jun says he'll buy them an iPhone when he gets his bonus.",
        "Carmela rides their Gogoro there so maybe they'll do flashcards at red lights.",
        "Laptop died for real, screen gone.",
        "Carmela and others moved to Lahug!",
        "Carmela and others share a place in Lahug now.",
        "Carmela handed in notice and started with NZ Post this week.",
    ]


def test_what_is_said_of_the_assistant_and_a_fragment_are_no_facts() -> None:
    """ "I took your advice" and "my nephew put you on my phone" are about the assistant; "For
    the report." is what is left of a sentence; a relative's words about it still say who the
    relative is, and an answer "With my cousin Rodrigo" keeps its question (elsewhere)."""
    memory = _memory_after(
        ("Well, I took your advice. I asked for a raise.", "Ines", "s"),
        ("My nephew put you on my phone last week.", "Ines", "s"),
        ("Sorry, small correction for the report.", "Ines", "s"),
        ("My husband Tiago says my emails are better because of you.", "Ines", "s"),
    )
    assert _facts(memory) == [
        "Ines asked for a raise.",
        "Ines's husband Tiago says their emails are better because of you.",
    ]
    # (the assistant's part before a claim of theirs: the claim is kept, without it)
    memory = _memory_after(("I followed your advice, now I drink only rooibos.", "Ines", "s"))
    assert _facts(memory) == ["Now Ines drinks only rooibos."]
    # (and its part after one: "with two locks like you say" is the bike, less the credit)
    said = "I bought a new bike, a second-hand Gazelle, with two locks like you say."
    assert _facts(_memory_after((said, "Ji-woo", "s"))) == [
        "Ji-woo bought a new bike, a second-hand Gazelle, with two locks."
    ]


def test_a_condition_whose_hedged_main_clause_went_is_no_fact() -> None:
    """ "If I ever get a Toyota Hilux, I could do tours …": the plan is no fact, and neither
    is the condition left of it ("If Sokha ever gets a Toyota Hilux.")."""
    memory = _memory_after(
        ("I pick up guests in my Bajaj tuk-tuk.", "Sokha", "s"),
        ("If I ever get a Toyota Hilux, I could do tours to Bokor mountain too.", "Sokha", "s"),
    )
    assert "Hilux" not in memory and "tuk-tuk" in memory


def test_an_opener_after_an_ellipsis_and_a_reason_cut_from_its_clause_are_no_fact() -> None:
    """ "Also… I quit my job" is the job quit (it ends the employer's line); "since I can work
    from anywhere", cut from "…, Lan and I are moving to Hue", is a reason, no claim, and the
    move, a plan said without a change word, replaces no trade."""
    memory = _memory_after(
        ("I work at Song Hong Travel, a tour agency in Hanoi.", "Mai", "s"),
        ("Also… I quit my job 😳 I'm going freelance as a translator.", "Mai", "s"),
        ("And since I can work from anywhere, Lan and I are moving to Hue next month.", "Mai", "s"),
    )
    assert _facts(memory) == [
        "Mai quit their job 😳.",
        "Mai is going freelance as a translator.",
        "Mai and Lan are moving to Hue next month.",
    ]


def test_a_lead_in_naming_its_topic_is_no_opener_a_lead_in_of_news_is() -> None:
    """ "Larchmont clinic: permit submitted on 15/03" says its claim of what the lead names (a
    name no word of the language; before, the lead was cut as "Quick update:" is, and the
    line said "Permit submitted on 15/03." of nothing); "Work stuff:" names nothing."""
    memory = _memory_after(
        ("Larchmont clinic: permit submitted on 15/03.", "Khadija", "s"),
        ("Work stuff: I'm learning ArchiCAD.", "Khadija", "s"),
    )
    assert _facts(memory) == [
        "Larchmont clinic: permit submitted on 15/03.",
        "Khadija is learning ArchiCAD.",
    ], memory


def test_a_change_opening_with_now_is_the_speakers() -> None:
    """ "I followed your advice, now I drink only water at my desk" (written "Now Kenta
    drinks …") is Kenta's change: it replaces the cola, said by the same verb."""
    memory = _memory_after(
        ("I live in Sendai. I drink three cans of cola at my desk every day.", "Kenta", "s"),
        ("I followed your advice, now I drink only water at my desk.", "Kenta", "s"),
    )
    assert "cola" not in memory and "Now Kenta drinks only water at their desk." in memory
    assert "Kenta lives in Sendai." in memory


def test_a_request_after_please_is_no_fact_and_a_retraction_naming_its_kind_takes_it_back() -> None:
    """ "Please revise the split." asks the assistant and retires nothing; "Please forget what
    I said about the diet" takes back "I have started keto": it names the kind of claim."""
    memory = _memory_after(
        ("We are renovating our flat in Gdynia. I have started keto.", "Ola", "s"),
        ("The real budget is 90,000 zloty. Please revise the split.", "Ola", "s"),
        ("Please forget what I said about the diet. I lasted a week.", "Ola", "s"),
        ("Please note that I'm vegetarian.", "Ola", "s"),
    )
    facts = _facts(memory)
    assert "Ola and others are renovating their flat in Gdynia." in facts
    assert "keto" not in memory and "revise" not in memory and "Ola is vegetarian." in facts


def test_a_thing_done_before_a_dash_is_no_opener_past_its_adverb() -> None:
    """ "Finally changed the van — Ford Transit Custom, second hand" is the van changed: the
    lead before the dash says a thing done, past its adverb (before, it was cut as "Big news
    —" is, and what was left, "Ford Transit Custom, second hand", named nothing of theirs)."""
    memory = _memory_after(
        ("and my van, I charge travel. it's an old Renault Kangoo.", "Greg", "s"),
        ("Finally changed the van — Ford Transit Custom, second hand but clean.", "Greg", "s"),
    )
    assert "Kangoo" not in memory and "changed the van — Ford Transit Custom" in memory, memory


def test_what_the_assistant_is_asked_to_mention_is_the_speakers_claim() -> None:
    """ "and mention I walk in Parc Lafontaine now" asks to write down a claim with "that" left
    out: the claim is the walk, which replaces the old park (before, the sentence was a
    request, and nothing changed)."""
    memory = _memory_after(
        ("I walk groups of max 4 dogs around Parc Jarry.", "Chantal", "s"),
        ("yes, and mention I walk in Parc Lafontaine now, it's huge", "Chantal", "s"),
    )
    assert "Jarry" not in memory and "Chantal walks in Parc Lafontaine now" in memory, memory


def test_what_was_told_to_the_assistant_can_be_taken_back() -> None:
    """ "Please ignore what I told you about the class" says "you" of the assistant only as
    whom it was told to: it takes the class back, and the reason after it stays."""
    memory = _memory_after(
        ("I also joined a pottery class on Thursday evenings.", "Esi", "s"),
        ("Please ignore what I told you about the class, I never actually enrolled.", "Esi", "s"),
    )
    # ("actually" here is emphasis, no correction's cue: it stays)
    assert "pottery" not in memory and "Esi never actually enrolled." in _facts(memory)


def test_a_mistake_owned_with_what_and_why_is_no_fact_and_the_claim_beside_it_is() -> None:
    """ "I got the rent wrong the other day", "misread the email", "confused it with the old
    form", "mixed up the names" and why say only that a correction follows; a claim in the
    same sentence is kept, and a mix that is a deed ("mixed the paint up with water") is one."""
    # (or said wrong, and what it was mixed up with)
    memory = _memory_after(
        ("Sorry, I said the wrong time the other day.", "Sorcha", "s"),
        ("I was mixing it up with my old roster.", "Sorcha", "s"),
    )
    assert _facts(memory) == [], memory
    memory = _memory_after(
        ("I got the rent wrong the other day because I was tired.", "Carl", "s"),
        ("I misread the acceptance email 🙈", "Carl", "s"),
        ("I confused it with the scholarship form.", "Carl", "s"),
        ("I mixed up the names the other day.", "Carl", "s"),
        ("I made a mistake about the pension.", "Carl", "s"),
        ("I was thinking of my uncle.", "Carl", "s"),
        ("I was half asleep when I wrote that.", "Carl", "s"),
        ("I got the date wrong before, the test is on March 21.", "Carl", "s"),
        ("I mixed the paint up with water for the mural.", "Carl", "s"),
    )
    assert _facts(memory) == [
        "Carl got the date wrong before, the test is on March 21.",
        "Carl mixed the paint up with water for the mural.",
    ]


def test_a_feeling_about_a_thing_of_theirs_by_its_name_is_a_fact_of_it() -> None:
    """ "I'm so happy with the photos from the Galaxy S23" says they take photos on a Galaxy
    S23 (which replaces the iPhone they used); "so happy today" is only a feeling."""
    memory = _memory_after(
        ("I take all the listing photos on my iPhone 11, they look a bit grey.", "Ivana", "s"),
        (
            "I'm so happy with the photos from the Galaxy S23, the sea looks blue now 🌊",
            "Ivana",
            "s",
        ),
        ("I'm so happy today.", "Ivana", "s"),
    )
    assert "Galaxy S23" in memory and "iPhone" not in memory and "today" not in memory, memory


def test_help_asked_of_the_assistant_is_no_fact_unless_it_names_one() -> None:
    """ "I need help wrangling my calendar" asks the assistant; "need help w a stream schedule"
    too, typed tersely; "help organising my sister Carla's wedding" still says who Carla is."""
    memory = _memory_after(
        ("I live in Grey Lynn. I need help wrangling my calendar, it's a disaster.", "Aroha", "s"),
        ("need help w a stream schedule that doesn't kill me", "Aroha", "s"),
        ("I'd love some help keeping my rehab organised.", "Aroha", "s"),
        ("I need help organising things for my sister Carla's wedding.", "Aroha", "s"),
    )
    assert _facts(memory) == [
        "Aroha lives in Grey Lynn.",
        "Aroha needs help organising things for their sister Carla's wedding.",
    ]


def test_a_wrong_figure_given_to_the_assistant_is_put_right() -> None:
    """ "Sorry, I gave you the wrong rent figure, it's £210 a month" corrects the rent: saying
    "you" to own up is no talk of the assistant (before, the sentence was dropped as such and
    the old rent stayed); "I gave you the wrong figure." alone claims nothing."""
    memory = _memory_after(
        ("I've taken a space at Feeder Road Works, rent is £180 a month.", "Harriet", "s"),
        ("Sorry, I gave you the wrong rent figure, it's £210 a month.", "Harriet", "s"),
    )
    assert "£180" not in memory and "Feeder Road Works, rent is £210 a month" in memory, memory
    assert _facts(_memory_after(("I gave you the wrong figure.", "Harriet", "s"))) == []


def test_a_cheer_after_a_claim_is_no_part_of_it() -> None:
    """ "man city won 4-0 yesterday lets goo": the cheer ends no claim (before, it stayed in
    the line)."""
    memory = _memory_after(("man city won 4-0 yesterday lets goo", "Sang", "s"))
    assert _facts(memory) == ["Man city won 4-0 yesterday."], memory


def test_a_turn_to_another_topic_is_an_opener() -> None:
    """ "Question, my salary is 35,000 per month", "other thing. gym. i go to solinca …",
    "Off-topic. I live in Haeundae …": what turns to a topic opens the claim and is none of
    it (before, "Question, Halima's salary is …" kept it)."""
    said = "Question, my salary is 35,000 per month, the manager wants me to add 3 more classes."
    assert _facts(_memory_after((said, "Halima", "s")))[0].startswith("Halima's salary is 35,000")
    memory = _memory_after(("perfect. other thing. gym. i go to solinca 6am", "Henrique", "s"))
    assert _facts(memory) == ["Henrique goes to solinca 6am."], memory


def test_happy_with_a_name_is_no_feeling_of_the_moment() -> None:
    """ "But I am happy with Vidéotron, I don't want to bother." says whom they are with:
    before, a feeling in the first clause dropped it, and the provider with it; "I'm so happy
    with how it went" is still a feeling."""
    said = "But I am happy with Vidéotron, I don't want to bother."
    assert "Amélie is happy with Vidéotron." in _facts(_memory_after((said, "Amélie", "s")))
    assert _facts(_memory_after(("I'm so happy with how it went.", "Amélie", "s"))) == []
