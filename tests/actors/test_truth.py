"""The one merge both paths pass (``truth.merge``): keys, prefix, retired, chatter."""

from __future__ import annotations

import re

import pytest

from reverie.actors.consolidation.extractive import merge_new_facts
from reverie.actors.consolidation.truth import merge
from reverie.store import Fact, MessageRecord, parse_memory, render_memory
from tests.actors.merging import memory_after
from tests.actors.merging import merge_retired as _merge
from tests.actors.merging import merged as _merged


def _words(text: str) -> int:
    return len(text.split())


def _turn(text: str, id: str = "m9") -> MessageRecord:
    return MessageRecord(seq=9, id=id, role="user", content=text, ts=1.8e9, tokens=9, name="Carl")


OLD = [
    Fact(text="Carl has a dog called Rex.", date="2026-01-01", sources={"s": ["m1"]}),
    Fact(text="Carl lives in Porto.", date="2026-01-01", sources={"s": ["m2"]}),
    Fact(text="Carl plays chess.", date="2026-01-01", sources={"s": ["m3"]}),
]


def test_a_superseded_line_goes_and_the_lines_before_it_stay_byte_for_byte() -> None:
    memory = render_memory(OLD)
    new = Fact(text="Carl moved to Lisbon.", date="2026-01-02", sources={"s": ["m4"]})

    merged = merge(memory, [new], 10_000, _words, turns=[_turn("I moved to Lisbon.", "m4")])

    before = memory.split("- [2026-01-01] Carl lives in Porto.")[0]
    assert merged.memory.startswith(before)
    assert "Porto" not in merged.memory and merged.memory.endswith(new.line() + "\n")
    assert merged.retired == [OLD[1]] and merged.added == [new]


def test_facts_cut_by_the_token_cap_are_not_retired() -> None:
    new = Fact(text="Carl speaks Portuguese and English.", date="2026-01-02")

    merged = merge(render_memory(OLD), [new], 20, _words, turns=[])

    assert "Rex" not in merged.memory and merged.retired == []


def test_a_model_s_pleasantry_is_dropped_by_the_merge() -> None:
    said = [Fact(text=t) for t in ("Nice to meet you, Carl!", "Carl is Carl.", "Sounds good.")]

    assert merge_new_facts("", said, 10_000, _words) == ""
    said = [Fact(text=t) for t in ("Bis bald, Greta!", "Ngiyabonga for all the help!")]
    assert merge_new_facts("", said, 10_000, _words) == ""
    moved = [Fact(text="Moved to Cork, Ireland!")]  # a place, not someone addressed
    assert "Cork" in merge_new_facts("", moved, 10_000, _words)


def test_an_opener_is_cut_and_read_as_a_correction() -> None:
    party = Fact(text="Carl's party is on Friday at 8 pm.", date="2026-01-01")
    fix = Fact(text="Small correction: it's at 7 pm.", date="2026-01-02")

    merged = merge(render_memory([party]), [fix], 10_000, _words, turns=[_turn(fix.text)])

    assert "Carl's party is on Friday at 7 pm." in merged.memory
    assert "correction" not in merged.memory.lower() and merged.retired == [party]


