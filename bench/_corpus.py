"""Synthetic text the embedding and search benchmarks index and query.

One word list, so the embedder probe and the search benchmark measure the
same kind of text: short sentences over a small, topic-mixed vocabulary
(agent plumbing, errands, places, names), which is what session messages
look like to an index.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from bench._machine import say

__all__ = ["WORDS", "sentence", "sentences", "turns"]

WORDS = [
    "session",
    "memory",
    "agent",
    "index",
    "search",
    "vector",
    "token",
    "message",
    "summary",
    "episode",
    "fact",
    "scope",
    "daemon",
    "socket",
    "consolidation",
    "budget",
    "history",
    "cursor",
    "journal",
    "write",
    "commit",
    "query",
    "result",
    "kitten",
    "couch",
    "ticket",
    "invoice",
    "shipment",
    "deploy",
    "server",
    "friday",
    "lunch",
    "revenue",
    "garden",
    "train",
    "Lisbon",
    "Maria",
    "peanut",
    "sourdough",
    "billing",
    "rollback",
    "dentist",
    "passport",
    "rent",
    "wifi",
    "novel",
    "cake",
    "brunch",
    "migration",
]


def sentence(rng: random.Random, lo: int = 6, hi: int = 18) -> str:
    """``lo`` to ``hi`` words drawn from :data:`WORDS`."""
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def sentences(n: int, seed: int, lo: int = 8, hi: int = 30) -> list[str]:
    """``n`` reproducible sentences (the same ``seed`` gives the same list)."""
    rng = random.Random(seed)
    return [sentence(rng, lo, hi) for _ in range(n)]


def append_sentences(
    client: Any,
    total: int,
    batch: int,
    *,
    seed: int,
    session_of: Callable[[int], str],
    id_prefix: str,
    roles: tuple[str, ...] = ("user",),
    report_every: int,
) -> float:
    """Append ``total`` reproducible messages with ``append_many``; returns the seconds it took.

    Each batch goes to ``session_of(first)`` (``first``: the index of its first
    message); message ``n`` has id ``<id_prefix><n>`` and role ``roles[n % len]``.
    Progress is said every ``report_every`` batches.
    """
    rng = random.Random(seed)
    started = time.perf_counter()
    for number, first in enumerate(range(0, total, batch)):
        messages = [
            {"role": roles[n % len(roles)], "content": sentence(rng), "id": f"{id_prefix}{n}"}
            for n in range(first, min(first + batch, total))
        ]
        client.append_many(session_of(first), messages)
        if number % report_every == 0:
            say(f"  appended {first + len(messages):,}/{total:,}")
    return time.perf_counter() - started


def turns(session: int, count: int) -> list[tuple[str, str]]:
    """(user, assistant) texts of one synthetic session: a question, a few sentences of answer.

    The same ``session`` number always gives the same texts, so two systems
    measured on "session 7" store exactly the same conversation.
    """
    rng = random.Random(1000 + session)
    return [
        (sentence(rng, 8, 30) + "?", ". ".join(sentence(rng, 10, 25) for _ in range(3)) + ".")
        for _ in range(count)
    ]
