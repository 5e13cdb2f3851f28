"""What of a model's answer becomes the job's result: grounded facts, revisions by id (of
the facts the turns are about only, within the answer's bounds), and the extractive facts of
the same turns beside the model's."""

from __future__ import annotations

from reverie.actors.consolidation.answer import Accepted, accept, restates
from reverie.actors.consolidation.prompt import (
    MAX_DELETES,
    MAX_FACTS,
    FactUpdate,
    ModelAnswer,
    within_caps,
)
from reverie.actors.consolidation.revisable import revisable_ids
from reverie.store import MessageRecord, fact_id, parse_memory
from tests.actors.test_grounding import TURNS, turn

OLD = (
    "# Memory\n\n"
    '- [2026-01-01] Carl likes tea. <!-- from {"old":["m0"]} -->\n'
    '- [2026-01-02] Carl plays the cello after night shifts. <!-- from {"old":["m0"]} -->\n'
    '- [2026-01-03] Carl has a dog called Rex. <!-- from {"old":["m0"]} -->\n'
)


def count(text: str) -> int:
    return len(text.split())


def run(answer: ModelAnswer, memory: str = OLD, turns: list[MessageRecord] = TURNS) -> Accepted:
    return accept(answer, memory, turns, "s", max_tokens=5000, count_tokens=count)


def texts(memory: str) -> list[str]:
    return [f.text for f in parse_memory(memory)[0]]


def test_new_facts_are_appended_after_the_old_ones() -> None:
    accepted = run(ModelAnswer(summary="Carl works at Acme.", facts=["Carl works at Acme."]))
    lines = texts(accepted.result.memory)
    assert lines[:3] == texts(OLD) and "Carl works at Acme." in lines[3:]
    assert accepted.result.memory.startswith(OLD)
    # (the extractive fact of its turn says the same: the claim is kept once, as that one)
    assert accepted.counts["kept"] == 0 and accepted.counts["dropped"] == 0


def test_a_fact_of_two_sentences_is_two_facts_each_sourced_to_its_turn() -> None:
    both = "Carl moved to Lisbon in 2021. Carl works at Acme."
    invented = "Carl repairs delivery robots. The robots run on night shifts in Porto."
    accepted = run(ModelAnswer("", [both, invented]))
    facts = parse_memory(accepted.result.memory)[0]
    assert not [f.text for f in facts if ". " in f.text]
    lines = {f.text: f.sources for f in facts}
    assert lines["Carl moved to Lisbon in 2021."] == lines["Carl works at Acme."] == {"s": ["m1"]}
    # (its turn's extractive fact says more: "…, mostly on night shifts"; Porto is in no turn)
    assert lines["Carl repairs delivery robots, mostly on night shifts."] == {"s": ["m3"]}
    assert accepted.counts["dropped"] == 1


def test_an_update_replaces_its_fact_in_place_with_the_new_turns_as_sources() -> None:
    cello = fact_id("Carl plays the cello after night shifts.")
    new = "Carl repairs delivery robots on night shifts."
    accepted = run(ModelAnswer("", [], updates=[FactUpdate(f"#{cello}", new)]))
    memory = accepted.result.memory
    facts = parse_memory(memory)[0]
    assert [f.text for f in facts[:3]] == ["Carl likes tea.", new, texts(OLD)[2]]
    assert memory.startswith(OLD[: OLD.index("- [2026-01-02]")])  # the lines before: as they were
    assert facts[1].sources == {"s": ["m3"]} and facts[1].date == "2026-11-21"
    assert [f.text for f in accepted.result.retired] == ["Carl plays the cello after night shifts."]
    assert accepted.result.retired[0].sources == {"old": ["m0"]}
    assert new in accepted.result.facts
    assert accepted.counts["updated"] == 1


def test_a_delete_by_id_removes_the_fact_and_retires_it() -> None:
    rex = fact_id("Carl has a dog called Rex.")
    turns = [*TURNS, turn(4, "Rex, my old dog, died last week.")]
    accepted = run(ModelAnswer("", [], deletes=[rex.upper()]), turns=turns)
    assert "a dog called Rex" not in accepted.result.memory  # (the death said stays, dated)
    assert [f.text for f in accepted.result.retired] == ["Carl has a dog called Rex."]
    assert accepted.counts["deleted"] == 1 and accepted.counts["delete_unknown"] == 0


