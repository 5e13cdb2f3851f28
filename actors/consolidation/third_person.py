"""First-person user statements rewritten in the third person, for extractive facts.

"I moved to Lisbon" becomes "Carl moved to Lisbon": a fact read months
later, beside facts of other people in a shared scope, must say whose it
is. The rewrite is rule-based and small (the extractive path has no model):
the subject "I" at the start takes the speaker's name and its verb is
conjugated (``live`` → ``lives``, ``am`` → ``is``, ``have`` → ``has``,
past tenses and modals unchanged); "my" or "our" at the start becomes "Carl's";
later "I", "me", "my", "mine", "myself" become "they", "them", "their",
"theirs", "themselves"; "we" becomes "Carl and others" and "Abena and I"
"Abena and Carl", so a fact never loses whose it is. What it does not
recognise is left as it was. Whom a fact is about, and what about them, is
``attributes.keys``.
"""

from __future__ import annotations

import re

from reverie.store import known_word

from .words import DOER, PETS, RELATIVES

__all__ = [
    "DEFAULT_SPEAKER",
    "PAST",
    "article",
    "conjugate",
    "past_verb",
    "third_person",
    "tie_first",
    "word_set",
    "works_as",
    "would_or_had",
]

#: Whose a fact is when its speaker gave no name.
DEFAULT_SPEAKER = "The user"

_CONTRACTIONS = {
    "i'm": "is",
    "i've": "has",
    "i'll": "will",
}
_IRREGULAR = {
    "am": "is",
    "are": "is",  # "Rasa and I are moving", split: "I are moving"
    "were": "was",
    "have": "has",
    "do": "does",
    "go": "goes",
    "was": "was",
    "don't": "doesn't",
    "haven't": "hasn't",
    "gotta": "has to",
    "wanna": "wants to",
    "gonna": "is going to",
}


#: Letters whose name opens with a vowel sound: an initialism read letter by letter takes
#: "an" after them ("an MBA student", "an SEO consultant"), "a" after the others ("a UX
#: designer", "a QA engineer").
_VOWEL_NAMED = "AEFHILMNORSX"
#: Words spelt with a vowel and said with a consonant ("a university", "a one-room flat",
#: "a European"), or spelt with a consonant and said with a vowel ("an hour").
_SAID_AS_CONSONANT = re.compile(r"uni(?![mn])|us[eu]|ur[aeo]|uti|uk|eu|ewe|one\b|once", re.I)
_SAID_AS_VOWEL = re.compile(r"hour|honou?r|honest|heir", re.I)


def article(noun: str) -> str:
    """The indefinite article ``noun`` takes, by how its first word is said ("an
    electrician", "a university lecturer", "a UX designer", "an hour")."""
    first = noun.split(maxsplit=1)[0] if noun.strip() else ""
    if len(first) > 1 and first.isupper():
        return "an" if first[0] in _VOWEL_NAMED else "a"
    if _SAID_AS_CONSONANT.match(first):
        return "a"
    vowel = bool(first) and first[0].lower() in "aeiou"
    return "an" if vowel or _SAID_AS_VOWEL.match(first) else "a"


def works_as(trade: str) -> str:
    """A trade said alone as the speaker's, in the words its key reads ("I work as a
    bosun.", attributes.py); what no one works as stays what they are ("I'm a retired
    teacher.", "I'm a PhD student.")."""
    if re.search(r"\b(?:retired|former|ex|student|pupil)\b", trade):
        return f"I'm {article(trade)} {trade}"
    return f"I work as {article(trade)} {trade}"


def word_set(text: str) -> frozenset[str]:
    """The words of ``text``: a closed class of English words, written as a sentence is."""
    return frozenset(text.split())


