"""Where a message's sentences start and end, the pieces the extractive path scores.

A sentence ends at a full stop, a question or exclamation mark, a semicolon, a
line break, or an emoji (chat is written so: "Laptop died mid-export 😭 Bought a
Dell XPS 15"), never after a title's abbreviation ("Dr. Ospanova"). See
docs/design.md, "Consolidation, step by step".
"""

from __future__ import annotations

import re

__all__ = [
    "EMOJI",
    "MAX_SENTENCE_CHARS",
    "NOT_AFTER_A_TITLE",
    "asserted",
    "claim_asked_of",
    "sentences",
]

#: The longest sentence kept, in characters: a pasted log is no statement.
MAX_SENTENCE_CHARS = 300
#: An emoji, which may end a sentence as a full stop does.
EMOJI = "[\u2600-\u27bf\U0001f1e6-\U0001f1ff\U0001f300-\U0001faff]"
#: Not just after a title's abbreviation ("St. Nicholas", "Dr. Ospanova", "M. Lefort"), in the
#: languages people mix in too ("Dra. Velasco", "Sra. Quispe", "Mme. Diallo"), which ends no
#: sentence.
_TITLES = (
    "Dr",
    "St",
    "Mr",
    "Mrs",
    "Ms",
    "Prof",
    "Mt",
    "Jr",
    "Sr",
    "M",
    "Dra",
    "Sra",
    "Srta",
    "Mme",
    "Fr",
    "Rev",
)
NOT_AFTER_A_TITLE = "".join(rf"(?<!\b{t}\.)" for t in _TITLES)
#: Where a sentence ends: not after a title's abbreviation.
_SPLIT = re.compile(
    NOT_AFTER_A_TITLE
    # (or a semicolon, which joins two sentences: "she can't help anymore; Hidayah helps now")
    # (nor after a company's, where the sentence goes on: "a baker at Crumb & Co. on Thomas
    # Street")
    + r"(?<=[.!?;])"
    + r"(?!(?:(?<=\bCo\.)|(?<=\bLtd\.)|(?<=\bInc\.)|(?<=\bCorp\.)|(?<=\bBros\.))"
    + r"\s+(?:on|in|at|near|off|by|of)\b)\s+|\n+"
    # (an emoji may end one: "Laptop died mid-export 😭 Bought a Dell XPS 15", "done ✅ i sold",
    # "62,000 taka 😭🙏 can u help me …"; not before a word that goes on its clause: "my dog 🐶 is")
    # (and one of several characters, joined or with its variation selector: "💇‍♀️", "❤️")
    rf"|(?:(?<={EMOJI})|(?<=\ufe0f))\s+"
    r"(?=[A-Z]|(?!(?:a|an|the|of|to|for|with|in|on|at|from|by|as|than|or|and|but|so|because|is|are|was|were|"
    r"has|have)\b)[a-z]|"
    # (or someone with a verb of their own: "leaving for Valencia 😢 a friend's daughter, Louise,
    # is taking over")
    r"(?:a|an|the) [^.!?]*?\b(?:is|are|was|were|has|had|will)\b)"
)
#: The emoji that closed the sentence before, opening this one ("kia ora! 🚗 the Ranger's …"),
#: and the lower-case letter after it, which opens a sentence (not "iPhone").
_LEADING_EMOJI = re.compile(rf"^(?:{EMOJI}|[\ufe0f\u200d\s])+(?:([a-z])(?=[a-z' ]))?")

#: A list numbered in one line, "1) new flatmate! 2) work phone died": a sentence per number
#: (not a number closing an aside, "with Adam (our son, 4) in the morning").
_NUMBERED = re.compile(r"(?:^|\s)1\)\s")
_NEXT_NUMBER = re.compile(r"\s+(?=(?:[1-9]|1\d)\)\s)")
#: The mark a line of a list opens with ("- moved to Rosemont", "2) new roommate, Karine"): no
#: word of the sentence, which says its claim as a sentence would.
_LIST_MARK = re.compile(r"^\s*(?:[-*•·–]|\d{1,2}[.)])\s+")

#: A semicolon that ended a sentence: it ends with a full stop, as a sentence does.
_SEMICOLON = re.compile(r";$")


