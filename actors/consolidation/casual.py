"""A user's casual typing, read as a careful writer's: "i" and "im" for "I" and "I'm", "dont"
for "don't", "movin" for "moving", a weekday and a sentence's first word in capitals, "me and my girlfriend", a relative named
without "my", an introduction by the bare name, and a value under a label ("Bike:
Specialized Allez.").
The rules that read sentences for facts assume the careful writer (issue 59; see
docs/design.md, "Facts that stay true", the extractive path).
"""

from __future__ import annotations

import re

from reverie.store import known_word

from .attributes import PET, ROLES
from .quoted import said_to_me
from .sentences import EMOJI
from .third_person import PAST, article, word_set, works_as
from .words import MONTHS, RELATIVES, UPPER, WEEKDAYS

__all__ = ["as_meant", "cased", "labelled"]

#: "I'm" and "I've" typed without their apostrophe: "im mateo, 22", "ive got a vivaro now".
_IM = re.compile(r"\b[Ii](m|ve)\b(?!['’-])")
#: The speaker's "I" typed in lower case: "i coach a team", "i'm outnumbered" (not "i.e.").
_LOWER_I = re.compile(r"(?<![\w'’.-])i(?=(?:['’](?:m|ve|d|ll))?(?![\w'’-]|\.\w))")

#: "It's" typed without its apostrophe, before what never follows the possessive "its": "its
#: my own business", "its a ford transit".
_ITS = re.compile(
    r"\b([Ii])ts(?= (?:my|our|a|an|the|not|so|been|going|gonna|just|really|very|too|still|now|"
    r"only|all)\b)"
)
#: A negation typed without its apostrophe: "i dont want", "cant make it", "didnt".
_NT = re.compile(r"\b(do|does|did|ca|wo|is|are|was|were|have|has|had|could|would|should)nt\b")
#: "I am" before a name in the languages users greet in: "Soy Valentina", "Ich bin Lena".
_I_AM_ABROAD = re.compile(
    rf"^(?:Soy|Sono|Ich bin|Je suis|Eu sou|Ik ben|Jestem|Jag är|Jeg er) (?=[{UPPER}])"
)
#: A weekday typed in lower case, a name all the same: "every tuesday", "movin to thursdays".
_WEEKDAY = re.compile(rf"\b{WEEKDAYS}s?\b")
#: A word typed without the last letter of its "-ing": "startin monday", "need changin".
_DROPPED_G = re.compile(r"\b([a-z]{2,}in)['’]?(?![\w'’])")
#: An aside inside a sentence, before its comma.
_ASIDE = re.compile(r",? (?i:by the way|btw)(?=, )")
#: The speaker named before their "I", for emphasis: "Myself I'm rated 1840", "As for me, I …".
_SELF_FIRST = re.compile(r"^(?i:(?:and |but )?(?:myself|me personally|as for me|me),? )(?=I\b)")
#: A thing of the speaker's named, opening a terse sentence without its "my", in lower case
#: (typed so, it is no name: "Mateo's called Teo" is Mateo's).
_THEIRS_UNSAID = re.compile(
    # (or said to be a thing named or counted: "day job is QA tester at Frostline Games", "rig
    # is a ryzen 7 with an rtx 3070")
    r"(?!(?:i|it|this|that|there|he|she|they|we|you|what|who|where|how|my|our|your|his|her|their|"
    r"the|a|an|and|but|so|or|yeah|yeh|yep|yup|nah|nope|ok|okay|oh|well)\b)"
    r"[a-z]+(?: (?!(?:it|this|that|there|he|she)\b)[a-z]+)?"
    # (or where it moves: "salary goes to 51000")
    r"(?:'s| is| goes (?:up |down )?to| went (?:up |down )?to) (?:(?:called|named) (?=[A-Z])|(?=[^.!?]*(?:[A-Z]|\d)))"
)
#: Words before a comma that are no claim, then a past verb without its "I": "Done deal,
#: signed with …" (not "My sister, signed …", "Tom and Ana, …").
_PAST = rf"(?:[a-z]+ed|{'|'.join(sorted(PAST))})\b"
_EXCLAIMED = re.compile(
    # (no verb of their own: not "Found one, moved into …")
    # (nor one's name, "Geoffrey here, retired postman, …": an introduction, ``introduction``)
    rf"^(?:(?!(?i:(?:my|our|his|her|their|the)\b|{_PAST}))[A-Z][a-z]+(?: (?!and\b|here\b)[a-z]+){{1,2}}|"
    # (or a reply's one word: "nah, went with a Framework 13")
    r"(?i:nah|yeah|yep|yup|nope|ok|okay|well|oh|anyway)), "
    rf"(?={_PAST})"
)
#: One of theirs named, then who they are, opening a sentence: "Pip, our whippet, needs …",
#: "And our Alfie, my grandson, is moving in …".
_NAMED_THEN_WHO = re.compile(
    rf"^(?:(?:And|Also|Oh and|Plus) )?(?:(?:[Oo]ur|[Mm]y) )?(?P<name>[{UPPER}][\w'-]+), (?P<whose>my|our) "
    r"(?P<noun>[a-z]+(?: [a-z]+)?), (?=[a-z])"
)
#: A relative of the speaker's opening a terse sentence without its "my" (not "Mate, …").
_KIN_OPENS = re.compile(
    # (or a pet, by its name: "Dog Otso.")
    rf"(?=[A-Z])(?i:(?:ex-)?(?:{RELATIVES})) (?=[A-Z]|just |[a-z]+s\b)"
    rf"|(?=[A-Z])(?i:{PET.pattern}) (?=[A-Z][\w'-]*[.!]*$)"
)