def test_an_interjection_before_a_change_is_an_opener() -> None:
    """ "Also, surprise, they promoted me to head chef!": the promotion, read without its
    interjection, takes the old role."""
    memory = memory_after(
        ("I'm a line cook at Brasserie Nord in Aarhus.", "Mads", "s"),
        ("Also, surprise, they promoted me to head chef!", "Mads", "s"),
    )
    assert "line cook" not in memory and "Surprise" not in memory


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Big news — Carl moved to Leeds.", "Carl moved to Leeds."),
        ("Carl is pescatarian now — fish and veg.", "Carl is pescatarian now — fish and veg."),
        ("Podcast has a new name: Lupulo Sul.", "Podcast has a new name: Lupulo Sul."),
    ],
)
def test_a_lead_in_that_states_something_is_no_opener(said: str, kept: str) -> None:
    """A short lead-in before a dash or a colon is cut, unless it is a statement itself."""
    memory = _merged("Carl", [], said).memory
    assert f"] {kept} <!--" in memory, memory


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # what a fact ends by saying it is not: the old value would read as current
        ("Maya's birthday is March 15, not March 14.", "Maya's birthday is March 15."),
        # what it asks of the assistant: an instruction, not a claim
        ("Noor has asthma, so no dusty hobbies please.", "Noor has asthma."),
        ("Dmitri's ThinkPad is ten years old, so keep things lightweight.", None),
        ("Maya found a flat near the park, so no fancy cafes needed.", None),
        # a word to the assistant on what is to come
        (
            "Adaeze is an ICU nurse, on nights now, so if they message you at 4am that's why.",
            "Adaeze is an ICU nurse, on nights now.",
        ),
        # an aside
        ("Maya's birthday is March 14, by the way.", "Maya's birthday is March 14."),
        # a change said in the tail stays: "no more" ends a state
        ("Maya sold the car, so no more driving.", "Maya sold the car, so no more driving."),
    ],
)
def test_a_tail_that_says_what_is_not_or_asks_something_is_cut(said: str, kept: str | None) -> None:
    merged = merge("", [Fact(text=said)], 10_000, _words, turns=[_turn(said)])
    facts, _ = parse_memory(merged.memory)
    expected = kept or said.split(", so")[0] + "."
    assert [f.text for f in facts] == [expected]


def test_a_lead_in_owning_up_to_a_mistake_is_an_opener() -> None:
    """ "Sorry, I got my birthday wrong earlier: it's March 15": the correction leaves the
    birthday, and neither itself nor the old date, in the memory."""
    birthday = Fact(text="Maya's birthday is March 14.", date="2026-01-01")
    said = "Maya got their birthday wrong earlier: it's March 15, not March 14."
    fix = Fact(text=said, date="2026-01-02")
    merged = merge(render_memory([birthday]), [fix], 10_000, _words, turns=[_turn(said)])
    facts, _ = parse_memory(merged.memory)
    assert [f.text for f in facts] == ["Maya's birthday is March 15."]
    # (a correction the corrected line says, "actually" and all, is not a line of its own)
    said = "Maya's birthday is actually March 15."
    fix = Fact(text=said, date="2026-01-02")
    merged = merge(render_memory([birthday]), [fix], 10_000, _words, turns=[_turn(said)])
    facts, _ = parse_memory(merged.memory)
    assert [f.text for f in facts] == ["Maya's birthday is March 15."]


def _sentences(text: str) -> list[set[str]]:
    pieces = re.split(r"(?<=[.!?])\s+", text)
    return [set(re.findall(r"[\w']+", p.casefold())) for p in pieces if p]


def test_a_two_sentence_fact_is_not_rewritten_into_a_claim_nobody_made() -> None:
    old = Fact(
        text="Carl's dog Rex comes along to the beach in Porto. Carl lives in Porto.",
        date="2026-01-01",
        sources={"s": ["m1"]},
    )
    turn = _turn("I moved to Lisbon.")
    new = Fact(text="Carl moved to Lisbon.", date="2026-01-02", sources={"s": [turn.id]})

    merged = merge(render_memory([old]), [new], 10_000, _words, turns=[turn])

    said = [*_sentences(old.text), _sentences(turn.content)[0] | {"carl"}]
    facts, _ = parse_memory(merged.memory)
    for fact in facts:  # each sentence of each line is one that was said, words and all
        for sentence in _sentences(fact.text):
            assert any(sentence <= source for source in said), f"{fact.text!r} was never said"
    assert "Porto" not in merged.memory and merged.retired == [old]
    assert [f.text for f in facts] == [new.text]


def test_a_sentence_of_a_thousand_so_clauses_is_read_in_one_pass() -> None:
    """Hostile input: the tails are found without a backtracking expression (one took
    seconds on a 20,000-character sentence of ", so" clauses, minutes on a longer one)."""
    said = "Carl moved" + ", so x" * 3_000 + ", so keep it short."
    merged = merge("", [Fact(text=said)], 10**6, _words, turns=[_turn(said)])
    [fact] = parse_memory(merged.memory)[0]
    assert fact.text.endswith(", so x.") and "keep it short" not in fact.text


