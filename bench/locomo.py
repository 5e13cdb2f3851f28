"""Evidence recall on real long conversations (LoCoMo), through a real daemon and the client.

The measure is the one in ``../shared/evaldata/README.md``: every conversation
is appended as one session (one message per dialog turn, text
``"[<session date>] <speaker>: <text>"``, client id = the turn's ``dia_id``);
every question of categories 1-4 searches its session; recall@k is the share
of the question's evidence turns among the first k distinct message ids of
the hits, averaged over questions, per category and overall.

The same run computes the floor: one BM25 per conversation over the same
turn texts (k1 1.2, b 0.75, ``[a-z0-9]+`` tokens, a short stop list), in
this process. Searches run twice: right after the import (nothing waited
for) and once the index reports ``settled``, with the time that took.

The data is not part of the repository (CC BY-NC 4.0): the module reads
``$REVERIE_LOCOMO`` or ``../shared/evaldata/locomo-dev.json`` beside the
checkout, and skips with a message where neither exists.

Run: ``python -m bench locomo``; ``REVERIE_BENCH_CONFIG`` adds TOML to the
daemon's configuration (e.g. ``"[consolidation]\nidle_after = 1.0\n"`` to
measure after every conversation was consolidated).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from bench._bm25 import Bm25
from bench._machine import say
from bench.report import Section
from reverie.config import IndexConfig
from reverie.store import (
    TEXT_WEIGHT,
    VECTOR_WEIGHT,
    SearchHit,
    above_background,
    candidate_depth,
    fuse,
)
from tests.daemon_process import DaemonProcess

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO.parent / "shared" / "evaldata" / "locomo-dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (5, 10, 20)
_EVIDENCE = re.compile(r"D:?(\d+):(\d+)")
_BATCH = 64
_SETTLE_DEADLINE = 3600.0
#: The meaning signal's weights compared leaving one conversation out (words weigh 1).
WEIGHTS = (0.25, 0.5, 0.75, 1.0, 1.5)
#: The daemon's default ``index.min_score``, applied to the hits fused in this process.
_MIN_SCORE = IndexConfig().min_score
FLOOR = "BM25 floor"
#: How deep each signal's candidates are fetched, as hybrid search fuses them for the
#: deepest k; the fused ranker measures meaning from the last of that depth, as the daemon.
DEPTH = candidate_depth(max(KS))


@dataclass(slots=True)
class Turn:
    dia_id: str
    text: str
    speaker: str
    ts: float


@dataclass(slots=True)
class Question:
    session: str
    text: str
    category: int
    evidence: set[str]
    qid: str = ""


@dataclass(slots=True)
class Conversation:
    session: str
    turns: list[Turn] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


def _date(text: str) -> float:
    """'1:56 pm on 8 May, 2023' as epoch seconds (UTC)."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").timestamp()


def load(path: Path) -> list[Conversation]:
    """The data set's conversations with normalised evidence ids (README's rules)."""
    conversations = []
    for sample in json.loads(path.read_text()):
        conv = Conversation(session=f"locomo:{sample['sample_id']}")
        body = sample["conversation"]
        n = 1
        while f"session_{n}" in body:
            when = body[f"session_{n}_date_time"]
            start = _date(when)
            for i, turn in enumerate(body[f"session_{n}"]):
                text = f"[{when}] {turn['speaker']}: {turn['text']}"
                conv.turns.append(Turn(turn["dia_id"], text, turn["speaker"], start + i))
            n += 1
        known = {t.dia_id for t in conv.turns}
        for qa in sample["qa"]:
            if qa["category"] not in CATEGORIES:
                continue
            ids = {f"D{a}:{b}" for e in qa.get("evidence", []) for a, b in _EVIDENCE.findall(e)}
            ids &= known
            if ids:
                qid = f"{conv.session}#{len(conv.questions)}"
                conv.questions.append(
                    Question(conv.session, qa["question"], qa["category"], ids, qid)
                )
        conversations.append(conv)
    return conversations


def recall(found: list[str], evidence: set[str], k: int) -> float:
    return len(set(found[:k]) & evidence) / len(evidence)


def distinct_ids(hits: Iterable[object]) -> list[str]:
    """The hits' message ids in rank order, each once."""
    seen: dict[str, None] = {}
    for hit in hits:
        for mid in getattr(hit, "message_ids", []):
            seen.setdefault(mid, None)
    return list(seen)


