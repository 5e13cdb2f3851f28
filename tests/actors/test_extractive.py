"""Consolidation without a model: deterministic selection and fact merging."""

from __future__ import annotations

from reverie.actors.extractive import extractive_consolidation
from reverie.store import MessageRecord, TokenCounter

COUNT = TokenCounter().count


def conversation(*pairs: tuple[str, str]) -> list[MessageRecord]:
    return [
        MessageRecord(seq=n + 1, id=f"m{n}", role=role, content=text, ts=100.0 + n, tokens=1)
        for n, (role, text) in enumerate(pairs)
    ]


TURNS = conversation(
    ("user", "Hi there. My name is Alice and I live in Lisbon. Can you help me plan a trip?"),
    ("assistant", "Of course! Where would you like to go?"),
    ("user", "ok"),
    ("user", "I prefer trains over planes. My budget is 800 euros."),
    ("tool", "I am a tool result mentioning 2026-01-01 and Bob Smith."),
    ("assistant", "Great, a train to Paris on 2026-12-03 costs about 120 euros."),
    ("user", "Do you think Madrid is nice in December?"),
)


def test_summary_keeps_salient_sentences_in_original_order() -> None:
    result = extractive_consolidation("", TURNS, max_tokens=500, count_tokens=COUNT)
    assert result.summary.split("\n") == [
        "user: My name is Alice and I live in Lisbon.",
        "user: I prefer trains over planes.",
        "user: My budget is 800 euros.",
        "assistant: Great, a train to Paris on 2026-12-03 costs about 120 euros.",
        "user: Do you think Madrid is nice in December?",
    ]


def test_facts_are_user_statements_not_questions_tools_or_assistant() -> None:
    result = extractive_consolidation("", TURNS, max_tokens=500, count_tokens=COUNT)
    assert result.facts == [
        "My name is Alice and I live in Lisbon.",
        "I prefer trains over planes.",
        "My budget is 800 euros.",
    ]
    assert result.memory == "# Memory\n\n" + "".join(f"- {f}\n" for f in result.facts)


def test_same_input_gives_byte_identical_output() -> None:
    runs = {
        repr(extractive_consolidation("- Old fact\n", TURNS, max_tokens=500, count_tokens=COUNT))
        for _ in range(3)
    }
    assert len(runs) == 1


def test_repeated_facts_merge_into_existing_memory() -> None:
    memory = "# Memory\n\n- Alice has a cat.\n- i PREFER trains over planes\n"
    result = extractive_consolidation(memory, TURNS, max_tokens=500, count_tokens=COUNT)
    assert result.memory == (
        "# Memory\n\n- Alice has a cat.\n- My name is Alice and I live in Lisbon.\n"
        "- I prefer trains over planes.\n- My budget is 800 euros.\n"
    )


def test_memory_respects_token_cap_dropping_oldest() -> None:
    memory = "# Memory\n\n- An old fact about the garden shed and its blue door.\n"
    cap = COUNT("# Memory\n\n- I prefer trains over planes.\n- My budget is 800 euros.\n")
    result = extractive_consolidation(memory, TURNS, max_tokens=cap, count_tokens=COUNT)
    assert (
        result.memory == "# Memory\n\n- I prefer trains over planes.\n- My budget is 800 euros.\n"
    )


def test_chit_chat_yields_first_user_sentence_and_no_facts() -> None:
    turns = conversation(("user", "hello"), ("assistant", "hi!"), ("user", "thanks"))
    result = extractive_consolidation("", turns, max_tokens=500, count_tokens=COUNT)
    assert (result.summary, result.facts, result.memory) == ("user: hello", [], "")
