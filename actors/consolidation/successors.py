"""Someone (or a team) who took another's place for the speaker: the line of the one replaced.

"Prof. Esposito is my new supervisor", "the agency sent a new carer, Fatima",
"the childminder is retiring, we've found someone new, Nuala": a person new in a
role of the speaker's replaces the one line of theirs naming that role with someone
else in it. The role is the noun the sentence says ("supervisor", "carer"), matched
in the speaker's lines, so no table of roles is needed. A team joined ("a bunch of us joined
the Southside Stingers") takes the place of the one team of theirs. See docs/design.md,
"Memory that stays true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .attributes import TEAM
from .ownership import same_turn, theirs
from .words import DOCTOR_TITLES, UPPER

__all__ = ["succeeded"]

#: Someone who took the place of another of theirs: "Prof. Esposito is my new supervisor",
#: "my new landlord is Mr Osei", "I report to Yolanda now" (their boss).
_NEW_ONE = re.compile(
    # (or with "now" for "new": "Harriet from the Berlin office is my manager now")
    rf"\b(?:is|'s) (?P<whose>my|their|our|[{UPPER}][\w-]*'s) "
    rf"(?:new (?P<noun>[a-z]{{3,}})\b|(?P<now>[a-z]{{3,}}) now\b)|"
    rf"\b(?P<whose2>my|their|our|[{UPPER}][\w-]*'s) new (?P<noun2>[a-z]{{3,}}) is [{UPPER}]|"
    # (or the new one where they work or live: "the new payroll manager is Raj", "The new carer
    # is called Grace")
    rf"\b(?P<whose4>[Tt]he) new (?:[a-z]+ )?(?P<noun4>[a-z]{{3,}}) is (?:called |named )?"
    rf"(?P<name4>[{UPPER}][\w-]*)|"
    # (or the one they report to now: "I report to Yolanda now")
    rf"^(?P<whose3>[{UPPER}][\w-]*) (?:now )?reports? to [{UPPER}][\w-]*(?: now\b)?"
)
#: Someone new in a role, by name: "we've found someone new, Nuala", "Dr. Okafor from the
#: same institute is taking over my supervision".
_SOMEONE_NEW = re.compile(
    rf"\b(?:found|got|hired) (?:someone|somebody) new,? (?P<name>[{UPPER}][\w-]*)|"
    # (or "a new one", after the one who left: "our manager got moved … we've got a new one,
    # Marisol"; or the speaker, "my boss is leaving and they've offered me his job")
    # (or "new one is Senyo", "new one Dimas", after "worker changed", "mechanic also new")
    rf"\b(?:(?:a|the) new|(?<![\w-])[Nn]ew) one,? (?:called |named |is )?(?P<one>[{UPPER}][\w-]*)|"
    r"\b(?:offered|given|gave) (?P<me>me|them) (?:his|her|their) (?:job|role|post|position)\b|"
    rf"(?<![\w-])(?P<taker>[{UPPER}][\w-]*)(?: [\w-]+){{0,5}} (?:is taking|has taken|took) over\b|"
    # (or named after: "New one starts monday, her name's Yasmine", "the replacement is M.
    # Lefort", "We found Sister Funke through the church")
    rf"\b[Nn]ew one\b[^.;]*?\b(?:her|his|their) name(?:'s| is) (?P<called>[{UPPER}][\w-]*)|"
    rf"\breplacement is (?P<stand_in>(?:[{UPPER}][\w]*\.? )?[{UPPER}][\w-]*)|"
    rf"\bfound (?P<found>(?:[{UPPER}][\w]*\.? )?[{UPPER}][\w-]*) (?:through|via|from|at)\b"
)
#: Whoever had the role leaving it: "the childminder is retiring in June", "my manager retired",
#: "our manager got moved to the Milton site".
_ROLE_LEAVING = re.compile(
    r"\b(?P<whose>(?i:the|our|my|her|his|their)) (?P<noun>[a-z]{4,}) (?:(?:is|was|has|got|has been) )?"
    r"(?:retiring|retired|leaving|left|quit|resigned|moving away|moved away|moved|transferred|"
    r"went on (?:[a-z]+ )?leave)\b|"
    # (or the role said to have changed, first in its clause: "Worker changed, the boy left",
    # "mechanic also new, the old one went back to Solo")
    r"(?:^|[.!?;,] )(?:(?i:and|also|so) )?(?P<role>(?i:[a-z]{4,})) (?:also |too )?(?:changed?|new)\b"
)
#: A new one in a role, named after it: "the agency sent a new carer, Fatima", "we have a new
#: cleaner called Rui", or said as news, "New roommate too, Karine", "new flatmate is Vy", "New
#: home help, Kirsty" (not a thing: "a new bike, a Brompton", which names no line's person);
#: of two roles in one, the last: "New lead and mentor is Kasia".
_NEW_NAMED = re.compile(
    r"(?:\b(?:a|our|my|their) new|(?:^|(?<=[,:;] ))[Nn]ew) (?:[a-z]{3,} (?:and|&) )?"
    r"(?P<noun>(?:[a-z]{3,} )?(?!too\b|also\b)[a-z]{3,})"
    r"(?: too| also)?,? "
    # (and a surname: "a new accountant, Carla Rojas")
    rf"(?:called |named |is )?(?P<name>[{UPPER}][a-z]+)\b(?: [{UPPER}][a-z]+\b)?(?! [A-Z])"
)
#: A team joined, by its plural name (not beside another: "also joined the Harriers"); a line of
#: a team one plays with or for: "netball Saturdays with the Manurewa Mavericks".
_JOINED_TEAM = re.compile(rf"\bjoin(?:s|ed|ing)? {TEAM}(?!.*\b(?:too|as well)\b)")
_IN_A_TEAM = re.compile(rf"\b(?:with|for|in) {TEAM}")
#: Someone who does a thing for the speaker now: "Hidayah from Siti's street helps them now"
#: (not beside the one who did: "helps now too").
#: (or, of theirs by a tie, comes to do it: "Bao's cousin Thao comes to pack now", of "Linh
#: helps Bao to pack orders"; or "now" first, who they are after: "Now Doña Lupe, Carmen's
#: neighbour, helps them in the mornings")
_DOES_NOW = re.compile(
    rf"^(?:(?P<now>Now),? )?(?:[{UPPER}][\w-]*'s [a-z]+ )?(?P<who>[{UPPER}][\w-]*)"
    rf"(?: [{UPPER}][\w-]*)?(?:, [^,.;]+,)?(?: [\w'-]+){{0,6}}? "
    r"(?P<verb>[a-z]{3,}s)\b(?: to (?P<to>[a-z]{3,})\b)?(?(now)|[^,.;]*\bnow\b)"
    r"(?![^,.;]*\b(?:too|as well|also)\b)"
)


#: Someone who does it now, said after "now": "so now Mwangi takes the milk" (not beside the
#: one who did: "now Tom drinks the milk too").
_NOW_DOES = re.compile(
    rf"\bnow (?P<who>[{UPPER}][\w-]*) [a-z]{{3,}}s (?:the|our|my|their) (?P<noun>[a-z]{{3,}})\b"
    r"(?![^,.;]*\b(?:too|as well|also)\b)"
)

#: A doctor seen now, by title (the role a title says, as a noun does): "I'm doing telehealth
#: with a Dr Sinclair now", "now I see Dr Kariuki", "now it is a young lady, Dra. Velasco".
_TITLE = rf"\b(?:{DOCTOR_TITLES})\.? "
_DOCTOR_NOW = re.compile(
    rf"{_TITLE}(?P<name>[{UPPER}][\w-]*)\b(?=[^.;]*\bnow\b)|"
    rf"\b(?:now|new)\b[^.;]*?{_TITLE}(?P<name2>[{UPPER}][\w-]*)"
)


def succeeded(older: Sequence[Fact], new: Fact, turn: str, speaker: str) -> Fact | None:
    """The line of ``older`` naming whom the person ``new`` (said in ``turn``) tells of took
    over from, for ``speaker``: the one such line, else None."""
    role = _NEW_ONE.search(new.text)
    whose = role and (
        role["whose"] or role["whose2"] or (role["whose4"] and "our") or f"{role['whose3']}'s"
    )
    found = None
    if role and whose in ("my", "their", "our", f"{speaker}'s"):
        noun = (
            role["noun"]
            or role["now"]
            or role["noun2"]
            or role["noun4"]
            or "(?:boss|manager|supervisor|line manager)"
        )
        # (the new one is someone else: whose the line is, its words say; not the old one's
        # news said just before, "my assistant got married and moved to Irbid")
        before = [f for f in older if not same_turn(f, new)]
        # (not a line already naming the new one: "The new carer is called Grace" of "carer Grace")
        named_anew = rf"(?!.*\b{re.escape(role['name4'])}\b)" if role["name4"] else ""
        found = _one(
            before,
            rf"^{re.escape(speaker)}(?:'s| and others'?) (?:old )?{noun}\b{named_anew}",
            noun,
        )
    someone = _SOMEONE_NEW.search(new.text)
    if found is None and someone and (leaving := _ROLE_LEAVING.search(turn)):
        # "the childminder is retiring 😢 we've found someone new, Nuala": their line with her
        # (wherever it names the role of theirs: "Group meeting with Ilse's supervisor …")
        # (or the household's, "The babysitter Amandine …", "Their caregiver Kehinde …"; and a
        # child's, of "her teacher", "Lilou's teacher Mme Garnier")
        whose = rf"[{UPPER}][\w-]*'s" if leaving["whose"] in ("her", "his") else "(?!)"
        noun = (leaving["noun"] or leaving["role"]).lower()
        of_theirs = (
            rf"(?:\b{re.escape(speaker)}(?:'s| and others'?)|^(?:The|Their)|\b{whose}) {noun} "
        )
        new_one = next((v for k, v in someone.groupdict().items() if v and k != "me"), speaker)
        before = [f for f in older if not same_turn(f, new)]
        found = _one(before, f"{of_theirs}(?!.*{re.escape(new_one)})", noun)
    if found is None and (named := _NEW_NAMED.search(new.text)) and named["name"] != speaker:
        # "the agency sent a new carer, Fatima": their line with a carer someone else is (or,
        # got by the speaker, the carer's own: "Funmilayo's nanny Mama Bisi will feed him")
        got = bool(re.match(rf"{re.escape(speaker)}(?: and others)? got\b", new.text))
        mine = theirs(older, new, new.text, speaker, kin=got, cue=False) or []
        if named.start() == 0:  # ("New roommate too, Karine": news said of no one, theirs)
            mine = [
                f for f in older if re.match(rf"{re.escape(speaker)}(?:'s| and others'?) ", f.text)
            ]
        found = _one(
            mine, rf"\b{named['noun']}s?\b(?!.*\b{named['name']}\b).*(?<=\S )[{UPPER}][a-z]"
        )
    if found is None and _JOINED_TEAM.search(new.text) and not re.search(r"\balso\b", new.text):
        # "a bunch of us joined the Southside Stingers": the one team of theirs it replaces
        mine = theirs(older, new, new.text, speaker, cue=False) or []
        found = _one(mine, _IN_A_TEAM.pattern)
    if found is None and (now := _NOW_DOES.search(new.text)) and now["who"] != speaker:
        # "now Mwangi takes the milk": the one line of theirs with the milk and someone else
        # ("sells their milk to Kiganjo Dairy Cooperative")
        mine = theirs(older, new, new.text, speaker, cue=False) or []
        found = _one(
            mine, rf"\b(?:their|the) {now['noun']}\b(?!.*\b{now['who']}\b).*(?<=\S )[{UPPER}][a-z]"
        )
    if found is None and (doctor := _DOCTOR_NOW.search(new.text)):
        # "telehealth with a Dr Sinclair now": the one line of theirs naming another doctor
        mine = theirs(older, new, new.text, speaker, cue=False) or []
        other = re.escape(doctor["name"] or doctor["name2"])
        found = _one(mine, rf"{_TITLE}(?!{other}\b)[{UPPER}]")
    if found is None and (now := _DOES_NOW.match(new.text)) and now["who"] != speaker:
        # "Auntie Salmah helps every morning now": the one line of someone else's doing it for
        # them ("Hafiz's nephew Irfan helps them") had that place
        others = [f for f in older if now["who"] not in f.text]
        to = rf"|\b[a-z]+s (?:them|{re.escape(speaker)}) to {now['to']}\b" if now["to"] else ""
        found = _one(others, rf"\b{now['verb']} them\b{to}")
    return found


def _one(older: Sequence[Fact], pattern: str, role: str = "") -> Fact | None:
    """The one line of ``older`` matching ``pattern``; of several, the one naming whoever
    had ``role`` just after it ("apprentice Esra will print it", not "the apprentice leaves
    them"); else None."""
    held = [f for f in older if re.search(pattern, f.text)]
    if len(held) > 1 and role:
        held = [f for f in held if re.search(rf"\b(?:{role}) [{UPPER}]", f.text)]
    return held[0] if len(held) == 1 else None
