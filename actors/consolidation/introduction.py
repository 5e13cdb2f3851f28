"""Who is speaking, and what they are, said in an introduction: "Siobhan here, physio in
Galway", "I'm Kenji, sous-chef at Kaiyo", "Team lead at Nexcall Cebu here, 33". Each is cut
into first-person statements the rest of the extractive path reads as any other ("I'm
Siobhan.", "I'm a physio in Galway."). See docs/design.md, "Facts that stay true"."""

from __future__ import annotations

import re

from .attributes import PET
from .casual import cased as _cased
from .clauses import clauses
from .persons import names_a_person, names_an_origin
from .sentences import EMOJI
from .third_person import article, past_verb, word_set, works_as
from .words import HOMES, RELATIVES, UPPER

__all__ = ["INITIALISM", "introduced", "opened_by_name"]

#: A trade's initialism: "UX designer", "PhD student", "MSc student".
INITIALISM = r"(?=[A-Za-z]{2,4}\b)[A-Z][a-z]?[A-Z][A-Za-z]{0,2}"

#: "Siobhan here, physio in Galway", "Firefighter in Atlanta here, need …", "I'm Kenji,
#: sous-chef at Kaiyo": who is speaking, and what they are.
_HERE = re.compile(
    # (after a greeting no list holds: "G'day, Brad here", "Selam, I'm Dawit", "hiii I'm Itzel")
    rf"^(?:(?!I'm |I am )[\w'’-]+(?: [\w'’-]+)?(?:, (?=[{UPPER}][\w'-]* here\b|I'm |I am |My name)|"
    r" (?=I'm |I am |My name)))?"
    rf"(?:(?:(?P<who>[{UPPER}][\w'-]*)|(?P<trade>[{UPPER}][\w'-]*(?: [a-z][\w-]*){{0,2}}?)"
    rf"(?P<where> (?:in|from|at|near|outside) [{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)*)|"
    # (or what they are, then where: "Mum of three here in Toowoomba")
    # (not a thing of theirs said to be here: "Our life is here in Adelaide")
    rf"(?P<being>(?!(?:My|Our|Their|His|Her|Your)\b)[{UPPER}][a-z]+(?: (?!(?:is|are|was|were)\b)[a-z]+){{1,3}}"
    rf"(?= here in [{UPPER}])))"
    # (or where from or in: "Sione here from South Auckland")
    rf" here(?:[,.!]\s*|$|\s(?=(?:from|in) [{UPPER}]))|"
    rf"(?:I'm|I am|My name is|My name's|Name's) (?P<named>[{UPPER}][\w'-]*)"
    # (and a surname: "I am Hiroshi Tanaka, a retired teacher"; or where from, "I am Kenji
    # from Osaka")
    rf"(?: [{UPPER}][\w'-]*)?(?:, | [—–-] | (?=(?:from|based in|living in) (?:the )?[{UPPER}])))"
    r"(?P<rest>.*)$"
)
#: A word of where someone is from, before the rest: "polish, from Lodz", "venezuelan from".
_ORIGIN = re.compile(r"(?P<word>[a-z]{4,}),? (?=from |originally )")
#: What an introduction's apposition says of the speaker as it stands: "from Trondheim".
_SAID_OF_ME = re.compile(r"^(?:an?|the|from|originally|based|born|living) ")
_NOBODY = word_set(
    "anyone anybody nobody everyone everybody someone somebody nothing it who i i'm we we're "
    "he he's she she's it's they they're you you're "
    # (and where one still is, no name: "still here in Nakuru obviously")
    "still right back just now only always also"
)
#: A word that opens a clause or names no trade: "we live in …", "me".
_PRONOUN = r"(?:i|me|we|us|you|they|them|he|him|she|her|it|my|our|their|his|its)"
#: What they do and where, after their name (and age): "44, nurse in the ER at Nordvik".
_TRADE_IN = re.compile(
    rf"^(?:(?P<age>\d{{1,3}}), )?(?:an? )?"  # (its own article: "26, a data analyst at …")
    # (a trade may open with an initialism: "UX designer at Kvist Design")
    # (and where they live: "retired railway signalman living in Shrewsbury")
    # (or a digit: "3D artist at Basalt Pixels")
    # (and which year of it: "2nd year sparky apprentice with …", "final-year student at …")
    rf"(?P<trade>(?:(?:\d(?:st|nd|rd|th)|first|second|third|final)[ -]year )?"
    # (of up to four words: "wind turbine technician offshore at Horns Rev")
    # (not what they are doing: "working on the Hill Project"; nor a clause, "we live in …",
    # "signed with the Acción Sur agency")
    rf"(?:(?![a-z]+ing |[a-z]+ed (?:with|at|to|for|from|in|on|by)\b|{_PRONOUN}\b)[a-z][\w-]*(?:'s)?|\d[A-Z]|{INITIALISM})(?: [a-z][\w-]*){{0,3}}?(?: living| based)? "
    r"(?:in|at|on|with|for|from|near|outside) "
    # (and the wider place after a comma: "near Dokkum, Friesland", ``_with_wider``)
    rf"[^,.!?]*?[{UPPER}][^,.!?]*(?:, [{UPPER}][^,.!?]*)?)"
)


