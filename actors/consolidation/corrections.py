"""A value said to be wrong, beside the one that is right: "sorry, ward 7, not ward 9", "the
stall is number 14, not 41", "I said 41 by mistake, the stall is number 14".

The turn names both values, so no key or kind is needed: the one line of the speaker's, said
before the turn, that holds the wrong value is written with the right one. Values are told
by their shape (a number, with the word it counts; a weekday; a name), and the right one must
have the wrong one's shape. A value and "not" another is a correction only when the sentence
says so ("sorry", "I meant", "typo") or the line shares a word with it ("the stall … number
41"): "I want two, not three" names no line's value. See docs/design.md, "Facts that stay
true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact, MessageRecord

from .announced import announced
from .nearness import content
from .ownership import theirs_before
from .revision import said_in_both
from .words import UPPER, WEEKDAYS

__all__ = ["put_right", "without_wrong"]

#: A value, by its shape: a number and the word it counts ("ward 7", "number 14", "2,400"), a
#: weekday, or a name of up to three words ("Dr Achterberg").
_VALUE = (
    r"(?:(?P<{g}lead>[a-z]+) )?(?P<{g}num>\d[\d,.]*)\b|"
    rf"(?P<{{g}}day>(?i:{WEEKDAYS})s?)\b|"
    rf"(?P<{{g}}name>(?:(?:Dr|Mr|Mrs|Ms)\.? )?[{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*){{{{0,2}}}})"
)


def _value(group: str) -> str:
    return _VALUE.format(g=group)


#: "ward 7, not ward 9", "14 not 41", "Thursday, not Tuesday".
_NOT = re.compile(rf"(?:{_value('r')}),? (?:and )?not (?:{_value('w')})(?![\w'-])")
#: "I said 41 by mistake", "41 was a typo".
_BY_MISTAKE = re.compile(
    rf"\b(?:said|typed|wrote|put) (?:{_value('w')}) (?:by (?:mistake|accident)|wrongly)|"
    rf"(?:{_value('x')}) (?:was|is) (?:a typo|wrong)\b"
)
#: The words that say a sentence puts right what was said.
_CUE = re.compile(
    r"^no\b|\b(?:sorry|oops|my bad|i mean|i meant|correction|actually|typo|mistake|wrong|mixed)\b",
    re.I,
)


def put_right(
    facts: Sequence[Fact],
    turns: Sequence[MessageRecord],
    speakers: dict[str, str],
    new_facts: Sequence[Fact],
) -> list[tuple[Fact, Fact | None]]:
    """Each line of ``facts`` the ``turns`` (of the job that said ``new_facts``) put right,
    with what stays of it: a wrong value said beside the right one, or a thing said to have
    changed (``announced``)."""
    session = next((s for f in new_facts for s in f.sources), "")
    return [*_corrected(facts, turns, speakers, session), *announced(facts, turns, speakers)]


def _corrected(
    facts: Sequence[Fact],
    turns: Sequence[MessageRecord],
    speakers: dict[str, str],
    session: str,
) -> list[tuple[Fact, Fact]]:
    """Each line of ``facts`` a turn of ``turns`` (said by ``speakers[turn.id]`` in
    ``session``) puts right, with that line as it is right."""
    changes: list[tuple[Fact, Fact]] = []
    for at, turn in enumerate(turns):
        if turn.role != "user":
            continue
        for sentence in re.split(r"(?<=[.!?;])\s+", turn.content):
            if found := _correction(sentence, turn.content):
                # (not a line said in the turn or after it)
                mine = theirs_before(facts, turns, at, speakers[turn.id])
                said = Fact(text=sentence, date="", sources={session: [turn.id]})
                if change := _put_right(mine, said, found):
                    changes.append(change)
    return changes


def without_wrong(text: str) -> str:
    """``text`` less the wrong value it names beside the right one ("The rent is 2,400 not
    2,100." is "The rent is 2,400."): a line keeps what is true, not what was mistaken."""
    if (found := _NOT.search(text)) is None or _correction(text, text) is None:
        return text
    right = max(found.end(f"r{part}") for part in ("num", "day", "name"))
    return f"{text[:right]}{text[found.end() :]}"


def _correction(sentence: str, turn: str) -> tuple[str, str, str] | None:
    """The (wrong, right) values ``sentence`` (of ``turn``) names, of one shape, and that
    shape; else None."""
    if found := _NOT.search(sentence):
        wrong, right, shape = _said(found, "w"), _said(found, "r"), _shape(found, "w")
        leads = found["rlead"], found["wlead"]
        # (a number counts one thing: "ward 7, not ward 9", "number 14, not 41"; not "ward 7,
        # not room 9")
        alike = shape == _shape(found, "r") and (None in leads or leads[0] == leads[1])
        return (wrong, right, shape) if alike and wrong != right else None
    if (found := _BY_MISTAKE.search(sentence)) is None:
        return None
    group = "w" if _said(found, "w") else "x"
    wrong, shape = _said(found, group), _shape(found, group)
    # (the right one is the turn's one other value of that shape: "the stall is number 14")
    others = {
        value
        for m in re.finditer(_value("o"), turn)
        if _shape(m, "o") == shape and (value := _said(m, "o")) != wrong
    }
    return (wrong, others.pop(), shape) if len(others) == 1 else None


def _said(found: re.Match[str], group: str) -> str:
    parts = ("num", "day", "name")
    return next((found[f"{group}{part}"] for part in parts if found[f"{group}{part}"]), "")


def _shape(found: re.Match[str], group: str) -> str:
    """What kind of value ``group`` of ``found`` is: a number, a weekday or a name."""
    return "number" if found[f"{group}num"] else "day" if found[f"{group}day"] else "name"


def _put_right(
    mine: Sequence[Fact], said: Fact, values: tuple[str, str, str]
) -> tuple[Fact, Fact] | None:
    """The one line of ``mine`` (the speaker's, said before ``said``) holding the wrong one of
    ``values``, with the right one in its place; None when none or two do, or, of a number or
    a day, nothing says the sentence corrects it (a name a line holds is evidence enough)."""
    wrong, right, shape = values
    # (the whole value: "Manly" is no "Manly Sharks")
    token = re.compile(rf"(?<![\w,.]){re.escape(wrong)}(?![\w'-]|[,.]\d| [{UPPER}])")
    held = [(f, m) for f in mine if (m := _whole(token, f.text))]
    if len(held) != 1:
        return None
    line, found = held[0]
    shared = content(said.text) & content(line.text) - {wrong.casefold()}
    if shape != "name" and not (_CUE.search(said.text) or shared):
        return None  # ("I want two, not three": no line's value)
    text = f"{line.text[: found.start()]}{right}{line.text[found.end() :]}"
    return line, Fact(text=text, date=line.date, sources=said_in_both(line, said))


def _whole(token: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The one place ``token`` is in ``text`` as a value of its own, not after a name it is
    part of ("Sharks" in "the Manly Sharks" is none)."""
    found = [
        m for m in token.finditer(text) if not re.search(rf"[{UPPER}][\w'-]* $", text[: m.start()])
    ]
    return found[0] if len(found) == 1 else None