#: Where a name goes: after a word that places, joins or names a thing ("moved to grbavica",
#: "first week with pedidosya"; not a trade after "a": "a barista").
_BEFORE_A_NAME = re.compile(
    r"\b(?:in|at|for|with|from|near|outside|called|named|joined|"
    # ("to" a place gone to, not a verb: "need to restock", "allergic to shellfish")
    r"(?:move|moved|moving|relocated|switched|transferred|posted|went|going|back) to|"
    # (or after a thing driven, ridden or got: "i drive a navara", "got a 2019 triton")
    r"(?:drive|drives|driving|ride|rides|riding|got|bought|buy|picked up) "
    r"(?:(?:a|an|the|my|our)(?: \d{4})?|\d{4}))$"
)
#: Chat's own words, no names though no dictionary holds them.
_CHAT = word_set(
    "lol lmao haha hahaha hehe pls plz thx thanx tmrw tmr tbh idk omg btw imo ngl rn ty tysm "
    "ya yea yeah yep nope ok okay wk wks yr yrs hr hrs min mins sec secs bday bro bruh sis "
    "gonna wanna gotta kinda sorta dunno lemme gimme cuz coz tho thru"
)


def cased(text: str) -> str:
    """A sentence typed all in lower case, with the names in it capitalised where a name goes:
    a word the embedder's vocabulary does not hold (``store.known_word``) is a name ("we
    moved to grbavica", "first week with pedidosya done"), chat's own words aside."""
    # (capitals typed: the writer's own names stand; not an initialism's, "CO at the prison")
    if re.search(rf"[{UPPER}]", re.sub(r"\b[A-Z]{2,5}\b", "", text).replace("I", "")):
        return text
    words = text.split(" ")
    named = False  # (the word before was made a name: "grain mill" goes on one)
    for at in range(1, len(words)):
        word = words[at]
        bare = word.strip(",.!?;:)(\"'")
        named = (
            len(bare) >= 3
            and bare.isalpha()
            and bare.islower()
            and not known_word(bare)
            and bare not in _CHAT
            and (named or bool(_BEFORE_A_NAME.search(" ".join(words[max(at - 3, 0) : at]))))
        )
        if named:
            words[at] = word.replace(bare, bare.capitalize(), 1)
        named = named and word == bare  # (a name ends at its punctuation)
    return " ".join(words)


def _with_g(word: re.Match[str]) -> str:
    """A word typed without its "g" given it back, when only with it is it a word ("movin",
    not "cousin" or "begin")."""
    typed = word[1]
    return f"{typed}g" if not known_word(typed) and known_word(f"{typed}g") else word[0]