#: A trade alone after the name, with no article ("I'm Ahmed, pediatric dentist."): words
#: that may be one (not "nice to meet you", "new here", "obviously", "a bit tired").
_TRADE_ALONE = re.compile(
    rf"(?!{_PRONOUN}\b)(?!.*\b(?:an?|the|to|you|and|so|just|here|too|now|again|nice|new|back|fine|good|ok|okay|"
    rf"sorry|tired|happy|bit|very|really)\b)(?:[a-z][\w-]*|{INITIALISM})(?: [a-z][\w-]*){{0,2}}"
    r"(?<!ly)(?<!ing)"
)


def introduced(body: str) -> list[str]:
    """The statements of an introduction that says "… here" ("Siobhan here, physio in
    Galway." → "I'm Siobhan.", "I'm a physio in Galway.") or opens with an age and a trade
    ("31, product manager at Steppe Pay"); [] for any other sentence."""
    found = _HERE.match(body)
    if found is None and (aged := _TRADE_IN.match(body)) and aged["age"]:
        # "31, product manager at Steppe Pay in Almaty, getting married": an age, then a trade
        rest = body[aged.end() :].strip(" ,.!")
        said = [f"I'm {aged['age']} years old.", f"I'm {article(aged['trade'])} {aged['trade']}."]
        return said + (clauses(f"I'm {rest}.") if re.match(r"[a-z]+ing\b", rest) else [])
    if found is None or (found["who"] or "").lower() in _NOBODY or body.endswith("?"):
        return []
    who, rest = found["who"] or found["named"] or "", found["rest"]
    # (where they are from, said first: "polish, from Lodz", "venezuelan from Maracaibo")
    origin = _ORIGIN.match(rest)
    if origin and names_an_origin(origin["word"]):
        told = [f"I'm {origin['word'].capitalize()}."]
        rest = rest[origin.end() :]
        return [*(introduced(f"I'm {who}, {rest}") or [f"I'm {who}.", *clauses(rest)]), *told]
    if found["named"]:  # "I'm Ingrid, from Trondheim"; not "I'm Ana, and I'm new": as said
        rest = re.sub(r"^(?:I'm|I am) (?=an? )", "", rest)  # ("I'm Diego, I'm a vet at …")
        # (or with its article left out, a person's word: "I am millwright at Carrow Foods")
        if (bare := _BARE_TRADE_AT.match(rest)) is not None:
            rest = rest[bare.end() :] if names_a_person(bare["head"]) else rest
        # (an age first: "I'm Itzel, 19, from Guadalajara")
        # (or a clause of theirs after it: "My name is Kelechi, 31, I live in Yaba")
        aged = re.match(r"(\d{1,3}), (?=(?:an?|the|from|originally|based|born|living) |I\b)", rest)
        # (or what they are doing, a participle before its object: "I'm Baraka, doing a
        # diploma in hospitality at …"; not a trade, "wedding photographer in …")
        doing = re.match(r"[a-z]+ing (?:an?|the|my|some|in|at|for|on|with|to|from)\b", rest)
        if aged or _SAID_OF_ME.match(rest) or doing:
            age = [f"I'm {aged[1]} years old."] if aged else []
            after = rest[aged.end() if aged else 0 :]
            return [
                f"I'm {who}.",
                *age,
                *clauses(after if after[:2] in ("I ", "I'") else f"I'm {after}"),
            ]
        if (trade := _TRADE_IN.match(rest)) is None:
            if alone := _TRADE_ALONE.fullmatch(
                rest.rstrip(".! ")
            ):  # "I'm Ahmed, pediatric dentist."
                return [f"I'm {who}.", f"{works_as(alone[0])}."]
            if said := _apposed(rest):
                return [f"I'm {who}.", *said]
            # (or what they are, by a person's noun, then its own words: "stay-at-home dad to
            # 3yo twins in Istanbul, my wife …", "retired librarian — 36 years at …"; not "nice
            # to meet you", "retired and …")
            being = _BEING.match(rest)
            if being and any(w and names_a_person(w) for w in being.groups()):
                return [f"I'm {who}.", *clauses(f"I'm {article(rest)} {rest}")]
            return []
        # (an age first: "I'm Eero, 31, junior programmer at …")
        age = [f"I'm {trade['age']} years old."] if trade["age"] else []
        work = _of_a_year(rest[trade.start("trade") :])
        return [f"I'm {who}.", *age, *clauses(f"I'm {article(trade['trade'])} {work}")]
    if found["trade"]:  # a trade and a place: "Firefighter in Atlanta here"
        said = [f"I'm {article(found['trade'])} {found['trade'].lower()}{found['where']}."]
    elif found["being"]:  # "Mum of three here in Toowoomba"
        said = [f"I'm {article(found['being'])} {found['being'].lower()}."]
    elif rest and (trade := _TRADE_IN.match(rest)):
        age = [f"I'm {trade['age']} years old."] if trade["age"] else []
        said, rest = (
            [f"I'm {who}.", *age, f"I'm {article(trade['trade'])} {_of_a_year(trade['trade'])}."],
            rest[trade.end() :],
        )
        # (what the employer is, said after it: "…, a small VFX studio in Amman", not them)
        rest = re.sub(r"^, an? [^,.!]*?(?= in [A-Z]|[,.!]|$)", "", rest)
    elif apposed := _apposed(rest):  # "Ilse here, cellist, based in Utrecht"
        said, rest = [f"I'm {who}.", *apposed], ""
    elif lone := _first_trade(rest):  # "Leocadia here, muralist, 63 and still climbing …"
        said, rest = [f"I'm {who}.", f"{works_as(lone)}."], rest[len(lone) :]
    else:
        said = [f"I'm {who}."]
    rest = rest.strip(" ,.!")
    if aged := re.match(r"(\d{1,3})(?:, | and |$)", rest):  # ("Team lead at Nexcall here, 33")
        said, rest = [*said, f"I'm {aged[1]} years old."], rest[aged.end() :]
    # ("…, working remote for Lumora", "…, from Otahuhu": still of the speaker)
    if re.match(r"[a-z]+ing\b", rest) or _SAID_OF_ME.match(rest):
        rest = f"I'm {rest}"
    elif rest and past_verb(rest.split()[0].rstrip(",")):
        rest = f"I {rest}"  # ("Hamish here, moved back to Oban last year": theirs too)
    elif place := re.match(rf"in ([{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)*),? ?", rest):
        # ("… here in Toowoomba, completely frazzled": where, and what else is said apart)
        said, rest = [*said, f"I'm based in {place[1]}."], rest[place.end() :]
    elif len(said) > 1 and re.match(r"\d+\+? (?:years?|yrs?)\b", rest):
        # ("Geoffrey here, retired postman, 38 years on the rounds in Harrogate": how long in
        # the trade, said of it, not a sentence naming no one)
        said, rest = [*said[:-1], f"{said[-1].rstrip('.')}, {rest}."], ""
    return said + (clauses(f"{rest}.") if rest else [])