@dataclass(slots=True)
class Scores:
    """Recall@k summed per category; ``table_row`` averages."""

    sums: dict[tuple[int, int], float] = field(default_factory=dict)
    counts: Counter[int] = field(default_factory=Counter)

    def add(self, category: int, found: list[str], evidence: set[str]) -> None:
        self.counts[category] += 1
        for k in KS:
            key = (category, k)
            self.sums[key] = self.sums.get(key, 0.0) + recall(found, evidence, k)

    @classmethod
    def merged(cls, parts: Iterable[Scores]) -> Scores:
        """The scores of the union of the parts' questions."""
        out = cls()
        for part in parts:
            out.counts.update(part.counts)
            for key, value in part.sums.items():
                out.sums[key] = out.sums.get(key, 0.0) + value
        return out

    def at(self, k: int, category: int | None = None) -> float:
        cats = list(CATEGORIES) if category is None else [category]
        n = sum(self.counts[c] for c in cats)
        return sum(self.sums.get((c, k), 0.0) for c in cats) / n if n else 0.0


def score_all(conversations: list[Conversation], rank: Callable[[Question], list[str]]) -> Scores:
    scores = Scores()
    for conv in conversations:
        for q in conv.questions:
            scores.add(q.category, rank(q), q.evidence)
    return scores


def ingest(daemon: DaemonProcess, conversations: list[Conversation]) -> float:
    """Append every turn through the public client; returns messages per second."""
    start, total = time.perf_counter(), 0
    with daemon.client() as client:
        for conv in conversations:
            speakers: dict[str, str] = {}
            for i in range(0, len(conv.turns), _BATCH):
                batch = conv.turns[i : i + _BATCH]
                messages = [
                    {
                        "role": speakers.setdefault(
                            t.speaker, "user" if not speakers else "assistant"
                        ),
                        "content": t.text,
                        "id": t.dia_id,
                        "ts": t.ts,
                    }
                    for t in batch
                ]
                client.append_many(conv.session, messages)
                total += len(batch)
    return total / (time.perf_counter() - start)


def wait_settled(daemon: DaemonProcess) -> float:
    """Seconds until ``status`` says the index is caught up and settled."""
    start = time.perf_counter()
    with daemon.client() as client:
        while time.perf_counter() - start < _SETTLE_DEADLINE:
            index = client.status().index
            if index.settled and not index.messages_behind:
                return time.perf_counter() - start
            time.sleep(0.1)
    raise RuntimeError(f"the index did not settle within {_SETTLE_DEADLINE:.0f} s")


def daemon_ranker(daemon: DaemonProcess, mode: str | None) -> Callable[[Question], list[str]]:
    client = daemon.client()

    def rank(q: Question) -> list[str]:
        kwargs = {} if mode is None else {"mode": mode}
        return distinct_ids(client.search(q.text, session=q.session, k=max(KS), **kwargs))

    return rank


@dataclass(slots=True, frozen=True)
class Candidates:
    """One question's candidates from each signal alone, best first, on their own scales."""

    words: list[SearchHit]
    meaning: list[SearchHit]


def _store_hit(hit: object) -> SearchHit:
    """A client hit as the store's ``SearchHit``, the shape ``fuse`` takes."""
    return SearchHit(
        uid=getattr(hit, "uid"),  # noqa: B009
        kind=getattr(hit, "kind"),  # noqa: B009
        text="",
        score=getattr(hit, "score"),  # noqa: B009
        scope="",
        session="",
        ts=0.0,
        message_ids=list(getattr(hit, "message_ids")),  # noqa: B009
        source="",
    )


def collect(daemon: DaemonProcess, conversations: list[Conversation]) -> dict[str, Candidates]:
    """Every question's candidates by words and by meaning, as deep as hybrid fuses them."""
    out: dict[str, Candidates] = {}
    with daemon.client() as client:
        for conv in conversations:
            for q in conv.questions:
                signals = [
                    [
                        _store_hit(h)
                        for h in client.search(
                            q.text, session=q.session, k=DEPTH, mode=mode, min_score=0.0
                        )
                    ]
                    for mode in ("text", "vector")
                ]
                out[q.qid] = Candidates(*signals)
    return out


