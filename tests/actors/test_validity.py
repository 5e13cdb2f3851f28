"""A fact that says how long it holds ("lent us a Fiesta for the week", "staying with Ines
for two weeks") stops being current once a job's turns are past its end (``validity.py``,
through the extractive path): no later turn has to say the loan or the stay ended."""

from __future__ import annotations

from reverie.actors.consolidation.extractive import extractive_consolidation
from reverie.actors.consolidation.result import ConsolidationResult
from reverie.store import MessageRecord
from tests.actors.merging import COUNT, facts_of

DAY = 86400.0


def _jobs(speaker: str, *said: tuple[int, str]) -> ConsolidationResult:
    """The last job's result after one job per (day, turn), in one scope."""
    results: list[ConsolidationResult] = []
    for seq, (day, text) in enumerate(said):
        turn = MessageRecord(
            seq=seq + 1,
            id=f"m{seq}",
            role="user",
            content=text,
            ts=day * DAY,
            tokens=1,
            name=speaker,
        )
        memory = results[-1].memory if results else ""
        results.append(
            extractive_consolidation(
                memory, [turn], max_tokens=2000, count_tokens=COUNT, session="s"
            )
        )
    return results[-1]


def test_a_loan_for_the_week_is_over_a_week_on_and_goes_to_the_history() -> None:
    """Three days on, the loan holds; ten days on, its line is retired as no longer true,
    while the line beside it and the home stay."""
    said = [
        (
            0,
            "I live in Tartu. My car is at the garage, so my uncle lent me his Fiesta for the week.",
        ),
        (3, "The recipe worked, thanks."),
    ]
    assert "Fiesta" in _jobs("Kadri", *said).memory
    result = _jobs("Kadri", *said, (10, "I need a cake recipe for Sunday."))
    assert "Fiesta" not in result.memory and "Tartu" in result.memory, result.memory
    assert any("Fiesta" in fact.text for fact in result.retired), result.retired


def test_a_stay_said_with_its_length_ends_and_the_clause_before_it_stays() -> None:
    """ "staying with Ines in Braga for two weeks" is over after two weeks; a line that says
    something else first keeps that part."""
    said = [
        (0, "Our boiler burst, so I'm staying with my friend Ines in Braga for two weeks."),
        (1, "I teach chemistry at Escola Sá, and I'm in Porto for the week for a course."),
        (20, "Can you check my lesson plan?"),
    ]
    facts = facts_of(_jobs("Marta", *said).memory)
    assert not any("Braga" in f or "Porto" in f for f in facts), facts
    assert any("Escola Sá" in f for f in facts), facts


def test_a_length_that_led_to_now_or_comes_later_is_no_end() -> None:
    """A time already lasted ("been vegan for a month"), how often ("three days a week", "just
    for weekends"), a plan ("we'll stay with my parents for a month") and the past ("lived in
    Oslo for a year") say nothing of when the state ends."""
    said = [
        (0, "I've been vegan for a month and I work at Lumo for three days a week."),
        (0, "My road bike is a Canyon but that's just for weekends."),
        (0, "We'll stay with my parents in Gent for a month after the wedding."),
        (0, "I used to live in Oslo for a year."),
        (60, "Can you help me plan meals?"),
    ]
    memory = _jobs("Lotte", *said).memory
    assert all(word in memory for word in ("vegan", "Lumo", "Canyon", "Gent", "Oslo")), memory


def test_one_job_of_many_days_drops_a_loan_over_before_its_last_turn() -> None:
    """Days told at once: the loan said on the first day and over before the last is not
    current when the job ends."""
    turns = [
        MessageRecord(seq=1, id="m0", role="user", content=text, ts=day * DAY, tokens=1, name="Ana")
        for day, text in [
            (0, "My neighbour lent me her Vespa for the week."),
            (12, "I adopted a cat called Miso."),
        ]
    ]
    result = extractive_consolidation("", turns, max_tokens=2000, count_tokens=COUNT, session="s")
    assert "Vespa" not in result.memory and "Miso" in result.memory, result.memory
