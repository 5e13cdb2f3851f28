"""A being of the speaker's that died, by its kind or its breed, however it was loved ("our
dear old spaniel") and however its line named it ("walking Bryn, their elderly springer
spaniel"); a relative's never theirs (``breeds.named_beings``, ``change.displaced``, through
``truth.merge``). See docs/design.md, "Facts that stay true"."""

from __future__ import annotations

import pytest

from tests.actors.merging import merge_retired, merged

_OLDER = [
    "Rhiannon tends to write them on their day off while walking Bryn, their elderly springer "
    "spaniel, along the prom.",
    "Rhiannon lives in Aberystwyth.",
]


@pytest.mark.parametrize(
    "said", ["Our dear old spaniel died on Sunday night.", "Our old dog died on Sunday night."]
)
def test_a_being_named_before_its_noun_and_loved_dies_by_its_kind(said: str) -> None:
    """Before, a noun after the being's name ("Bryn, their elderly springer spaniel") named no
    being, nor one after two words ("an elderly springer spaniel called Bryn"), so the death
    of a spaniel or a dog found no line."""
    assert merge_retired("Rhiannon", _OLDER, f"Rhiannon's {said[4:]}") == _OLDER[:1]
    older = ["Rhiannon has an elderly springer spaniel called Bryn.", _OLDER[1]]
    assert merge_retired("Rhiannon", older, f"Rhiannon's {said[4:]}") == older[:1]
    # (and with a name after the ending, whose the being is read past "dear old": before, the
    # lines of "dear" were the only ones it could end)
    said = f"Rhiannon's {said[4:-1]}, very peacefully, in his basket by the Aga."
    assert merge_retired("Rhiannon", _OLDER, said) == _OLDER[:1]
    # (whole: its name is in another clause than its noun; before, "walking Bryn, along the
    # prom" was kept)
    assert "Bryn" not in merged("Rhiannon", _OLDER, said).memory


@pytest.mark.parametrize(
    "said", ["Rhiannon's sister's poor old dog died.", "Rhiannon's sister's dear old spaniel died."]
)
def test_a_relatives_loved_old_dog_is_none_of_theirs(said: str) -> None:
    """Before, two words between the relative and "dog" let the death reach the speaker's
    spaniel by its breed."""
    older = ["Rhiannon has a springer spaniel called Bryn.", _OLDER[1]]
    assert merge_retired("Rhiannon", older, said) == []
    assert merge_retired("Rhiannon", _OLDER, said) == []


def test_an_exam_passed_is_no_death() -> None:
    """ "Also, I passed DELTA Module 1!!!": "passed" with an object is no death; before, it
    ended the one pet line of theirs ("Weekends are for Camila's dog Tinto"). "Our old boy
    passed." still does."""
    older = ["Weekends are for Camila's dog Tinto.", "Camila lives in Cali."]
    assert merge_retired("Camila", older, "Also, Camila passed DELTA Module 1!!!") == []
    assert merge_retired("Camila", older, "Camila's old boy passed.") == older[:1]


def test_another_named_persons_dog_that_passed_is_none_of_theirs() -> None:
    """ "Kemal's dog passed last week": before, "passed" (no ending of a thing, as "died" is)
    took the speaker's one dog line, Kemal being nobody the scope knows; now only a line of
    Kemal's could go. "Our dog passed last week" is still theirs."""
    older = ["Weekends are for Camila's dog Tinto.", "Camila lives in Cali."]
    assert merge_retired("Camila", older, "Kemal's dog passed last week.") == []
    assert merge_retired("Camila", older, "Camila's dog passed last week.") == older[:1]
