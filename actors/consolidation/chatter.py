"""What is not memory: openers, pleasantries, questions, tautologies, claims of nothing.

Every new fact, whichever path wrote it, passes ``is_chatter`` in the
merge (``truth.merge``), so "Nice to meet you, Carl!" from a model is
dropped there as surely as from the extractive path. ``split_opener``
cuts what a sentence opens with and says nothing by itself ("Quick
update:", "Oh, by the way,", "FYI", "Guess what —"); the merge reads the
opener for its cue (a correction) and never keeps it in a fact. Rules are
general English patterns, small on purpose: what they do not recognise is
kept as a claim.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from reverie.store import known_word

from .attributes import ROLES
from .renaming import renames
from .signals import ending
from .third_person import PAST, article, word_set
from .words import CORRECT_WHAT, RELATIVES

__all__ = ["asks_help", "is_chatter", "remark", "split_opener", "strip_banter", "without_echo"]

#: A laugh, as chat types it in English and in the languages people mix in ("jaja", "kkkk",
#: "wkwk").
_LAUGH = r"lol|lmf?ao|rofl|(?:ha){2,}a*|(?:he){2,}|(?:ja){2,}a*|(?:je){2,}|kkk+|wkwk+"
_OPENER_WORDS = (
    r"quick (?:update|question|q)|update|small correction|correction|small typo|typo|fyi|btw|p\.?s\.?|"
    # (and what it closes with or announces: "last thing for now", "new job alert")
    r"last thing(?: for now)?|(?:(?!the\b)[a-z]+ ){1,2}alert|"
    # (or what turns to another topic: "other thing. gym.", "Question, my salary is …")
    r"(?:(?:one |a |another )?question|(?:one )?(?:other|another|more) thing|off-?topic)"
    r"(?=\s*[,.:;!—–-])|"
    # (any kind of news: "big news", "mean news", "career news"; "big news too")
    r"guess what|oh|by the way|funny thing|funnily enough|real talk|(?:(?!the\b)[a-z]+ )?news(?: too| also)?|heads up|personal stuff|weird confession|confession|fun fact|"
    r"on a brighter note|on the (?:plus|bright) side|in other news|random|quick intro|oops|ugh|well|so+|also|"
    # (an interjection as people type it: "righto", "right-o", "soooo")
    r"right-?o|"
    r"anyway|"
    r"change of plans?|(?:slight|small|quick|big|one) change|"
    rf"and|but|yeah|yes|ok|okay|hey|hmm|um|honestly|basically|plus|{_LAUGH}|wow|sorry|hi|"
    r"surprise|yay|phew|omg|oof|ah|(?:must|gotta|got to|have to) (?:dash|run|fly)|"
    r"hello|hiya|morning|right|alright|actually|these days|nowadays|lately|small update|reminder|just so you know|side note|"
    # (what the assistant did for it: "I took your advice, now I …", "thanks to you")
    r"I (?:took|take|follow|followed|tried) your advice|thanks to you|as you (?:said|suggested)|"
    # (what the assistant is asked to write down: "add that I'm vegetarian", "note that …",
    # "mention I walk in Parc Maisonneuve now")
    r"(?:please )?(?:add|note|mention|remember|include|put (?:down|in))"
    r"(?: that|(?= (?-i:I|I'm|I've|[Mm]y|[Ww]e|[Ww]e're|[Oo]ur)\b))|"
    # (or what the speaker says they are saying: "I should mention I'm diabetic", "I forgot to
    # say that …", "I have to admit …")
    r"I (?:should|must|have to|need to|forgot to|meant to|wanted to|want to|ought to) "
    r"(?:mention|say|add|tell you|admit|confess)(?: that)?"
)
#: Known openers, one after the other: "Oh, by the way, …", "Quick update: …" (or alone:
#: "Change of plans.").
_OPENER = re.compile(rf"^(?:(?:{_OPENER_WORDS})\b[\s,!.:;—–…-]*(?:\s|$))+", re.IGNORECASE)
#: A short lead-in before a colon or a dash: "Small typo in my intro: …", "Big news — …".
_LEAD_IN = re.compile(r"^(?P<lead>[^.:!?—–]{1,50}?)\s*(?::|\s[—–-])\s+(?=\S)")
_CUE = re.compile(
    r"\b(?:update|correction|typo|news|note|confession|intro|fyi|heads|btw|stuff|reminder|"
    # (or a correction by its verb: "I must correct something I said last time:")
    rf"wrong|mistake|mixed up|{CORRECT_WHAT})\b",
    re.IGNORECASE,
)
#: The speaker, as said or as written in the third person ("weighed themselves this morning").
_SELF = re.compile(
    r"\b(?:i|my|me|i'm|we|our|they|their|them|themselves|themself)\b|\d", re.IGNORECASE
)
_STATES = re.compile(r"\b(?:is|are|was|were|has|have)\b")
#: A verb of a thing done, its "I" left out, and what it was done to: "Ran a new PB".
_DONE = re.compile(rf"(?:{'|'.join(sorted(PAST))}|did|[a-z]{{3,}}ed)")  # ("Did a time trial: …")
_ITS_OBJECT = re.compile(r"an?|the|my|our|their|[A-Z][A-Z\d]+")
_ADVERB = re.compile(r"finally|just|also|so|and|then|recently|already|officially")

#: Whole sentences that are talk, not claims (checked after the opener went).
_PLEASANTRY = re.compile(
    r"^(?:hi|hello|hey|hiya|good (?:morning|evening|night|afternoon)|morning|evening|"
    r"(?:nice|great|pleased|lovely|good) to (?:meet|see|hear)|thanks?|thank you|cheers|ta|"
    r"ta-ra|bye|goodbye|see you|talk soon|speak soon|catch you|have a (?:good|nice|great)|"
    r"sounds good|perfect|great|cool|awesome|lovely|ok|okay|sure|lol|haha|no worries|"
    r"you'?re (?:welcome|a star|a lifesaver|very kind|the best)|welcome|congrat\w*|"
    r"fair enough|good to know|got it|will do|gracias|hasta|kiitos|merci|danke|takk)\b",
    re.IGNORECASE,
)
#: Talk to or about the assistant, or a feeling of the moment: not about the user's life.
_TALK = re.compile(
    # (thanks said, not someone thanking someone, "my back thanks me", nor relief, "thank God")
    r"\b(?:thanks?(?! (?:me|them|him|her|us|god|goodness|heavens)\b)|thank you|you'?re|you are|can you|could you|would you|do you|"
    # (a proposal, "let's do Tuesday", or a leave taken, "let me go and prepare the bus")
    r"for (?:all )?(?:the|your) help|needs? you|^let(?:'s| (?:me|us|the user|[A-Z][\w-]*) )|"
    # (or their typing, asked to be forgiven: "so forgive the typos")
    r"(?:forgive|excuse|pardon) (?:the|my|any) (?:typos?|spelling|grammar|english)|"
    r"nice to meet)\b",
    re.IGNORECASE,
)
#: An aside crediting the assistant, after the claim it is about: "bought a Gazelle with two
#: locks like you say", "…, as you suggested".
_AS_YOU_SAID = re.compile(
    r",?\s+(?:just )?(?:like|as) you (?:said|say|suggested|suggest|told me|recommended|advised)\b"
)
#: The assistant, outside a quoted question: "put you on their tablet", "took your advice".
_YOU = re.compile(r"\b(?:you|your)\b", re.IGNORECASE)
#: What is not about the assistant though it says "you": a quote, or what was told to it
#: ("ignore what I told you about the class" takes back a claim of the speaker's; "I gave you
#: the wrong rent figure, it's £210" puts one right).
_QUOTED = re.compile(
    rf'"[^"]*"|\bwhat (?:\w+ ){{1,2}}(?:told|wrote|said to) you\b|{_AS_YOU_SAID.pattern}|'
    r"\b(?:gave|told|sent) you the wrong\b"
)
_NAMED_KIN = re.compile(rf"\b(?:{RELATIVES}) [A-Z]")
#: What is left of a sentence whose claim went elsewhere: "For the letter."
_FRAGMENT = re.compile(
    r"^(?:(?i:for|with|at|on|to|from|about)\b[^,;A-Z]{0,25}|"
    # (or a reason or condition whose main clause went: "Since Linh can work from anywhere.")
    r"(?:Since|Because|Although|Though|While|Whereas|Unless|If) (?:[A-Z][\w'-]*|we|they|he|she|it) "
    r"(?:can|could|will|would|was|were|is|are|am|have|has|had|do|does|did|must|should)\b[^,;]*|"
    # (a condition alone, whatever its verb, is no state: "If Sokha ever gets a Toyota Hilux.")
    r"(?:If|Unless) [^,;]*)"
    r"[.!]*$"
)
#: A request, its verb after "please": "Please revise the split", "pls keep it short" (not
#: what takes a fact back: "Please forget what I said about the diet").
_PLEASE = re.compile(
    r"^(?i:please|pls|plz),? (?!(?:forget|scratch|ignore|disregard)\b)[a-z]+\b"
    # (or an order for what the assistant writes: "Put nothing on Monday.", "Add the address")
    r"|^(?:Put|Add|Remove|Write|Draft|Update|Include|Mention|Translate|Format)"
    r" (?!(?:in|on|up|down|off|away|my|our)\b)"
)
#: A feeling of the moment, in the sentence's first clause ("Tomás is so excited"; not
#: "picked up a Nissan Leaf, the drummer is thrilled", which says what was picked up).
_FEELING = re.compile(
    r"^[^,;]*\b(?:is|are|am|'m) (?:so |really |very )?(?:over the moon|thrilled|excited|"
    r"nervous|happy|glad|grateful|tired|bored|stressed|hopeless|rubbish|sad|upset|furious|"
    r"annoyed)\b"
    # (not with a thing of theirs by its name: "so happy with the photos from the Galaxy S23",
    # "I am happy with Vidéotron")
    r"(?! with (?:(?:[\w'-]+ ){0,4}?(?:the|my|their|our|his|her) )?(?-i:[A-Z]))",
    re.IGNORECASE,
)
#: A state of the moment said alone ("I'm fine.", "Yuki is hooked!"), not one that lasts.
_MOMENT = re.compile(
    r"^(?:[a-z]+ly,? )?\S+(?: and others)? (?:is|am|are|'m) (?:so |really |very |a bit )?(?:fine|good|okay|ok|alright|back|done|"
    r"sorry|ready|busy|late|confused|exhausted|sick|awake|hungry|starving|knackered|shattered|"
    r"hooked|biased|jealous|obsessed|lucky|kidding|joking|serious|curious|impressed|proud|"
    r"relieved|gutted|devastated|stoked|buzzing|sure|in|out|off|away)(?: now| again| today)?[.!]*$",
    re.IGNORECASE,
)
#: A mistake owned and nothing else ("Mixed that up.", "I got the rent wrong the other day",
#: "misread the email", "confused it with the old form", and why): the cue of the correction
#: said beside it, no claim of its own.
_IT = r"that|it|this|them|those|him|her"
_THE = r"(?:the|their|my|his|her)"
_THE_SAID = rf"(?:{_IT}|{_THE} [\w' -]+?)"
#: (two things taken for each other, or one for another: "mixed up the dates", "mixed him up")
_MIXED = rf"(?:{_IT}|{_THE} [\w-]+s)"
#: (what it was taken for, a few words and no second verb: "with last year's")
_WHAT = r"(?:(?!and\b)[\w'-]+ ?){1,5}?"
_OWNED_UP = re.compile(
    rf"^(?:\S+ )?(?:mixed (?:{_MIXED} up|up {_MIXED})(?: with {_WHAT})?|got {_THE_SAID} (?:wrong|mixed up)|"
    rf"made a mistake(?: (?:about|on|with|in) {_WHAT})?|misspoke|mistyped|"
    # (or said, wrote or gave the wrong one: "said the wrong time the other day")
    r"(?:said|wrote|gave|told|typed)(?: you)? the wrong [\w' -]+?|"
    # (or what it was mixed up with: "was mixing it up with their old roster")
    rf"(?:was|were) mixing {_MIXED} up(?: with {_WHAT})?|"
    rf"misread(?: {_THE_SAID})?|confused {_THE_SAID} with {_WHAT}|"
    # (or how it came to be said wrong: "was thinking of my uncle", "was half asleep when I
    # wrote that", "swapped the digits when I typed it")
    rf"(?:was|were) thinking of {_THE} (?!\S+ing\b)[\w' ]+?|"
    r"(?:was|were|swapped|mixed|typed|wrote) [\w' ]+? when (?:I|they|he|she|we) "
    r"(?:wrote|typed|said|sent) (?:that|it|this))"
    r"(?: earlier| before| the other day| last time)?(?: because [^;]+?)?[^\w]*$",
    re.IGNORECASE,
)
#: The assistant's suggestion weighed, or its help praised: "Automating it is a good idea",
#: "That sounds like a plan", "That practice session was so helpful".
_WEIGHED = re.compile(
    r"^(?:it|that|this|(?:that|this|the) [^,;]*?|[a-z]+ing\b[^,;]*?) "
    r"(?:is|'s|was|were|has been|sounds like) "
    r"(?:(?:a )?(?:really )?(?:good|great|nice|smart|brilliant|solid)? ?(?:idea|plan|call|point|"
    r"shout)|(?:so |really |very |super )?(?:helpful|useful))[.!]*$",
    re.IGNORECASE,
)
_TODAY = re.compile(r"\b(?:today|tonight|this (?:morning|afternoon|evening)|right now)\b", re.I)
_EVENT = re.compile(
    r"\b(?:born|died|passed|married|engaged|pregnant|graduated|arrived|started|moved|quit|"
    r"sold|bought|adopted|hired|fired|promoted|opened|closed|broke up|retired)\b",
    re.IGNORECASE,
)
_BANTER = re.compile(
    # (and a shrug: "rent's mad but what can you do")
    # (or a groan or a sigh: "I'd just started sending V5s too ugh")
    rf"(?:[\s,]+(?:{_LAUGH}|xd|:\)|:d|!+|by the way|btw|(?:but )?what can you do|"
    r"ugh+|argh+|sigh|meh|smh|"
    # (a wish or a greeting at the end of a claim: "…, fingers crossed", "…, cheers")
    r"fingers crossed|wish me luck|cheers|ngl|tbh|"
    # (or a cheer: "man city won 4-0 yesterday lets goo")
    r"let'?s go+|"
    # (or a laugh's own tail: "… when he gets his bonus hahaha as if", "… lol (kidding)")
    r"as if|j/?k|\(?(?:just )?kidding\)?))+(?=[.!?]*$)",
    re.IGNORECASE,
)
#: A laugh inside a claim, before its comma: "the german course got rescheduled lol, it's …".
_MID_BANTER = re.compile(rf"\s+(?:{_LAUGH})(?=,)", re.IGNORECASE)
#: What a fact ends by saying it is not ("it's March 15, not March 14"): the memory says what
#: is, its history what was, and the old value in a current line reads as current.
_NOT = re.compile(r",\s+not\s+[^,;]")
#: What a fact ends by asking of the assistant ("…, so keep things lightweight", "…, so no
#: fancy cafes needed", "…, so nothing fancy please"): an instruction, not a claim.
_SO = re.compile(r",\s+so\s+", re.IGNORECASE)
_ASK = re.compile(
    # (or a word to the assistant: "…, so if I message you at 4am that's why")
    r"(?:keep|watch|avoid|skip|go easy|don't|do not|remember|make sure)\b|if [^.!?]*\byou\b|"
    r"no (?!more\b|longer\b)|nothing\b",
    re.IGNORECASE,
)
_ASK_WORD = re.compile(r"\b(?:please|needed)\b", re.IGNORECASE)
_TAUTOLOGY = re.compile(r"^(?P<a>[\w' -]+?) (?:is|am|are) (?P<b>[\w' -]+?)[.!]?$", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z0-9][\w'-]*")
#: A name said again: it says nothing every fact of theirs does not.
#: (after a greeting too, as typed: "buenas tardes, marisol's name's marisol")
_NAME_AGAIN = re.compile(
    r"^(?:[^,]+, )?([A-Za-z][\w'-]*)(?:'s name(?:'s| is)| is) \1\b[^A-Z\d]*$", re.IGNORECASE
)
#: A sentence that ends by calling someone by name.
_ADDRESSED = re.compile(r",\s+[A-Z][\w'-]*!+$")
#: A short sentence that ends in a goodbye.
_FAREWELL = re.compile(
    r"\b(?:bye|goodbye|ta-ra|cheerio|see you(?: soon| later)?|talk (?:soon|later)|speak soon|"
    r"catch you later|until next time|that's (?:all|everything|it))(?: for (?:now|today))?\W*$",
    re.IGNORECASE,
)
#: Thanks said in words of another language, before what for: "Mil gracias for the gear
#: list", "Shukran for everything" (its word one the embedder's vocabulary does not hold; not
#: "Agnieszka fosters cats for the city shelter").
_THANKS_FOR = re.compile(r"^(?:[\w'-]+ )?(?P<word>[\w'-]+) for (?:the|your|all|everything)\b")
_EMPTY = word_set("it this that them there here so too very really just now then one thing things")


def split_opener(text: str, names: Collection[str] = ()) -> tuple[str, str]:
    """``text`` cut into its opener ("" if none) and the rest, which carries any claim; a
    lead that names one of ``names`` (who speaks) says something of them, and is no opener."""
    rest = text.strip()
    opened = []
    while True:
        if found := _OPENER.match(rest):
            opened.append(found.group(0))
            rest = rest[found.end() :]
            continue
        lead = _LEAD_IN.match(rest)
        if lead and _lead_in(lead["lead"], names):
            opened.append(lead.group(0))
            rest = rest[lead.end() :]
            continue
        break
    opener = " ".join(" ".join(opened).split()).rstrip(" ,:;—–-")
    return opener, rest[:1].upper() + rest[1:] if opener else rest


def _lead_in(words: str, names: Collection[str] = ()) -> bool:
    """A lead-in that announces (an update, a correction: "I got my birthday wrong earlier")
    or, said in five words or fewer, names nobody and no number: not a thing done, by
    someone of ``names`` or by the speaker unsaid ("Ran a new PB: 1:47")."""
    if len(words.split()) > 8:
        return False
    said = [w.removesuffix("'s") for w in words.split()]
    # (past an adverb: "Finally changed the van — Ford Transit Custom")
    first, *rest = said[1:] if len(said) > 2 and _ADVERB.fullmatch(said[0].casefold()) else said
    if not _CUE.search(words) and (
        set(names) & {*said, " ".join(said[:2])}
        or (rest and _DONE.fullmatch(first.casefold()) and _ITS_OBJECT.fullmatch(rest[0]))
    ):
        return False
    # (nor a topic named, which what follows is about: "Berrechid health centre: permit
    # submitted 15/03"; a name is a capitalised word the language does not hold, not one
    # shouted, "RACE REPORT", nor one it does, "The Polish course")
    if not _CUE.search(words) and any(
        w[:1].isupper() and not w.isupper() and not known_word(w.casefold()) for w in said
    ):
        return False
    # (not a statement of its own: "Omar is pescatarian now — fish and veg", "Podcast has a
    # new name: Lupulo Sul")
    short = len(words.split()) <= 5 and not _SELF.search(words) and not _STATES.search(words)
    return bool(_CUE.search(words)) or short


def strip_banter(text: str) -> str:
    """``text`` without a "lol" or "haha" (trailing, or before a comma), a trailing run of
    exclamation marks, what it says it is not, or what it asks of the assistant."""
    text = _MID_BANTER.sub("", _AS_YOU_SAID.sub("", text))
    stripped = _without_tails(_BANTER.sub("", text)).rstrip()
    return stripped + ("." if stripped and stripped[-1] not in ".!?" else "")


#: "Sofie is Sofie, a designer at …", "Femi here, Femi is …": the introduction, less the echo.
_SELF_NAMED = re.compile(
    # (or, without an article, a trade said with where: "Chidi, backend engineer at Kobopay";
    # not "Greta is Greta, by the way")
    r"^([A-Z][\w'-]*) (?:here,?\s+(?=\1 )|is \1\b,?\s+"
    r"(?=an?\b|\d|[a-z][\w-]*(?: [a-z][\w-]*){0,3} (?:at|in|for|with) |"
    # (or a trade alone: "Khadija is Khadija, architect.")
    rf"(?:[a-z][\w-]* )?(?:{ROLES})\b[,.!]?$))",
    re.IGNORECASE,
)


def without_echo(text: str) -> str:
    """``text`` less a name said twice: "Chidi is Chidi, backend engineer at …" is "Chidi is
    a backend engineer at …", "Femi here, Femi is …" is "Femi is …"."""
    return _SELF_NAMED.sub(_introduced, text)


