"""Turns someone else types for the speaker, said again in the speaker's own voice.

"this is Derya, Cem's wife, he is at boxing now. he asked me to tell you he
got new phone, Tecno Camon 30. also me, I start at new clinic on monday"
is in Cem's chat, so every sentence of it would be read as Cem's: the new
clinic would become his job and the phone nobody's. Whoever introduces
themselves by their relation to the speaker ("Maksym, mama's son", "Sindre,
Astrid's boyfriend") is typing for them: until the speaker is back ("Cem here
again", "Milena again.") or the day ends, the relayed turns are rewritten so
that "he" or "she" is "I" again ("I got new phone, …") and the typist's own
"I" is theirs, by their relation ("my wife Derya starts at new clinic …").
The reporting frame goes ("he asked me to tell you", "she says write:"), and
the introduction becomes what it tells: "My wife is Derya." Only then are
the turns read, so every later step sees what was said and of whom. See
docs/design.md, "Memory that stays true", step 1.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec

from reverie.store import MessageRecord

from .third_person import third_person
from .words import UPPER

__all__ = ["relayed"]

#: What a child calls the parent it types for ("Maksym, mama's son").
_PARENT = r"(?:mum|mom|mam|mama|mamma|mother|dad|papa|father|ma|pa)"
_CHILD = r"(?:son|daughter|kid|child|boy|girl)"
#: A typist's introduction at the start of a turn: a few words of greeting or "this is",
#: their name, then whose they are ("Leonor, Gonçalo's girlfriend").
_INTRODUCED = re.compile(
    rf"^(?:[^\s.!?]+[\s,]+){{0,4}}?(?P<name>[{UPPER}][\w'-]+),?\s+"
    rf"(?P<whose>[\w-]+)['’]s\s+(?P<relation>[a-z]+)\b[.,!:;]*\s*"
)
#: The frame of what the typist was asked to pass on ("he asked me to tell you", "she says
#: write:", "he said I should tell you", "she wanted me to let you know that").
_FRAME = re.compile(
    r"\b(?i:he|she)\s+(?:also\s+)?(?:says|said|asked|asks|wanted|wants|told)"
    r"(?:\s+(?:me|I))?(?:\s+(?:should|to))?(?:\s+(?:tell|write|type|say|let))?"
    r"(?:\s+(?:you|u))?(?:\s+know)?(?:\s+that)?(?:\s*:|\b)\s*"
)
#: The typist's own news opened by "me" ("me, I …", "and me, I …"): theirs, by its "I".
_OWN_NEWS = re.compile(r"^(?:(?:and|also|btw)\s+)?me,?\s+(?=I\b)", re.IGNORECASE)
_TYPIST = re.compile(r"\b(?:I|I'm|I've|I'll|I'd|me|my|mine|myself)\b")
#: The speaker, as the typist calls them: "he", "she", "his", "her", "him".
_SPEAKER = re.compile(
    r"\b(?P<who>[Hh]e|[Ss]he)(?P<verb>'s (?=got|been|gone|had|done)|'s|'ll|'d| is| was| has| does"
    r"| doesn't| isn't| wasn't|\s+(?P<plain>(?!(?:always|sometimes|perhaps|nowadays)\b)[a-z]{2,}s)\b)?\b"
    r"|\b(?P<obj>[Hh]im(?:self)?|[Hh]erself|[Hh]is)\b"
    r"|\b(?P<her>[Hh]er)\b(?P<next>\s+(?:a|an|the|to|for|at|in|on|and|so|but|with|from|up|out|"
    r"back|off|that|this)\b|\s*(?=[^\w\s]|$))?"
)
_AS_I = {
    "'s ": "'ve ",
    "'s": "'m",
    "'ll": "'ll",
    "'d": "'d",
    " is": " am",
    " was": " was",
    " has": " have",
    " does": " do",
    " doesn't": " don't",
    " isn't": " am not",
    " wasn't": " wasn't",
}
_HIS = ("he", "him", "himself", "his")
_AS_MINE = {"him": "me", "himself": "myself", "herself": "myself", "his": "my"}
#: The end of a verb in the third person after "he" or "she" ("he wants" → "I want").
_VERB_S = re.compile(r"(?:(?<=[^aeiou])ies|(?:(?<=ch)|(?<=sh)|(?<=ss)|(?<=[xzo]))es|(?<![su])s)$")


def relayed(turns: Sequence[MessageRecord]) -> list[MessageRecord]:
    """``turns`` with each user turn typed for the speaker by someone else in the speaker's
    own voice; the others as they are."""
    out: list[MessageRecord] = []
    typist: _Typist | None = None
    day = None
    for turn in turns:
        if turn.role != "user":
            out.append(turn)
            continue
        if (today := int(turn.ts // 86400)) != day:
            typist, day = None, today
        text = turn.content
        if found := _introduced(text, turn.name or ""):
            typist = _Typist(found["name"], found["relation"])
            text = f"My {found['relation']} is {found['name']}. {text[found.end() :]}"
        elif typist is not None and _back(text, turn.name or ""):
            typist = None
        if typist is not None:
            text = typist.as_speaker(text)
        out.append(turn if text == turn.content else msgspec.structs.replace(turn, content=text))
    return out


def _introduced(text: str, speaker: str) -> re.Match[str] | None:
    """The introduction of one typing for ``speaker``: they are named by their relation to
    ``speaker`` by name, or to a parent, as their child."""
    found = _INTRODUCED.match(text)
    if found is None or found["name"].lower() == speaker.lower():
        return None
    whose = found["whose"].lower()
    if whose == speaker.lower() and speaker:
        return found
    parent = re.fullmatch(_PARENT, whose) and re.fullmatch(_CHILD, found["relation"])
    return found if parent else None


def _back(text: str, speaker: str) -> bool:
    """The speaker typing again: "Cem here again", "Milena again.", "Marta back from …"."""
    return bool(
        speaker
        and re.match(
            rf"^\W*(?:\w+\W+)?{re.escape(speaker)}"
            r"(?:\s+(?:here|again|back|speaking)\b|\s*(?:[.!,:;—–-]|$))",
            text,
            re.IGNORECASE,
        )
    )


class _Typist:
    """One typing for the speaker: their ``name``, their ``relation`` to the speaker, and
    the pronoun they call the speaker by, once said (the other one is someone else's:
    "papa is driving, he says … also mumma got promotion, she is …")."""

    def __init__(self, name: str, relation: str) -> None:
        self.name, self.relation = name, relation
        self.pronoun = ""

    def as_speaker(self, text: str) -> str:
        """``text``, typed by them, as the speaker would say it."""
        said = []
        for piece in re.split(r"(?<=[.!?])\s+", text):
            if not self.pronoun and (first := re.search(r"\b(?i:he|she)\b", piece)):
                self.pronoun = first[0].lower()
            piece = _FRAME.sub("", _OWN_NEWS.sub("", piece)).strip()
            if not piece:
                continue
            if piece.startswith("My ") and piece.endswith(f" is {self.name}."):
                said.append(piece)  # (the introduction, already the speaker's)
                continue
            if _TYPIST.search(piece):
                piece = third_person(piece, f"my {self.relation} {self.name}")
            said.append(_SPEAKER.sub(self._word, piece))
        return " ".join(p[0].upper() + p[1:] for p in said)

    def _word(self, found: re.Match[str]) -> str:
        """One word of theirs for the speaker ("he", "his", "she's") as the speaker's."""
        word = (found["who"] or found["obj"] or found["her"]).lower()
        if ("he" if word in _HIS else "she") != self.pronoun:
            return found[0]
        if found["who"]:
            if plain := found["plain"]:  # ("he wants" → "I want"; "she studies" → "I study")
                ending = _VERB_S.search(plain)
                verb = plain[: ending.start()] if ending else plain
                return f"I {verb}{'y' if ending and ending[0] == 'ies' else ''}"
            return "I" + _AS_I.get(found["verb"] or "", "")
        if found["obj"]:
            mine = _AS_MINE[word]
            return mine.capitalize() if found[0][0].isupper() else mine
        mine = "me" if found["next"] is not None else "my"
        return (mine.capitalize() if found[0][0].isupper() else mine) + (found["next"] or "")