#: A person's noun, of up to three words, then what it is of or where: "stay-at-home dad to
#: 3yo twins", "mum of three in Leeds".
_BEING = re.compile(
    rf"(?!{_PRONOUN}\b)([a-z][\w-]*)(?: ([a-z][\w-]*))?(?: ([a-z][\w-]*))?"
    r"(?= (?:to|of|in|at|from|for|with)\b| ?[—–(]|,? based\b|[.!]?$)"
)


#: "I am" before a trade with no article, at an employer: "I am millwright at Carrow Foods"
#: (a word formed as a doer's is, "-er", "-ist", "-wright": not "I am happy at Zentra").
_BARE_TRADE_AT = re.compile(
    r"(?:I'm|I am) (?=(?P<head>[a-z][\w-]*(?:er|or|ist|ian|ant|man|wright|smith|eer|ier|ess)) "
    rf"(?:at|with|for) [{UPPER}])"
)
#: One thing said of the speaker in a list after their name: an age ("67 years old").
_AGE = re.compile(r"(\d{1,3})(?: years old)?")
#: … or where they are ("Osaka"; not an initialism, "CEO"), or live ("live in Mumbles").
_PLACE = re.compile(
    rf"(?:(?:north|south|east|west|central) )?[{UPPER}][a-z][\w'-]*(?: [{UPPER}][\w'-]*)*"
)
_LIVE_IN = re.compile(rf"(?:live|lives) in [{UPPER}][^,]*")
#: A turn opened by the speaker's name alone, as a sentence or before a comma: "Gareth. 58,
#: plumber, live in Mumbles.", "Kenji. 34. Osaka.", "Matti, Tampere. 55."
_NAME_FIRST = (  # (after a greeting: "alright, Segun here. drummer", "Kia ora. Tane. Paramedic")
    # (and a surname: "Morning. Lars Holm. Welder at …")
    # (and one word before it, "I am" in the language they greet in: "hola, soy Cristobal.")
    r"^(?:(?!{name}\b)[\w'’-]+(?: [\w'’-]+)?[,.!]+\s+)?(?:[a-z]+ )?(?P<name>{name})(?: [A-Z][\w'-]+)?"
    r"(?:(?P<here> here)?[.!]\s+|, )"
)


