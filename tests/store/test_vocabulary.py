"""The shipped tokenizer's words as a lexicon (``store.known_word``): a word of the language
with its endings and beginnings is known, a name no dictionary holds is not."""

from __future__ import annotations

import pytest

from reverie.store import known_word


@pytest.mark.parametrize(
    ("word", "known"),
    [
        ("flat", True),
        ("bales", True),  # (an ending)
        ("chillies", True),  # ("-ies" of a "-y")
        ("restock", True),  # (a beginning)
        ("grbavica", False),  # (names)
        ("pedidosya", False),
        ("kettlebrook", False),  # (a name made of two words is still a name)
    ],
)
def test_a_word_of_the_language_is_known_and_a_name_is_not(word: str, known: bool) -> None:
    assert known_word(word) is known
