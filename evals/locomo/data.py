"""The LoCoMo data set as conversations and questions, and recall@k scored over them.

The measure is the one in ``../shared/evaldata/README.md`` (``evals/locomo/``
says how it is run): a question's evidence turns among the first k distinct
message ids found, averaged per category and overall.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

__all__ = [
    "CATEGORIES",
    "KS",
    "Conversation",
    "Question",
    "Scores",
    "Turn",
    "distinct_ids",
    "load",
    "recall",
    "score_all",
]

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (5, 10, 20)
_EVIDENCE = re.compile(r"D:?(\d+):(\d+)")


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