def opened_by_name(text: str, name: str | None) -> str:
    """``text`` with a telegraphic introduction said in full ("Kenji. 34. Osaka. New dad" →
    "I'm Kenji. I'm 34 years old. I'm based in Osaka. New dad"): the speaker's name alone,
    then the sentences after it that are only an age, a place, a trade or where they live;
    ``text`` as it is otherwise."""
    if not name:
        return text
    # (a dash or an emoji after "here" is the introduction's comma: "Ilse here — cellist, in
    # Utrecht", "Leilani here 🌺 29, dental hygienist at …")
    text = re.sub(rf"^((?:\S+\s+)?{re.escape(name)} here)\s*(?:[—–-]|{EMOJI}+)\s+", r"\1, ", text)
    # (and their name alone before a dash is "here": "Hi! Devika — architect at Mistry")
    text = re.sub(rf"^((?:\S+\s+)?{re.escape(name)})\s+[—–]\s+(?=[a-z])", r"\1 here, ", text)
    # (typed all in lower case, "hi. kenji. ski instructor in hakuba.": its names are cased)
    cased = _cased(text)
    # (and the name as typed: "hey. tanya. CO at …")
    if (found := re.match(_NAME_FIRST.format(name=f"(?i:{re.escape(name)})"), cased)) is None:
        return text
    text = cased
    said, rest = [f"I'm {name}."], text[found.end() :]
    while piece := re.match(r"([^.!?]+)(?:[.!]+\s*|$)", rest):
        parts = [_part(p) for p in _with_wider(piece[1].strip().split(", "))]
        if not all(parts):
            # (what the piece's first parts say, the rest as typed: "roofer, mostly slate jobs
            # round cardiff" says the trade)
            known = parts[: parts.index([])]
            if known:
                unsaid = piece[1].strip().split(", ")[len(known) :]
                said, rest = (
                    [*said, *(s for p in known for s in p)],
                    f"{', '.join(unsaid)}. {rest[piece.end() :]}",
                )
            break
        said, rest = [*said, *(s for part in parts for s in part)], rest[piece.end() :]
    if len(said) == 1 and (found[0].endswith(", ") or found["here"]):
        return text  # "Kwame, quick question: …": no introduction ("Kwame here." is one)
    return " ".join([*said, rest]).rstrip()


def _of_a_year(trade: str) -> str:
    """``trade`` with "student" after a year of a field, which says who studies it: "3rd year
    architecture at FAUP" is "3rd year architecture student at FAUP" (not "2nd year sparky
    apprentice", a doer's noun)."""
    year = _YEAR_OF.match(trade)
    if year is None or re.search(r"(?:er|or|ist|ian|ant|ent|man|ice|ee)$", year["field"]):
        return trade
    return f"{trade[: year.end()]} student{trade[year.end() :]}"