def test_a_rename_keeps_its_own_line_beside_the_line_it_renamed() -> None:
    """A correction the corrected line says goes ("my birthday is actually March 15"); a
    rename stays a line of its own, so a model's later update of the renamed line (which may
    drop the name) does not take the new name with it."""
    podcast = Fact(text="Oskar runs a podcast called Nightowl Radio.", date="2026-01-01")
    said = "The podcast is now called Ward Talk."
    new = Fact(text=said, date="2026-01-02")
    merged = merge(render_memory([podcast]), [new], 10_000, _words, turns=[_turn(said)])
    texts = [f.text for f in parse_memory(merged.memory)[0]]
    assert texts == ["Oskar runs a podcast called Ward Talk.", said], texts


@pytest.mark.parametrize(
    ("speaker", "older", "said", "now"),
    [
        (
            "Vikram",
            "Vikram plays at a bridge club every Thursday morning.",
            "Vikram's bridge club is on Friday mornings now.",
            "Vikram plays at a bridge club every Friday morning.",
        ),
        (
            "Tomasz",
            "Never book Tomasz anything on a Monday, that's football.",
            "Tomasz's football is Tuesdays now.",
            "Never book Tomasz anything on a Tuesday, that's football.",
        ),
        (  # (a day said as many keeps the new one's number)
            "Nino",
            "Nino sings in a choir on Tuesdays.",
            "Nino's choir is on Wednesdays now.",
            "Nino sings in a choir on Wednesdays.",
        ),
    ],
)
def test_a_day_moved_takes_the_number_the_line_said_it_in(
    speaker: str, older: str, said: str, now: str
) -> None:
    """ "every Thursday morning" moved to "Friday mornings" is "every Friday morning"."""
    memory = _merged(speaker, [older], said).memory
    assert f"] {now} <!--" in memory, memory


def test_a_correction_reaches_a_line_naming_nobody_though_the_scope_knows_others() -> None:
    """Only another person's line is out of a correction's reach: with Leena named in two
    lines, "Small correction: it's at 7 pm" still fixes the party line that names nobody."""
    older = [
        Fact(text="Leena works in Helsinki.", date="2026-01-01", sources={"s": ["m1"]}),
        Fact(text="Leena plays the cello.", date="2026-01-01", sources={"s": ["m2"]}),
        Fact(text="The party is on Friday at 8 pm.", date="2026-01-01", sources={"s": ["m3"]}),
    ]
    said = "Small correction: it's at 7 pm."
    fix = Fact(text=said, date="2026-01-02", sources={"s": ["m9"]})
    merged = merge(render_memory(older), [fix], 10_000, _words, turns=[_turn(said)])
    assert "The party is on Friday at 7 pm." in merged.memory, merged.memory


def test_a_person_going_away_retracts_nothing_and_a_trip_called_off_does() -> None:
    """ "I'm off to Rome" is a trip, not a cancellation whose topic is its speaker (it took
    every line naming Maya); "the heating is off again" is a state; "the trip is off" is
    the retraction."""
    older = ["Maya works as a nurse.", "Maya is based in Leeds.", "Maya's trip to Rome is booked."]
    for said in [
        "Maya is off to Rome tomorrow.",
        "Maya and others are off to Thessaloniki this weekend.",
        "Maya is off sick today.",
        "The heating is off again.",
    ]:
        assert _merge("Maya", older, said) == [], said
    assert _merge("Maya", older, "The trip is off.") == ["Maya's trip to Rome is booked."]
    # (a topic that names the speaker is still no topic of every line of theirs)
    assert _merge("Maya", older, "Maya is cancelled.") == []
    # (a place booked is a trip too, "booked Lisbon for the anniversary"; a party's end is not it)
    older = ["Maya has booked Lisbon for their anniversary in June.", "Maya is based in Leeds."]
    assert _merge("Maya", older, "So the trip's off, we cancelled it.") == [older[0]]
    assert _merge("Maya", older, "So the party's off, we cancelled it.") == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Sandstorm today, the whole sky is orange.", False),
        ("Hot and sticky today, the humidity is unreal.", False),
        ("Dmitri's folding bike got stolen from outside the library this morning.", True),
        ("Dmitri is exhausted but happy tonight.", True),
        ("Baby Lily was born today!", True),
        ("Vog is thick today, can barely see Mauna Kea.", True),  # (a name: not a remark)
    ],
)
def test_a_remark_of_the_moment_naming_nobody_is_not_memory(said: str, kept: bool) -> None:
    added = _merged("Dmitri", ["Dmitri works as a courier."], said).added
    assert [f.text for f in added] == ([said] if kept else [])


