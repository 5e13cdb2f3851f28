"""A good model, scripted: the fake LLM answering consolidation as a careful model would.

``answer(request)`` is a ``tests/fakellm.py`` handler (``FakeLLM(default=answer)``).
It reads only the request it is sent: the memory block (``- #id [date] text``)
and the turns. It writes what a careful model writes for facts that change:

- one fact per statement of the user, in the user's words (reverie puts a
  first-person copy in the third person), one value per fact where a
  sentence bundles several ("I'm a nurse at Nordvik Hospital in
  Gothenburg" also gives "I'm at Nordvik Hospital", "I'm in Gothenburg");
  openers, greetings, thanks, questions and the assistant's words are left out;
- a statement about something a shown fact already says (the same kind:
  home, role, employer, partner, a pet of one species, phone, car, age,
  birthday, diet, the name of a product, the date or place of an event)
  replaces it: an update of the first such fact by its id, deletes of the
  others; "forget the trip", "scratch the race" delete by id.

It is there to test reverie's update and delete mechanism (ids, grounding,
in-place replacement), not a model: its rules are a few dozen patterns.
``evals/memory_truth/`` runs it as its ``scripted`` path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_MEMORY = re.compile(r"^- #([0-9a-f]{8}) (?:\[\d{4}-\d{2}-\d{2}\] )?(.+)$")
_HEAD = re.compile(r"^\[#\d+ \S+ \S+ (\w+)(?: \((.+)\))?\]$")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_OPENER = re.compile(
    r"^(?:(?:oh|also|and|so|anyway|well|actually|ugh|oops|random|but|fyi|heads up|by the way|"
    r"on a brighter note|on the plus side|bad news|happier news|news)\b[,!:]?\s+|"
    r"(?:[\w']+ ){0,4}[\w']+\s*[:—–]\s+)+",
    re.IGNORECASE,
)
_FIRST = re.compile(r"\b(I|I'm|I've|I'd|me|my|My|myself|we|We|we're|our|Our)\b")
_SPLIT = re.compile(
    r",?\s+(?:and|but|so)\s+(?=(?:I|I'm|I've|we|my)\b(?! are| were))|;\s+|,\s+(?=(?:I|I'm|I've|my)\b)"
)
_SHARED_I = re.compile(r",?\s+and\s+(?=(?:work|live|bought|started)\b)")
_REL = r"(?:wife|husband|partner|girlfriend|boyfriend|fianc[eé]e?|sister|brother|co-host|cat|dog)"
_MY_REL = re.compile(rf"\b[Mm]y ({_REL}) ([A-Z][a-z]+)\b")
_CALLED = re.compile(r" (?:called|named|codenamed) [A-Z][\w ]*?(?=,|$| in )")
_AT_IN = re.compile(r" at ([A-Z]\w*(?: [A-Z]\w*)*)(?: in ([A-Z]\w+))?")
_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
)
_EVENTS = {
    "trip": "trip holiday vacation itinerary planning",
    "race": "race marathon",
    "wedding": "wedding",
    "visit": "visiting visit coming",
}
_THINGS = r"\b(app|product|podcast|bakery|studio|band|shop|blog|channel|project|business)\b"
_KINDS = [
    (
        "home",
        rf"\b(live|lives|living|based in|moved|relocated)\b|\b(?:I'm|is) in (?!{_MONTH})(?-i:[A-Z])",
    ),
    (
        "role",
        r"\b(teacher|teach|teaches|engineer|developer|designer|pharmacist|nurse|manager|"
        r"translator|ward|department|notice|transferred|job as)\b",
    ),
    ("employer", r"\b(?:at|for) (?:(?:a|an) (?:\w+ ){0,2}called )?(?-i:[A-Z])"),
    (
        "partner",
        r"\b(girlfriend|boyfriend|wife|husband|partner|fianc\w*|seeing someone|single|"
        r"separated|ended things|on my own|married|proposed)\b",
    ),
    ("cat", r"\b(cat|kitten)\b"),
    ("dog", r"\b(dog|puppy)\b"),
    ("rabbit", r"\b(rabbit|bunny)\b"),
    ("phone", r"\b(phone|iphone|pixel|nokia|fairphone|samsung|galaxy|motorola)\b"),
    ("car", r"\b(car|van|skoda|volvo|toyota|fiat|renault|tata|ford|tesla|vw)\b"),
    ("age", r"\b(age|aged|years old)\b|\b(?:I'm|is|am) (?:actually )?[1-9]\d\b(?![\d%])"),
    ("birthday", r"\bbirthday\b"),
    ("diet", r"\b(vegetarian|pescatarian|vegan|caffeine|coffee|tea|rooibos)\b"),
]
#: Marks a statement split off another ("my wife Leena" → "My wife is Leena").
EXTRA = "\x00"
#: Kinds that a sentence about someone else ("My partner Javier is a developer") still has.
_NOUN_KINDS = {"partner", "cat", "dog", "rabbit", "phone", "car", "age", "birthday", "diet"}
_RETRACT = re.compile(
    r"\b(forget|scratch|cancel\w*|is off|not happening|called off)\b", re.IGNORECASE
)


@dataclass
class Shown:
    """A fact of the memory block: its id and text."""

    id: str
    text: str


@dataclass
class Turn:
    """A turn of the request: role, speaker's name (may be empty), content."""

    role: str
    name: str
    content: str