#: A year of a field, before where: "3rd year architecture at …", "first-year law in …".
_YEAR_OF = re.compile(
    r"(?:\d(?:st|nd|rd|th)|first|second|third|final)[ -]year (?:[a-z][\w-]* ){0,2}?"
    r"(?P<field>[a-z][\w-]*(?:'s)?)(?= (?:at|in|with|from) )"
)


def _first_trade(rest: str) -> str:
    """The trade a list after "… here" opens with, when the embedder places its head as a
    person ("muralist, 63 and …"; not "quick question, …"); else ""."""
    first = rest.split(", ")[0].rstrip(".! ")
    if not _TRADE_ALONE.fullmatch(first):
        return ""
    return first if names_a_person(first.split()[-1]) else ""


def _with_wider(parts: list[str]) -> list[str]:
    """``parts`` with a place after one that ends in a place joined to it, as the wider one:
    "Dairy farmer near Dokkum, Friesland" (not "… near Dokkum" and "based in Friesland")."""
    joined: list[str] = []
    for part in parts:
        # (and what the employer is, after it: "Welder at Eriksberg Marine, the shipyard in
        # Gothenburg")
        employer = (
            re.search(rf"\bat [{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)*$", joined[-1])
            if joined
            else None
        )
        # (its article left out too: "anaesthetist at Mermoz, private hospital in Lyon",
        # "UX researcher at Fintrix, payments startup"; not a trade, "…, postdoc")
        kind = _EMPLOYER_KIND.fullmatch(part) if employer else None
        if kind and not kind["a"] and not names_a_person(kind["head"]):
            joined[-1] = f"{joined[-1]}, {article(part)} {part}"
            continue
        # (or the name of their own business: "own business, Osei Pipeworks")
        if (
            (employer and re.match(r"(?:the|an?) [a-z]", part))
            or (joined and _PLACE.fullmatch(part) and _ENDS_IN_PLACE.search(joined[-1]))
            or (joined and _OWN.fullmatch(joined[-1]) and _PLACE.fullmatch(part))
        ):
            joined[-1] = f"{joined[-1]}, {part}"
        elif joined and _PLACE.fullmatch(joined[-1]) and _AREA.fullmatch(part):
            joined[-1] = f"{part}, {joined[-1]}"  # ("Accra, Osu area": the Osu area, Accra)
        else:
            joined.append(part)
    return joined


#: What an employer is, said after its name: "private hospital in Lyon", "a payments startup".
_EMPLOYER_KIND = re.compile(
    rf"(?P<a>(?:the|an?) )?(?:[a-z][\w-]* ){{0,3}}(?P<head>[a-z][\w-]*)"
    rf"(?: (?:in|near|outside) [{UPPER}][^,]*)?"
)
#: What their work mostly is, said after the trade: "mostly byzantine floors", "ice cores
#: mostly".
_MOSTLY = re.compile(
    rf"(?:(?P<how>mostly|mainly|largely|usually) (?!{_PRONOUN}\b)(?P<what>[^,]+)|"
    r"(?P<what2>[^,]+) (?P<how2>mostly|mainly))"
)
#: What the home costs, said as a list's part: "520 a month for a tiny studio".
_RENT_OF_HOME = re.compile(
    rf"(\S*\d\S* (?:a|per) (?:month|week))( for (?:an?|the|my) [^,]*{HOMES})"
)
#: An amount under its label, as a list's part: "rent 450e", "salary 3200 a month".
_PAID = re.compile(r"(rent|salary|pay) (\S*\d\S*(?: (?:a|per) (?:month|week|year))?)")
#: Their own business, said alone in a list: "own business", "own company".
_OWN = re.compile(r"(?:[Oo]wn|[Mm]y own) (business|company|shop|firm)")
#: Where they are, by the name of an area: "Osu area", "Kallio district".
_AREA = re.compile(
    rf"[{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)* (?:area|district|neighbourhood)(?:, [{UPPER}][\w'-]*)?"
)
_ENDS_IN_PLACE = re.compile(rf"\b(?:in|near|outside) [{UPPER}][\w'-]*$")


