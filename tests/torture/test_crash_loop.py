"""Crash loop: kill -9 the real daemon at random moments under load, check every invariant.

Many client threads append, consolidate, search and write working memory
while the daemon consolidates often (small budgets, the fake LLM on loopback
with scripted latency and faults). The driver kills the daemon at a moment
drawn from a seeded RNG (sometimes exactly while an LLM call is in flight),
restarts it, lets the clients reconnect and retry, then stops them and
checks the invariants of ``docs/design.md`` against what the clients
were told: nothing acked is lost or doubled, history entries and the tail
cover the log exactly once, the Markdown parses, working memory holds every
acked write, the index rebuilds to the same answers, and the log shows no
traceback.

``REVERIE_TORTURE_SECONDS`` sets the length of the kill loop (unset: a short
run for ``make test``); ``REVERIE_TORTURE_SEED`` replays a run.
"""

from __future__ import annotations

import os
import random
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from reverie.daemon import Client
from tests.daemon_process import DaemonProcess
from tests.fakellm import Behaviour, FakeLLM, garbage, hang, status

from .invariants import (
    Violation,
    check_forgets_and_edits,
    check_log,
    check_messages,
    check_working_memory,
    index_answers,
    index_caught_up,
    poll,
    quiet_read,
    ranking_detail,
    take_snapshot,
)
from .ledger import Ledger
from .workload import WORDS, Worker, make_workers

#: Seconds of kill loop when ``REVERIE_TORTURE_SECONDS`` is unset (about 50 s in all).
SHORT_SECONDS = 15.0
#: In a long run, the index is rebuilt and compared every this many rounds.
INDEX_EVERY = 5
#: Seconds a rebuilt index may take to give the old answers again.
#: Seconds every fake LLM answer takes (scripted hangs add more).
LLM_LATENCY = 0.15
SESSIONS = [f"t:s{i:02d}" for i in range(12)]
FAULTS: list[Callable[[], Behaviour]] = [
    lambda: hang(0.2),
    lambda: hang(0.2),
    lambda: hang(0.8),
    lambda: hang(1.5),  # over llm.timeout: a failed attempt
    lambda: status(500),
    lambda: garbage(),
]


def _answer(request: dict[str, Any]) -> dict[str, Any]:
    """The fake LLM's result: a summary and facts drawn from the turns, so MEMORY.md grows.

    It takes a model-like moment, so a kill often lands while a call is in flight.
    """
    time.sleep(LLM_LATENCY)
    text = " ".join(m["content"] for m in request.get("messages", []) if m.get("role") == "user")
    seen = sorted({w for w in WORDS if w in text})[:3]
    facts = [f"Talked about {w}." for w in seen]
    return {
        "summary": text[-300:],
        "facts": facts,
        "memory": "".join(f"- {f}\n" for f in facts),
    }


def _config(llm: FakeLLM) -> str:
    return f"""
[consolidation]
idle_after = 0.3
budget_tokens = 150
target_tokens = 40
max_attempts = 3
retry_base = 0.05
[llm]
base_url = "{llm.base_url}"
model = "fake"
timeout = 1.0
[embeddings]
provider = "openai"
base_url = "http://127.0.0.1:{llm.port}"
model = "fake"
dimension = 64
[sessions]
passivate_after = 1.0
[working_memory]
max_checkpoints = 1000000  # the workload keeps every checkpoint it made, to check them all
"""


