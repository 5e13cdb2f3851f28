"""Recall@5/10/20 of the search modes on a small hand-written conversation set.

Each question is a paraphrase of something said in one of several sessions
(dates, names, numbers, places); its answer is the ids of the messages that
say it. The same run scores ``text``, ``vector`` and ``hybrid`` search of a
real ``SearchIndex`` (local MiniLM, LanceDB in a temporary directory) and an
in-process BM25 over the raw messages (``evals/_bm25.py``) as the
baseline. Recall@k is the fraction of a question's answer ids found in the
top k, averaged over questions.

Run: ``python -m evals recall``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from bench.report import Section
from evals._bm25 import Bm25
from reverie.store import IndexDoc, LocalEmbedder
from reverie.store.files.index_lifecycle import SearchIndex

# (session, id, text)
MESSAGES: list[tuple[str, str, str]] = [
    ("travel", "t1", "We booked flights to Lisbon departing on the 14th of May."),
    ("travel", "t2", "The return flight is on May 21st, landing at 18:40 in Berlin."),
    ("travel", "t3", "Our hotel is in Alfama, it costs 120 euros per night."),
    ("travel", "t4", "Remember to renew Anna's passport, it expires in June."),
    ("travel", "t5", "The conference talk is on Thursday at 10am in room B."),
    ("travel", "t6", "Can you find a vegetarian restaurant near the river?"),
    ("cooking", "c1", "My sourdough starter smells like nail polish remover."),
    ("cooking", "c2", "That acetone smell means the starter is hungry; feed it twice daily."),
    ("cooking", "c3", "Maria is allergic to peanuts, so no satay sauce at the party."),
    ("cooking", "c4", "Bake the loaf at 250 degrees for 20 minutes with the lid on."),
    ("cooking", "c5", "We need 12 eggs and 500 grams of flour for Sunday's brunch."),
    ("cooking", "c6", "The birthday cake for Leo should be chocolate with raspberries."),
    ("work", "w1", "The billing-api deploy failed with HTTP 503 at 3am."),
    ("work", "w2", "Roll back billing-api to version 2.4.1 and page the on-call engineer."),
    ("work", "w3", "Quarterly revenue grew 17 percent to 4.2 million dollars."),
    ("work", "w4", "Priya joins the platform team as staff engineer on March 3rd."),
    ("work", "w5", "The database migration is scheduled for Saturday night at 23:00."),
    ("work", "w6", "Our AWS bill jumped because of an unused GPU instance in us-east-1."),
    ("health", "h1", "I ran 8 kilometres this morning in 41 minutes."),
    ("health", "h2", "The dentist appointment moved to Tuesday the 9th at 15:30."),
    ("health", "h3", "Doctor said my vitamin D is low; take 2000 IU every day."),
    ("health", "h4", "I slept badly, only five hours, after drinking coffee at 6pm."),
    ("home", "o1", "The landlord will fix the leaking kitchen tap on Wednesday."),
    ("home", "o2", "Rent goes up to 1450 per month from September."),
    ("home", "o3", "The cat, Miso, needs her vaccination booster next month."),
    ("home", "o4", "The wifi password is zebra-orchid-42."),
    ("home", "o5", "We should repaint the bedroom a pale green colour."),
    ("books", "b1", "I finished 'The Left Hand of Darkness' by Ursula K. Le Guin."),
    ("books", "b2", "Next book club pick is 'Piranesi', meeting on the last Friday."),
    ("books", "b3", "Tom lent me his copy of 'Dune' and wants it back by Christmas."),
    ("chat", "x1", "Hello! How are you today?"),
    ("chat", "x2", "Thanks, that was helpful."),
    ("chat", "x3", "Okay, let's continue tomorrow."),
    ("chat", "x4", "Sure, no problem at all."),
]

QUESTIONS: list[tuple[str, set[str]]] = [
    ("When do we leave for Portugal?", {"t1"}),
    ("what date do we come back home from the trip", {"t2"}),
    ("how much is the accommodation per night", {"t3"}),
    ("whose travel document needs renewing", {"t4"}),
    ("when is my presentation at the conference", {"t5"}),
    ("why does the bread starter smell weird", {"c1", "c2"}),
    ("food allergies of guests", {"c3"}),
    ("oven temperature for the bread", {"c4"}),
    ("shopping list for the weekend brunch", {"c5"}),
    ("what kind of cake for the kid's birthday", {"c6"}),
    ("production outage in the payments service", {"w1", "w2"}),
    ("which version should we revert to", {"w2"}),
    ("how did sales do this quarter", {"w3"}),
    ("who is the new hire and when do they start", {"w4"}),
    ("when is the schema change happening", {"w5"}),
    ("why is the cloud invoice so high", {"w6"}),
    ("how far did I jog", {"h1"}),
    ("when is the teeth checkup", {"h2"}),
    ("supplement dosage recommended by the physician", {"h3"}),
    ("why was my sleep poor", {"h4"}),
    ("plumbing repair in the apartment", {"o1"}),
    ("new monthly rent amount", {"o2"}),
    ("pet vet appointment", {"o3"}),
    ("network password", {"o4"}),
    ("what colour for the bedroom walls", {"o5"}),
    ("which Le Guin novel did I read", {"b1"}),
    ("book for the next reading group", {"b2"}),
    ("who do I have to return the novel to", {"b3"}),
]

KS = (1, 5, 10, 20)
BASELINE = "bm25-raw (baseline)"
CLEARLY = 0.10  # what "beats the baseline clearly" means here: at least this much recall

# Distractors: near misses on the same topics (other cities, dates, people,
# numbers), so that the answers have to be told apart from look-alikes.
_SUBJECTS = [
    "the flight to Madrid",
    "the hotel in Porto",
    "Anna's visa",
    "the keynote",
    "the pizza dough",
    "Leo's party",
    "the brunch guests",
    "the oven",
    "the search-api deploy",
    "the marketing budget",
    "the intern",
    "the backup job",
    "my cycling",
    "the eye exam",
    "the vitamin C",
    "the afternoon nap",
    "the bathroom light",
    "the parking fee",
    "the dog next door",
    "the guest wifi",
    "the living room",
    "the poetry collection",
    "the library card",
    "the weather",
]
_PREDICATES = [
    "was discussed on the {d}th",
    "costs about {n} euros",
    "is handled by {p}",
    "moved to room {r}",
    "took {n} minutes",
    "needs a follow-up on {w}",
    "was fine according to {p}",
    "should be checked before {w}",
]
_PEOPLE = ["Jonas", "Lucia", "Omar", "Mei", "Sven", "Ines", "Kwame", "Elena"]
_DAYS = ["Monday", "Friday", "the weekend", "next week", "October", "payday"]


def _distractors(n: int = 400) -> list[tuple[str, str, str]]:
    import random

    rng = random.Random(11)
    out = []
    for i in range(n):
        text = (
            f"{rng.choice(_SUBJECTS).capitalize()} "
            + rng.choice(_PREDICATES).format(
                d=rng.randint(1, 28),
                n=rng.randint(5, 900),
                p=rng.choice(_PEOPLE),
                r=rng.choice("ACDEF"),
                w=rng.choice(_DAYS),
            )
            + "."
        )
        out.append((f"noise{i % 9}", f"d{i}", text))
    return out


def _docs() -> list[IndexDoc]:
    return [
        IndexDoc(
            uid=f"m:{session}:{mid}",
            kind="message",
            text=text,
            scope=f"session/{session}",
            session=session,
            ts=float(i),
            message_ids=[mid],
        )
        for i, (session, mid, text) in enumerate([*MESSAGES, *_distractors()])
    ]


def _recall(ranked: list[list[str]], k: int) -> float:
    total = 0.0
    for ids, (_, answer) in zip(ranked, QUESTIONS, strict=True):
        total += len(answer & set(ids[:k])) / len(answer)
    return total / len(QUESTIONS)


def run() -> dict[str, dict[int, float]]:
    docs = _docs()
    results: dict[str, dict[int, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        index = SearchIndex(Path(tmp) / "index", LocalEmbedder())
        index.open()
        index.add(docs)
        index.optimize()
        for mode in ("text", "vector", "hybrid"):
            ranked = [
                [i for h in index.search(q, k=max(KS), mode=mode) for i in h.message_ids]  # type: ignore[arg-type]
                for q, _ in QUESTIONS
            ]
            results[mode] = {k: _recall(ranked, k) for k in KS}
    floor = Bm25([d.message_ids[0] for d in docs], [d.text for d in docs])
    ranked = [floor.rank(q, max(KS)) for q, _ in QUESTIONS]
    results[BASELINE] = {k: _recall(ranked, k) for k in KS}
    return results


def main() -> Section:
    results = run()
    print(
        f"{len(MESSAGES)} answer-bearing messages + {len(_distractors())} near-miss distractors, "
        f"{len(QUESTIONS)} questions"
    )
    print(f"{'mode':<22}" + "".join(f"  recall@{k:<3}" for k in KS))
    for mode, by_k in results.items():
        print(f"{mode:<22}" + "".join(f"  {by_k[k]:>9.3f}" for k in KS))
    section = Section(
        title="Recall (`evals/recall.py`, issue 6)",
        intro=(
            f"{len(MESSAGES)} answer-bearing messages + {len(_distractors())} near-miss"
            f" distractors, {len(QUESTIONS)} paraphrased questions; a real `SearchIndex`"
            " (local MiniLM, LanceDB). Baseline: in-process BM25 over the raw messages"
            " (`evals/_bm25.py`). Difference = mode − baseline."
        ),
    )
    table = section.table("mode", *(f"recall@{k}" for k in KS))
    base = results[BASELINE]
    for mode, by_k in results.items():
        cells = [
            f"{by_k[k]:.3f}" if mode == BASELINE else f"{by_k[k]:.3f} ({by_k[k] - base[k]:+.3f})"
            for k in KS
        ]
        table.row(mode, *cells)
    margins = {k: results["hybrid"][k] - base[k] for k in (5, 10, 20)}
    worst = min(margins.values())
    section.target(
        "recall.hybrid",
        ", ".join(f"@{k} {m:+.2f}" for k, m in margins.items()),
        worst >= CLEARLY,
        f"{CLEARLY - worst:.2f} short at worst",
    )
    return section