def _part(part: str) -> list[str]:
    """What one part of a list after a name says of the speaker ("58", "plumber", "live in
    Mumbles", "Tampere"), in the first person; [] when it is none of these."""
    if age := _AGE.fullmatch(part):
        return [f"I'm {age[1]} years old."]
    if own := _OWN.match(part):  # "own business, Osei Pipeworks"
        name = part[own.end() :].removeprefix(", ")
        return [f"I run my own {own[1]}{f' called {name}' if name else ''}."]
    if _AREA.fullmatch(part):  # "Osu area"
        return [f"I'm based in the {part}."]
    if _PLACE.fullmatch(part):
        # (a trade typed in capitals, as a list's first word: "Kwame. Plumber, own business",
        # which the embedder places as a person, not a place)
        if " " not in part and names_a_person(part.lower()):
            return [f"I'm {article(part)} {part.lower()}."]
        return [f"I'm based in {part}."]
    # (a sentence's first word in capitals: "Paramedic with St John", "Live in Riccarton")
    part = part[0].lower() + part[1:] if re.match(r"[A-Z][a-z]+\b(?!['-])", part) else part
    if _SAID_OF_ME.match(part) or re.match(r"[a-z]+ing\b", part):
        return clauses(f"I'm {part}.")
    if mostly := _MOSTLY.fullmatch(part):  # "mostly home births": what the work is
        how, what = mostly["how"] or mostly["how2"], mostly["what"] or mostly["what2"]
        # (or what they are doing: "mostly watching Merapi tremors")
        return [f"I'm {how} {what}." if re.match(r"[a-z]+ing\b", what) else f"I {how} do {what}."]
    if re.match(rf"(?:(?:new|tiny|small|little|big) )?{HOMES} in [{UPPER}]", part):
        return clauses(f"I live in a {part}.")  # "flat in Flogsta w/ my old cat Smilla"
    # ("wife Bianca", "cat Mrvica runs the place": whose, its "my" left out)
    if re.match(rf"(?i:{RELATIVES}|{PET.pattern}) [{UPPER}]", part):
        return clauses(f"My {part}.")
    if rent := _RENT_OF_HOME.fullmatch(part):  # "520 a month for a tiny studio"
        return [f"My rent is {rent[1]}{rent[2]}."]
    if place := re.fullmatch(rf"(?:based )?in ({_PLACE.pattern})", part):  # "in Kragujevac"
        return [f"I'm based in {place[1]}."]
    if paid := _PAID.fullmatch(part):  # "rent 450e"
        return [f"My {paid[1]} is {paid[2]}."]
    if _LIVE_IN.fullmatch(part):
        return [f"I {part.replace('lives', 'live')}."]
    # "bricklayer, with Krause Bau in Leipzig", "work at Restorica in Istanbul"
    if at := re.match(rf"(?:work |works )?(?:with|at|for) (?=[{UPPER}])", part):
        return [f"I work at {part[at.end() :]}."]
    if _TRADE_ALONE.fullmatch(part):
        return [f"{works_as(part)}."]
    # (and what the employer is, joined to it: "welder at Eriksberg Marine, the shipyard in …")
    if re.fullmatch(
        rf"(?:[a-z]|{INITIALISM})[^,]* at [{UPPER}][^,]*, (?:the|an?) [a-z][^,]*", part
    ):
        return [f"I'm {article(part)} {part}."]
    if _TRADE_IN.fullmatch(part):
        return [f"I'm {article(part)} {part}."]
    return []


def _apposed(rest: str) -> list[str]:
    """ "retired maths teacher, 67 years old, living in Pune": each part said of the speaker
    ("I'm a retired maths teacher.", "I'm 67 years old.", "I'm living in Pune."), when every
    part is a trade, an age or where they are, and one is a trade; else []."""
    said, what = [], False
    for part in rest.rstrip(".! ").split(", "):
        # (or, after the trade, a clause of theirs: "boatbuilder, I work at Saltbush …", "…,
        # we make obi and small bags")
        mine = (
            what
            and re.match(r"(?:I(?:'m| am| work| live)|[Ww]e|[Mm]y|[Oo]ur)\b", part)
            and clauses(f"{part}.")
        )
        if not (of_me := _part(part) or mine):
            return []
        said.extend(of_me)
        what = what or bool(_TRADE_ALONE.fullmatch(part) or _TRADE_IN.fullmatch(part))
    return said if what and len(said) > 1 else []