@dataclass
class Change:
    """One statement's effect: new text, and the shown facts it replaces."""

    text: str
    kinds: set[str]
    targets: list[str] = field(default_factory=list)


def parse(request: dict[str, Any]) -> tuple[list[Shown], list[Turn]]:
    """The shown facts (id, text) and the turns of a consolidation request."""
    user = request["messages"][-1]["content"]
    memory = user.partition("<memory>\n")[2].partition("</memory>")[0]
    shown = [Shown(*m.groups()) for line in memory.splitlines() if (m := _MEMORY.match(line))]
    turns: list[Turn] = []
    for line in user.partition("<turns>\n")[2].partition("\n</turns>")[0].splitlines():
        if head := _HEAD.match(line):
            turns.append(Turn(head.group(1), head.group(2) or "", ""))
        elif turns:
            turns[-1].content = (turns[-1].content + "\n" + line).strip()
    return shown, turns


def kinds(text: str, speaker: str) -> set[str]:
    """What ``text`` says something about, as the kinds a newer fact replaces."""
    about_self = bool(re.match(rf"^(I\b|I'm|I've|{re.escape(speaker)}\b(?!'s))", text))
    found = {k for k, pattern in _KINDS if re.search(pattern, text, re.IGNORECASE)}
    found -= set() if about_self or _FIRST.search(text) else {"home", "role", "employer"}
    if re.match(rf"^(?:[Mm]y|{re.escape(speaker)}'s) ", text) or not about_self:
        found &= _NOUN_KINDS | ({"home"} if re.search(r"\bwe\b", text) else set())
    if re.search(_THINGS, text) and re.search(r"\b(call|name|codename|renamed|rebranded)", text):
        found.add("name:" + re.search(_THINGS, text).group(1))  # type: ignore[union-attr]
    for event, words in _EVENTS.items():
        if re.search(rf"\b({words.replace(' ', '|')})\b", text, re.IGNORECASE):
            who = re.match(r"^(?:my |the |\w+'s )?(mum|mom|dad|sister|brother)\b", text, re.I)
            slot = f"{event}:{who.group(1).lower()}" if who else event
            if re.search(_MONTH, text):
                found.add(slot + ":when")
            if re.search(rf"\bin (?!{_MONTH})[A-Z]", text):
                found.add(slot + ":where")
    if not found and re.search(_MONTH, text):
        found.add("when:?")  # a date whose subject was lost ("It's in September")
    return found


def _clauses(sentence: str, speaker: str) -> list[str]:
    """A sentence cut into statements of one value each, openers and name introductions off."""
    text = _OPENER.sub("", sentence.strip()).rstrip(".!? ")
    text = re.sub(r"\s+(lol|haha)$", "", text)
    greeting = r"(?:(?:hi|hello|hey|hiya|hei|morning|good \w+)[,!.]?\s+)?"
    intro = rf"^{greeting}(?:(?:I'm|I am|Name's) {speaker}|{speaker} here)(?:,| and|\.|$)\s*"
    if re.match(intro, text, re.IGNORECASE):
        text = re.sub(intro, "", text, flags=re.IGNORECASE)
        if text and not _FIRST.match(text):
            text = "I'm " + text
    if re.match(r"^[A-Z]?[a-z]+ed\b", text) and not _FIRST.search(text.split(" ")[0]):
        text = "I " + text[0].lower() + text[1:]  # "Moved last weekend", "Treated myself …"
    text = re.sub(r"^I'm ([1-9]\d), ", r"I'm \1, I'm ", text)
    parts: list[str] = []
    for part in _SPLIT.split(text):
        if parts and len(parts[-1].split()) == 1:  # "Abena and I got married"
            part = f"{parts.pop()} and {part}"
        pieces = _SHARED_I.split(part)
        parts += [pieces[0], *(f"I {p}" for p in pieces[1:])]
    out: list[str] = []
    for part in parts:
        if m := re.match(r"^(.+? (?:is|are)) (in [^,]+), (in [A-Z][\w-]+)$", part):
            out += [f"{m.group(1)} {m.group(2)}", f"{m.group(1)} {m.group(3)}"]
            continue
        part = re.sub(r"(\w)\s*,?\s+(based|living) in\b", r"\1, I'm \2 in", part)
        head, *rest = part.split(", I'm ")
        out += [head, *(f"I'm {r}" for r in rest)]
    return [o for o in out if o]