def test_only_the_facts_the_users_turns_are_about_may_be_revised() -> None:
    """Tea and Rex are in no user turn (the assistant's words do not count): refused."""
    tea, rex = fact_id("Carl likes tea."), fact_id("Carl has a dog called Rex.")
    turns = [*TURNS, turn(4, "Does Rex still drink tea?", name=None, role="assistant")]
    answer = ModelAnswer("", [], updates=[FactUpdate(tea, "Carl works at Acme.")], deletes=[rex])
    accepted = run(answer, turns=turns)
    assert accepted.result.memory.startswith(OLD) and accepted.result.retired == []
    assert accepted.counts["update_refused"] == accepted.counts["delete_refused"] == 1
    assert accepted.counts["updated"] == accepted.counts["deleted"] == 0
    assert revisable_ids(OLD, turns) == {fact_id("Carl plays the cello after night shifts.")}


def test_another_named_persons_fact_is_not_revisable_unless_the_turns_name_them() -> None:
    memory = OLD + '- [2026-01-04] Alice works night shifts too. <!-- from {"a":["m0"]} -->\n'
    alice = fact_id("Alice works night shifts too.")
    assert alice not in revisable_ids(memory, TURNS)  # Carl speaks, about his own shifts
    assert alice in revisable_ids(memory, [*TURNS, turn(4, "Alice quit her night shifts.")])
    unnamed = [turn(1, "I work night shifts.", name=None)]  # no speaker names: words decide
    assert alice in revisable_ids(memory, unnamed)


def test_an_answer_past_the_bounds_keeps_only_the_first_up_to_each_cap() -> None:
    facts = [f"Carl works at Acme number {n}." for n in range(MAX_FACTS + 3)]
    deletes = ["0badc0de"] * (MAX_DELETES + 2)
    answer = ModelAnswer("", facts, deletes=deletes)
    bounded, over = within_caps(answer)
    assert bounded.facts == facts[:MAX_FACTS] and len(bounded.deletes) == MAX_DELETES
    assert over == 5
    accepted = run(answer)
    assert accepted.counts["over_cap"] == 5
    assert accepted.counts["delete_unknown"] == MAX_DELETES
    assert accepted.counts["kept"] + accepted.counts["dropped"] == MAX_FACTS


def test_unknown_ids_and_ungrounded_replacements_are_dropped_and_counted() -> None:
    cello = fact_id("Carl plays the cello after night shifts.")
    answer = ModelAnswer(
        "",
        [],
        updates=[
            FactUpdate("0badc0de", "Carl lives in Lisbon."),
            FactUpdate(cello, "Carl likes whisky from Islay."),
        ],
        deletes=["nope", "12345678"],
    )
    accepted = run(answer)
    assert texts(accepted.result.memory)[:3] == texts(OLD)
    assert accepted.result.retired == []
    assert accepted.counts["update_unknown"] == 1
    assert accepted.counts["update_ungrounded"] == 1
    assert accepted.counts["delete_unknown"] == 2
    assert accepted.counts["updated"] == accepted.counts["deleted"] == 0


def test_extractive_facts_join_a_greeting_instead_of_being_displaced() -> None:
    turns = [turn(1, "I live in Porto and I work at Acme as a nurse."), turn(2, "Hi there!")]
    turns.append(turn(3, "Nice to meet you, Carl!", name=None, role="assistant"))
    accepted = run(ModelAnswer("", ["Hi there, Carl!"]), memory="", turns=turns)
    memory = accepted.result.memory
    assert "Porto" in memory and "Acme" in memory
    assert accepted.counts["kept"] == 1 and accepted.counts["extractive"] >= 1


def test_the_assistants_words_are_never_a_fact_or_a_replacement() -> None:
    """The packaged model made "I'm sorry about Leo, and happy for you and Priya." a fact."""
    turns = [turn(1, "My girlfriend Priya is coming over tonight.")]
    turns.append(
        turn(2, "I'm sorry about Leo, and happy for you and Priya.", name=None, role="assistant")
    )
    cello = fact_id("Carl plays the cello after night shifts.")
    answer = ModelAnswer(
        "",
        ["Carl is sorry about Leo.", "Carl's girlfriend Priya is coming over tonight."],
        updates=[FactUpdate(cello, "Carl is happy about Leo.")],
    )
    accepted = run(answer, turns=[*turns, turn(3, "No cello after night shifts for a while.")])
    assert "Leo" not in accepted.result.memory
    assert "Carl's girlfriend Priya is coming over tonight." in accepted.result.facts
    assert accepted.counts["dropped"] == 1
    assert accepted.counts["update_ungrounded"] == 1 and accepted.result.retired == []


