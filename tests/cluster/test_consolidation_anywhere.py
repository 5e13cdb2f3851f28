"""Consolidation anywhere: ``reverie worker``s and daemons on one real Postgres share the jobs.

Each scope due is consolidated once whoever runs it; a worker killed in the
middle of a job leaves it to another, which applies it once; a worker
whose database cannot be reached says so in one line and exits 2.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

from reverie.daemon import Client
from tests.checks import poll
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, hold

from .worker_process import WorkerProcess

LINE = "the quick brown fox jumps over the lazy dog near the river bank today"
CONSOLIDATION = (
    "[consolidation]\nidle_after = {idle}\nbudget_tokens = 60\ntarget_tokens = 20\n"
    "hard_tokens = 100000\nmax_delay = 600.0\nretry_base = 0.05\n"
)


def _sql(url: str, query: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(query, params).fetchall()


def _talk(client: Client, session: str, turns: int) -> None:
    """``turns`` questions and answers in one batch: appended one by one, a pause between
    two (a loaded machine) could outlast the 0.3 s ``idle_after`` and split the session
    into two jobs."""
    messages = []
    for i in range(turns):
        messages.append({"role": "user", "content": f"Question {i}: {LINE}"})
        messages.append({"role": "assistant", "content": f"Answer {i}: {LINE}"})
    client.append_many(session, messages)


def _llm_worker(llm: FakeLLM, extra: str = "") -> str:
    """A worker's config: sessions due after 0.3 s idle, consolidated through ``llm``."""
    return (
        CONSOLIDATION.format(idle=0.3)
        + f'[llm]\nbase_url = "{llm.base_url}"\nmodel = "fake"\ntimeout = 30.0\n'
        + extra
    )


def _daemon(make_daemon: Callable[..., DaemonProcess], url: str, config: str) -> DaemonProcess:
    return make_daemon(env={"REVERIE_STORE__URL": url}, config=config)


def test_two_workers_and_a_daemon_consolidate_each_idle_scope_once(
    make_daemon: Callable[..., DaemonProcess],
    make_worker: Callable[[str, str], WorkerProcess],
    pg_url: str,
) -> None:
    config = CONSOLIDATION.format(idle=0.3)
    make_worker("w1", config)
    make_worker("w2", config)
    sessions = [f"s{i}" for i in range(6)]
    with _daemon(make_daemon, pg_url, config).client() as client:
        for name in sessions:
            _talk(client, name, 3)

        def consolidated() -> bool:
            rows = _sql(pg_url, "SELECT count(*) FROM sessions WHERE tail_tokens > 60")
            running = _sql(pg_url, "SELECT count(*) FROM jobs WHERE state = 'running'")
            return rows == [(0,)] and running == [(0,)]

        poll(consolidated, 60, "every session consolidated")
    done = _sql(pg_url, "SELECT session, count(*) FROM jobs WHERE state = 'done' GROUP BY 1")
    assert sorted(done) == [(name, 1) for name in sessions]
    entries = _sql(pg_url, "SELECT scope, count(*) FROM history_entries GROUP BY 1")
    assert sorted(entries) == [(f"session/{name}", 1) for name in sessions]
    moved = _sql(pg_url, "SELECT count(*) FROM sessions WHERE cursor_seq = 6")
    assert moved == [(len(sessions),)]