def fused_ranker(
    candidates: dict[str, Candidates], weights: tuple[float, float]
) -> Callable[[Question], list[str]]:
    """Rank with the daemon's ``fuse`` at ``weights`` (words, meaning), as hybrid search does
    once the index is settled: top ``candidate_depth`` of each signal, hits under the
    default ``min_score`` dropped. ``(1, 0)`` is ``mode="text"``, ``(0, 1)`` ``"vector"``."""

    def rank(q: Question) -> list[str]:
        c = candidates[q.qid]
        hits = fuse(c.words, above_background(c.meaning, DEPTH), weights)
        return distinct_ids(h for h in hits if h.score >= _MIN_SCORE)[: max(KS)]

    return rank


@dataclass(slots=True)
class Folds:
    """Each conversation's scores per ranking (a fold is one conversation)."""

    conversations: list[Conversation]
    by_label: dict[str, dict[str, Scores]] = field(default_factory=dict)

    def add(self, label: str, rank: Callable[[Question], list[str]]) -> dict[str, Scores]:
        self.by_label[label] = {c.session: score_all([c], rank) for c in self.conversations}
        return self.by_label[label]

    def pooled(self, label: str, sessions: Iterable[str], k: int = 10) -> float:
        """Recall@k over the questions of ``sessions``, each question counting once."""
        return Scores.merged(self.by_label[label][s] for s in sessions).at(k)


def weight_label(weight: float) -> str:
    return f"meaning weight {weight:g}"


def leave_one_out(folds: Folds) -> list[tuple[str, float, float, float]]:
    """Per held-out conversation: the weight best on the other two (ties: nearest the
    shipped one), its R@10 on the held-out one, and the shipped weight's R@10 there."""
    sessions = [c.session for c in folds.conversations]
    out = []
    for held in sessions:
        rest = [s for s in sessions if s != held]
        best = max(
            WEIGHTS,
            key=lambda w: (
                round(folds.pooled(weight_label(w), rest), 6),
                -abs(w - VECTOR_WEIGHT),
            ),
        )
        out.append(
            (
                held,
                best,
                folds.pooled(weight_label(best), [held]),
                folds.pooled(weight_label(VECTOR_WEIGHT), [held]),
            )
        )
    return out


def fold_table(section: Section, folds: Folds, labels: list[str]) -> None:
    """R@10 per fold for ``labels``, over all folds, and the spread across folds."""
    names = [c.session.removeprefix("locomo:") for c in folds.conversations]
    table = section.table("R@10 per fold", *names, "all", "spread (max − min)")
    for label in labels:
        per = [folds.by_label[label][c.session].at(10) for c in folds.conversations]
        every = folds.pooled(label, [c.session for c in folds.conversations])
        table.row(label, *[f"{x:.3f}" for x in per], f"{every:.3f}", f"{max(per) - min(per):.3f}")


def category_table(section: Section, folds: Folds, labels: list[str]) -> None:
    """R@10 per category, one figure per fold ("–" where a fold has no such question)."""
    names = ", ".join(c.session.removeprefix("locomo:") for c in folds.conversations)
    cats = section.table(f"R@10 per category ({names})", *CATEGORIES.values())
    first = folds.by_label[labels[0]]
    cats.row(
        "questions",
        *[
            " / ".join(str(first[c.session].counts[cat]) for c in folds.conversations)
            for cat in CATEGORIES
        ],
    )
    for label in labels:
        per = folds.by_label[label]
        cats.row(
            label,
            *[
                " / ".join(
                    f"{per[c.session].at(10, cat):.3f}" if per[c.session].counts[cat] else "–"
                    for c in folds.conversations
                )
                for cat in CATEGORIES
            ],
        )


def _row(table_rows: list[list[str]], label: str, scores: Scores) -> None:
    cells = [label]
    cells += [f"{scores.at(10, c):.3f}" for c in CATEGORIES]
    cells += [f"{scores.at(k):.3f}" for k in KS]
    table_rows.append(cells)


def _data_path() -> Path | None:
    path = Path(os.environ.get("REVERIE_LOCOMO", DEFAULT_DATA))
    return path if path.is_file() else None