def test_an_extractive_fact_the_model_already_said_is_not_added_twice() -> None:
    accepted = run(ModelAnswer("", ["Carl moved to Lisbon in 2021.", "Carl works at Acme."]))
    lines = [t for t in texts(accepted.result.memory) if "Lisbon" in t or "Acme" in t]
    assert lines == ["Carl moved to Lisbon in 2021.", "Carl works at Acme."]
    assert restates("Carl lives in Lisbon.", "Carl moved to Lisbon in 2021")  # same subject
    assert restates("Carl repairs delivery robots at night.", "Carl repairs robots")
    assert not restates("Carl lives in Lisbon.", "Carl repairs delivery robots")


def test_an_update_to_chatter_is_dropped_and_counted() -> None:
    turns = [*TURNS, turn(4, "Thanks a lot, that helps!")]
    cello = fact_id("Carl plays the cello after night shifts.")
    accepted = run(ModelAnswer("", [], updates=[FactUpdate(cello, "Thanks a lot!")]), turns=turns)
    assert texts(accepted.result.memory)[:3] == texts(OLD)
    assert accepted.result.retired == []
    assert accepted.counts["update_chatter"] == 1 and accepted.counts["updated"] == 0


def test_what_the_merge_retires_joins_what_the_updates_replaced() -> None:
    memory = OLD + '- [2026-01-04] Carl lives in Porto. <!-- from {"old":["m0"]} -->\n'
    cello = fact_id("Carl plays the cello after night shifts.")
    new = "Carl repairs delivery robots on night shifts."
    answer = ModelAnswer("", ["Carl moved to Lisbon in 2021."], [FactUpdate(cello, new)])
    accepted = run(answer, memory=memory)
    retired = [f.text for f in accepted.result.retired]
    assert retired == ["Carl plays the cello after night shifts.", "Carl lives in Porto."]
    assert "Porto" not in accepted.result.memory
    assert accepted.result.facts[:2] == [new, "Carl moved to Lisbon in 2021."]
    assert not any("Porto" in f for f in accepted.result.facts)


def test_an_update_never_makes_a_fact_someone_elses() -> None:
    """ "Carl likes tea." updated to "Ana moved to Porto." (someone else's news, though
    grounded in a turn) is refused: an update keeps whose fact it is."""
    tea = fact_id("Carl likes tea.")
    turns = [*TURNS, turn(4, "My friend Ana moved to Porto, she says hi to my tea plant.")]
    accepted = run(
        ModelAnswer("", [], updates=[FactUpdate(tea, "Ana moved to Porto.")]), turns=turns
    )
    assert "Carl likes tea." in accepted.result.memory
    assert accepted.counts["updated"] == 0 and accepted.counts["update_refused"] == 1
    turns = [*TURNS, turn(4, "I like coffee now.")]
    answer = ModelAnswer("", [], updates=[FactUpdate(tea, "Carl likes coffee now.")])
    assert run(answer, turns=turns).counts["updated"] == 1


def test_a_change_is_no_restatement_and_what_was_said_later_comes_later() -> None:
    """The model wrote only the old home: "moved to Salzburg", said later, is another value
    (not a restatement of it) and is merged after it, so it replaces it."""
    assert not restates("Carl lives in Graz.", "Carl moved to Salzburg.")
    assert restates("Carl lives in Graz.", "Carl lives in Graz now.")
    turns = [turn(1, "I live in Graz."), turn(2, "I moved to Salzburg last week.")]
    accepted = run(ModelAnswer("", ["Carl lives in Graz."]), memory="", turns=turns)
    assert "Salzburg" in accepted.result.memory and "Graz" not in accepted.result.memory


def test_each_claim_is_kept_once_in_the_finer_cut() -> None:
    """Kept twice, a claim outlives its change: "quit the orchestra" retires one line of the
    cello and leaves the other. A model fact that joins two extractive facts gives way to
    them; an extractive fact the model split gives way to its parts."""
    joined = [
        turn(1, "I'm a vet nurse at a clinic called Pazur, and I foster cats for the shelter.")
    ]
    answer = ModelAnswer(
        "", ["Carl is a vet nurse at a clinic called Pazur, and they foster cats."]
    )
    accepted = run(answer, memory="", turns=joined)
    assert accepted.counts["kept"] == 0  # (it gave way: no model fact of it is kept)
    lines = texts(accepted.result.memory)
    assert not any("Pazur" in line and "cats" in line for line in lines)
    assert any("Pazur" in line for line in lines) and any("cats" in line for line in lines)

    split = [turn(1, "Outside work I play cello in an orchestra, they say hobbies come up.")]
    answer = ModelAnswer("", ["Carl plays cello in an orchestra.", "They say hobbies come up."])
    lines = texts(run(answer, memory="", turns=split).result.memory)
    assert [line for line in lines if "cello" in line] == ["Carl plays cello in an orchestra."]

    # (a fragment is no part: "Zentrix in Bengaluru." says nobody's claim)
    whole = [turn(1, "I'm a data analyst at Zentrix in Bengaluru.")]
    answer = ModelAnswer("", ["Carl is a data analyst.", "Zentrix in Bengaluru."])
    lines = texts(run(answer, memory="", turns=whole).result.memory)
    assert "Carl works at Zentrix." in lines and "Carl is based in Bengaluru." in lines


