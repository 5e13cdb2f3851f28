"""One claim per fact: a sentence cut into the claims it makes, which change apart.

"Sofie is a graphic designer at a studio called Inkwell in Aarhus" says her
trade ("works as a graphic designer": said with an employer or a place, a
noun is a trade whatever it is), who employs her and where she is; a move
keeps the job, a new employer the trade (issue 59, item 1); "lives in
Manchester with their boyfriend Leo" is where and with whom. See
docs/design.md, "Facts that stay true", step 1.
"""

from __future__ import annotations

import re

from reverie.store import Fact

from .attributes import PET, ROLES
from .signals import hedged
from .third_person import PAST, article
from .words import MONTHS, NAME_PARTICLES, RELATIVE, UPPER, WEEKDAYS, WORKPLACE

__all__ = ["claims"]

#: A place's name, not a day's or a month's ("saving up for a bike in June").
#: (with "of" inside it too: "the City of London", "Isle of Man")
_PLACE_NAME = rf"(?!(?i:{WEEKDAYS}|{MONTHS})\b)[{UPPER}][\w'-]*(?: (?:of )?[{UPPER}][\w'-]*)*"
_PLACE = rf"(?P<where>{_PLACE_NAME})"
#: Whose a fact is, at its start.
_WHO = (  # (not a number or a determiner: "Two weeks in our new flat in Chittagong")
    # (after a day it is said of: "Monday Kenji starts as head chef at Hanabi Bistro")
    rf"^(?:(?:On |From |Next |This )?(?i:{WEEKDAYS}|{MONTHS}|today|tomorrow),? )?(?P<who>The user(?: \([{UPPER}][\w-]*\))?|"
    rf"(?!(?:One|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Our|My|Their|The|This|That|"
    rf"These|Those|Some|All|Both|Most|Many|Now|Then|Also|Just|Still|Finally|So)\b)"
    # (nor a day: "Saturday mornings she has ballet at a studio in Kavaklıdere")
    rf"(?!(?i:{WEEKDAYS}|{MONTHS})s?\b)[{UPPER}][\w-]*)"
)
#: Taken on for a post: "got hired as", "was taken on as".
_HIRED_AS = r"(?:got |was |has been )?(?:hired|taken on) as"
#: "Sofie is a graphic designer at a studio called Inkwell in Aarhus": trade, employer, place.
_TRADE_AT_IN = re.compile(
    # (and how much: "works part-time as a pharmacy technician")
    # (and how much: "works part-time as", "works three days a week as")
    rf"{_WHO} (?P<trade>(?:is (?:now )?an?|works (?:(?:part|full)-time |nights |days |weekends |(?:[\w-]+ ){{1,2}}(?:days|nights|shifts) a week )?as(?: an?|(?= (?!usual|expected|planned|normal|always)[a-z]))|start(?:s|ed) as(?: an?)?|"
    # (or hired as one: "got hired as groundskeeper at Holston Hills")
    rf"{_HIRED_AS}(?: an?)?|"
    # (a trade with no article, as many write it: "is sous chef at Coral Cove")
    rf"is(?: now)?(?= (?:[\w-]+ )?(?:{ROLES})\b)|(?:took|got|accepted|"
    # (a trade's words may hold an acronym: "a QA tester")
    # (or its year: "a 2nd year sparky apprentice")
    r"started) an? (?:new )?(?:job|post|position|role) as an?|"
    # (or a post taken somewhere, its trade unsaid: "accepted a research post at …")
    r"(?:took|got|accepted|started) an?(?= (?:[a-z]+ )?(?:job|post|position|role) (?:at|with) ))"
    r" (?:(?:[a-z][\w'-]*|[A-Z]{2,}|\d(?:st|nd|rd|th)|\d+) ){0,4}?"
    # (who employs them: "at", or "with" and "for" a name: "a plumber with Redpipe Ltd")
    r"[a-z][\w'-]*)"
    # (and its grade, as an aside: "a cabinetmaker, journeyman level, at Treverk")
    r"(?:, (?P<grade>[a-z][\w-]*(?: [a-z][\w-]*){0,2}),(?= (?:at|with|for|in) [A-Z]))?"
    # (and the part of the workplace: "a controller in the tower at Keflavik")
    r"(?P<part> in the (?:[a-z][\w-]* ){0,2}[a-z][\w-]*(?= at [A-Z]))?"
    r"(?: (?:at|(?:with|for)(?= [A-Z])) (?P<at>(?:an? (?:[a-z][\w-]* ){0,3}"
    r"(?:called|named) |the )?"
    # (a title's abbreviation is in the name: "St. Joseph's Matriculation School")
    # (and the particles of a name in its language: "the Opificio delle Pietre Dure")
    rf"[A-Z][\w'&-]*(?:\.(?= [A-Z]))?(?:(?: & | of | {NAME_PARTICLES} | )[A-Z][\w'&-]*)*"
    # (a company's "Co." and the street it is on: "Crumb & Co. on Thomas Street")
    r"(?:(?<=\bCo)\.(?= ))?(?: on (?:the )?[A-Z][\w'-]*(?: [A-Z][\w'-]*)*)?"
    r"(?:(?: (?!here\b)[a-z]+){1,2}(?=[.!]?$| in ))?"
    # (and where from: "for Mainfreight out of the South Auckland depot")
    r"(?: out of (?:the )?[A-Z][^,.!]*)?"
    r"(?:, (?:an?|the) (?:[a-z][\w-]* ){0,3}[a-z][\w-]*"
    rf"(?: (?:in|outside|near) (?:the )?{_PLACE.replace('where', 'near')})?)?|"
    r"an? (?:[a-z][\w-]* ){0,3}[a-z][\w-]*|"
    # (or one by its kind with "the", where a place follows: "at the volcanology institute in
    # Bandung"; not "at the moment")
    r"the (?:[a-z][\w-]* ){0,2}[a-z][\w-]*(?= (?:in|outside|near) [A-Z])))?"
    # (and where: "living in Kazimierz in Krakow" is one place, said with the wider one)
    # (or just outside it: "at Kijani Lodge outside Arusha")
    # (or a part of it: "in the port of Rotterdam", "in the centre of Lyon")
    # (or, last, after a comma: "a dietitian at Soar Valley Hospital, Leicester")
    rf"(?:(?:(?: up| down| out| here|,? living|,? based)? (?:in|outside|near) (?:the )?|"
    rf", (?=[{UPPER}][\w'-]*[.!]*$))"
    r"(?:(?:port|city|town|village|centre|center|heart|outskirts|suburbs|old town) of )?"
    # (or with the wider one after a comma: "in Coyoacán, Mexico City")
    rf"(?P<where>{_PLACE_NAME}(?:,? in {_PLACE_NAME}|, {_PLACE_NAME})?))?"
    # (and the field, after it all: "… in Trondheim, microbiology")
    # (or how often: "…, three days a week"; or on what, a claim of its own: "…, currently on
    # nights Tuesday to Thursday")
    r"(?:, (?P<field>[a-z][\w-]*(?: [a-z][\w-]*){0,2}|[\w-]+ (?:days|shifts|nights) a week|\d+ to \d+))?"
    r"(?:, (?P<on>(?:currently |now )?on [^,.!]+))?"
    # (or what they do there most: "…, mostly watching Merapi tremors")
    r"(?:, (?P<doing>(?:mostly |mainly |currently )?[a-z]+ing\b[^,.!]*|(?:mostly|mainly) (?:with|on|for) [^,.!]+))?"
    # (or what else they are doing: "… in Santiago and trying to get better at sauces"; not a
    # trade's own words, "a strength and conditioning coach for Lotte Giants")
    r"(?: and (?P<also>(?![a-z]+ing (?:[a-z]+ )?(?:at|for|with) [A-Z])[a-z]+ing\b[^.!]*))?[.!]*$"
)
#: A place said to be their home after it: "mostly buildings in Bole, where Dawit also lives".
_WHERE_THEY_LIVE = re.compile(
    rf"^(?P<head>.+? in {_PLACE}), (?:which is )?where (?P<who>The user|[{UPPER}][\w-]*) "
    r"(?:also |now |still )?lives?(?: too)?[.!]?$"
)
#: A trade with more said after it than ``_TRADE_AT_IN`` reads: "is a croupier at the Ormond
#: Casino in Dublin, mostly late shifts, 8pm till 4am", "is a manicurist, been working at Glossy
#: Nails …": the trade is a claim of its own, the rest another (a new employer keeps the trade).
_TRADE_THEN = re.compile(
    rf"{_WHO} is (?:now )?(?P<a>an?) (?P<trade>(?:[a-z][\w'-]* ){{0,2}}[a-z][\w'-]*)"
    r"(?:(?P<prep> (?:at|on|in|out of|from) )(?=the [A-Z]|[A-Z])|, (?P<since>been|working) )"
    r"(?P<rest>.+)$"
)
#: What one is at a place without working there.
_NOT_A_TRADE = frozenset(["member", "regular", "customer", "client", "patient", "guest", "fan"])
#: A trade said as one ("is a dispatcher", "starts as head chef"), kept as "works as a …".
_AS_TRADE = re.compile(
    rf"^(?:is|start(?:s|ed) as|{_HIRED_AS}|"
    # (or worked as, its article left out: "I work as machinist at Ferrotex")
    r"works as(?= (?!an? )))"
    r" (?:now )?(?:(an?) )?"
)
#: What someone does, then (last) the place they do it in: two claims.
_DOING_IN = re.compile(
    # (what they do: not what they want, "needs help writing a CV in English"; nor a part in
    # an ensemble, "plays bass in Pakkanen", a band's name as well as a place's, unless "here")
    rf"{_WHO} (?P<what>(?!(?:lives|is based|was|has|needs|wants|hopes|plans|tries|likes|loves)\b)"
    r"(?!(?:plays|sings|performs|drums|dances)\b(?!.* here in ))"
    # (nor where a thing got is: "is buying a plot of land in Kasoa", "gets them from a farmer
    # in Baní")
    r"(?!(?:is )?(?:buying|buys|bought|gets|getting|orders|ordering|sources|sourcing)\b)"
    # (nor where someone moves: "is helping Ruth move into a flat in York", a move of Ruth's)
    r"(?![^.!?]*\b(?:move|moves|moved|moving|relocat\w*)\b)"
    r"[a-z]+s (?:[\w'-]+ )*?"
    # ("… translator based in Gatineau": "based" is where, not what)
    rf"[\w'-]+?)(?<!ing)(?: here| based| located)? in {_PLACE}[.!]?$"
)
_AT_HOME_IN = re.compile(
    rf"{_WHO} (?P<what>[^,;]+?),? (?:at|from) (?:their |the )?home in "
    r"(?P<where>[A-Z][\w'-]*(?:,? [A-Z][\w'-]*)*)[.!]?$"
)
#: Where someone lives and with whom: a claim for each ("moved to Leeds" is no move of Leo's,
#: a cat given away no break-up). The place is what is said before "with", up to a clause.
_LIVES_WITH = re.compile(
    rf"{_WHO}(?P<others> and others)? (?P<now>(?:now|still) )?(?P<verb>lives?|is based|is living|"
    r"stays?) (?:(?P<prep>in|on|at) (?P<where>(?:(?! and | but | so | because | where | who )[^,;])+?"
    r"(?:, (?:(?! and | but | so )[^,;])+?)?),? with (?P<whom>[^;]+?)|"
    rf"with (?P<whom2>[^,;]+?) in (?P<where2>{_PLACE_NAME}))[.!]?$"
)
#: One of those they live with, as it starts: whose, how many, a relation or a name.
_COMPANION = re.compile(
    rf"(?:their|his|her|our|my|two|three|four|five|\d+)\b|{RELATIVE.pattern}|[{UPPER}]"
)
#: A name said of the one before it ("a husky, Moli", "two kids, Andrei 9 and Bea 4").
_ITS_NAME = re.compile(rf"[{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)?(?: \(?\d{{1,2}}\)?)?")
#: Who they are, said of a name before it: "Leo, their boyfriend".
_WHO_THEY_ARE = re.compile(r"(?:their|his|her) [a-z]+|(?:who|which|that)\b.*")