class Torture:
    """One run: the daemon, the fake LLM, the workers, the ledger and the counters."""

    def __init__(self, root: Path, llm: FakeLLM, seed: int, seconds: float, long: bool) -> None:
        self.seed, self.seconds, self.long = seed, seconds, long
        self.rng = random.Random(seed)
        self.llm = llm
        self.daemon = DaemonProcess(root, config=_config(llm))
        self.ledger = Ledger()
        self.workers = make_workers(self.daemon.socket, self.ledger, seed, SESSIONS)
        self.round = 0
        self.kills = 0
        self.mid_llm = 0
        self.index_checks = 0
        self.log_offset = 0
        self.started = time.monotonic()

    def fail(self, what: str) -> None:
        pytest.fail(f"torture seed={self.seed} round={self.round}: {what}", pytrace=False)

    def run(self) -> str:
        self.daemon.start()
        while self.round == 0 or time.monotonic() - self.started < self.seconds:
            self.round += 1
            self.one_round()
            self.checked(self.check)
            if self.long and self.round % INDEX_EVERY == 0:
                self.checked(lambda: self.check_index(delete=False))
        self.checked(lambda: self.check_index(delete=True))
        return self.summary()

    def checked(self, check: Callable[[], None]) -> None:
        """Run ``check``; a violation fails the test naming the seed and the round."""
        try:
            check()
        except Violation as exc:
            problem = str(exc)
        else:
            return
        self.fail(problem)

    def one_round(self) -> None:
        """Load, kill -9 at a random moment, restart under load, then stop the clients."""
        for _ in range(self.rng.randint(0, 4)):
            self.llm.script(self.rng.choice(FAULTS)())
        stop = threading.Event()
        threads = [threading.Thread(target=w.run, args=(stop,), name=w.name) for w in self.workers]
        for t in threads:
            t.start()
        time.sleep(self.rng.uniform(0.3, 2.5))  # the workload: how long until the kill
        if self.rng.random() < 0.4:  # aim at a consolidation's LLM call
            deadline = time.monotonic() + 2.0
            while self.llm.in_flight == 0 and time.monotonic() < deadline:
                time.sleep(0.01)
            self.mid_llm += self.llm.in_flight > 0
        self.daemon.kill9()
        self.kills += 1
        self.daemon.start()  # the clients reconnect and retry what was in flight
        time.sleep(self.rng.uniform(0.0, 1.0))  # load on the restarted daemon (replays too)
        stop.set()
        for t in threads:
            t.join(timeout=120)
        stuck = [t.name for t in threads if t.is_alive()]
        if stuck:
            self.fail(f"client threads did not stop: {stuck}")

    def check(self) -> None:
        surprises = [s for w in self.workers for s in w.surprises]
        if surprises:
            raise Violation(f"unexpected errors in clients: {surprises[:5]}")
        with Client(self.daemon.socket) as client:
            snap = take_snapshot(client, SESSIONS, self.daemon.data_dir)
            seen = check_messages(snap, self.ledger)
            check_working_memory(client, self.ledger)
            check_forgets_and_edits(client, self.daemon.data_dir, self.ledger)
            jobs = client.status().consolidation["default"].jobs
        log = self.daemon.log()
        check_log(log[self.log_offset :])
        self.log_offset = len(log)
        c = self.ledger.counts
        print(
            f"torture round={self.round} kills={self.kills} mid_llm={self.mid_llm} "
            f"messages={seen['messages']} entries={seen['entries']} jobs={jobs} "
            f"appends_acked={c['appends_acked']} appends_unknown={c['appends_unknown']} "
            f"wm_writes={c['wm_writes']} forgets={c['forgets']} edits={c['edits']} elapsed={time.monotonic() - self.started:.1f}s",
            flush=True,
        )

    def check_index(self, *, delete: bool) -> None:
        """Invariant 7: a rebuilt index (``reindex``; with ``delete``, also a deleted
        index directory) gives the same answers to the fixed queries.

        A consolidation that lands meanwhile (a due timer, a replayed job) changes
        the docs, so the comparison is retried until no job ran during it.
        """
        for _ in range(5):
            with Client(self.daemon.socket) as client:
                jobs = client.status().consolidation["default"].jobs
            self.compare_rebuilt_index(delete=delete, jobs=jobs)
            with Client(self.daemon.socket) as client:
                if client.status().consolidation["default"].jobs == jobs:
                    break
        else:
            raise Violation("consolidations kept running during every index comparison")
        self.index_checks += 1
        check_log(self.daemon.log()[self.log_offset :])

    def index_deadline(self) -> float:
        """Seconds a whole rebuild may take: it grows with the log (a long run has 100k messages)."""
        return 120.0 + 0.02 * self.ledger.counts["appends_acked"]

    def compare_rebuilt_index(self, *, delete: bool, jobs: dict[str, int]) -> None:
        def changed(client: Client) -> bool:
            return client.status().consolidation["default"].jobs != jobs

        deadline = self.index_deadline()
        with Client(self.daemon.socket) as client:
            poll(lambda: index_caught_up(client), deadline, "index catching up")
            before = quiet_read(client, lambda: index_answers(client))
            detail = ranking_detail(client)
            if not any(before):
                raise Violation("the fixed queries found nothing: the check would prove nothing")
            client.reindex()
            poll(
                lambda: client.status().index.reindex.state == "done",
                deadline,
                "reindex finishing",
            )
            poll(lambda: index_caught_up(client), deadline, "index catching up after reindex")
            after = quiet_read(client, lambda: index_answers(client))
            if after != before and not changed(client):
                raise Violation(
                    f"reindex changed the answers:\nbefore {before}\nafter  {after}\n"
                    f"rankings before:\n{detail}\nrankings after:\n{ranking_detail(client)}"
                )
            path = Path(client.status().index.path)
        if delete:
            self.daemon.stop()
            shutil.rmtree(path)
            self.daemon.start()
            with Client(self.daemon.socket) as client:
                poll(lambda: index_caught_up(client), deadline, "index rebuilding from nothing")
                again = quiet_read(client, lambda: index_answers(client))
                if again != before and not changed(client):
                    raise Violation(
                        f"a deleted index rebuilt to other answers:\nbefore {before}\n"
                        f"after  {again}\nrankings before:\n{detail}\n"
                        f"rankings after:\n{ranking_detail(client)}"
                    )

    def summary(self) -> str:
        with Client(self.daemon.socket) as client:
            jobs = client.status().consolidation["default"].jobs
        c = self.ledger.counts
        return (
            f"torture seed={self.seed} rounds={self.round} kills={self.kills} "
            f"restarts={self.kills + 1} mid_llm_kills={self.mid_llm} "
            f"appends_acked={c['appends_acked']} appends_unknown={c['appends_unknown']} "
            f"consolidations={jobs.get('done', 0) + jobs.get('extractive', 0)} jobs={jobs} "
            f"consolidate_calls={c['consolidate_calls']} searches={c['searches']} "
            f"wm_writes={c['wm_writes']} wm_unknown={c['wm_unknown']} "
            f"checkpoints={c['checkpoints']} index_checks={self.index_checks} "
            f"elapsed={time.monotonic() - self.started:.1f}s"
        )


@pytest.mark.torture
def test_crash_loop_keeps_every_invariant(tmp_path: Path) -> None:
    seed = int(os.environ.get("REVERIE_TORTURE_SEED") or random.SystemRandom().randrange(10**6))
    seconds_env = os.environ.get("REVERIE_TORTURE_SECONDS")
    seconds = float(seconds_env) if seconds_env else SHORT_SECONDS
    print(f"torture seed={seed} seconds={seconds}", flush=True)
    with FakeLLM(dimension=64, default=_answer) as llm:
        torture = Torture(tmp_path, llm, seed, seconds, long=seconds_env is not None)
        try:
            print(torture.run(), flush=True)
        finally:
            torture.daemon.stop()
    unused: list[Worker] = [w for w in torture.workers if w.n == 0 and w.kind in ("append", "wm")]
    assert not unused, f"seed={seed}: workers that never wrote: {[w.name for w in unused]}"