def test_a_retraction_reaches_what_its_topic_names_in_another_form() -> None:
    """ "Forget what I said about work" takes "works at" and "works as" lines; a short near
    word is not folded ("scratch the race" is no news of a husband who "runs too")."""
    older = ["Maya works as a designer.", "Maya works at Pixelworks.", "Maya lives in Leeds."]
    assert _merge("Maya", older, "Forget what Maya said about work.") == older[:2]
    older = ["Yuki signed up for a half marathon.", "Yuki's husband Daichi runs too."]
    assert _merge("Yuki", older, "Scratch the race Yuki mentioned.") == older[:1]
    # ("scrap what I said about" takes back as "forget" does)
    older = ["Yuki has started pottery lessons on Mondays.", "Yuki lives in Sapporo."]
    said = "Scrap what Yuki said about the clay lessons, no time with the kids' clubs."
    assert _merge("Yuki", older, said) == older[:1]
    # (a doing by its participle: "singing" takes "sings", "swimming" "swims")
    older = ["Pekka sings in the Sampo Male Choir.", "Pekka swims on Fridays.", "Pekka is 72."]
    assert _merge("Pekka", older, "Scratch what Pekka said about singing.") == older[:1]
    assert _merge("Pekka", older, "Forget what Pekka said about swimming.") == older[1:2]
    # (a plan left: "I've pulled out of the race")
    older = ["Yuki signed up for the Sapporo half marathon in May.", "Yuki is a nurse."]
    assert _merge("Yuki", older, "Yuki has pulled out of the race, their knee hurts.") == older[:1]
    older = ["Yuki has started pottery lessons on Mondays.", "Yuki lives in Sapporo."]
    # (a plan that came to nothing: "the lessons thing fell through")
    said = "And the pottery thing fell through, the studio closed."
    assert _merge("Yuki", older, said) == older[:1]
    # (with "is" said short, after an opener: "So the holiday's off, we cancelled it")
    memory = memory_after(
        ("I've booked a holiday in Crete for our anniversary in May.", "Yuki", "s"),
        ("So the holiday's off, we cancelled it.", "Yuki", "s"),
    )
    assert "Crete" not in memory, memory


def test_a_retraction_reaches_a_line_opening_with_a_common_noun() -> None:
    """ "Summer is sorted: two weeks in Sardinia" names nobody ("Summer" is held inside no
    line as a name), so "scratch that summer plan" reaches it, as it reaches a line that
    opens with "The"."""
    older = ["Summer is sorted: two weeks in Sardinia in August.", "Rosa is a teacher."]
    assert _merge("Rosa", older, "Scratch that summer plan.") == older[:1]


def test_a_retraction_reaches_the_lines_of_its_head_noun_not_of_a_word_qualifying_it() -> None:
    """ "scrap the friday experiment" takes back the experiment, not every line on Friday
    (before, one word in common was enough, and the Friday bake went too); a word that tells
    one thing of a kind from another still does ("sold the folding bike": test_left_behind)."""
    older = [
        "Thabo bakes bobotie every Friday for the crew.",
        "Thabo is running an experiment with rye sourdough.",
    ]
    said = "And scrap the friday experiment, the bread went soggy."
    assert _merge("Thabo", older, said) == older[1:]