def test_a_model_fact_one_extractive_fact_says_in_full_gives_way_to_it() -> None:
    """ "Tobias and Annika are planning …" left out "girlfriend": kept beside "… and their
    girlfriend Annika are planning …", it outlived the break-up that retired the other. A
    fragment ("Havstudio in Bergen.") or a garbled line of the same words ("Samir is Samir,
    they work as …") says no more than the extractive facts, which a move can retire."""
    cases = [
        (
            "My girlfriend Annika and I are planning ten days on Crete in August.",
            "Carl and Annika are planning ten days on Crete in August.",
            "Carl and their girlfriend Annika are planning ten days on Crete in August.",
        ),
        (
            "Hei! I'm a sound engineer at Havstudio in Bergen.",
            "Havstudio in Bergen.",
            "Carl is based in Bergen.",
        ),
        (
            "I work as an accountant at Hadid Audit in Beirut.",
            "Carl is Carl, they work as an accountant at Hadid Audit in Beirut.",
            "Carl is based in Beirut.",
        ),
    ]
    for said, model, extracted in cases:
        accepted = run(ModelAnswer("", [model]), memory="", turns=[turn(1, said)])
        lines = texts(accepted.result.memory)
        assert model not in lines and extracted in lines, lines
        assert accepted.counts["kept"] == 0 and accepted.counts["dropped"] == 0
    # (nor do parts of an extractive fact the merge cuts into keyed claims itself: "is in
    # Bergen" is no home a move retires, "is based in Bergen" is)
    bergen = [turn(1, "Hei! I'm Carl, a sound engineer at Havstudio in Bergen.")]
    answer = ModelAnswer("", ["Carl is at Havstudio.", "Carl is in Bergen."])
    lines = texts(run(answer, memory="", turns=bergen).result.memory)
    assert "Carl is based in Bergen." in lines and "Carl is in Bergen." not in lines, lines
    # (a model fact that names no one it is about is no claim: an instruction to oneself)
    calm = [turn(1, "Breathe in, breathe out. Thanks for keeping me calm.")]
    accepted = run(ModelAnswer("", ["Breathe in, breathe out."]), memory="", turns=calm)
    assert "Breathe" not in accepted.result.memory and accepted.counts["kept"] == 0
    # (what the model splits finer than the extractive fact is still kept: "each claim once")
    split = [turn(1, "Outside work I play cello in an orchestra, they say hobbies come up.")]
    answer = ModelAnswer("", ["Carl plays cello in an orchestra.", "They say hobbies come up."])
    assert run(answer, memory="", turns=split).counts["kept"] == 2


def test_the_assistants_help_praised_is_no_fact() -> None:
    """The packaged model kept "that practice session was so helpful." as a fact."""
    turns = [turn(1, "Honestly, that practice session was so helpful. I start at Acme on Monday.")]
    answer = ModelAnswer("", ["That practice session was so helpful.", "Carl starts at Acme."])
    lines = texts(run(answer, memory="", turns=turns).result.memory)
    assert not any("helpful" in line for line in lines)
    assert any("Acme" in line for line in lines)


def test_a_sentence_copied_in_lower_case_is_no_fact_and_its_turns_claim_stays() -> None:
    """A small model copies a turn typed in lower case: "breathe in, breathe out." is no
    claim; "i moved to leeds last week" is one, and the extractive fact of its turn says it
    of its speaker, as it would without a model."""
    said = [turn(1, "breathe in, breathe out. i moved to Leeds last week, still unpacking.")]
    copied = ["breathe in, breathe out.", "i moved to Leeds last week, still unpacking."]
    accepted = run(ModelAnswer("", copied), memory="", turns=said)
    lines = texts(accepted.result.memory)
    assert not [line for line in lines if line[:1].islower()], lines
    assert any(line.startswith("Carl moved to Leeds") for line in lines), lines
    assert accepted.counts["dropped"] == 2 and accepted.counts["kept"] == 0