def main() -> Section:
    section = Section("Recall on real conversations (LoCoMo development set)")
    path = _data_path()
    if path is None:
        message = (
            f"skipped: no LoCoMo data at {DEFAULT_DATA} (set REVERIE_LOCOMO to the file); "
            "the data set is not part of the repository"
        )
        say(message)
        section.intro = message
        return section
    conversations = load(path)
    questions = sum(len(c.questions) for c in conversations)
    turns = sum(len(c.turns) for c in conversations)
    say(f"{len(conversations)} conversations, {turns:,} turns, {questions} questions ({path})")
    floors = {
        c.session: Bm25([t.dia_id for t in c.turns], [t.text for t in c.turns])
        for c in conversations
    }
    floor = score_all(conversations, lambda q: floors[q.session].rank(q.text, max(KS)))
    rows: list[list[str]] = []
    with tempfile.TemporaryDirectory(prefix="reverie-locomo-") as tmp:
        extra = os.environ.get("REVERIE_BENCH_CONFIG", "")
        daemon = DaemonProcess(Path(tmp), config='[daemon]\nlog_level = "warning"\n' + extra)
        daemon.env = {k: v for k, v in os.environ.items() if not k.startswith("REVERIE_")}
        daemon.start()
        try:
            rate = ingest(daemon, conversations)
            say(f"imported at {rate:,.0f} messages/s through the client")
            fresh = score_all(conversations, daemon_ranker(daemon, None))
            _row(rows, "default search, right after the import", fresh)
            say(f"  right after the import: R@10 {fresh.at(10):.3f}")
            settle = wait_settled(daemon)
            say(f"  index settled {settle:.1f} s after the import")
            results = {}
            folds = Folds(conversations)
            for mode in (None, "hybrid", "text", "vector"):
                label = "default search" if mode is None else f'mode="{mode}"'
                results[mode] = Scores.merged(
                    folds.add(label, daemon_ranker(daemon, mode)).values()
                )
                _row(rows, f"{label}, index settled", results[mode])
                say(f"  {label}: R@10 {results[mode].at(10):.3f}")
            thresholds = threshold_rows(daemon, conversations)
            started = time.perf_counter()
            candidates = collect(daemon, conversations)
            say(f"  candidates of both signals fetched in {time.perf_counter() - started:.1f} s")
        finally:
            daemon.stop()
    _row(rows, "BM25 over the raw turns (floor, same run)", floor)
    folds.add(FLOOR, lambda q: floors[q.session].rank(q.text, max(KS)))
    for weight in WEIGHTS:
        folds.add(weight_label(weight), fused_ranker(candidates, (TEXT_WEIGHT, weight)))
    shipped = folds.pooled(weight_label(VECTOR_WEIGHT), [c.session for c in conversations])
    say(
        f"  fused in the bench at the shipped weight: R@10 {shipped:.3f}"
        f" (the daemon's hybrid: {results['hybrid'].at(10):.3f})"
    )
    table = section.table(
        "evidence recall", *[f"{name} @10" for name in CATEGORIES.values()], "@5", "@10", "@20"
    )
    for cells in rows:
        table.row(*cells)
    section.intro = (
        f"{len(conversations)} conversations, {turns:,} turns, {questions} questions of"
        " categories 1-4, each conversation appended as one session through the client"
        f" ({rate:,.0f} messages/s), then searched with the question and `session=`."
        f" The index settled {settle:.1f} s after the import. Columns: recall@10 per"
        " category, then overall recall@5/10/20. Then per conversation (a fold): R@10 and its"
        " spread, per category, and the hybrid fusion's meaning weight chosen on two"
        " conversations and measured on the third (words weigh 1; each question's candidates"
        " fused in this process by the daemon's `fuse`, which at the shipped"
        f" {VECTOR_WEIGHT:g} gave {shipped:.3f} against the daemon's {results['hybrid'].at(10):.3f})."
    )
    trade = section.table("meaning signal", "R@10 (this run)", "searchable by it")
    trade.row(
        "all-MiniLM-L6-v2 int8 (default)",
        f"{results[None].at(10):.3f}",
        f"after the indexer: {settle:.1f} s for this import (throughput: the Indexing section)",
    )
    trade.row(
        'none: words only (`mode="text"`)',
        f"{results['text'].at(10):.3f}",
        f"at the ack ({rate:,.0f} messages/s, the import's own rate)",
    )
    section.notes = (
        "The trade-off the indexer's speed buys: the words signal (SQLite FTS5, written by the"
        " append's commit) is complete from the ack whatever the embedder; the meaning signal"
        " adds the difference between the two rows once the indexer has caught up. Measured"
        " once outside this module: potion-base-8M (a static model2vec embedder, ~14,000"
        " embeddings/s) gave R@10 0.763 with the same fusion, but no registry package for"
        " Python 3.11 ships it; no cross-encoder reranker ships without torch or a download."
    )
    cut = section.table(
        "min_score",
        "precision of the top 10",
        "evidence found that is kept",
        "searches of another conversation with no hit",
        "their hits per search",
    )
    for cells in thresholds:
        cut.row(*cells)
    signals = ['mode="hybrid"', 'mode="text"', 'mode="vector"', FLOOR]
    fold_table(section, folds, signals + [weight_label(w) for w in WEIGHTS])
    category_table(section, folds, signals)
    loo = section.table(
        "held-out conversation",
        "meaning weight chosen on the other two",
        "its R@10 there",
        f"shipped weight {VECTOR_WEIGHT:g}",
        'mode="text"',
    )
    n_all = 0
    held_sum = shipped_sum = 0.0
    for held, weight, held_r, shipped_r in leave_one_out(folds):
        n = sum(folds.by_label[FLOOR][held].counts.values())
        n_all += n
        held_sum += held_r * n
        shipped_sum += shipped_r * n
        text_r = folds.pooled('mode="text"', [held])
        loo.row(held, f"{weight:g}", f"{held_r:.3f}", f"{shipped_r:.3f}", f"{text_r:.3f}")
        say(
            f"  held out {held}: weight {weight:g} chosen, R@10 {held_r:.3f} (shipped {shipped_r:.3f})"
        )
    loo.row(
        "all folds (each question once)",
        "",
        f"{held_sum / n_all:.3f}",
        f"{shipped_sum / n_all:.3f}",
        f"{results['text'].at(10):.3f}",
    )
    _targets(section, results, fresh, floor)
    return section


