"""The torture clients: threads with the blocking ``Client`` that keep the daemon busy.

Each worker keeps its own seeded RNG, id counter and keys across rounds, so
ids are unique for the whole run and every key has exactly one writer (which
is what lets the checker demand exact working-memory versions). A worker
records an operation in the ``Ledger`` only once its reply is back. A call
that fails because the daemon was killed (``ConnectionLost`` after the
client's own retries) is recorded as unknown; any other error is a surprise
that the driver reports as a failure.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reverie.config import NotFound, ReverieError
from reverie.daemon import Client, ConnectionLost

from .ledger import KeyState, Ledger

WORDS = [
    "lisbon",
    "hotel",
    "budget",
    "sourdough",
    "starter",
    "peanut",
    "allergy",
    "deploy",
    "billing",
    "rollback",
    "garden",
    "tomato",
    "harvest",
    "invoice",
    "payment",
    "refund",
    "kernel",
    "panic",
    "driver",
    "update",
    "concert",
    "tickets",
    "violin",
    "rehearsal",
    "marathon",
    "training",
    "knee",
    "injury",
]
QUERIES = [
    "lisbon hotel budget",
    "sourdough starter",
    "peanut allergy",
    "billing rollback deploy",
    "kernel panic driver",
    "marathon knee injury",
]
SHARED_SCOPE = "project/torture"
#: Sessions of the forget worker start with this; every other one shares this scope.
FORGET_PREFIX = "fg:"
FORGET_SCOPE = "project/torture-forget"
#: The scope only ``memory_edit`` writes.
EDIT_SCOPE = "project/torture-edit"
WM_SCOPES = ["global", SHARED_SCOPE, f"{SHARED_SCOPE}/agent/a"]
#: Outcomes of a killed daemon, never a bug: the call may or may not have happened.
LOST = (ConnectionLost,)
#: Seconds a call may take before the client gives up (a kill is seen at once).
CALL_TIMEOUT = 60.0


def session_scope(session: str) -> str | None:
    """Every third session shares one scope, so jobs of different sessions meet there."""
    return SHARED_SCOPE if int(session.rsplit("s", 1)[1]) % 3 == 0 else None


def memory_scope(session: str) -> str:
    return session_scope(session) or f"session/{session}"


@dataclass
class Worker:
    """One client thread's lasting state; ``run`` is one round's loop."""

    name: str
    kind: str  # append | consolidate | search | wm | forget
    socket: Path
    ledger: Ledger
    sessions: list[str]
    rng: random.Random
    n: int = 0
    keys: list[tuple[str, str]] = field(default_factory=list)
    surprises: list[str] = field(default_factory=list)

    def run(self, stop: threading.Event) -> None:
        step = {
            "append": self._append,
            "consolidate": self._consolidate,
            "search": self._search,
            "wm": self._wm,
            "forget": self._forget_or_edit,
        }[self.kind]
        with Client(self.socket, timeout=CALL_TIMEOUT) as client:
            while not stop.is_set():
                try:
                    step(client, stop)
                except ReverieError as exc:  # typed, from the daemon: never expected here
                    self.surprises.append(f"{self.name}: {type(exc).__name__}: {exc}")
                    self.ledger.count("surprises")

    def _text(self) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(6, 14)))

    def _append(self, client: Client, stop: threading.Event) -> None:
        session = self.rng.choice(self.sessions)
        scope = session_scope(session)
        batch = 2 if self.rng.random() < 0.2 else 1
        messages = []
        for _ in range(batch):
            self.n += 1
            role = "user" if self.n % 2 else "assistant"
            text = f"{self.name} #{self.n}: {self._text()}"
            messages.append({"role": role, "content": text, "id": f"{self.name}-{self.n}"})
        ids = [m["id"] for m in messages]
        try:
            if batch == 1:
                m = messages[0]
                ack = client.append(session, m["role"], m["content"], id=m["id"], scope=scope)
                got = [ack.id]
            else:
                got = [a.id for a in client.append_many(session, messages, scope=scope)]
        except LOST:
            self.ledger.lose_append(session, ids)
            return
        if got != ids:
            self.surprises.append(f"{self.name}: append of {ids} acked as {got}")
        self.ledger.ack_append(self.name, session, ids)

    def _consolidate(self, client: Client, stop: threading.Event) -> None:
        session = self.rng.choice(self.sessions)
        try:
            client.consolidate(session, wait=self.rng.random() < 0.5)
        except LOST:
            return
        except ReverieError as exc:
            if not exc.code.startswith("llm."):
                raise
            self.ledger.count("consolidations_llm_failed")  # the turns stay in the tail
        self.ledger.count("consolidate_calls")
        stop.wait(self.rng.uniform(0.05, 0.4))

    def _search(self, client: Client, stop: threading.Event) -> None:
        query = self.rng.choice(QUERIES)
        try:
            hits = client.search(
                query, k=5, mode=self.rng.choice(("hybrid", "text", "vector")), everywhere=True
            )
        except LOST:
            return
        if len(hits) > 5:
            self.surprises.append(f"{self.name}: search {query!r} gave {len(hits)} hits for k=5")
        self.ledger.count("searches")
        stop.wait(self.rng.uniform(0.0, 0.2))

    def _forget_or_edit(self, client: Client, stop: threading.Event) -> None:
        """A session told a unique marker, consolidated, then forgotten; or a memory edit."""
        self.n += 1
        if self.n % 3 == 1:  # an edit first: forgets are slow (each rewrites the index)
            self._edit(client)
            return
        session = f"{FORGET_PREFIX}{self.name}-{self.n}"
        marker = f"Fgt{self.rng.getrandbits(48):012x}q"
        scope = FORGET_SCOPE if self.n % 2 else None
        try:
            client.append(session, "user", f"My code is {marker} and I live in Porto.", scope=scope)
            client.append(session, "assistant", "Noted.")
            try:
                client.consolidate(session, wait=True)
            except ReverieError as exc:  # the scripted LLM faults: forget it unconsolidated
                if not exc.code.startswith("llm."):
                    raise
            client.forget(session)
        except LOST:
            self.ledger.count("forgets_unknown")
            return
        with self.ledger.lock:
            self.ledger.forgotten.append(marker)
            self.ledger.counts["forgets"] += 1

    def _edit(self, client: Client) -> None:
        text = f"# Memory\n\n- [2026-01-01] Edit number {self.n} by {self.name}.\n"
        try:
            client.memory_edit(EDIT_SCOPE, text)
        except LOST:
            self.ledger.edit_pending = text
            return
        self.ledger.edited, self.ledger.edit_pending = text, None
        self.ledger.count("edits")

    def _wm(self, client: Client, stop: threading.Event) -> None:
        if self.rng.random() < 0.05:
            scope = self.rng.choice(WM_SCOPES)
            try:
                cid = client.checkpoint_create(scope, label=f"{self.name}-{self.n}")
            except LOST:
                return
            with self.ledger.lock:
                self.ledger.checkpoints.setdefault(scope, []).append(cid)
                self.ledger.counts["checkpoints"] += 1
            return
        key = self.rng.choice(self.keys)
        state = self.ledger.keys[key]
        if state.pending is not None and not self._resolve(client, key, state):
            return
        self.n += 1
        value = {"by": self.name, "n": self.n, "text": self._text()}
        try:
            version = client.wm_set(*key, value, expected_version=state.version)
        except LOST:
            state.pending = (value, state.version + 1)
            self.ledger.count("wm_unknown")
            return
        if version != state.version + 1:
            self.surprises.append(f"{self.name}: {key} CAS from {state.version} gave {version}")
        state.value, state.version = value, version
        self.ledger.count("wm_writes")

    def _resolve(self, client: Client, key: tuple[str, str], state: KeyState) -> bool:
        """Learn whether a write whose reply was lost applied; False if still unknown."""
        try:
            found = read_key(client, key)
        except LOST:
            return False
        problem = settle_key(key, state, found)
        if problem:
            self.surprises.append(f"{self.name}: {problem}")
        return True


def read_key(client: Client, key: tuple[str, str]) -> tuple[Any, int] | None:
    """(value, version) of a key, None if absent."""
    try:
        item = client.wm_get(*key)
    except NotFound:
        return None
    return item.value, item.version


def settle_key(key: tuple[str, str], state: KeyState, found: tuple[Any, int] | None) -> str:
    """Check ``found`` against the acked (or lost-but-maybe-applied) write; adopt it.

    Returns a description of the violation, or "".
    """
    acked = (state.value, state.version) if state.version else None
    if found == acked:
        state.pending = None
        return ""
    if state.pending is not None and found == state.pending:
        (state.value, state.version), state.pending = state.pending, None
        return ""
    return f"working-memory key {key!r}: found {found!r}, acked {acked!r}" + (
        f" (or the lost write {state.pending!r})" if state.pending else ""
    )


def make_workers(socket: Path, ledger: Ledger, seed: int, sessions: list[str]) -> list[Worker]:
    """Six appenders, two consolidate callers, one searcher, two working-memory writers,
    one forgetter (and editor)."""
    kinds = ["append"] * 6 + ["consolidate"] * 2 + ["search"] + ["wm"] * 2 + ["forget"]
    workers = []
    for i, kind in enumerate(kinds):
        worker = Worker(
            name=f"{kind[0]}{i}",
            kind=kind,
            socket=socket,
            ledger=ledger,
            sessions=sessions,
            rng=random.Random(seed * 1000 + i),
        )
        if kind == "wm":
            worker.keys = [(scope, f"{worker.name}-k{j}") for scope in WM_SCOPES for j in range(4)]
            for key in worker.keys:
                ledger.keys[key] = KeyState()
        workers.append(worker)
    return workers
