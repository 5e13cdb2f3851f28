"""LoCoMo's conversations as folds: recall per conversation, and the meaning weight
chosen on the others and measured on the one left out.

With three conversations in the development set, a figure over all of them
hides how far one conversation moves it; each table here shows it per fold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from bench.report import Section
from evals.locomo.data import CATEGORIES, Conversation, Question, Scores, score_all
from reverie.store import VECTOR_WEIGHT

__all__ = ["WEIGHTS", "Folds", "category_table", "fold_table", "leave_one_out", "weight_label"]

#: The meaning signal's weights compared leaving one conversation out (words weigh 1).
WEIGHTS = (0.25, 0.5, 0.75, 1.0, 1.5)


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