THRESHOLDS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4)


def threshold_rows(daemon: DaemonProcess, conversations: list[Conversation]) -> list[list[str]]:
    """What ``min_score`` keeps: each question searched (top 10, ``min_score=0``) in its own
    conversation, where a hit holding an evidence turn is relevant, and in the next one,
    where nothing answers it; then counted at each threshold."""
    own: list[tuple[float, bool]] = []  # (score, relevant) of every top-10 hit
    other: list[list[float]] = []  # the scores of each search of another conversation
    with daemon.client() as client:
        for i, conv in enumerate(conversations):
            elsewhere = conversations[(i + 1) % len(conversations)].session
            for q in conv.questions:
                for hit in client.search(q.text, session=q.session, k=10, min_score=0.0):
                    own.append((hit.score, bool(q.evidence.intersection(hit.message_ids))))
                hits = client.search(q.text, session=elsewhere, k=10, min_score=0.0)
                other.append([hit.score for hit in hits])
    relevant = sum(r for _, r in own) or 1
    rows = []
    for cut in THRESHOLDS:
        kept = [r for score, r in own if score >= cut]
        answered = [sum(score >= cut for score in scores) for scores in other]
        rows.append(
            [
                f"{cut:.2f}",
                f"{sum(kept) / max(1, len(kept)):.3f}",
                f"{sum(kept) / relevant:.3f}",
                f"{sum(n == 0 for n in answered) / max(1, len(answered)):.2f}",
                f"{sum(answered) / max(1, len(answered)):.1f}",
            ]
        )
    return rows


def _targets(
    section: Section, results: dict[str | None, Scores], fresh: Scores, floor: Scores
) -> None:
    default = results[None]
    gaps = [
        f"{name} {default.at(10, c):.3f} < {floor.at(10, c) + 0.10:.3f}"
        for c, name in CATEGORIES.items()
        if default.at(10, c) < floor.at(10, c) + 0.10
    ]
    section.target(
        "locomo.recall",
        f"R@10 {default.at(10):.3f}; floor {floor.at(10):.3f}",
        default.at(10) >= 0.80 and not gaps,
        "; ".join(
            gaps + ([f"overall {default.at(10):.3f} < 0.80"] if default.at(10) < 0.80 else [])
        ),
    )
    worse = [
        f"@{k} {results['hybrid'].at(k):.3f} < {best:.3f}"
        for k in KS
        if results["hybrid"].at(k) < (best := max(results["text"].at(k), results["vector"].at(k)))
    ]
    section.target(
        "locomo.hybrid",
        ", ".join(f"@{k} {results['hybrid'].at(k):.3f}" for k in KS),
        not worse,
        "; ".join(worse),
    )
    section.target(
        "locomo.fresh",
        f"{fresh.at(10):.3f} vs text {results['text'].at(10):.3f}",
        fresh.at(10) >= results["text"].at(10),
    )