def sentences(text: str) -> list[str]:
    """The sentences of ``text``, each on one line, cut at ``MAX_SENTENCE_CHARS``, without an
    emoji or a list's mark it opens with; empty pieces are empty strings."""
    numbered = bool(_NUMBERED.search(text))
    return [
        _SEMICOLON.sub(
            ".",
            _LEADING_EMOJI.sub(
                lambda m: (m[1] or "").upper(), " ".join(_LIST_MARK.sub("", piece).split())
            ),
        )[:MAX_SENTENCE_CHARS]
        for line in _SPLIT.split(text)
        for piece in (_NEXT_NUMBER.split(line) if numbered else [line])
    ]


#: A question asked after a claim, in a clause of its own: "…, is he even allowed do that?"
#: (not a question from its start, "Should I raise it to 8,000, like my neighbour?"; nor one
#: the words before only lead into, "Thinking out loud, should I move to Lexington?").
_ASKED_AFTER = re.compile(
    r"^(?!(?i:should|can|could|do|does|is|are|what|how|why|would|will|any|where|when|which|who)\b)"
    r"(?P<claim>\S+(?: \S+){3,}?),\s+(?i:is|are|was|does|do (?:you|they)|what|how|why|any|right|"
    r"isn't|aren't)\b[^,?]*\?$"
)


def claim_asked_of(sentence: str) -> str:
    """``sentence`` without a question asked after its claim ("the rent is going up to
    €1,240, is he even allowed do that?" is "the rent is going up to €1,240."); else as is."""
    asked = _ASKED_AFTER.match(sentence)
    return f"{asked['claim']}." if asked else sentence


#: A clause that opens with its speaker stating something ("I …", "My …").
_STATES = re.compile(
    r"^(?:(?!(?:should|would|could|can|do|does|did|is|are|am|will|shall|may|might|must)\b)"
    r"\w+,? )?(?:I|I'm|I've|My|We|We're|Our)\b",
    re.IGNORECASE,
)
#: A statement marvelled at, not asked: "we adopted a second cat??", "I got the job?!"
_MARVELLED = re.compile(
    r"^(?!(?i:should|can|could|do|does|did|is|are|am|was|were|will|would|what|how|why|where|"
    r"when|which|who|any|have|has)\b)(?:[\w,]+ ){0,2}?(?:I|[Ww]e)(?:'ve)? (?:just )?[a-z]+ed\b"
    r"[^?!]*(?:\?\?|\?!|!\?)[?!]*$"
)


#: A question typed without its mark, by its word order: "also should i cancel Planet Fitness,
#: i never go", "ok can we move it to Friday".
_ASKED_UNMARKED = re.compile(
    r"^(?:(?i:also|so|and|but|ok|okay|oh|btw|hmm|anyway|quick question)[,:]? )*"
    r"(?:(?i:should|shall|can|could|do|would) (?i:i|we)|"
    # (or asked with a question's word and its verb before who: "how screwed am I", "what
    # loads should i even use")
    r"(?i:how|what|where|when|which|who|why)(?: [\w'-]+){0,3}? "
    r"(?i:am|is|are|do|does|did|should|shall|can|could|would|will) (?i:i|we|you))\b"
    r"[^,]*(?:, (?P<rest>.*))?$"
)


def asserted(sentence: str) -> str:
    """What ``sentence`` states: all of it, or of a question the statement before its last
    comma ("I live in Peckham and climb on Wednesdays, maybe add that?"), or after a question
    typed without its mark ("should i cancel Planet Fitness, i never go", "how screwed am I"),
    or a statement
    marvelled at ("we adopted a second cat??" as "… cat!"); "" for none."""
    if (unmarked := _ASKED_UNMARKED.match(sentence)) and not sentence.endswith("?"):
        rest = unmarked["rest"] or ""
        return rest if _STATES.match(rest) else ""
    if not sentence.endswith("?") or _MARVELLED.match(sentence):
        return sentence.rstrip("?!") + "!" if sentence.endswith("?") else sentence
    head = sentence.rpartition(", ")[0]
    return f"{head}." if _STATES.match(head) and "?" not in head else ""