#: Past tenses that do not end in -ed (left as they are; a verb whose "I" was left out).
PAST = word_set(
    "got went took made said felt found saw came gave knew thought told bought brought left "
    "lost met paid ran sat sent spent stood taught won wrote began became ate drove flew grew "
    "kept heard held built caught chose fell forgot led tried meant quit sold put set cut "
    "misread hung rode swam sang drank broke spoke stole woke wore threw shot slept hid blew "
    "fought fled froze forgave knelt lent mistook overtook rang sought shook shone sank slid "
    "spun sprang stuck stung struck swore swept swung tore understood withdrew wept dealt dug "
    "dreamt leapt burnt bent"  # (not "Drew" nor "Rose": names too)
)
_UNCHANGED = word_set(
    "can cannot could will would should shall must may might did had was were don't didn't can't "
    "won't wouldn't ought no"
)
_ADVERBS = word_set(
    "always never usually often sometimes also still just really now only even almost already "
    "ever seldom once kinda sorta"
)
#: Two words before the verb, as an adverb is: a hedge ("kind of"), or "no longer".
_HEDGES = frozenset(["kind of", "sort of", "pretty much", "no longer"])
_LATER = [
    (re.compile(r"\bI was\b"), "they were"),
    (re.compile(r"\bI am\b"), "they are"),  # ("happy where I am")
    (re.compile(r"\bI'm\b"), "they're"),
    (re.compile(r"\bI've\b"), "they've"),
    (re.compile(r"\bI\b(?!-\d)"), "they"),  # (not a road: "I-110")
    (re.compile(r"\bmyself\b", re.IGNORECASE), "themselves"),
    (re.compile(r"\bmine's\b", re.IGNORECASE), "theirs is"),
    (re.compile(r"\bmine\b", re.IGNORECASE), "theirs"),
    (re.compile(r"\b(?:my|My(?! [A-Z]))\b"), "their"),  # (not a name's: "near My Khe beach")
    # (and theirs with others: "my boyfriend does the deliveries in our old van")
    (re.compile(r"\bour\b"), "their"),
    (re.compile(r"\bours\b"), "theirs"),
    (re.compile(r"\bme\b", re.IGNORECASE), "them"),
]
#: "Abena and I got married", "my fiancée Rasa and I": the speaker by name, not "they", and
#: first, so the fact opens with whose it is ("Maya and Leo broke up" is Maya's news).
_AND_I = re.compile(
    r"\b(?:[Mm]y (?P<kin>[\w-]+) )?(?!(?:He|She|They|You|It)\b)(?P<name>[A-Z][\w'-]*) and I\b"
)
#: "My girlfriend and I split up": the speaker by name, and first, as ``_AND_I``.
_KIN_AND_I = re.compile(r"\b[Mm]y (?P<kin>[a-z][\w-]*) and I\b")
#: "we moved there": the speaker and others, so the fact still says whose it is.
_WE = re.compile(r"\b(we're|we've|we'll|we'd|we)\b", re.IGNORECASE)
#: After "we'd", a verb of the past: "we'd been", "we'd moved" ("we'd love" is "would").
_OUR_US = re.compile(r"\b(?:our|us)\b")
_HAD = re.compile(r" (?:just |already |never |only |recently )?(?:been|[a-z]+ed)\b")
_WE_VERB = {"we're": "are", "we've": "have", "we'll": "will", "we": ""}


def _we_verb(found: re.Match[str]) -> str:
    """The verb "we" was contracted with, said out."""
    said = found[1].lower()
    return would_or_had(found.string, found.end()) if said == "we'd" else _WE_VERB[said]


def conjugate(verb: str) -> str:
    """``verb`` said of one other person ("live" → "lives", "am" → "is", "moved" as it is)."""
    lower = verb.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    past = lower.endswith("ed") and not (lower.endswith("eed") and len(lower) <= 5)  # "need"
    # (a verb of two words is one: "co-host" is "co-hosts")
    if lower in _UNCHANGED or lower in PAST or past or not lower.replace("-", "").isalpha():
        return verb
    if lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        ending, cut = "es", 0
    elif lower.endswith("y") and lower[-2:-1] not in "aeiou":
        ending, cut = "ies", 1
    else:
        ending, cut = "s", 0
    # (in capitals as typed: "I LOVE that" is "LOVES that")
    ending = ending.upper() if len(verb) > 1 and verb.isupper() else ending
    return verb[: len(verb) - cut] + ending


def _adverb(word: str) -> bool:
    """ "always", "finally", "recently": a word before the verb, never conjugated itself."""
    return word in _ADVERBS or (len(word) > 5 and word.endswith("ly"))


def _conjugated(words: list[str]) -> list[str]:
    """``words`` after a subject "I", with their verb (after any adverb) in the third person:
    "basically live on rice" → "basically lives on rice"."""
    at = 0  # ("I also only drink tea": past every adverb)
    while at < len(words) - 1:
        if _adverb(words[at].lower()):
            at += 1
        elif " ".join(words[at : at + 2]).lower() in _HEDGES and at < len(words) - 2:
            at += 2  # ("I kind of love Kilimani": "kind of loves")
        else:
            break
    if at >= len(words):
        return words
    verb = words[at].rstrip(".,;:!?")  # ("I always cycle.")
    said = conjugate(verb) + words[at][len(verb) :] if verb else words[at]
    return [*words[:at], said, *words[at + 1 :]]


def would_or_had(text: str, end: int) -> str:
    """What "'d" says after "I" or "we": "had" before a past participle, past an adverb ("I'd
    been", "I'd just started"), else "would" ("I'd love")."""
    return "had" if _HAD.match(text, end) else "would"


def _later(text: str) -> str:
    for pattern, replacement in _LATER:
        text = pattern.sub(replacement, text)
    return text


