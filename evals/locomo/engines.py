"""The LoCoMo recall on the Postgres engine, beside SQLite's, for ``--store``.

The same import through the client and the same default search as
``evals/locomo/``, against a daemon whose store is a fresh database on the
server ``--store`` names (``bench/_engines.py``); recall@10 per conversation
beside the SQLite daemon's from the same run. The two engines rank words
differently underneath (FTS5 against Postgres full text with the engine's own
term counts), so this is where a drift between them shows.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench._daemon import wait_settled
from bench._engines import postgres_databases, store_config
from bench._machine import mark, say
from bench.report import Section
from evals.locomo.daemon import daemon_ranker, ingest
from evals.locomo.data import Conversation, Scores
from evals.locomo.folds import Folds
from tests.daemon_process import DaemonProcess

__all__ = ["EngineRun", "engine_table", "postgres_recall"]

#: How far the Postgres engine's R@10 may be from SQLite's, per conversation (issue 49).
TOLERANCE = 0.02


@dataclass(slots=True)
class EngineRun:
    """One engine's default search per conversation, and what the import took."""

    per_conversation: dict[str, Scores]
    rate: float  # messages/s through the client
    settle: float  # seconds from the import's end to a settled index


def postgres_recall(spec: str, conversations: list[Conversation], config: str) -> EngineRun:
    """Import and search the conversations on a daemon over a fresh Postgres database."""
    say("\nPostgres engine: the same import and default search on a fresh database")
    with (
        postgres_databases(spec) as fresh,
        tempfile.TemporaryDirectory(prefix="reverie-locomo-") as tmp,
    ):
        daemon = DaemonProcess(Path(tmp), config=config + store_config(fresh()))
        daemon.env = {k: v for k, v in os.environ.items() if not k.startswith("REVERIE_")}
        daemon.start()
        try:
            rate = ingest(daemon, conversations)
            say(f"  imported at {rate:,.0f} messages/s through the client")
            settle = wait_settled(daemon)
            say(f"  index settled {settle:.1f} s after the import")
            per = Folds(conversations).add("default search", daemon_ranker(daemon, None))
        finally:
            daemon.stop()
    say(f"  default search: R@10 {Scores.merged(per.values()).at(10):.3f}")
    return EngineRun(per, rate, settle)


def engine_table(
    section: Section, conversations: list[Conversation], sqlite: EngineRun, postgres: EngineRun
) -> None:
    """R@10 of the default search per conversation on both engines, and the 0.02 target."""
    table = section.table(
        "default search R@10 (index settled)", "SQLite engine", "Postgres engine", "difference"
    )
    far = []
    for conv in conversations:
        s = sqlite.per_conversation[conv.session].at(10)
        p = postgres.per_conversation[conv.session].at(10)
        table.row(conv.session, f"{s:.3f}", f"{p:.3f}", f"{p - s:+.3f}")
        if abs(p - s) > TOLERANCE:
            far.append(f"{conv.session} {p - s:+.3f}")
    s_all = Scores.merged(sqlite.per_conversation.values()).at(10)
    p_all = Scores.merged(postgres.per_conversation.values()).at(10)
    table.row("all (each question once)", f"{s_all:.3f}", f"{p_all:.3f}", f"{p_all - s_all:+.3f}")
    table.row(
        "import through the client; index settled after",
        f"{sqlite.rate:,.0f} msg/s; {sqlite.settle:.1f} s",
        f"{postgres.rate:,.0f} msg/s; {postgres.settle:.1f} s",
        "",
    )
    say(
        f"  Postgres R@10 {p_all:.3f} vs SQLite {s_all:.3f}  [{mark(not far)} within 0.02 per conversation]"
    )
    section.target(
        "locomo.postgres",
        f"R@10 {p_all:.3f} vs {s_all:.3f}; per conversation within {TOLERANCE}: {not far}",
        not far,
        "; ".join(far),
    )
