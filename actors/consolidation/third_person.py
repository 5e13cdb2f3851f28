"""First-person user statements rewritten in the third person, for extractive facts.

"I moved to Lisbon" becomes "Carl moved to Lisbon": a fact read months
later, beside facts of other people in a shared scope, must say whose it
is. The rewrite is rule-based and small (the extractive path has no model):
the subject "I" at the start takes the speaker's name and its verb is
conjugated (``live`` → ``lives``, ``am`` → ``is``, ``have`` → ``has``,
past tenses and modals unchanged); "my" at the start becomes "Carl's";
later "I", "me", "my", "mine", "myself" become "they", "them", "their",
"theirs", "themselves". What it does not recognise is left as it was.

``subject`` names what a fact is about when it can tell (where someone
lives, works, or is called), so a newer fact about the same subject can
supersede an older one.
"""

from __future__ import annotations

import re

__all__ = ["subject", "supersedes", "third_person"]

_CONTRACTIONS = {
    "i'm": "is",
    "i've": "has",
    "i'd": "would",
    "i'll": "will",
}
_IRREGULAR = {"am": "is", "have": "has", "do": "does", "go": "goes", "was": "was"}
_UNCHANGED = frozenset(
    [
        "can",
        "could",
        "will",
        "would",
        "should",
        "shall",
        "must",
        "may",
        "might",
        "did",
        "had",
        "was",
        "were",
        "don't",
        "didn't",
        "can't",
        "won't",
        "wouldn't",
    ]
)
_ADVERBS = frozenset(
    ["always", "never", "usually", "often", "sometimes", "also", "still", "just", "really", "now"]
)
_LATER = [
    (re.compile(r"\bI'm\b"), "they're"),
    (re.compile(r"\bI've\b"), "they've"),
    (re.compile(r"\bI\b"), "they"),
    (re.compile(r"\bmyself\b", re.IGNORECASE), "themselves"),
    (re.compile(r"\bmine\b", re.IGNORECASE), "theirs"),
    (re.compile(r"\bmy\b", re.IGNORECASE), "their"),
    (re.compile(r"\bme\b", re.IGNORECASE), "them"),
]
_SUBJECTS = [
    ("residence", re.compile(r"\b(lives?|is living|moved|relocated|has moved) (in|to)\b")),
    ("work", re.compile(r"\b(works?|is working) (as|at|for)\b")),
    ("name", re.compile(r"'s name is\b|\bis called\b")),
]


def _conjugate(verb: str) -> str:
    lower = verb.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if lower in _UNCHANGED or lower.endswith("ed") or not lower.isalpha():
        return verb
    if lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if lower.endswith("y") and lower[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _later(text: str) -> str:
    for pattern, replacement in _LATER:
        text = pattern.sub(replacement, text)
    return text


def third_person(sentence: str, who: str) -> str:
    """``sentence`` with its first-person speaker named ``who``."""
    words = sentence.split(" ")
    first = words[0].lower() if words else ""
    if first in _CONTRACTIONS:
        return " ".join([who, _CONTRACTIONS[first], _later(" ".join(words[1:]))]).strip()
    if first == "i" and len(words) > 1:
        rest = words[1:]
        at = 1 if rest[0].lower() in _ADVERBS and len(rest) > 1 else 0
        rest[at] = _conjugate(rest[at])
        return " ".join([who, rest[0], _later(" ".join(rest[1:]))]).strip()
    if first == "my" and len(words) > 1:
        return " ".join([f"{who}'s", _later(" ".join(words[1:]))])
    return _later(sentence)


def supersedes(old: str, new: str) -> bool:
    """Whether fact ``new`` replaces ``old``: the same person, the same simple subject."""
    about = subject(new)
    return about is not None and about == subject(old) and _who(old) == _who(new)


def _who(fact: str) -> str:
    return fact.split(" ", 1)[0].removesuffix("'s")


def subject(fact: str) -> str | None:
    """What ``fact`` is about, when it is one of the simple cases: residence, work, name."""
    for name, pattern in _SUBJECTS:
        if pattern.search(fact):
            return name
    return None
