"""First-person user statements rewritten in the third person, for extractive facts.

"I moved to Lisbon" becomes "Carl moved to Lisbon": a fact read months
later, beside facts of other people in a shared scope, must say whose it
is. The rewrite is rule-based and small (the extractive path has no model):
the subject "I" at the start takes the speaker's name and its verb is
conjugated (``live`` → ``lives``, ``am`` → ``is``, ``have`` → ``has``,
past tenses and modals unchanged); "my" at the start becomes "Carl's";
later "I", "me", "my", "mine", "myself" become "they", "them", "their",
"theirs", "themselves". What it does not recognise is left as it was.

``subject`` names whom a fact is about and what about them when it can
tell (where someone lives, works, or is called), so a newer fact about the
same person and attribute can supersede an older one. The person is the
words before the verb: "Carl" in "Carl moved to Lisbon", but "Carl's
brother" in "Carl's brother lives in Paris", who is someone else.
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
_IRREGULAR = {
    "am": "is",
    "have": "has",
    "do": "does",
    "go": "goes",
    "was": "was",
    "don't": "doesn't",
}
#: Past tenses that do not end in -ed (left as they are).
_PAST = frozenset(
    [
        "got",
        "went",
        "took",
        "made",
        "said",
        "felt",
        "found",
        "saw",
        "came",
        "gave",
        "knew",
        "thought",
        "told",
        "bought",
        "brought",
        "left",
        "lost",
        "met",
        "paid",
        "ran",
        "sat",
        "sent",
        "spent",
        "stood",
        "taught",
        "won",
        "wrote",
        "began",
        "became",
        "ate",
        "drove",
        "flew",
        "grew",
        "kept",
        "heard",
        "held",
        "built",
        "caught",
        "chose",
        "fell",
        "forgot",
        "led",
        "tried",
    ]
)
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
    (re.compile(r"\bI was\b"), "they were"),
    (re.compile(r"\bI'm\b"), "they're"),
    (re.compile(r"\bI've\b"), "they've"),
    (re.compile(r"\bI\b"), "they"),
    (re.compile(r"\bmyself\b", re.IGNORECASE), "themselves"),
    (re.compile(r"\bmine\b", re.IGNORECASE), "theirs"),
    (re.compile(r"\bmy\b", re.IGNORECASE), "their"),
    (re.compile(r"\bme\b", re.IGNORECASE), "them"),
]
_SUBJECTS = [
    ("residence", re.compile(r"\s(lives?|is living|moved|relocated|has moved) (in|to)\b")),
    ("work", re.compile(r"\s(works?|is working) (as|at|for)\b")),
    ("name", re.compile(r"'s name is\b|\s(?:is called|is named)\b")),
]


def _conjugate(verb: str) -> str:
    lower = verb.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if lower in _UNCHANGED or lower in _PAST or lower.endswith("ed") or not lower.isalpha():
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
    """Whether fact ``new`` replaces ``old``: the same person, the same attribute."""
    about = subject(new)
    return about is not None and about == subject(old)


def subject(fact: str) -> tuple[str, str] | None:
    """Whom ``fact`` is about and what (residence, work, name), in the simple cases."""
    for name, pattern in _SUBJECTS:
        found = pattern.search(fact)
        if found is not None:
            who = fact[: found.start()].split()
            while who and who[-1].lower() in _ADVERBS:
                who.pop()
            return " ".join(who).casefold(), name
    return None
