"""A value said wrong and corrected (``anaphora.it_corrected``, ``revision.CORRECTION``,
through the extractive path): a mistake owned names its thing ("I typed the rent wrong",
"correction on that rent number"), and the value said with or after it is that thing's, in
the line of the person it is about. Names corrected are ``test_name_corrections.py``'s."""

from __future__ import annotations

import pytest

from tests.actors.merging import facts_of as _facts
from tests.actors.merging import lines_after as _lines
from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired
from tests.actors.merging import merged as _merged


def test_a_correction_of_someone_elses_goes_to_a_line_of_theirs() -> None:
    """ "Sorry, my mistake: Nilufar is nine, her birthday was in March" corrects the
    daughter, not the month of the speaker's exam in June; "Mum is coming in April" the mum's
    visit in March."""
    older = [
        "Dilnoza needs help with their English for the IELTS exam in June.",
        "Dilnoza's daughter Nilufar is eight years old.",
    ]
    said = "Sorry, my mistake: Nilufar is nine years old, her birthday was in March."
    memory = _merged("Dilnoza", older, said).memory
    assert "IELTS exam in June. <!--" in memory and "exam in March" not in memory
    older = ["Dilnoza's mum is visiting in March.", "Dilnoza's IELTS exam is in June."]
    merged = _merged("Dilnoza", older, "Small correction: Mum is coming in April.")
    assert "Dilnoza's mum is visiting in April. <!--" in merged.memory
    assert "IELTS exam is in June. <!--" in merged.memory


def test_a_mistake_owned_in_one_clause_makes_the_next_a_correction() -> None:
    """ "I gave you the wrong plot number; my plot is number 22" corrects "plot 14", and "I
    typed the rent wrong. It's 2,300 a month" the rent."""
    memory = _memory_after(
        ("I rent a small allotment, plot 14 at the community garden.", "Hiroshi", "s"),
        ("I gave you the wrong plot number; my plot is number 22.", "Hiroshi", "s"),
    )
    assert "14" not in memory and "plot 22 at the community garden" in memory
    # "It's …" in the sentence after the mistake is the thing it named; an amount is whole
    memory = _memory_after(
        ("Our rent is 3,200 cedis a month, which is steep.", "Kojo", "s"),
        ("I typed the rent wrong. It's 2,300 a month, I swapped the digits.", "Kojo", "s"),
    )
    assert "3,200" not in memory and "Kojo's rent is 2,300 a month. <!--" in memory
    memory = _memory_after(
        ("My rent is 3,200 cedis a month.", "Kojo", "s"),
        ("I got the rent wrong, it's 2,300 a month.", "Kojo", "s"),
    )
    assert "Kojo's rent is 2,300 cedis a month. <!--" in memory  # (not "2,300,200")
    # (a mistake owned in a sentence of its own makes the turn's next sentence a correction)
    memory = _memory_after(
        ("Now I want to know my profit. Rent is KSh 38,000 per month.", "Kojo", "s"),
        (
            "Sorry, I made a mistake in the numbers. Amina checked and the rent is KSh 43,000.",
            "Kojo",
            "s",
        ),
    )
    assert "38,000" not in memory and "43,000" in memory


def test_a_correction_on_a_number_then_its_value_is_the_things() -> None:
    """ "Correction on that rent number, I swapped the digits. It's 1,390.": the rent's."""
    memory = _memory_after(
        ("My rent is 1,930 a month, bills included.", "Ewa", "s"),
        ("Correction on that rent number, I swapped the digits. It's 1,390.", "Ewa", "s"),
    )
    assert "1,930" not in memory and "1,390" in memory


def test_a_correction_said_after_what_led_to_it_is_of_the_thing_said_wrong() -> None:
    """ "I gave you the wrong deposit figure. Just checked the contract, it's actually
    €2,400.": the deposit, not the latest line with a number ("a Pixel 7")."""
    memory = _memory_after(
        ("The deposit is €1,800. I still pay off my Pixel 7.", "Lucía", "s"),
        (
            "Correction, I gave you the wrong deposit figure. Just checked the contract, "
            "it's actually €2,400.",
            "Lucía",
            "s",
        ),
    )
    assert "1,800" not in memory and "The deposit is €2,400." in memory
    assert "Lucía still pays off their Pixel 7." in memory