def _introduced(found: re.Match[str]) -> str:
    after = found.string[found.end() :]
    if after.startswith(found[1]):  # "Femi here, Femi is …"
        return ""
    said = "" if re.match(r"(?:an?\b|\d)", after, re.IGNORECASE) else f"{article(after)} "
    return f"{found[1]} is {said}"


def _without_tails(text: str) -> str:
    """``text`` less a last clause saying what it is not or asking the assistant, found in
    one pass (a regular expression for it backtracks on a long sentence of ", so" clauses)."""
    end = len(text.rstrip(".!"))
    body, stops = text[:end], text[end:]
    comma = max(body.rfind(","), body.rfind(";"))
    if comma >= 0 and _NOT.match(body, comma):
        body = body[:comma]
    # (an aside to the assistant after a dash: "… in Naas — yes, a woman farrier, before you ask")
    dash = max(body.rfind(" — "), body.rfind(" – "))
    if dash > 0 and _YOU.search(body, dash):
        body = body[:dash]
    last = max(body.rfind(stop) for stop in ".!?") + 1  # the last sentence
    asked = _ASK_WORD.search(body, last)
    for so in _SO.finditer(body, last):
        if _ASK.match(body, so.end()) or (asked and so.end() <= asked.start()):
            return body[: so.start()] + stops
    return body + stops