def _be(word: str) -> str:
    """ "are" after a plural ("nights"), else "is" ("class", "rent")."""
    return "are" if word.endswith("s") and not word.endswith("ss") else "is"


def as_meant(text: str, name: str | None) -> str:
    """A user's sentence as a careful writer would type it: its first word and "I" in capitals
    ("name's Marcus, i coach …"), and an introduction by the speaker's bare name ("Grace
    Wambui, senior auditor at KPMG.", "Zeynep, 27, PhD student …") with its "I'm"."""
    text = said_to_me(text, name)  # ("… said 'you're a rigger now Tariq'": the speaker is)
    text = _IM.sub(r"I'\1", _ITS.sub(r"\1t's", _LOWER_I.sub("I", text)))
    text = _DROPPED_G.sub(_with_g, _NT.sub(r"\1n't", text))
    text = _WEEKDAY.sub(lambda day: day[0].capitalize(), cased(text))
    text = _ASIDE.sub("", text)  # "I'm Hiroshi by the way, a baker": "I'm Hiroshi, a baker"
    text = _SELF_FIRST.sub("", text)
    # ("thursday nights = netball": "=" typed for "is")
    text = re.sub(r"(\w+) = (?=\w)", lambda m: f"{m[1]} {_be(m[1])} ", text)
    # ("I'm a vet (mostly cats and dogs, the odd angry parrot) at Turia Vet Clinic": a list
    # aside, between a claim's words)
    text = re.sub(r" \([^()]*,[^()]*\)(?=[ ,.!?;:]|$)", "", text)
    text = _I_AM_ABROAD.sub("I'm ", text)  # "Soy Valentina, wedding photographer …"
    if name and name[:1].isupper():  # their own name typed in lower case: "im itzel, 19"
        said = rf"(?:\bI'm|\bI am|\bname is|\bname's|\bcall me|^) {re.escape(name.lower())}\b"
        text = re.sub(said, lambda m: m[0][: -len(name)] + name, text)
    # ("guess who's the new intern at Zawadi Capital 🎉", "And guess who got promoted …!")
    text = _GUESS_WHO.sub(lambda m: "I'm " if m["be"] else "I ", text)
    # (a thing of theirs typed without its "my", in lower case: "band's called The Velvet Okra",
    # "day job is QA tester at Frostline Games")
    text = f"my {text}" if _THEIRS_UNSAID.match(text) else text
    # (and its "is" contracted before an amount: "rent's 1020 but worth it")
    text = re.sub(r"^((?:[Mm]y|[Oo]ur) [a-z]+)'s (?=[^\w\s]?\d)", r"\1 is ", text)
    text = _EXCLAIMED.sub("", text)  # "Done deal, signed with Outback Haulage"
    if re.match(r"[a-z]+\b(?!['’]?[A-Z])", text):
        text = text[0].upper() + text[1:]
    # ("me and my girlfriend split up": "my girlfriend and I", one subject, not two clauses)
    text = re.sub(r"(?:^|(?<=[,:;] ))[Mm]e and my ([a-z][\w-]*)", r"My \1 and I", text)
    # ("And Pip, our whippet, needs two walks a day": one of theirs, named first)
    text = _NAMED_THEN_WHO.sub(
        lambda m: f"{m['whose'].capitalize()} {m['noun']} {m['name']} ", text
    )
    if _KIN_OPENS.match(text):  # "Girlfriend Sigrid joins some Sundays", "Brother just got …"
        text = f"My {text[0].lower()}{text[1:]}"
    # "Officially a lawyer now, my mum already calls me …" (or after a clause: "NVQ level 2
    # done, officially a plasterer now 😎")
    if am_now := _WHAT_I_AM_NOW.search(text):
        at = am_now.start()
        text = f"{text[:at]}I'm {text[at].lower()}{text[at + 1 :]}"
    # ("First week as a lockkeeper done!!": a post held, by the first spell of it)
    text = _FIRST_SPELL_AS.sub(
        lambda m: f"{works_as(m['role'])}{m['at'] or ''} now, {m['spell'].lower()} {m['done']}",
        text,
    )
    # ("Ngozi, supervisor of C-shift 😎", "Shigeru the caretaker!": their own name, titled)
    lead = re.match(r"(?:[\w']+ ){0,2}[\w']+: ", text)  # ("good news: it's Mirko the bosun now!")
    # (or after a clause of theirs: "I'm off the road, Bilal the dispatcher 😎", "I'm
    # officially freelance — Nnamdi, videographer, no more lanyard!")
    after = {m.end(): m.start() for m in re.finditer(", | [—–-] ", text)}
    for at in [lead.end() if lead else 0, *after]:
        titled = _TITLED.fullmatch(text, at)
        if name and titled and titled["name"] == name.split()[0]:
            role, now = titled["role"], titled["now"] or ""
            more = titled["more"] or titled["aside"] or ""
            said = f"{works_as(role)}{now}{',' if more else ''}{more}."
            text = f"{text[: after[at]]}; {said}" if at in after else f"{text[:at]}{said}"
            break
    # (after one word that says "I am" in the language they greet in: "soy Valentina, stage
    # manager at …", "aku Dewi, seismologist at …")
    if name and (
        bare := re.match(rf"(?:[A-Za-z]+ )?{re.escape(name)}(?: [{UPPER}][\w'-]*)?, ", text)
    ):
        text = f"I'm {name}, {text[bare.end() :]}"
    # ("Zofia, 3.4 kg, born last night.": their baby, named as it is announced)
    text = _BORN_NAMED.sub(r"My baby \g<name> was born \g<when>", text)
    # ("Call-out fee 150 cedis.": their call-out fee)
    if (label := _LABELLED_AMOUNT.match(text)) and not (
        _WEIGHED.match(text) or _done(label["label"].split()[0].lower())
    ):
        text = f"My {label['label'].lower()} is {label['amount']}."
    # ("Weighed at the clinic: 97 kilos!", "Scale says 87 this morning": what they weigh)
    text = _WEIGHED.sub(r"I weigh \g<n>", text)
    # ("day job is QA tester at Frostline Games": their trade and employer)
    if job := _JOB_IS.match(text):
        text = f"I work as {article(text[job.end() :])} {text[job.end() :]}"
    # ("Deputy manager at Elmhurst House, I start in a month": a post, said alone)
    if post := _POST_AT.match(text):
        text = f"I'm {article(post['post'])} {post['post'][0].lower()}{text[1:]}"
    # ("We live in Canton, me, my wife Ffion and our son Osian": who "we" are, listed)
    text = _WE_LISTED.sub(r"I \g<did> with ", text)
    # ("Imran, he's a DJ I met at a sangeet": the one named, said again by a pronoun)
    text = _NAMED_AGAIN.sub(r"\g<name> is ", text)
    # ("For now Austin is home.": where they live)
    text = _HOME_IS.sub(r"I live in \g<place> now", text)
    # ("Home is in Fleetwood with my wife Harleen", "Home is Matosinhos": the same, said the
    # other way round)
    text = _HOME_IN.sub(lambda home: f"I live {home['at'] or 'in'} ", text)
    # ("Flat in Majorna, 9,800 kronor.": a home by its kind, said alone)
    text = _HOME_ALONE.sub(lambda home: f"I live in {article(home[1])} {home[1].lower()} in ", text)
    # ("the Education Service has transferred me to Adisadel College": the speaker's move)
    return _SENT_ME.sub(r"I was \g<how> to", text)