#: (speaker, what they said first, what they said next, the employer gone, what stays): who
#: employs them, however it is said and however it ends.
EMPLOYERS = [
    (  # a first payslip from a name says who pays them now; the trade stays
        "Wambui",
        "Wambui here, I'm an accountant at Rift Valley Mills in Nakuru.",
        "First payslip from Nakuru Dairies landed today, same work.",
        "Rift Valley Mills",
        ["Nakuru Dairies", "Wambui works as an accountant."],
    ),
    (  # a move to a workplace named by its kind is a new employer, not a home
        "Paz",
        "I'm a nurse at Clinica Alemana in Valdivia.",
        "More news: I moved to Hospital Santa Rita, day shifts only.",
        "Clinica Alemana",
        ["Hospital Santa Rita", "Paz is based in Valdivia."],
    ),
    (  # work said with its hours is work, and a resignation ends it
        "Joy",
        "I work nights at Harbourview Contact Centre and I study law.",
        "I PASSED! resigned from the call centre already.",
        "Harbourview",
        ["Joy studies law."],
    ),
    (  # a trade done by the hours at a name is work: a new employer replaces it
        "Tam",
        "I drive a forklift nights at Harbor Freightways and I'm studying billing.",
        "first week done, I'm a billing specialist at Summit Health now.",
        "Harbor Freightways",
        ["Summit Health"],
    ),
    (  # a first day said with "today" first is the speaker's, not today's
        "Rosa",
        "I'm Rosa, a nurse at Clinica Sur in Valencia.",
        "Today was my first day at Hospital Levante, in cardiology!",
        "Clinica Sur",
        ["Rosa is based in Valencia."],
    ),
    (  # a resignation said in two words ends the employer
        "Linh",
        "I'm Linh, marketing manager at Saigon Dairy in Thu Duc.",
        "I did it, I resigned. So scared.",
        "Saigon Dairy",
        ["Linh is based in Thu Duc."],
    ),
    (  # work said by what is worked there is work: a job got elsewhere replaces it
        "Kojo",
        "Kojo here, I work the night desk at Labadi Sands Resort in Accra.",
        "I got the job at Coco Bay Lodge! Started Monday.",
        "Labadi",
        ["Coco Bay Lodge"],
    ),
    (  # a role held for years at a name is who employs them, whatever opens the sentence
        "Inês",
        "Olá, I'm Inês. For six years I've been a sous-chef at Casa Lúcio.",
        "Handed in my notice today! From next week I'm my own boss.",
        "Casa Lúcio",
        ["Inês is their own boss."],
    ),
    (  # a part of a workplace they are on, at a name, says who employs them
        "Tess",
        "I'm a nurse at Wattle Grove, an aged care home.",
        "These days I'm on the renal unit at Calvary North, nights mostly.",
        "Wattle Grove",
        ["Calvary North"],
    ),
    (  # sent by someone to a workplace named by its kind: the speaker's new employer
        "Abena",
        "I am Abena, a science teacher at Wesley Girls School in Cape Coast.",
        "Good news: the Education Service has posted me to Aburi Girls School.",
        "Wesley",
        ["Aburi Girls School", "Abena works as a science teacher."],
    ),
]


@pytest.mark.parametrize(("speaker", "first", "then", "gone", "kept"), EMPLOYERS)
def test_who_employs_them_however_it_is_said(
    speaker: str, first: str, then: str, gone: str, kept: list[str]
) -> None:
    """ "First payslip from Nakuru Dairies", "moved to Hospital Santa Rita", "works nights at
    Harbourview", "drives a forklift nights at Harbor Freightways": each says who employs
    them, so the old employer goes and the rest stays."""
    memory = memory_after((first, speaker, "s"), (then, speaker, "s"))
    assert gone not in memory
    for text in kept:
        assert text in memory


def test_a_topics_amount_stated_is_the_line_on_that_topic_when_one_holds_an_amount() -> None:
    """ "Take-home is 41,000 now" is the take-home a quoted answer gave, not the amount they
    give at home, which the embedder finds near; with no line on the topic ("new rate"), the
    amount goes to the nearest as before."""
    older = [
        "Deepa gives 8,000 at home.",
        'Deepa, asked "What\'s their monthly take-home?", answered "32,000 rupees"',
    ]
    assert _merge("Deepa", older, "Take-home is 41,000 now.") == [older[1]]
    older = ["Paolo charges ₱900 an hour for editing.", "Paolo lives in Dumaguete."]
    assert _merge("Paolo", older, "Update: new rate is ₱1,200 an hour.") == [older[0]]


def test_a_retraction_after_why_keeps_what_holds_instead() -> None:
    """ "The DNA test came back, ignore what I said about Poi's breed, she's mostly pit bull
    and husky" retires the Labrador line and keeps what it says now."""
    older = ["Leilani's rescue pup Poi, she's a Labrador mix.", "Leilani lives in Kaimuki."]
    said = (
        "The DNA test came back, ignore what Leilani said about Poi's breed, she's mostly pit "
        "bull and husky."
    )
    merged = _merged("Leilani", older, said)
    assert [f.text for f in merged.retired] == [older[0]]
    assert "husky" in merged.memory
