"""A medicine the speaker takes, switched by its noun ("the GP changed my tablets"), and a
thing got by someone else's persuasion (``change.displaced``, through ``truth.merge``): the
one line of what they take goes, whatever the drug's name; a class taken stays."""

from __future__ import annotations

from tests.actors.merging import memory_after as _memory_after
from tests.actors.merging import merge_retired as _merge


def test_a_medicine_switched_by_its_noun_retires_the_one_taken() -> None:
    """By whoever switched it: "The GP saw my log and changed my tablets" retires "takes
    amlodipine"; "changed my bone medicine" retires "a weekly tablet, alendronate"."""
    memory = _memory_after(
        ("I take amlodipine every morning and I must check my pressure before work.", "Kwame", "s"),
        (
            "The GP saw my log and changed my tablets. Now it is ramipril, in the evening.",
            "Kwame",
            "s",
        ),
    )
    assert "amlodipine" not in memory and "ramipril" in memory, memory
    assert "check their pressure before work" in memory, memory
    memory = _memory_after(
        ("I take a weekly tablet, alendronate, every Sunday morning.", "Haruko", "s"),
        (
            "And the doctor changed my bone medicine. Now it is an injection once a month.",
            "Haruko",
            "s",
        ),
    )
    assert "alendronate" not in memory and "injection" in memory, memory


def test_the_old_medicine_left_retires_the_one_they_are_on() -> None:
    """ "the old pill wasn't working, now is pantoprazole", "no more of those pills for the
    knees", "instead of that weekly pill": the one taken till now is left, and the line of
    the drug they are on goes, said with "takes" or "on" ("was already on omeprazole",
    "keeping me on the Fosamax"); before, only a medicine changed by a verb was read."""
    for first, news, old in [
        (
            "I was already on omeprazole, he wants me to continue.",
            "The gastro said the old pill wasn't working, now is pantoprazole 40.",
            "omeprazole",
        ),
        (
            "My knees are bad, I take ibuprofen but it doesn't help much.",
            "The doctor says no more of those pills for the knees, now only Tachipirina 1000.",
            "ibuprofen",
        ),
        (
            "The bone scan was worse, so she's keeping me on the Fosamax for now.",
            "My doctor switched me to Prolia, a shot every six months instead of that weekly pill.",
            "Fosamax",
        ),
    ]:
        memory = _memory_after(("I sew costumes in Recife.", "Graça", "s"), (first, "Graça", "s"))
        assert old in memory, memory
        memory = _memory_after(
            ("I sew costumes in Recife.", "Graça", "s"), (first, "Graça", "s"), (news, "Graça", "s")
        )
        assert old not in memory and "Recife" in memory, memory


def test_a_thing_taken_that_is_no_medicine_stays() -> None:
    memory = _memory_after(
        ("I take English class on Saturday mornings.", "Rosa", "s"),
        ("The doctor changed my tablets.", "Rosa", "s"),
    )
    assert "English class on Saturday mornings" in memory, memory
    memory = _memory_after(
        ("I walk dogs, I'm on Pawshake now.", "Rosa", "s"),
        ("The doctor took me off the old pill.", "Rosa", "s"),
    )
    assert "Pawshake" in memory, memory
    memory = _memory_after(
        ("The doctor started me on levothyroxine, 50 mcg.", "Samia", "s"),
        ("My son bought me an iPad, the old tablet went to the grandchildren.", "Samia", "s"),
    )
    assert "levothyroxine" in memory, memory


def test_a_thing_someone_talked_the_speaker_into_replaces_theirs() -> None:
    """ "Lars talked me into an electric car, a Kia Niro" retires the Volvo; "The ambulance is
    gone", a name for the Volvo only Lars's line holds, guesses at no other line."""
    memory = _memory_after(
        (
            "I drive an old Volvo V70 for the volunteers. My husband Lars calls it the ambulance.",
            "Ingrid",
            "s",
        ),
        ("I do my own shift at the Red Cross café on Tuesdays.", "Ingrid", "s"),
        (
            "Big news: Lars talked me into an electric car, a Kia Niro. The ambulance is gone.",
            "Ingrid",
            "s",
        ),
    )
    assert "Volvo" not in memory and "Kia Niro" in memory, memory
    assert "Red Cross café on Tuesdays" in memory, memory


def test_what_they_stopped_by_what_they_were_on_or_taking_is_that_line() -> None:
    """ "took me off the tablets I was on" ends "is on naproxen", "stop the sleep pills I was
    taking" ends "takes melatonin", whatever the drug is; the class they go to stays."""
    memory = _memory_after(
        (
            "I'm on naproxen for the pain and swelling. I go to spin class on Mondays.",
            "Siobhan",
            "s",
        ),
        (
            "The GP took me off the tablets I was on because they were upsetting my stomach, "
            "so it's just paracetamol now.",
            "Siobhan",
            "s",
        ),
    )
    assert "naproxen" not in memory and "paracetamol" in memory and "spin" in memory, memory
    memory = _memory_after(
        ("I take melatonin on the early reporting days.", "Priya", "s"),
        (
            "The company doctor told me to stop the sleep pills I was taking and try magnesium instead.",
            "Priya",
            "s",
        ),
    )
    assert "melatonin" not in memory and "magnesium" in memory, memory