def test_a_mistake_said_in_the_sentence_that_corrects_it_names_what_it_is() -> None:
    """ "misread the invoice, it's 3,150", "the deposit I told you was off, it's …", "Fare
    correction: it's …": the "it" is the thing said wrong, so the old amount goes."""
    for said, old, new in [
        ("Sorry, misread the invoice, it's 3,150 with the VAT.", "The invoice is 2,700.", "3,150"),
        (
            "Oh, the deposit I told you was off, it's 1,950, the agent added a fee.",
            "Tomasz put down a deposit of 1,600 for the flat.",
            "1,950",
        ),
        (
            "Fare correction: it's 460 kroner, I looked at the child price.",
            "The fare is 380 kroner.",
            "460",
        ),
    ]:
        memory = _memory_after((old, "Tomasz", "s"), (said, "Tomasz", "s"))
        assert new in memory and old not in memory, said


def test_a_value_said_before_not_what_i_told_you_corrects_it() -> None:
    """ "choir is on Wednesdays, not the day I told you": the day is corrected in its line;
    a name so said ("the hens are Sussex, not the breed I said") retires no other line."""
    memory = _memory_after(
        ("I sing in a choir on Monday evenings, it keeps me sane.", "Ilse", "s"),
        ("oops, choir is on Wednesdays, not the day I told you.", "Ilse", "s"),
    )
    assert "Monday" not in memory and "choir on Wednesdays" in memory
    memory = _memory_after(
        ("I have a small hen farm near Ghent, in Flanders. I need help pricing eggs.", "Ilse", "s"),
        ("Eggs from my 30 Leghorn hens, feed, straw, maybe 3 euros a dozen?", "Ilse", "s"),
        (
            "Oh, I must correct myself, my daughter laughed at me: the hens are Sussex, not the "
            "breed I said. The brown ones belong to the neighbour.",
            "Ilse",
            "s",
        ),
    )
    assert "hen farm near Ghent" in memory


@pytest.mark.parametrize(
    ("said", "stays"),
    [
        ("A double room at Casa Lume is 95, I recalculated with the new tax.", False),
        ("A double room at Casa Lume is 95, the guests love it.", True),
    ],
)
def test_an_amount_worked_out_again_in_a_clause_of_its_own_corrects_the_old_one(
    said: str, stays: bool
) -> None:
    """ "…is 95, I recalculated with the new tax": the correction is said beside the
    amount, in a clause without one; the same amount said with praise is no correction."""
    memory = _memory_after(
        (
            "I run a guesthouse in Évora. Our rate is 80 for a double room, breakfast included.",
            "Rita",
            "s",
        ),
        (said, "Rita", "s"),
    )
    assert ("Rita's rate is 80 for a double room" in memory) is stays
    assert "A double room at Casa Lume is 95" in memory


def test_actually_after_other_words_before_a_claim_corrects_nothing() -> None:
    """ "Yes, good news actually, the budget was topped up to 11,500 zł" is news, not a
    correction that must find its line by topic: the one amount of zł takes it. "Actually,"
    opening the claim still corrects."""
    older = ["Ola and others got 9,000 zł for fieldwork.", "Ola is based in Poznań."]
    news = _merged("Ola", older, "Yes, good news actually, the budget was topped up to 11,500 zł.")
    assert "Ola and others got 11,500 zł for fieldwork." in news.memory
    older = ["Ola's birthday is March 14.", "Ola is based in Poznań."]
    fixed = _merged("Ola", older, "Actually, my birthday is March 15.")
    assert "Ola's birthday is March 15." in fixed.memory and "March 14" not in fixed.memory
    # (beside the value it puts right, before or after it, "actually" corrects too)
    for said in ["My birthday is actually March 15.", "My birthday is March 15 actually."]:
        fixed = _merged("Ola", older, said)
        assert "Ola's birthday is March 15." in fixed.memory and "March 14" not in fixed.memory


def test_actually_as_emphasis_is_no_cue_and_stays_in_the_claim() -> None:
    """ "The heater is actually decent", "the heater actually works": a word of emphasis,
    neither a correction's cue moved to the opener nor a change of anything."""
    older = ["Ola drives a Fiat Panda.", "Ola is based in Poznań."]
    for said in ["The Panda's heater is actually decent.", "The Panda's heater actually works."]:
        merged = _merged("Ola", older, said)
        assert merged.retired == [] and said in merged.memory, merged.memory


def test_a_value_said_alone_puts_right_what_its_turn_owned_was_wrong() -> None:
    """ "Sorry, I got the waitlist wrong. Two orders were cancelled … It's 11.": the value
    said alone is the waitlist's, put right; "It's 11." in a turn that owns no mistake is
    no fact."""
    said = [
        "Hello. I'm Kenji, a luthier in Matsumoto. I have 14 guitars on the waitlist.",
        "Sorry, I got the waitlist wrong. Two orders were cancelled and I forgot to cross "
        "them off. It's 11.",
    ]
    facts = _facts(_memory_after(*((text, "Kenji", "s") for text in said)))
    assert "Kenji has 11 guitars on the waitlist." in facts, facts
    assert not any("14" in f for f in facts), facts
    alone = _facts(_memory_after(("What time is it? It's 11. Time for tea.", "Kenji", "s")))
    assert not any("11" in f for f in alone), alone


