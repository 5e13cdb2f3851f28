"""The checker: reads the daemon's state while no client writes, and names any violation.

Reads are bounded: the message log is paged with ``after_seq``/``limit``,
history files are parsed one at a time with the store's own parser. Each
check raises ``Violation`` with the exact session, id or key, so the driver
can add the seed and the round and fail.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reverie.daemon import Client
from reverie.store import MAX_K, HistoryEntry, merge_facts, parse_history
from reverie.store.files.memory_files import scope_of_dir

from .ledger import Ledger
from .workload import EDIT_SCOPE, FORGET_PREFIX, QUERIES, memory_scope, read_key, settle_key

PAGE = 500
_ENTRY_MARK = "<!-- reverie:entry "


class Violation(AssertionError):
    """An invariant does not hold."""


def poll(predicate: Callable[[], Any], timeout: float, what: str) -> Any:
    """Poll ``predicate`` until truthy, within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise Violation(f"{what}: not reached within {timeout}s")
        time.sleep(0.05)
    return value


def read_log(client: Client, session: str) -> list[Any]:
    """Every stored message of ``session``, oldest first, a page at a time."""
    messages: list[Any] = []
    while page := client.history(
        session, after_seq=messages[-1].seq if messages else 0, limit=PAGE
    ):
        messages += page
    return messages


def _jobs(client: Client) -> tuple[int, dict[str, int]]:
    backend = client.status().consolidation["default"]
    return backend.running, dict(backend.jobs)


def quiet_read(client: Client, read: Callable[[], Any], timeout: float = 90.0) -> Any:
    """``read()`` bracketed by two job snapshots with nothing running and nothing changed.

    A consolidation writes its history entry, then moves the cursor; a read
    in between would see a message twice or not at all. If no job runs before
    or after ``read`` and the job counts did not change, none was applied
    during it, so what ``read`` saw is one consistent state.
    """
    deadline = time.monotonic() + timeout
    while True:
        running, before = _jobs(client)
        if running == 0 and not before.get("running"):
            result = read()
            if _jobs(client) == (0, before):
                return result
        if time.monotonic() > deadline:
            raise Violation(f"consolidation never went quiet within {timeout}s: {before}")
        time.sleep(0.05)


@dataclass
class Snapshot:
    """The daemon's state as the checker saw it."""

    logs: dict[str, list[Any]]
    tails: dict[str, list[str]]
    entries: list[tuple[Path, HistoryEntry]]


def take_snapshot(client: Client, sessions: list[str], data_dir: Path) -> Snapshot:
    """Logs, tails and history entries of one consistent moment (see ``quiet_read``)."""

    def read() -> Snapshot:
        logs = {s: read_log(client, s) for s in sessions}
        tails = {s: [m.id for m in client.context(s, max_tokens=0).messages] for s in sessions}
        return Snapshot(logs, tails, read_files(data_dir))

    return quiet_read(client, read)


def read_files(data_dir: Path) -> list[tuple[Path, HistoryEntry]]:
    """Parse every ``MEMORY.md`` and history file with the store's own code.

    A history file must yield one entry per metadata line (the parser skips
    broken ones with a warning, which would hide a torn write); ``MEMORY.md``
    must be UTF-8 and a fixed point of ``merge_facts``, which wrote it.
    """
    entries: list[tuple[Path, HistoryEntry]] = []
    root = data_dir / "memory"
    if not root.is_dir():
        return entries
    for scope_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        if scope_dir.name.startswith(".deleting-"):
            continue
        scope = scope_of_dir(scope_dir)
        memory = scope_dir / "MEMORY.md"
        if memory.exists():
            text = _utf8(memory)
            if text and merge_facts(text, [], 10**9, len) != text:
                raise Violation(f"{memory} is not in the form merge_facts writes:\n{text}")
        for path in sorted((scope_dir / "history").glob("*.md")):
            text = _utf8(path)
            parsed = parse_history(text)
            marks = sum(line.startswith(_ENTRY_MARK) for line in text.splitlines())
            if len(parsed) != marks:
                raise Violation(f"{path}: {marks} entry lines but {len(parsed)} entries parse")
            for entry in parsed:
                if entry.scope != scope:
                    raise Violation(f"{path}: entry {entry.id} names scope {entry.scope!r}")
                entries.append((path, entry))
    return entries