def test_a_dose_written_with_its_unit_joined_is_an_amount() -> None:
    """ "put my amlodipine up to 10mg" changes "takes 5mg of amlodipine": "5mg" is an
    amount, as "5 mg" is; the city stays."""
    older = ["Agnes takes 5mg of amlodipine.", "Agnes lives in Dundee."]
    said = "The doctor put Agnes's amlodipine up to 10mg."
    assert _merge("Agnes", older, said) == [older[0]]


def test_a_drug_put_onto_or_pills_stopped_retires_the_one_of_theirs_taken() -> None:
    """ "He switched me to apixaban" names no medicine's noun but a drug put onto: "is on
    warfarin" goes; "stop the knee pills" (as some write "stopped") "takes ibuprofen", not
    "takes their granddaughter Leonor from school", no drug; and "changed my blood pressure
    tablets" the drug of theirs to be reviewed ("needs their ramipril reviewed")."""
    older = ["Fatma is on warfarin for the AF.", "Fatma lives in Alexandria."]
    said = "He switched Fatma to apixaban, no more blood tests every week."
    assert _merge("Fatma", older, said) == older[:1]
    said = "He switched Fatma to mornings, the clinic is quieter then."
    assert _merge("Fatma", older, said) == []
    older = [
        "Domingos takes ibuprofen for the knee, it helps.",
        "Domingos takes their granddaughter Leonor from school every Tuesday.",
    ]
    said = "The doctor at the health centre stop the knee pills, now paracetamol only."
    assert _merge("Domingos", older, said) == older[:1]
    older = ["Agnes needs their ramipril reviewed anyway.", "Agnes lives in Perth."]
    said = "The doctor's changed Agnes's blood pressure tablets, the old ones had them coughing."
    assert _merge("Agnes", older, said) == older[:1]


def test_a_drug_written_capitalised_is_one_put_onto_with_its_dose_or_after_put_on() -> None:
    """ "Dr. Aydın switched Emre to Valsartan 80 mg" names the drug capitalised, as many
    write it: with its dose it is a drug put onto, and "put them on Perindopril" a line of one
    taken, so that line goes (before, a capitalised drug was none, and the change, said with
    when it shows, took no line by meaning); "switched Emre to Turkcell" changes no medicine."""
    older = [
        "Emre's cardiologist Dr. Aydın put them on Perindopril for blood pressure last year.",
        "Emre lives in Karşıyaka.",
    ]
    said = "Dr. Aydın switched Emre to Valsartan 80 mg, the cough should go in a few weeks."
    assert _merge("Emre", older, said) == older[:1]
    said = "The shop switched Emre to Turkcell, the signal is better."
    assert _merge("Emre", older, said) == []


def test_a_dose_changed_retires_the_dose_taken_whatever_names_the_drug() -> None:
    """ "GP upped it to 100mcg", "fennelly doubled it, 10mg" name the drug by "it" and its
    new dose: before, such a sentence was too short a claim to keep and changed nothing, so
    the old dose stayed; now it is kept and the one line of a drug taken goes, one said with
    its dose alone too ("thinks the sertraline 50mg makes them sleepy"); of two, the one the
    change names ("upped the metformin to 1000mg"); someone else's dose changes none."""
    for first, news, old, new in [
        ("My GP has me on levothyroxine 75mcg.", "GP upped it to 100mcg. Feel human.", "75mcg", "100mcg"),
        ("gp put me on ramipril 5mg. bp high.", "still high. fennelly doubled it, 10mg", "5mg", "10mg"),
    ]:  # fmt: skip
        memory = _memory_after((first, "Ailsa", "s"), (news, "Ailsa", "s"))
        assert old not in memory and new in memory, memory
    older = ["Seren thinks the sertraline 50mg makes them sleepy.", "Seren lives in Splott."]
    said = "They've upped the sertraline to 100mg as Seren has been a bit flat."
    assert _merge("Seren", older, said) == older[:1]
    older = ["Ailsa takes sertraline 50mg.", "Ailsa takes metformin 500mg twice a day."]
    assert _merge("Ailsa", older, "They upped the metformin to 1000mg.") == older[1:]
    said = "My dad's GP upped his dose to 10mg."
    assert _merge("Ailsa", older, said) == []


def test_a_drug_the_doctor_is_switching_them_to_retires_the_one_taken() -> None:
    """ "He's switching me to rosuvastatin 10mg starting Monday" is done to the speaker, as
    "he switched me to" is: before, "he's" opened it as another's news, and the old statin
    stayed; "She's moving to Leeds" is still hers."""
    older = ["Garrett takes atorvastatin 20mg for the cholesterol.", "Garrett lives in Austin."]
    said = "He's switching Garrett to rosuvastatin 10mg starting Monday."
    assert _merge("Garrett", older, said) == older[:1]
    assert _merge("Garrett", older, "She's moving to Leeds.") == []
