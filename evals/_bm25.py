"""The floor every recall benchmark compares with: plain Okapi BM25 over raw texts, in process.

``[a-z0-9]+`` lower-cased tokens, a short list of English function words
dropped, k1 1.2, b 0.75: the measure of ``../shared/evaldata/README.md``.
It is deliberately independent of reverie's own full-text index.
"""

from __future__ import annotations

import math
import re
from collections import Counter

__all__ = ["STOP_WORDS", "Bm25", "terms"]

_TOKEN = re.compile(r"[a-z0-9]+")
# The floor's stop list: English function words, as in the data set's README.
STOP_WORDS = frozenset(
    """a an and are as at be been but by did do does for from had has have he her him his how
    i if in into is it its me my of on or our she so that the their them they this to was we
    were what when where which who why will with would you your""".split()  # noqa: SIM905
)


def terms(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(text.lower()) if t not in STOP_WORDS]


class Bm25:
    """The floor: Okapi BM25 over a fixed set of texts (k1 1.2, b 0.75)."""

    def __init__(self, ids: list[str], texts: list[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.ids = ids
        self.bags = [Counter(terms(text)) for text in texts]
        self.lengths = [sum(bag.values()) for bag in self.bags]
        self.avg = sum(self.lengths) / max(len(self.lengths), 1)
        df: Counter[str] = Counter()
        for bag in self.bags:
            df.update(bag.keys())
        n = len(self.bags)
        self.idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}
        self.k1, self.b = k1, b

    def rank(self, query: str, k: int) -> list[str]:
        words = set(terms(query))
        scored = []
        for i, bag in enumerate(self.bags):
            norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avg)
            score = sum(
                self.idf[w] * bag[w] * (self.k1 + 1) / (bag[w] + norm) for w in words if w in bag
            )
            if score > 0:
                scored.append((-score, i))
        scored.sort()
        return [self.ids[i] for _, i in scored[:k]]