def _utf8(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise Violation(f"{path} is not UTF-8: {exc}") from exc


def check_messages(snap: Snapshot, ledger: Ledger) -> dict[str, int]:
    """Invariants 1 and 2 on one snapshot; returns a few counts for the summary.

    Per session: the log holds each id once, every acked id, and nothing
    nobody sent; each worker's acked ids keep their order. History entries
    have unique ids, cover disjoint message ranges exactly as the log has
    them, and together with the tail cover the whole log from seq 1, so each
    message is in the tail or in exactly one entry.
    """
    ids = Counter(e.id for _, e in snap.entries)
    twice = [i for i, n in ids.items() if n > 1]
    if twice:
        raise Violation(f"history entry ids written twice (a job applied twice): {twice[:5]}")
    covered = Counter(m for _, e in snap.entries for m in e.message_ids)
    doubled = [m for m, n in covered.items() if n > 1]
    if doubled:
        where = [(str(p), e.id) for p, e in snap.entries if doubled[0] in e.message_ids]
        raise Violation(f"message {doubled[0]} is in two history entries: {where}")
    by_session: dict[str, list[HistoryEntry]] = {}
    for _, entry in snap.entries:
        by_session.setdefault(entry.session, []).append(entry)
    for session, log in snap.logs.items():
        mine = by_session.pop(session, [])
        strays = [e.id for e in mine if e.scope != memory_scope(session)]
        if strays:
            raise Violation(f"{session}: entry {strays[0]} is in a scope not the session's")
        _check_log(session, log, ledger)
        _check_coverage(session, log, mine, snap.tails[session])
    unused = sorted(s for s in by_session if not s.startswith(FORGET_PREFIX))
    if unused:
        raise Violation(f"history entries of sessions nobody used: {unused}")
    return {"messages": sum(map(len, snap.logs.values())), "entries": len(snap.entries)}


def _check_log(session: str, log: list[Any], ledger: Ledger) -> None:
    seqs = [m.seq for m in log]
    if seqs != list(range(1, len(log) + 1)):
        raise Violation(f"{session}: seqs are not 1..{len(log)} without gaps: {seqs[:20]}...")
    counts = Counter(m.id for m in log)
    twice = [i for i, n in counts.items() if n > 1]
    if twice:
        raise Violation(f"{session}: message {twice[0]} stored {counts[twice[0]]} times")
    acked = ledger.acked_ids(session)
    missing = sorted(acked - counts.keys())
    if missing:
        raise Violation(f"{session}: acked message {missing[0]} lost ({len(missing)} in all)")
    stray = sorted(counts.keys() - acked - ledger.unknown.get(session, set()))
    if stray:
        raise Violation(f"{session}: message {stray[0]} stored but never sent here")
    seq_of = {m.id: m.seq for m in log}
    for worker, mine in ledger.acked.get(session, {}).items():
        order = [seq_of[i] for i in mine]
        if order != sorted(order):
            bad = next(k for k in range(1, len(order)) if order[k] < order[k - 1])
            raise Violation(
                f"{session}: {worker}'s acked {mine[bad]} stored before {mine[bad - 1]}"
            )


def _check_coverage(
    session: str, log: list[Any], entries: list[HistoryEntry], tail: list[str]
) -> None:
    entries = sorted(entries, key=lambda e: e.first_seq)
    next_seq = 1
    for entry in entries:
        if entry.first_seq != next_seq or entry.last_seq < entry.first_seq:
            raise Violation(
                f"{session}: entry {entry.id} covers seq {entry.first_seq}..{entry.last_seq}, "
                f"expected to start at {next_seq}"
            )
        expected = [m.id for m in log[entry.first_seq - 1 : entry.last_seq]]
        if entry.message_ids != expected:
            raise Violation(
                f"{session}: entry {entry.id} lists {entry.message_ids}, the log has {expected}"
            )
        next_seq = entry.last_seq + 1
    expected_tail = [m.id for m in log[next_seq - 1 :]]
    if tail != expected_tail:
        lost = sorted(set(expected_tail) - set(tail))
        extra = sorted(set(tail) - set(expected_tail))
        raise Violation(
            f"{session}: tail is not the log after the last entry (seq {next_seq}..): "
            f"missing {lost[:5]}, also in history {extra[:5]}"
        )


def check_working_memory(client: Client, ledger: Ledger) -> int:
    """Invariant 4: each key holds exactly its acked write (or the one whose reply was lost)."""
    for key, state in ledger.keys.items():
        problem = settle_key(key, state, read_key(client, key))
        if problem:
            raise Violation(problem)
    for scope, ids in ledger.checkpoints.items():
        have = {c.id for c in client.checkpoint_list(scope)}
        lost = [i for i in ids if i not in have]
        if lost:
            raise Violation(f"acked checkpoint {lost[0]} of scope {scope!r} is gone")
    return len(ledger.keys)


def check_forgets_and_edits(client: Client, data_dir: Path, ledger: Ledger) -> int:
    """Acked forgets left no byte behind (once the restarted daemon finished its forget
    jobs); the edited scope holds its acked edit (or the one whose reply was lost)."""

    def settled() -> bool:
        forgets = client.status().forgets
        return forgets.running == 0 and forgets.pending == 0

    poll(settled, 90.0, "forget jobs finished")
    markers = [m.encode() for m in ledger.forgotten]
    for path in sorted(data_dir.rglob("*")):
        try:
            data = path.read_bytes() if path.is_file() else b""
        except FileNotFoundError:
            continue
        kept = [m.decode() for m in markers if m in data]
        if kept:
            raise Violation(f"forgotten {kept[0]} is still in {path.relative_to(data_dir)}")
    memory = client.memory(EDIT_SCOPE, limit=1).memory
    if ledger.edit_pending is not None and memory == ledger.edit_pending:
        ledger.edited, ledger.edit_pending = memory, None
    if memory != ledger.edited:
        raise Violation(f"{EDIT_SCOPE}: MEMORY.md is {memory!r}, acked {ledger.edited!r}")
    return len(markers)


_TRACEBACK = re.compile(r"^Traceback \(most recent call last\):", re.MULTILINE)


def check_log(text: str) -> None:
    """Invariant 6: the daemon logged no unhandled exception (no traceback at all)."""
    match = _TRACEBACK.search(text)
    if match:
        start = text.rfind("\n", 0, max(match.start() - 1, 0)) + 1
        raise Violation(f"traceback in the daemon log:\n{text[start : start + 3000]}")


def index_caught_up(client: Client) -> bool:
    index = client.status().index
    return bool(index.ready and index.settled)


def index_answers(client: Client) -> list[list[tuple[str, list[str]]]]:
    """The fixed queries' first hits (kind and message ids, in order), from the index alone.

    The search asks for ``MAX_K`` hits so every episode and fact is a
    candidate: the workload's summaries hold every query word, so hundreds
    of them reach the top of the words scale, and a shallower search fuses
    whichever of those LanceDB's own BM25 ranked first, which differs
    between an index built row by row and one rebuilt at once.
    """
    return [
        [(h.kind, h.message_ids) for h in client.search(q, k=MAX_K, everywhere=True)[:5]]
        for q in QUERIES
    ]


def ranking_detail(client: Client) -> str:
    """Each fixed query's text and vector rankings with scores: what explains a changed answer."""
    lines = []
    for q in QUERIES:
        for mode in ("text", "vector"):
            hits = client.search(q, k=5, mode=mode, everywhere=True)
            shown = ", ".join(f"{h.uid}={h.score:.6f}" for h in hits)
            lines.append(f"  {q!r} {mode}: {shown}")
    return "\n".join(lines)
