"""The words the shipped embedder's tokenizer knows (its WordPiece vocabulary, lower case): a
lexicon of everyday English that the consolidation reads a lower-case user's names against
("we moved to grbavica": a word no dictionary of the model holds is a name). See
docs/design.md, "Facts that stay true", the extractive path."""

from __future__ import annotations

import functools
import json
from importlib import resources

__all__ = ["known_word"]

#: Endings and beginnings a known word takes ("bales", "chillies", "restock").
_SUFFIXES = ("s", "es", "ies", "ed", "d", "ing", "er", "ers", "ly", "y")
_PREFIXES = ("re", "un", "pre", "over", "out", "sub")
#: The shortest stem a known word has ("bale" of "bales").
_PART = 3


@functools.cache
def _vocabulary() -> frozenset[str]:
    """The tokenizer's whole words of letters (not its "##" word pieces), read once."""
    text = (
        resources.files("reverie.store.embed")
        .joinpath("data/minilm-tokenizer.json")
        .read_text(encoding="utf-8")
    )
    return frozenset(w for w in json.loads(text)["model"]["vocab"] if w.isalpha())


@functools.lru_cache(maxsize=8192)
def known_word(word: str) -> bool:
    """``word`` (lower case) is in the vocabulary, or is one of its words with an ending or a
    beginning ("bales", "restock"): a word of the language, not a name. (Not two of its words:
    "Kettlebrook" is a name made of two.)"""
    known = _vocabulary()
    if word in known:
        return True
    stems = [word[: -len(s)] for s in _SUFFIXES if word.endswith(s)]
    stems += [f"{word[:-3]}y"] if word.endswith("ies") else []
    stems += [word[len(p) :] for p in _PREFIXES if word.startswith(p)]
    return any(len(stem) >= _PART and stem in known for stem in stems)