def test_a_worker_killed_mid_job_leaves_it_to_another_which_applies_it_once(
    make_daemon: Callable[..., DaemonProcess],
    make_worker: Callable[[str, str], WorkerProcess],
    pg_url: str,
    fake_llm: FakeLLM,
) -> None:
    workers = _llm_worker(fake_llm)
    fake_llm.script(hold())  # the first job's call hangs until released
    first = make_worker("w1", workers)
    # The daemon finds no session idle: a worker makes the job (the daemon may reclaim it).
    with _daemon(make_daemon, pg_url, CONSOLIDATION.format(idle=3600.0)).client() as client:
        _talk(client, "s", 3)
    poll(lambda: fake_llm.in_flight == 1, 60, "the job's LLM call in flight")
    make_worker("w2", workers)
    [(job, holder)] = _sql(pg_url, "SELECT id, lease_owner FROM jobs WHERE state = 'running'")
    assert first.proc is not None and holder.split("/")[1] == str(first.proc.pid)
    os.kill(first.proc.pid, signal.SIGKILL)
    first.proc.wait()
    fake_llm.release()  # the next call answers at once

    poll(
        lambda: _sql(pg_url, "SELECT state FROM jobs") == [("done",)],
        60,
        "the job applied by another member",
    )
    [(same, owner)] = _sql(pg_url, "SELECT id, lease_owner FROM jobs")
    assert same == job  # the same job, reclaimed: not a second one over the same turns
    assert owner != holder
    assert _sql(pg_url, "SELECT id FROM history_entries") == [(f"ep_{job}",)]
    assert _sql(pg_url, "SELECT cursor_seq FROM sessions") == [(6,)]