def remark(text: str, persons: set[str]) -> bool:
    """``text`` remarks on the moment and names nobody and nothing ("Sandstorm today, the
    whole sky is orange", "Hot and sticky today"): no name, number or first person, not
    opening with one of ``persons`` or someone's thing ("Dmitri's bike got stolen this
    morning"), and no life event ("Baby Lily was born today!")."""
    first = text.split(" ", 1)[0]
    return bool(
        _TODAY.search(text)
        and not (_SELF.search(text) or re.search(r"[A-Z]", text[1:]) or _EVENT.search(text))
        and first not in persons
        and not first.endswith("'s")
    )


def is_chatter(text: str) -> bool:
    """Whether ``text`` (a fact's words, opener already cut) claims nothing worth keeping."""
    text = text.strip()
    if not text or text.endswith("?"):
        return True
    if _PLEASANTRY.match(text) or _TALK.search(text) or _FEELING.match(text) or _MOMENT.match(text):
        return True
    if _WEIGHED.match(text) or _OWNED_UP.match(text) or _FRAGMENT.match(text):
        return True
    if _PLEASE.match(text):  # "Please revise the split.": asked of the assistant
        return True
    # (about the assistant, not the user's life; unless it names someone of theirs, "their
    # wife Made says their English is getting better because of you", or says more)
    # (before an aside after a dash: "a farrier based in Naas — yes, a woman farrier, before
    # you ask")
    claim = re.split(r" [—–] ", _QUOTED.sub("", text), maxsplit=1)[0]
    if _YOU.search(claim) and not _NAMED_KIN.search(text) and " and " not in text:
        return True
    if (same := _TAUTOLOGY.match(text)) and same["a"].casefold() == same["b"].casefold():
        return True
    if _NAME_AGAIN.match(text):  # "Thandi's name's Thandi, by the way"
        return True
    words = [w.casefold() for w in _WORD.findall(text)]
    if _FAREWELL.search(text) and len(words) <= 6:  # "that's all for today, bye!"
        return True
    if _ADDRESSED.search(text) and len(words) <= 3:  # "Bis bald, Greta!": said to someone
        return True
    if (thanks := _THANKS_FOR.match(text)) and not known_word(thanks["word"].casefold()):
        return True
    if ending(text) or renames(text):  # "Nyoman resigned.", "It's Bukka now.": short, but
        return False  # an ending or a new name all the same
    return len(words) < 3 or all(w in _EMPTY for w in words[2:])


#: Help asked of the assistant: "(Maya) needs help staying organised", "would love some help
#: with pricing". What for is the conversation's, not a fact of their life.
_HELP = re.compile(
    r"^(?:[\w'-]+ )?(?:really |just |also |mostly |still )?(?:[Nn]eeds?|[Ww]ants?|would like|'d like|"
    r"would love|'d love|could use)(?: some| a little| a bit of| more)? help\b(?P<what>.*)$"
)


def asks_help(text: str, speakers: Collection[str]) -> bool:
    """``text`` asks the assistant for help with something of the speaker's only: nothing in
    it is named or counted but the speaker ("Aroha needs help wrangling their calendar";
    not "needs help organising their sister Carla's wedding", whose sister is a fact)."""
    if (found := _HELP.match(text)) is None:
        return False
    names = {n for n in re.findall(r"\b[A-Z][\w-]*", found["what"]) if n not in speakers}
    return not names and not re.search(r"\d", found["what"])