def test_a_things_age_is_no_new_age_of_the_speaker() -> None:
    """ "the Rodeo's done its diff again, 22 years old that ute": 22 years is the ute's (its
    key's subject), so "Gladys is 68 years old" stays; "I'm 69 now" is hers."""
    older = ["Gladys is 68 years old.", "Gladys keeps bees out of Tenterfield."]
    said = "The Rodeo's done its diff again, 22 years old that ute."
    assert merge_retired("Gladys", older, said) == []
    assert merge_retired("Gladys", older, "Gladys is 69 years old now.") == [older[0]]


def test_an_age_to_come_or_a_thing_there_is_no_new_age_or_home() -> None:
    """ "going for the lot before I'm 60" is an age to come, and "there's a branch 5 min from
    the flat" a thing that is, not where they live: before, each replaced the line of their
    age or of the home they had just taken (a residence with no place, "there" read as one)."""
    older = ["Callum is a 41 year old man with a collie called skye.", "Callum lives in Lochee."]
    said = "6 munros bagged, going for the lot before Callum is 60."
    assert merge_retired("Callum", older, said) == []
    assert merge_retired("Callum", older, "Callum is 42 now.") == older[:1]
    older = ["Ayla signed a lease in Alsancak, moving boxes everywhere."]
    said = "Ayla likes their MacFit routine and there's a branch 5 min from the flat."
    assert merge_retired("Ayla", older, said) == []


@pytest.mark.parametrize(
    ("line", "said", "right", "wrong"),
    [
        ("Yusra works on ward 9 at Jinnah.", "sorry, ward 7, not ward 9", "ward 7", "ward 9"),
        (
            "Yusra's stall is number 41 in Kalanki chowk.",
            "the stall is number 14, not 41",
            "number 14 in Kalanki",
            "41",
        ),
        (
            "Yusra's stall is number 41 in Kalanki chowk.",
            "oops I said 41 by mistake, the stall is number 14",
            "number 14 in Kalanki",
            "number 41",
        ),
        (
            "Yusra's GP is Dr Achterhof at the Lindenhof practice.",
            "no, it's Dr Achterberg, not Dr Achterhof",
            "GP is Dr Achterberg at",
            "Achterhof",
        ),
    ],
)
def test_a_value_said_beside_the_wrong_one_puts_right_the_line_holding_it(
    line: str, said: str, right: str, wrong: str
) -> None:
    """The line holding the wrong value is written with the right one, and no line keeps the
    wrong one beside the right (before, "ward 7, not ward 9" was no fact, and the others left
    the line as it was; "I said 41 by mistake" is kept as said)."""
    memory = _merged("Yusra", [line, "Yusra lives in Gulshan."], said).memory
    assert right in memory and wrong not in memory, memory


def test_a_value_beside_another_corrects_no_line_unless_said_to_or_of_it() -> None:
    """ "I want two, not three" names no line's value; "in Wynnum not Manly" is no "Manly
    Sharks"; a line said after the correction is not put right by it."""
    for line, said in (
        ("Yusra has three kids.", "I want two, not three"),
        ("Yusra plays with the Manly Sharks.", "nah I'm in Wynnum not Manly"),
    ):
        memory = _merged("Yusra", [line], said).memory
        assert line in memory, memory
    lines = _facts(
        _memory_after(
            ("nah I'm in Wynnum not Manly, Manly's next door", "Troy", "s"),
            ("I play touch footy with the Manly Sharks now", "Troy", "s"),
        )
    )
    assert any("Manly Sharks" in line for line in lines), lines


def test_a_correction_announced_by_its_verb_in_a_lead_corrects() -> None:
    """ "I must correct something I said last time: the language I study on Saturday is
    Japanese" is a correction, as "Correction:" is: before, a lead of 41 characters was no
    lead, "correct" no cue, and the line kept its opener while the Korean one stayed."""
    lines = _lines(
        "Oanh",
        "And I learn Korean on Saturday mornings.",
        "I must correct something I said last time: the language I study on Saturday is "
        "Japanese, not the other one.",
    )
    assert "The language Oanh studies on Saturday is Japanese." in lines, lines
    assert not any("Korean" in line for line in lines), lines