def test_a_worker_whose_store_cannot_be_reached_says_so_in_one_line_and_exits_2(
    tmp_path: Path,
) -> None:
    url = "postgresql://reverie:s3cret@127.0.0.1:1/nothing"
    done = subprocess.run(
        [sys.executable, "-m", "reverie.daemon", "worker", "--store", url],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("reverie: store.unavailable: ")
    assert "s3cret" not in done.stderr and "127.0.0.1" in lines[0]


def test_a_session_whose_daemon_died_is_consolidated_by_a_worker(
    make_daemon: Callable[..., DaemonProcess],
    make_worker: Callable[[str, str], WorkerProcess],
    pg_url: str,
) -> None:
    owner = _daemon(make_daemon, pg_url, CONSOLIDATION.format(idle=3600.0))
    with owner.client() as client:
        _talk(client, "s", 3)
    owner.kill9()
    make_worker("w", CONSOLIDATION.format(idle=0.3))
    poll(
        lambda: _sql(pg_url, "SELECT state FROM jobs") == [("done",)],
        60,
        "the dead daemon's session consolidated",
    )
    assert _sql(pg_url, "SELECT count(*) FROM history_entries") == [(1,)]
    assert _sql(pg_url, "SELECT cursor_seq, tail_tokens FROM sessions") == [(6, 0)]


def test_a_forget_through_a_daemon_while_a_worker_runs_the_job_leaves_nothing(
    make_daemon: Callable[..., DaemonProcess],
    make_worker: Callable[[str, str], WorkerProcess],
    pg_url: str,
    fake_llm: FakeLLM,
) -> None:
    fake_llm.script(hold())
    worker = make_worker("w", _llm_worker(fake_llm))
    with _daemon(make_daemon, pg_url, CONSOLIDATION.format(idle=3600.0)).client() as client:
        _talk(client, "s", 3)
        poll(lambda: fake_llm.in_flight == 1, 60, "the job's LLM call in flight")
        assert client.forget("s") == 6
        fake_llm.release()  # the worker's answer comes after the forget
        poll(lambda: "consolidated 6 messages" in worker.log(), 60, "the worker's apply")
    tables = ("jobs", "sessions", "messages", "history_entries", "memory_versions")
    poll(
        lambda: all(_sql(pg_url, f"SELECT count(*) FROM {t}") == [(0,)] for t in tables),
        30,
        "nothing left of the forgotten session",
    )


def test_a_frozen_worker_loses_its_job_after_owner_ttl_and_its_late_apply_writes_nothing(
    make_daemon: Callable[..., DaemonProcess],
    make_worker: Callable[[str, str], WorkerProcess],
    pg_url: str,
    fake_llm: FakeLLM,
) -> None:
    cluster = "[cluster]\nowner_ttl = 1.0\njob_lease = 2.0\n"
    fake_llm.script(hold())  # the frozen worker's call: answered only once it is thawed
    frozen = make_worker("w1", _llm_worker(fake_llm, cluster))
    daemon_config = CONSOLIDATION.format(idle=3600.0) + cluster
    with _daemon(make_daemon, pg_url, daemon_config).client() as client:
        _talk(client, "s", 3)
    poll(lambda: fake_llm.in_flight == 1, 60, "the job's LLM call in flight")
    [(job, holder)] = _sql(pg_url, "SELECT id, lease_owner FROM jobs")
    assert frozen.proc is not None and holder.split("/")[1] == str(frozen.proc.pid)
    frozen.proc.send_signal(signal.SIGSTOP)
    try:
        make_worker("w2", _llm_worker(fake_llm, cluster))
        poll(
            lambda: _sql(pg_url, "SELECT id, state FROM jobs") == [(job, "done")],
            60,
            "the frozen worker's job applied by another member",
        )
        fake_llm.release()
    finally:
        frozen.proc.send_signal(signal.SIGCONT)
    poll(lambda: "consolidated 6 messages" in frozen.log(), 60, "the thawed worker's apply")
    assert _sql(pg_url, "SELECT id FROM history_entries") == [(f"ep_{job}",)]
    assert _sql(pg_url, "SELECT state, lease_owner <> %s FROM jobs", holder) == [("done", True)]
    assert _sql(pg_url, "SELECT cursor_seq, tail_tokens FROM sessions") == [(6, 0)]


def test_a_daemon_that_leaves_consolidation_to_workers_lets_a_workers_model_do_it(
    make_daemon: Callable[..., DaemonProcess],
    make_worker: Callable[[str, str], WorkerProcess],
    pg_url: str,
    fake_llm: FakeLLM,
) -> None:
    """The sessions go idle over budget well before the worker has started (the daemon
    would take them within a second): each is consolidated by the worker's model alone."""
    sessions = ["a", "b", "c"]
    leaving = CONSOLIDATION.format(idle=0.3) + "leave_to_workers = true\n"
    with _daemon(make_daemon, pg_url, leaving).client() as client:
        for name in sessions:
            _talk(client, name, 3)
        assert client.status().cluster is not None  # a member of the shared store
    make_worker("w", _llm_worker(fake_llm))

    def consolidated() -> bool:
        moved = _sql(pg_url, "SELECT count(*) FROM sessions WHERE cursor_seq = 6")
        running = _sql(pg_url, "SELECT count(*) FROM jobs WHERE state <> 'done'")
        return moved == [(len(sessions),)] and running == [(0,)]

    poll(consolidated, 120, "every session consolidated")
    appliers = _sql(
        pg_url,
        "SELECT DISTINCT j.session, m.role FROM jobs j JOIN members m ON m.id = j.lease_owner"
        " ORDER BY 1",
    )
    assert appliers == [(name, "worker") for name in sessions]
    assert len(fake_llm.requests) >= len(sessions)  # the worker's model, not the extractive path


def test_a_consolidate_through_a_daemon_that_leaves_it_to_workers_waits_for_a_workers_job(
    make_daemon: Callable[..., DaemonProcess],
    make_worker: Callable[[str, str], WorkerProcess],
    pg_url: str,
    fake_llm: FakeLLM,
) -> None:
    """Nobody would consolidate the session on their own (an hour's idle_after): the
    request's job, posted by the daemon, is run by the worker's model and waited for."""
    leaving = CONSOLIDATION.format(idle=3600.0) + "leave_to_workers = true\n"
    worker = CONSOLIDATION.format(idle=3600.0) + (
        f'[llm]\nbase_url = "{fake_llm.base_url}"\nmodel = "fake"\ntimeout = 30.0\n'
    )
    make_worker("w", worker)
    with _daemon(make_daemon, pg_url, leaving).client() as client:
        _talk(client, "s", 3)
        outcome = client.consolidate("s", wait=True)
    assert outcome is not None and (outcome.state, outcome.messages) == ("done", 6)
    appliers = _sql(
        pg_url,
        "SELECT j.id, j.state, m.role FROM jobs j JOIN members m ON m.id = j.lease_owner",
    )
    assert appliers == [(outcome.job, "done", "worker")]
    assert _sql(pg_url, "SELECT cursor_seq, tail_tokens FROM sessions") == [(6, 0)]
    assert fake_llm.requests  # the worker's model, not the extractive path