#: A job said to be a trade somewhere: "My day job is QA tester at Frostline Games".
_JOB_IS = re.compile(r"^(?:[Mm]y )?(?:[Dd]ay |[Mm]ain )?[Jj]ob is (?:an? )?(?=[^.!?,]* at [A-Z])")
#: A post somewhere said alone, opening its sentence: "Senior researcher at the Southern
#: Ocean Lab", "Station officer at St John Tauranga" (not "Dinner at Nando's").
_POST_AT = re.compile(
    rf"^(?P<post>(?!(?:My|Our|Your|His|Her|Their|The|A|An|This|That)\b)(?=[{UPPER}])"
    rf"(?:[A-Za-z-]+ ){{0,3}}?(?i:{ROLES})) (?:at|with|for) "
    # (and the name, then no more of a sentence: not "Manager at Tesco is nice")
    rf"(?=(?:the )?[{UPPER}][\w'&-]*(?: (?:of |& )?[{UPPER}][\w'&-]*)*(?: now)?(?:[,.!;]|$))"
)
#: A weighing of the speaker's, said without its "I": "Weighed in this morning: 81.9!".
_WEIGHED = re.compile(
    r"^(?:(?:I )?[Ww]eighed (?:myself |in )?[^:!.?]*?[:,] |(?:[Tt]he )?[Ss]cale (?:says|said|showed) )"
    # (with its unit too: "Weighed myself this morning: 86kg!!")
    r"(?P<n>\d+(?:\.\d+)?(?: ?(?:kg|kgs|kilos?|lbs?|pounds|st)\b)?)(?=[ !.,]|$)"
)
#: A place said to be home, opening its sentence: "For now Austin is home.", "Sakai is home now,
#: my son is close" (not "Not happening, Durban is home and …", said against a move).
_HOME_IS = re.compile(
    rf"^(?:(?:For now|Now|So|But),? )?(?P<place>[{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)*) is "
    r"(?:my |our )?home(?: now)?(?=[.!,]|$)"
)
_WE_LISTED = re.compile(r"^We (?P<did>[^,]+), (?:me|myself)(?:,| and) (?=(?:my|our) )")
_NAMED_AGAIN = re.compile(rf"^(?P<name>[{UPPER}][\w'-]*), (?:he|she)(?:'s| is) ")
_HOME_IN = re.compile(
    r"^(?:(?:[Mm]y|[Oo]ur) )?[Hh]ome(?: is|'s) (?P<at>in|at|(?=[A-Z]))\s?(?=[A-Z])"
)
_HOME_ALONE = re.compile(
    rf"^(Flat|House|Apartment|Room|Bedsit|Condo|Studio|Cottage) in (?=[{UPPER}])"
)
#: A question answered by the speaker themselves: "guess who's the new intern at …".
_GUESS_WHO = re.compile(r"^(?:(?:And|So|Oh|Well),? )?[Gg]uess who(?P<be>'s| is)? (?=[a-z])")
#: What the speaker is now, their "I'm" left out: "Officially a lawyer now.", "A dad now!"
_WHAT_I_AM_NOW = re.compile(
    r"(?:^|(?<=, ))(?:(?:[Oo]fficially|[Ff]inally) )?[Aa]n? (?:[a-z][\w-]* ){0,2}[a-z][\w-]* now"
    rf"(?=[.!,]|\s*{EMOJI}|$)"
)
#: What one is that is no post: a parent, a relative ("First week as a dad done!").
_NO_POST = (
    rf"(?!(?:an? )?(?:(?:new|first-time|proud) )?(?:{RELATIVES}|parents?|homeowners?|retirees?)\b)"
)
#: Their own name with a title, as they sign it: "Ngozi, supervisor of C-shift 😎",
#: "Shigeru the caretaker!", "Njeri, intern 😎".
#: (and as news: "It's Mirko the bosun now!")
_TITLED = re.compile(
    # (and as a thing made official: "Officially Zuzana the nanny lol.")
    rf"(?:[Ii]t's |[Oo]fficially )?(?P<name>[{UPPER}][\w'-]*)(?: [{UPPER}][\w'-]*)?(?:,| the) "
    r"(?:your (?:new |local )?)?"
    rf"{_NO_POST}(?P<role>[a-z][\w-]*(?: (?!(?:now|lol|haha|lmao)\b)[a-z][\w-]*){{0,2}}(?: of [\w-]+(?: [\w-]+)?)?)(?P<now> now)?"
    # (and a remark on it after a comma: "Bram the lockkeeper, has a ring to it", "…, Hanna's
    # dad loves it"; or a laugh, "… lol", and a dash that closes an aside, "…, ha —")
    # (not a nickname: "Gintaras the gas guy, they call me")
    rf"(?: {EMOJI}+(?P<more> [a-z][^.!?]*)?|,(?P<aside> (?![^.!?]*\bcall(?:s|ed)? me\b)[A-Za-z][^.!?]*?)"
    r"| (?:lol|haha|lmao))?"
    r"(?: [—–-])?[.!]*"
)
#: The first spell of a post, over: "First week as a lockkeeper done!!", "first weeks as
#: harbourmaster done", "my first shift as charge nurse at St Olav's is over".
_FIRST_SPELL_AS = re.compile(
    # (or a real one, worked today: "first real shift as conductor today, Cluj–Oradea")
    r"(?:^|(?<=, ))(?:[Mm]y )?(?P<spell>[Ff]irst (?:real |full )?(?:day|week|month|shift|night)s?) as "
    rf"{_NO_POST}(?:an? )?(?P<role>[a-z][\w-]*(?: [a-z][\w-]*){{0,2}}?)"
    rf"(?P<at> (?:at|with|for) (?:the )?[{UPPER}][\w&'-]*(?: [{UPPER}][\w&'-]*)*)?"
    r" (?P<done>(?:is |are |was |were )?(?:done|over|finished|complete|survived)|today)\b"
)
#: A baby named, then born: "Zofia, 3.4 kg, born last night.", "Oskar, born Tuesday!"
_BORN_NAMED = re.compile(
    rf"^(?:[Bb]aby )?(?P<name>[{UPPER}][\w'-]+), (?:[^,!?]+?, )?born (?P<when>[^,.!?]+)"
)
#: A baby announced by name and weight ("Obinna, 3.4kg, both doing great") or as come
#: ("Obinna is here!"), in a turn that tells of a birth.
_NAMED_WEIGHED = re.compile(
    rf"^(?P<name>[{UPPER}][\w'-]+), (?P<weight>(?P<n>\d+(?:[.,]\d+)?) ?(?P<unit>kg|kilos?|lbs?)\b.*?)"
    r"[.!]*$"
)
_ARRIVED = re.compile(
    rf"^(?P<name>[{UPPER}][\w'-]+) (?:is here|has arrived|arrived)\b[^,.;]*[.!]*$"
)
_BIRTH = re.compile(r"\b(?:born|baby|newborn|labou?r|delivered|it's a (?:boy|girl))\b", re.I)
#: … or, beside a newborn's weight, one come: "he's here! Obinna, 3.4kg".
_COME = re.compile(r"\b(?:he|she|they)(?:'s| is| are) here\b", re.IGNORECASE)