def _lives_with(who: str, lives: str, one: str) -> str:
    """The line of one ``who`` lives with; a being named after its noun, no relative, is
    said "called" ("their old greyhound called Pudding"), as ``breeds`` reads a pet whose loss
    a later turn tells by its kind alone ("the dog now lives with my mother")."""
    named = re.fullmatch(rf"((?:their|our|my) (?:[a-z]+ )?([a-z]+)) ([{UPPER}][\w'-]*)", one)
    if named and not RELATIVE.fullmatch(named[2]):
        one = f"{named[1]} called {named[3]}"
    return f"{who} {lives} with {one}."


def _companions(whom: str) -> list[str] | None:
    """Those ``whom`` lists ("their husband Kamau, their two boys, and a very spoilt cat
    called Pilipili"), each with the names said of them; None when it is no such list."""
    said: list[str] = []
    named = 0  # (names said of the last one, when it was said by a noun: "a husky", "two kids")
    parts = re.split(r",? (?:and|plus) |, ", whom)
    for part, then in zip(parts, [*parts[1:], ""], strict=True):
        last = said[-1] if said else ""
        if last and _ITS_NAME.fullmatch(part) and (named or not re.search(f"[{UPPER}]", last)):
            said[-1] = f"{last}{' and ' if named else ', '}{part}"
            named += 1
        elif last and _WHO_THEY_ARE.fullmatch(part) and _ITS_NAME.fullmatch(last):
            said[-1] = f"{last}, {part}"  # ("Leo, their boyfriend")
        elif _COMPANION.match(part) or (
            # (one of a kind, a pet or named: "a cat called Pilipili", "a husky, Moli"; not
            # "a flat with a view")
            part.startswith(("a ", "an "))
            and (PET.search(part) or re.search(f"[{UPPER}]", part) or _ITS_NAME.fullmatch(then))
        ):
            said.append(part)
            named = 0
        else:
            return None
    return said


