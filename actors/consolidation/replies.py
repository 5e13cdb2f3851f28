"""A reply to the assistant's question, kept with it: alone it says nothing.

"What kind of food do you serve?" "Wood-fired everything."; "Will you start a
book club there too?" "Yes! Sunday afternoons at 2pm, once a month": the
question names the thing, the reply its value. See docs/design.md, "Facts that
stay true", the extractive path.
"""

from __future__ import annotations

import re

from .chatter import is_chatter
from .routines import WHEN_ALONE
from .third_person import third_person, word_set
from .words import WEEKDAYS

__all__ = ["IT", "answered", "continues", "named_then_when", "only_reply"]

#: A question asking for a fact, not a yes or no ("What do you shoot with?").
_ASKS = re.compile(
    r"(?i)^(?:what|which|where|who|when|how (?:many|much|early|often|long|old))\b.*\?$"
)
#: Words that answer without saying anything ("Yes please.", "Later, thanks.").
_REPLY_WORDS = word_set(
    "yes yeah yep no nope please thanks thank sure ok okay maybe later grand exactly true "
    "probably not really fine good great perfect cool nice lovely definitely absolutely"
)
#: The assistant's question, about the speaker: "you" is them.
_YOU = re.compile(r"\b(?:you're|you are|your|you)\b", re.IGNORECASE)
_THEY = {"you're": "they're", "you are": "they are", "your": "their", "you": "they"}
#: A name, after a sentence's first word.
_NAME = re.compile(r"\b[A-Z][\w'-]+")
#: A sentence about the thing just named, by "it": "It's afrobeats …", "it is now on …".
IT = re.compile(r"It(?=(?:'s| is| was| will| moves| has)\b)")


def _words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[\w'-]+", text)}


def only_reply(text: str) -> bool:
    """``text`` answers without saying anything: "Yes!", "Later, thanks."."""
    return _words(text) <= _REPLY_WORDS


def answered(question: str, reply: str, name: str) -> str | None:
    """``reply``, by ``name``, said with the ``question`` it answers, when alone it says
    nothing ("Wood-fired everything."); else None."""
    words = _words(reply)
    if (
        not question.endswith("?")
        # (a yes or no question only with a reply that names something: "Yep, along the
        # Svratka", or says when: "Yes! Sunday afternoons at 2pm")
        or not (_ASKS.match(question) or _NAME.search(reply, 1) or WHEN_ALONE.match(reply))
        or len(words) < 2
        or words <= _REPLY_WORDS
        or reply.endswith("?")
        or (len(words) > 2 and is_chatter(reply))
    ):
        return None
    asked = _YOU.sub(lambda you: _THEY[you[0].casefold()], question)
    said = third_person(reply, name).rstrip(".!")
    return f'{name}, asked "{asked}", answered "{said}"'


#: A thing named alone, as a reply ("Choir!"), and a sentence saying when it is, with no
#: subject of its own ("Every Wednesday at 6pm at the community centre.").
_NAMED_ALONE = re.compile(r"[A-Z][a-z]+[!.]+")
_EVERY = re.compile(rf"(?:Every|On) (?i:{WEEKDAYS})s?\b")


#: A thing joined or taken up, said alone: "new thing: I've joined parkrun!".
_JOINED = re.compile(
    r"(?:[\w ]{3,20}: )?(?:I've |I have |we've |we have )?"
    r"(?:joined|started|signed up for|took up|taken up) [^.!?,;]+[!.]+"
)


def named_then_when(text: str, said: str) -> str:
    """``text``, when ``said`` before it named a thing alone, or one joined, and ``text``
    says when it is ("Choir! Every Wednesday at 6pm", "I've joined parkrun! every Saturday,
    Graves Park."): the thing with its when; else as it is."""
    if not (WHEN_ALONE.match(text) or _EVERY.match(text)):
        return text
    if _NAMED_ALONE.fullmatch(said) and not only_reply(said):
        return f"{said.rstrip('!.')} {text[0].lower()}{text[1:]}"
    if _JOINED.fullmatch(said):
        return f"{said.rstrip('!.')}, {text[0].lower()}{text[1:]}"
    return text


def continues(text: str) -> bool:
    """``text`` goes on about what an answer named ("It's afrobeats …"), and is no goodbye."""
    return bool(IT.match(text)) and not is_chatter(text) and not text.endswith("?")