def _extras(clause: str) -> list[str]:
    """The single values bundled in a clause: "my wife Leena", "at Nordvik Hospital in Gothenburg",
    a name after "called"."""
    extra = [f"My {m.group(1)} is {m.group(2)}" for m in _MY_REL.finditer(clause)]
    if "role" in kinds(clause, "") and (m := _AT_IN.search(clause)):
        extra.append(f"I'm at {m.group(1).strip()}")
        if m.group(2):
            extra.append(f"I'm in {m.group(2)}")
    if _CALLED.search(clause):
        extra.append(_CALLED.sub("", clause))
    return extra


def statements(turns: list[Turn]) -> list[str]:
    """What the user said that is worth a fact, each one value, in the user's words; the
    values split off a statement come after it, marked ``EXTRA``."""
    found: list[str] = []
    topic = ""
    asked = ""
    for turn in turns:
        if turn.role != "user":
            question = re.search(r"[Ww]hat(?:'s| is) your ([\w ]+)\?", turn.content)
            asked = question.group(1) if question else ""
            continue
        sentences = _SENTENCE.split(turn.content)
        joined: list[str] = []
        for sentence in sentences:
            if joined and re.match(r"^(A|An|Her name|His name) ", sentence):
                joined[-1] = joined[-1].rstrip(".!") + ", " + sentence[0].lower() + sentence[1:]
            else:
                joined.append(sentence)
        for i, sentence in enumerate(joined):
            if sentence.rstrip().endswith("?"):
                continue
            if asked and i == 0 and not _FIRST.search(sentence) and len(sentence.split()) < 6:
                found.append(f"My {asked} is {sentence.split(',')[0].rstrip('.!')}")
                continue
            nouns = re.findall(rf"{_THINGS}|\b(wedding|birthday)\b", sentence)
            topic = next((a or b for a, b in reversed(nouns)), topic)
            if topic:
                sentence = re.sub(r"^(?:[\w ]+:\s*)?[Ii]t's\b", f"The {topic} is", sentence)
            context = " ".join(joined[: i + 1])
            for clause in _clauses(sentence, turn.name):
                content = [w for w in re.findall(r"[\w'-]+", clause) if len(w) > 3]
                has_value = re.search(r"\d|\b[A-Z][a-z]+", clause.partition(" ")[2])
                if len(content) < 2 and not has_value:
                    continue
                if not _FIRST.search(clause) and not (has_value and kinds(clause, turn.name)):
                    continue
                if re.search(r"\bstill\b.*\bsame\b", clause):
                    continue  # "I still work for the same company": nothing changed
                clause = _resolve_place(clause, context)
                found += [clause + "."] + [f"{EXTRA}{e}." for e in _extras(clause)]
        asked = ""
    return found


def _resolve_place(clause: str, said: str) -> str:
    """ "we moved there": where to, from what the user said in the turn up to it."""
    if re.search(r"\bmoved\b", clause) and not re.search(r"\b(?:to|in) [A-Z]", clause):
        places = re.findall(r"\bin ([A-Z][a-z]+)", said)
        if places:
            return f"I moved to {places[-1]}"
    return clause


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The consolidation answer a careful model gives to ``request`` (a chat-completions body)."""
    shown, turns = parse(request)
    speaker = next((t.name for t in turns if t.role == "user" and t.name), "The user")
    taken: set[str] = set()
    changes: list[Change] = []
    deletes: list[str] = []
    for said in statements(turns):
        raw = said.removeprefix(EXTRA)
        if _RETRACT.search(raw):
            words = set(re.findall(r"\w+", raw.lower()))
            gone = set().union(
                *(set(w.split()) for w in _EVENTS.values() if set(w.split()) & words)
            )
            for fact in shown:
                if fact.id not in taken and set(re.findall(r"\w+", fact.text.lower())) & gone:
                    taken.add(fact.id)
                    deletes.append(fact.id)
            continue
        text = raw
        found = kinds(text, speaker)
        same = next((c for c in changes if c.targets and c.kinds & found), None)
        if same is not None and said.startswith(EXTRA):
            continue  # a value the statement it came from already changes
        if same is not None:  # a later statement on what an earlier one of these turns changed
            same.text, same.kinds = text, same.kinds | found
            continue
        change = Change(text, found)
        for fact in shown:
            theirs = kinds(fact.text, speaker)
            if fact.id in taken or not found or not (theirs & found or _dated(theirs, found)):
                continue
            taken.add(fact.id)
            change.targets.append(fact.id)
        changes.append(change)
    updates = [{"id": c.targets[0], "text": c.text} for c in changes if c.targets]
    deletes += [i for c in changes for i in c.targets[1:]]
    facts = [c.text for c in changes if not c.targets]
    summary = " ".join(c.text for c in changes)[:600]
    return {"summary": summary, "facts": facts[:8], "updates": updates[:4], "deletes": deletes[:4]}


def _dated(theirs: set[str], found: set[str]) -> bool:
    """A correction of a date meets a shown date that lost its subject."""
    return theirs == {"when:?"} and any(k.endswith(":when") for k in found)