def born_named(sentence: str, turn: str, speaker: str | None) -> str:
    """ "Obinna, 3.4kg, both doing great" as "My baby Obinna was born, 3.4kg, …" in a turn
    that tells of a birth ("he's here!", "born Tuesday"), at a newborn's weight (not a pet's:
    "Rex, 30kg"); else ``sentence`` as it was."""
    if (found := _NAMED_WEIGHED.match(sentence)) and found["name"] != speaker:
        grams = float(found["n"].replace(",", ".")) * (1000 if found["unit"][0] == "k" else 454)
        if 1500 <= grams <= 5500 and (_BIRTH.search(turn) or _COME.search(turn)):
            return f"My baby {found['name']} was born, {found['weight']}."
    elif (found := _ARRIVED.match(sentence)) and found["name"] != speaker and _BIRTH.search(turn):
        return f"My baby {found['name']} was born."
    return sentence


#: The speaker's own birthday, told in the turn ("birthday weekend!", "it's my birthday today").
_BIRTHDAY = re.compile(r"\b(?:my birthday|birthday (?:weekend|today|yesterday))\b", re.I)
#: An age said alone, and what of it: "43 and feeling like 30", "35 officially", "30 now 🎉";
#: or after the birthday, in its sentence: "it's my birthday today 🎂 35 officially".
_AGE_ALONE = re.compile(
    rf"^(?:(?P<lead>.*\bbirthday\b[^\d]*?)(?:[,!:—-]+|{EMOJI}+) ?)?"
    rf"(?P<n>[1-9]\d)(?P<rest>(?: (?:now|officially|today))?(?: and [^.!?]+)?)[.!]*(?: ?{EMOJI})*$"
)