#: The speaker's first mention when the sentence does not open with them: by name.
_FIRST_MENTION = re.compile(
    # (and "our", "us": "Rent is $520 for our place" is the speaker's and their family's)
    # (not a road's letter: "died on I-110")
    r"\b(?:(?i:I was|I'm|I've|I'll|I'd|mine's|I|myself|mine|me)|my|My(?! [A-Z])|our|us)\b(?!-\d)"
)
_NAMED = {
    "i was": "{} was",
    "i'm": "{} is",
    "i've": "{} has",
    "i'll": "{} will",
    "mine": "{}'s",
    "mine's": "{}'s is",
    "my": "{}'s",
    "our": "{}'s",
    "us": "{} and others",
}


def _named_first(text: str, who: str) -> str:
    """ "Someone stole my bike" → "Someone stole Farhad's bike": nobody before the speaker's
    first mention to say "their" of, so it names them; later mentions are pronouns."""
    found = _FIRST_MENTION.search(text)
    if found is None or (found[0] == "I" and found.start() == 0):
        return _later(text)
    said = found[0].lower()
    name = f"{{}} {would_or_had(text, found.end())}" if said == "i'd" else _NAMED.get(said, "{}")
    rest = text[found.end() :]
    if found[0] == "I" and rest.startswith(" "):  # "now I drive" → "drives"
        rest = " " + " ".join(_conjugated(rest[1:].split(" ")))
    return text[: found.start()] + name.format(who) + _later(rest)


#: Whom a tie names: kin or a doer's noun ("cousin", "bassist").
_TIED = rf"(?:{RELATIVES}|{DOER})"
#: The speaker's tie to someone: "my cousin", "our bassist".
_TIE = rf"(?:my|our) {_TIED}"
#: The tie in brackets, "my" left out too: "Jun-jun (husband) says …", or a pet's kind:
#: "Negrito (our dog) will miss her".
_BRACKETED_TIE = rf"(?:(?:my|our) )?(?:{_TIED}|{PETS})"
#: A name opening a sentence with the speaker's tie to them after it: "Zawadi my girlfriend
#: says …", "Megan (my girlfriend) took it …", "Tomás, my cousin, lives …", "Owain our
#: bassist just moved …".
_NAME_THEN_TIE = re.compile(
    rf"^(?P<name>[A-Z][\w-]*)(?: \((?P<tie>{_BRACKETED_TIE})\)|,? (?P<tie2>{_TIE})\b,?) (?=[a-z])"
)


def tie_first(sentence: str) -> str:
    """``sentence`` with a name the speaker's tie follows written after it, as "my girlfriend
    Zawadi says …" ("Zawadi my girlfriend says …", "Jade (my girlfriend) and I …", "Jun-jun
    (husband) says …")."""
    tied = _NAME_THEN_TIE.match(sentence)
    # (bare, a name no word of the language: not "Even my son joined")
    if tied is None or not (tied["tie"] or not known_word(tied["name"].casefold())):
        return sentence
    tie = tied["tie"] or tied["tie2"]
    tie = tie if tie.startswith(("my ", "our ")) else f"my {tie}"
    return f"{tie[0].upper()}{tie[1:]} {tied['name']} {sentence[tied.end() :]}"


def third_person(sentence: str, who: str) -> str:
    """``sentence`` with its first-person speaker named ``who``."""
    sentence = tie_first(sentence)
    sentence = _AND_I.sub(
        lambda m: f"{who} and {'their ' + m['kin'] + ' ' if m['kin'] else ''}{m['name']}", sentence
    )
    sentence = _KIN_AND_I.sub(lambda m: f"{who} and their {m['kin']}", sentence)
    if sentence.startswith(f"{who} and "):  # (then "their": "… moved their thesis")
        return _later(sentence)
    if first_we := _WE.search(sentence):
        # (by name once, then "they": "when Omar and others were little they lived in Kuwait";
        # "we had to rehome our dog": "their dog")
        later = _WE.sub(lambda m: "they" + m[1][2:], sentence[first_we.end() :])
        later = _OUR_US.sub(lambda m: "their" if m[0] == "our" else "them", later)
        sentence = f"{sentence[: first_we.start()]}{who} and others {_we_verb(first_we)}{later}"
    sentence = " ".join(sentence.split())
    words = sentence.split(" ")
    first = words[0].lower() if words else ""
    if first == "i'd":
        verb = would_or_had(sentence, len(words[0]))
        return " ".join([who, verb, _later(" ".join(words[1:]))]).strip()
    if first in _CONTRACTIONS:
        return " ".join([who, _CONTRACTIONS[first], _later(" ".join(words[1:]))]).strip()
    if first == "i" and len(words) > 1:
        rest = _conjugated(words[1:])
        return " ".join([who, rest[0], _later(" ".join(rest[1:]))]).strip()
    if first in ("my", "our") and len(words) > 1:
        return " ".join([f"{who}'s", _later(" ".join(words[1:]))])
    return _named_first(sentence, who)


def past_verb(word: str) -> bool:
    """A verb in the past tense that can open a sentence without its "I"."""
    lower = word.lower()
    return lower in PAST or (len(lower) > 4 and lower.endswith("ed"))
