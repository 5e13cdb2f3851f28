"""A medicine the speaker takes, and a change of it said by its noun, by the drug they were
put onto or by its new dose: "the GP changed my tablets", "he switched me to apixaban" and
"GP upped it to 100mcg" are of "takes warfarin every day", whatever the drug's name. See
docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re

from reverie.store import known_word

from .signals import SWITCH
from .words import RELATIVE, UPPER

__all__ = ["medicine_changed", "takes_medicine"]

#: What one takes as a medicine, by its noun; a medicine switched by it ("changed my tablets",
#: "switched their blood pressure meds"); a line of one taken ("takes warfarin every day",
#: "takes a weekly tablet, alendronate": a word the vocabulary does not hold is a drug's name).
_MEDICINE = r"(?:tablets?|pills?|medicines?|medications?|meds|prescriptions?|doses?|inhalers?)"
_MEDICINE_CHANGED = re.compile(
    rf"\b(?:{SWITCH}|adjust|increas|lower|upp)\w* (?:my|our|their|the|[{UPPER}][\w-]*'s) "
    rf"(?:[a-z]+ ){{0,2}}{_MEDICINE}\b|"
    # (or the one taken till now, left: "the old pill wasn't working", "took me off the
    # tablets", "no more of those pills for the knees", "instead of that weekly pill"; "the
    # old tablet" is as likely a computer)
    r"\b(?:old (?!tablet)|(?:off|no more(?: of)?|instead of|stop(?:ped|s)?|quit) "
    rf"(?:(?:the|my|our|their|those|these|that|this|his|her) )?(?:[a-z]+ ){{0,2}}){_MEDICINE}\b"
)
#: A dose: "5mg", "100 mcg", "2.5 ml" (not "5k" nor "10km").
_DOSE = r"\b\d+(?:\.\d+)? ?(?:mg|mcg|µg|ml|iu|units?)\b"
#: A dose changed, whatever names the drug: "GP upped it to 100mcg", "fennelly doubled it,
#: 10mg", "upped the sertraline to 100mg", "doubled the BP tablets, 10mg amlodipine".
_DOSE_CHANGED = re.compile(
    r"\b(?:up|upp|doubl|halv|tripl|increas|rais|lower|reduc|cut|bump|dropp)\w* "
    rf"(?:it|them|(?:the|my|our|their|his|her) [^.;!?]*?)[ ,][^.;!?]*?{_DOSE}",
    re.IGNORECASE,
)
#: Someone put onto a drug, by its name: "he switched me to apixaban" (a word the vocabulary
#: does not hold); written capitalised, after "put … on" or with its dose ("put them on
#: Ramipril", "switched me to Losartan 50 mg": not "switched me to Vodafone").
_WHOM = rf"(?:me|them|[{UPPER}][\w-]*)"
_PUT_ONTO = re.compile(
    rf"\b(?:switched|moved|changed|put|started) {_WHOM} (?:on|onto|to) ([a-z]{{5,}})\b|"
    rf"\b(?:put|started) {_WHOM} on ([A-Z][a-z]{{4,}})\b|"
    rf"\b(?:switched|moved|changed) {_WHOM} (?:on|onto|to) ([A-Z][a-z]{{4,}}) \d+ ?(?:mg|mcg)\b"
)
#: A drug of theirs reviewed or renewed: "needs their ramipril reviewed".
_THEIRS_REVIEWED = re.compile(
    r"\b(?:their|my) ([a-z]{5,}) (?:reviewed|renewed|refilled|prescription|dose)\b"
)
_TAKES = re.compile(r"\btak(?:es|ing)\b((?: [A-Za-z,]+){1,4})")
#: A drug one is on: "was already on omeprazole", "keeping them on the Fosamax" (not a name
#: said without "the": "is on Pawshake now").
_ON = re.compile(r"\bon (?:the [A-Za-z]{4,}|[a-z]{4,})\b")


def medicine_changed(said: str) -> bool:
    """``said`` tells a medicine changed by its noun ("the GP changed my tablets"), a drug
    put onto or a new dose ("GP upped it to 100mcg")."""
    put = _PUT_ONTO.search(said)
    return bool(
        _MEDICINE_CHANGED.search(said)
        or _DOSE_CHANGED.search(said)
        or (put and not known_word(_drug(put)))
    )


def takes_medicine(text: str) -> bool:
    """``text`` says a medicine is taken, by its noun, a drug's name or a dose ("thinks the
    sertraline 50mg makes them sleepy")."""
    if re.search(_DOSE, text, re.IGNORECASE):
        return True
    taken = _TAKES.search(text)
    # (not someone taken somewhere: "takes their granddaughter Leonor from school")
    words = re.findall(r"[A-Za-z]{4,}", taken[1]) if taken and not RELATIVE.search(taken[1]) else []
    words += [m[0].split()[-1] for m in _ON.finditer(text)]
    words += [m[1] for m in _THEIRS_REVIEWED.finditer(text)]
    words += [_drug(m) for m in _PUT_ONTO.finditer(text)]  # ("put them on Ramipril")
    return any(re.fullmatch(_MEDICINE, w) or not known_word(w.casefold()) for w in words)


def _drug(put: re.Match[str]) -> str:
    """The drug ``_PUT_ONTO`` found, folded, whichever way it was written."""
    return next(g for g in put.groups() if g is not None).casefold()