def birthday_age(sentence: str, turn: str) -> str:
    """ "43 and feeling like 30" as "I'm 43 and feeling like 30." in a turn that tells of the
    speaker's birthday: the number said alone is their new age; else ``sentence`` as it was."""
    if (found := _AGE_ALONE.match(sentence)) and _BIRTHDAY.search(turn):
        lead = f"{found['lead'].rstrip()}; " if found["lead"] else ""
        return f"{lead}I'm {found['n']}{found['rest']}."
    return sentence


#: A thing of theirs and its amount, typed as a label: "Call-out fee 150 cedis.", "Rent
#: 1,120 euros." (not a day or a month: "Friday 8pm", "June 12").
_LABELLED_AMOUNT = re.compile(
    rf"^(?!(?i:{WEEKDAYS}|{MONTHS}|day|week|month|year|room|gate|platform|page|step|level|"
    r"round|part|chapter|section|number|no|top|best|only|just|about|around|over|under)\b)"
    # (a verb is no word of a label: "insurance pays 1800" says who pays)
    r"(?P<label>[A-Z][a-z-]+(?: (?!(?:is|are|was|were|costs?|now|at|for|of|pays?|paid|gives?|gave|"
    r"charges?|charged|owes?|owed|offers?|offered|earns?|earned|makes?|made|"
    # (nor where it moves: "salary goes to 51000" is a change, said as one)
    r"go|goes|went|rises?|rose|jumps?|jumped|drops?|dropped|falls?|fell|to|up|down)\b)[a-z-]+){0,2}):? "
    r"(?P<amount>[^\w\s]?(?:\d{1,3}(?:,\d{3})+|\d{2,})(?:\.\d+)?k?(?: [a-z]+)?)[.!]*$"
)
#: Someone sending the speaker to work elsewhere, said of them: "… has posted me to Tamale".
_SENT_ME = re.compile(
    r"(?:^|(?<=: )|(?<=, ))(?:(?:[Tt]he|[Mm]y|[Oo]ur) )?[\w' ]{0,40}? (?:has |have |had |just )*"
    r"(?P<how>transferred|posted|reassigned|seconded) me to\b"
)