_EMPLOYER = rf"(?P<at>[{UPPER}][\w'&-]*(?: [{UPPER}][\w'&-]*)*)"
_AS = r"as (?:(?P<a>an?) )?(?P<trade>(?:[a-z][\w'-]*|[A-Z]{2,4})(?: [a-z][\w'-]*){0,3}?)"
#: And when: "started at Studio Nine as art director on Monday".
_WHEN = rf"(?: (?:on |this |last |next )?(?:(?i:{WEEKDAYS})|today|yesterday|week|month))?[.!]?$"
#: "joined Studio Nine as an art director", "was hired by Derwent Sparks as a first-year
#: apprentice electrician", "accepted an offer from Suez Gate as technical director"; or
#: the trade first, "got hired as sous-chef at Maíz Azul": an employer and a trade.
_JOINED_AS = [
    re.compile(
        rf"{_WHO} (?:has |just )?(?:joined|started at|was hired by|accepted an? (?:job )?offer "
        rf"from) {_EMPLOYER} {_AS}{_WHEN}"
    ),
    re.compile(
        rf"{_WHO} (?:has |just )?(?:got|was|has been) (?:hired|taken on|appointed) {_AS} at {_EMPLOYER}{_WHEN}"
    ),
]
#: Someone named and nothing said of them ("Yuki's husband Haruto.", "Thiago's dog Pipoca."),
#: what is left of "my husband Haruto and I …" cut apart: who they are, said in full.
_NAMED_ONLY = re.compile(
    rf"{_WHO}'s (?P<noun>(?:[a-z]+ )?[a-z]+),? (?P<name>[{UPPER}][\w'-]*)[.!]?$"
)
#: An age, then what else they are: "Henrik is 52, a carpenter at …", "Margaret is 74, from
#: Harrogate", "Jonas is 25, finishing their master's in Hamburg".
_AGED = re.compile(
    rf"{_WHO} is (?P<age>\d{{1,3}}), (?P<rest>(?:an?|from|originally|based|born|[a-z]{{3,}}ing) .+)$"
)
#: An age said after the rest: "is a postman in Aberystwyth, 58 years of age" ("74 years
#: young").
_AGED_AFTER = re.compile(
    rf"{_WHO} (?P<rest>is .+), (?:aged )?(?P<age>\d{{1,3}})(?: years (?:of age|old|young))?[.!]?$"
)
#: What they do besides, said as a participle after what they are: "is a vet in Guadalajara,
#: working as an associate vet at a clinic in Zapopan", "… and working part-time at Hapag".
_ALSO_DOING = re.compile(
    # (or any verb of what they do, where: "does security in Kingston, working for Ironwall")
    # (or what else they are, then "but": "is wedding photographer, brazilian but living in Porto")
    rf"{_WHO} (?P<first>(?:is|works|lives)\b[^,]*?(?:, [a-z]+(?= but))?|[a-z]{{2,}}s\b[^,]*? in [{UPPER}][^,]*?)"
    r"(?:,| and| but) "
    r"(?P<verb>working|living|studying|teaching|running|managing|owning) (?P<rest>.+)$"
)
_SAID_OF_ONE = {
    "working": "works",
    "living": "lives",
    "studying": "studies",
    "teaching": "teaches",
    "running": "runs",
    "managing": "manages",
    "owning": "owns",
}
#: What they earn, said after the rest by "net" or "gross": "works at Velokontor, bigger shop,
#: 2650 net".
_PAY_AFTER = re.compile(
    rf"{_WHO} (?P<head>.+?), (?P<pay>[^\w\s]?\d[\d,.]*k? (?:net|gross)(?: a month| a year)?)[.!]?$"
)
#: Two things ended in one breath: "quit Pixelworks and volleyball in the same week", "left
#: Pixelworks and graphic design behind" (each ends apart; not "left work and went home").
_THING = r"(?:(?:the|their|my|his|her) )?[\w'-]+(?: [a-z][\w'-]*)?"
_ENDED_BOTH = re.compile(
    rf"{_WHO} (?P<verb>(?:has )?(?:left|quit|dropped|sold|ditched|gave up|stopped)) "
    rf"(?P<a>{_THING}) and (?P<b>{_THING})"
    r"(?P<rest>(?: behind| for good| in the same \w+| (?:last|this) \w+| on \w+)?)"
    r"(?P<tail>,.*?)?[.!]?$"
)


