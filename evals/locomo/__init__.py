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

With ``--store`` (``python -m evals locomo --store postgresql://…`` or
``--store embedded``) the same import and default search run again on the
Postgres engine, per conversation beside SQLite's (``evals/locomo/engines.py``).

Run: ``python -m evals locomo``; ``REVERIE_BENCH_CONFIG`` adds TOML to the
daemon's configuration (e.g. ``"[consolidation]\nidle_after = 1.0\n"`` to
measure after every conversation was consolidated).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from bench import _engines
from bench._daemon import wait_settled
from bench._machine import say
from bench.report import Section
from evals._bm25 import Bm25
from evals.locomo.daemon import (
    collect,
    daemon_ranker,
    fused_ranker,
    ingest,
    threshold_rows,
)
from evals.locomo.data import CATEGORIES, KS, Scores, load, score_all
from evals.locomo.engines import EngineRun, engine_table, postgres_recall
from evals.locomo.folds import (
    WEIGHTS,
    Folds,
    category_table,
    fold_table,
    leave_one_out,
    weight_label,
)
from reverie.store import TEXT_WEIGHT, VECTOR_WEIGHT
from tests.daemon_process import DaemonProcess

__all__ = ["main"]

REPO = Path(__file__).resolve().parents[2]
DEFAULT_DATA = REPO.parent / "shared" / "evaldata" / "locomo-dev.json"
FLOOR = "BM25 floor"


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
    config = '[daemon]\nlog_level = "warning"\n' + os.environ.get("REVERIE_BENCH_CONFIG", "")
    with tempfile.TemporaryDirectory(prefix="reverie-locomo-") as tmp:
        daemon = DaemonProcess(Path(tmp), config=config)
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
    if _engines.STORE:
        sqlite = EngineRun(folds.by_label["default search"], rate, settle)
        engine_table(
            section, conversations, sqlite, postgres_recall(_engines.STORE, conversations, config)
        )
    _targets(section, results, fresh, floor)
    return section


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