#: A value given under a label, tersely: "Bike: Specialized Allez.", "Weight: 74."; a new one
#: too, as it came: "new PB: 1:47!", "New rating came in: 1905!!" (not an announcement:
#: "Update: Leeds.")
_LABELLED = re.compile(
    r"(?!(?i:update|news|correction|note|reminder|edit|context|fyi|btw|ps)\b)"
    # (a label of an initialism too, "New PB"; in lower case only as "new …")
    r"(?P<label>(?:[A-Z][a-z]+|new)(?: (?:[a-z]+|[A-Z]{2,4}))?)"
    # (and why it is theirs, after it: "New phone as a reward: Sony Xperia 1 V")
    r"(?: (?:as|for) (?:an? |my |the )?[a-z]+(?: [a-z]+)?)?(?: (?:came|is|are) in)?: "
    # (a value, not a clause of someone's: "Quick one: I'm Hemi, viticulturist at …")
    r"(?!(?:I|We|It|They|He|She|You)(?:'[a-z]+)?\b)"
    # (a time too: "1:47")
    r"(?P<value>[A-Z0-9][\w'&.,-]*(?::\d\d)*(?: [A-Z0-9][\w'&.-]*){0,3})"
    # (and what is said of it after: "New phone: Redmi Note 13, so much faster.")
    rf"(?P<more>, [^:]+?)?[.!]*(?: ?{EMOJI})*"
)


def _done(word: str) -> bool:
    """``word`` is a verb's past, which no label opens with: "Broke 1900 finally", "Scored
    45 today" say what was done."""
    return word in PAST or (
        word.endswith("ed") and (known_word(word[:-2]) or known_word(word[:-1]))
    )


def labelled(sentence: str) -> str:
    """A value said under a label as the speaker's: "Bike: Specialized Allez." → "My bike is
    Specialized Allez."; else the sentence as it is."""
    found = _LABELLED.fullmatch(sentence)
    if found is None:
        return sentence
    label = found["label"][0].lower() + found["label"][1:]  # (an initialism kept: "new PB")
    return f"My {label} is {found['value'].rstrip('.,')}{found['more'] or ''}."