#: A make ended, then another got in its place: "sold the Skoda to a guy from Kolding and
#: picked up a Kia EV6" (what one owns now is the second's alone).
_ENDED_THEN_GOT = re.compile(
    rf"{_WHO} (?P<ended>(?:sold|traded in|traded|scrapped|got rid of|gave away) "
    rf"(?:the|my|our|their) (?:old )?[{UPPER}][^,;]*?),? and "
    r"(?P<got>(?:picked up|got|bought|drove home|went for) (?:an?|the|my) .+)$"
)


_VERB = re.compile(rf"(?:[a-z]+ed|{'|'.join(sorted(PAST))})$")


def claims(fact: Fact) -> list[Fact]:
    """``fact`` as the claims it makes, which change apart: "Sofie is a designer at a studio
    called Inkwell in Aarhus" says her trade, who employs her and where she is (a move keeps
    the job, a new employer the trade); any other fact is one claim."""
    # "Henrik is 52, a carpenter at …", "… a postman in Aberystwyth, 58 years of age": an age,
    # and more
    if aged := _AGED.match(fact.text) or _AGED_AFTER.match(fact.text):
        rest = aged["rest"].removeprefix("is ")
        said = [f"{aged['who']} is {aged['age']}.", f"{aged['who']} is {rest.rstrip('.!')}."]
        return [c for t in said for c in claims(Fact(text=t, date=fact.date, sources=fact.sources))]
    if doing := _ALSO_DOING.match(fact.text):
        who, verb = doing["who"], _SAID_OF_ONE[doing["verb"]]
        first = claims(Fact(text=f"{who} {doing['first']}.", date=fact.date, sources=fact.sources))
        also = Fact(text=f"{who} {verb} {doing['rest']}", date=fact.date, sources=fact.sources)
        # (a place said already is where they are; the next is where they work: "a vet in
        # Guadalajara, working at a clinic in Zapopan" is not based in Zapopan too)
        # (where they live is a claim of its own, and with whom: "…, living in Chartrons with
        # my boyfriend Gaspard")
        apart = verb == "lives" or " in " not in doing["first"]
        return first + (claims(also) if apart else [also])
    # (after when: "Now Lukas works at Velokontor, bigger shop, 2650 net.")
    lead = re.match(r"(?:Now|So|And|Also|Then),? ", fact.text)
    if pay := _PAY_AFTER.match(fact.text[lead.end() if lead else 0 :]):
        stated = f"{lead[0] if lead else ''}{pay['who']} {pay['head']}."
        head = Fact(text=stated, date=fact.date, sources=fact.sources)
        earns = Fact(text=f"{pay['who']} earns {pay['pay']}.", date=fact.date, sources=fact.sources)
        return [*claims(head), earns]
    if (both := _ENDED_BOTH.match(fact.text)) and not _VERB.match(both["b"].split()[0]):
        who, verb, rest, tail = both["who"], both["verb"], both["rest"], both["tail"] or ""
        said = [f"{who} {verb} {both['a']}{rest}.", f"{who} {verb} {both['b']}{rest}{tail}."]
        return [Fact(text=text, date=fact.date, sources=fact.sources) for text in said]
    if then := _ENDED_THEN_GOT.match(fact.text):
        said = [f"{then['who']} {then['ended']}.", f"{then['who']} {then['got']}"]
        return [Fact(text=text, date=fact.date, sources=fact.sources) for text in said]
    if home := _WHERE_THEY_LIVE.match(fact.text):  # "… in Bole, where Dawit also lives"
        said = [f"{home['head']}.", f"{home['who']} lives in {home['where']}."]
        return [Fact(text=text, date=fact.date, sources=fact.sources) for text in said]
    named = _NAMED_ONLY.match(fact.text)
    noun = named["noun"].split()[-1] if named else ""
    relative = bool(RELATIVE.fullmatch(noun))
    if named and (relative or PET.fullmatch(noun)):
        verb = "is" if relative else "is called"
        texts = [f"{named['who']}'s {named['noun']} {verb} {named['name']}."]
    elif (home := _LIVES_WITH.match(fact.text)) and (
        whom := _companions(home["whom"] or home["whom2"])
    ):
        who = f"{home['who']}{home['others'] or ''}"
        verb = home["verb"] if home["verb"] in ("live", "lives", "stay", "stays") else "lives"
        lives = "live" if home["others"] else "lives"
        where = f"{home['prep'] or 'in'} {home['where'] or home['where2']}"
        texts = [f"{who} {home['now'] or ''}{verb} {where}."]
        texts += [_lives_with(who, lives, one) for one in whom]
    elif joined := next(filter(None, (form.match(fact.text) for form in _JOINED_AS)), None):
        who, trade = joined["who"], joined["trade"]
        texts = [
            f"{who} works as {joined['a'] or article(trade)} {trade}.",
            f"{who} works at {joined['at']}.",
        ]
    elif home := _AT_HOME_IN.match(fact.text):  # "draws at home in Mapo": and lives there
        texts = [f"{home['who']} {home['what']}.", f"{home['who']} lives in {home['where']}."]
    elif (
        # (after when: "Now Shigeru works three days a week as a gardener at …")
        (found := _TRADE_AT_IN.match(fact.text[lead.end() if lead else 0 :]))
        and (found["at"] or found["where"])
        # (a member or a regular of a place works for nobody there: "a member at David Lloyd")
        and found["trade"].split()[-1] not in _NOT_A_TRADE
    ):
        who, trade = found["who"], found["trade"]
        # "is a dispatcher at TransBalkan" says it is a trade: kept as one, whatever its noun
        # (a student studies where they are one: "a second-year student at Alexandria University")
        studies = trade.endswith(("student", "pupil"))
        # (nor does one retired from it: "a retired mathematics teacher")
        retired = re.search(r"\b(?:retired|former|ex-)", trade)
        if (said_as := _AS_TRADE.match(trade)) and not studies and not retired:
            noun = trade[said_as.end() :]
            trade = f"works as {said_as[1] or article(noun)} {noun}"
        field = "".join(f", {found[part]}" for part in ("grade", "field") if found[part])
        # (a post taken, with no more said of it, is said by where: "got a job in Helsinki")
        bare = re.fullmatch(r"\w+ an? (?:new )?(?:job|post|position|role)", trade) and not field
        texts = [] if bare else [f"{who} {trade}{field}."]
        at = "studies at" if studies else "works at"
        at = f"works{found['part']} at" if found["part"] else at
        texts += [f"{who} {at} {found['at']}."] if found["at"] else []
        # (where they are: said of them, or of their employer, "Kaiyo, a seafood place in Osaka")
        near = found["near"] or ""
        where = found["where"] or (
            near if re.search(rf" in (?:the )?{re.escape(near)}", fact.text) else ""
        )
        # (a workplace by its kind is where they work: "nurse in the Hospital La Paz")
        workplace = bool(where) and re.search(rf"\b{WORKPLACE}\b", where)
        texts += [f"{who} {'works at' if workplace else 'is based in'} {where}."] if where else []
        texts += [f"{who} is {found['on']}."] if found["on"] else []
        # ("…, mostly watching tremors", "…, mostly with the elephants")
        if tail := found["doing"]:
            texts += [f"{who} {'is' if re.search('ing ', f'{tail} ') else 'works'} {tail}."]
        texts += [f"{who} is {found['also']}."] if found["also"] else []
        if lead and texts:
            texts[0] = f"{lead[0]}{texts[0]}"
    # "teaches yoga in Haifa", "… here in Hamburg" (not "is thinking about a job in Hamburg")
    elif (doing := _DOING_IN.match(fact.text)) and not hedged(fact.text):
        texts = [
            f"{doing['who']} {doing['what']}.",
            f"{doing['who']} is based in {doing['where']}.",
        ]
    elif (
        (then := _TRADE_THEN.match(fact.text))
        and not re.search(r"(?:ed|ing|ly)$|\b(?:student|pupil|retired|former|ex-)", then["trade"])
        and then["trade"].split()[-1] not in _NOT_A_TRADE
        and not hedged(fact.text)
    ):
        who, rest = then["who"], then["rest"]
        texts = [f"{who} works as {then['a']} {then['trade']}."]
        since = {"been": "has been", "working": "is working"}.get(then["since"] or "")
        # (and where they live, said after it with no subject: "…, live out in Midleton")
        rest, *lived = re.split(r", (?=(?:live|lives|living|based)\b)", rest, maxsplit=1)
        # (where they are, by a place's name: "a photographer in Mexico City, mostly food")
        placed = {" from ": "is", " in ": "is based" if rest[:1].isupper() else "works"}
        verb = since or placed.get(then["prep"], "works") + then["prep"].rstrip()
        texts += [f"{who} {verb} {rest.rstrip('.!')}."]
        lives = re.sub(r"^(?:live|lives|living)\b", "lives", lived[0]) if lived else ""
        texts += [f"{who} {'is ' if lives.startswith('based') else ''}{lives}"] if lives else []
    else:
        return [fact]
    return [Fact(text=text, date=fact.date, sources=fact.sources) for text in texts]
