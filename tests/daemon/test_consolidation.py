"""Idle consolidation through the real daemon, with the fake LLM on loopback."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import pytest

from reverie.config import Busy
from reverie.daemon import Client
from reverie.daemon.ops.memory import MAX_LEASES_PER_CONNECTION as MAX_LEASES
from tests.checks import assert_each_id_once, jobs, poll
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, garbage, hang, hold, invalid_schema, ok, status
from tests.inprocess import InProcessDaemon

pytestmark = [pytest.mark.engines, pytest.mark.in_process]

WORDS = [
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "the",
    "lazy",
    "dog",
    "near",
    "the",
    "river",
    "bank",
    "today",
]


def _config(llm: FakeLLM | None = None, **consolidation: Any) -> str:
    values = {
        "idle_after": 0.3,
        "budget_tokens": 60,
        "target_tokens": 20,
        "hard_tokens": 100_000,
        "max_delay": 600.0,
        "retry_base": 0.05,
    }
    values.update(consolidation)
    lines = ["[consolidation]", *(f"{k} = {v!r}" for k, v in values.items())]
    if llm is not None:
        lines += ["[llm]", f'base_url = "{llm.base_url}"', 'model = "fake"', "timeout = 1.0"]
    return "\n".join(lines) + "\n"


def _turns(client: Client, session: str, n: int, prefix: str = "") -> list[str]:
    """``n`` turns in one append: a loaded machine's pause between two appends longer
    than ``idle_after`` would otherwise make a job of the first turns alone."""
    messages = []
    for i in range(n):
        messages.append({"role": "user", "content": f"{prefix}Question {i}: " + " ".join(WORDS)})
        messages.append(
            {"role": "assistant", "content": f"{prefix}Answer {i}: " + " ".join(reversed(WORDS))}
        )
    return [ack.id for ack in client.append_many(session, messages)]


def _tail_tokens(client) -> int:
    ctx = client.context("s")
    return ctx.tokens - ctx.memory_tokens


def test_idle_session_over_budget_is_consolidated_once(make_daemon_process) -> None:
    daemon: DaemonProcess = make_daemon_process(config=_config())
    with daemon.client() as client:
        ids = _turns(client, "s", 4)
        poll(lambda: jobs(client).get("done") == 1)
        ctx = client.context("s")
        assert ctx.tokens - ctx.memory_tokens <= 60  # the tail; tokens counts memory too
        view = client.memory("session/s")
        assert len(view.entries) == 1
        assert "Question" in view.memory
        # The prompt gets the facts without their sources; the file keeps them.
        assert "<!-- from" in view.memory and "<!--" not in ctx.memory
        assert ctx.memory == re.sub(r" <!-- from .* -->", "", view.memory)
        assert client.context("s", provenance=True).memory == view.memory
        assert_each_id_once(client, "s", "session/s", ids)
        time.sleep(1.0)  # several idle periods pass: no second job
        assert jobs(client) == {"done": 1}
    assert "session 's' idle and over budget: queued" in daemon.log()  # it named no session


def test_under_budget_or_active_sessions_get_no_job(make_daemon) -> None:
    # idle_after well above the loop's pace (0.1 s), so a loaded machine's pause between
    # two appends does not make the busy session look quiet.
    daemon: InProcessDaemon = make_daemon(config=_config(idle_after=2.0))
    with daemon.client() as client:
        client.append("small", "user", "hi")
        end = time.monotonic() + 3.0
        while time.monotonic() < end:  # active: never quiet for idle_after
            _turns(client, "busy", 1)
            time.sleep(0.1)
        assert jobs(client) == {}
        poll(lambda: jobs(client).get("done") == 1)  # once quiet, busy gets its job
        assert client.memory("session/small").entries == []


def test_hard_tokens_consolidates_a_session_that_never_pauses(make_daemon) -> None:
    daemon: InProcessDaemon = make_daemon(
        config=_config(idle_after=3600.0, hard_tokens=100, max_delay=0.5)
    )
    with daemon.client() as client:
        deadline = time.monotonic() + 20
        while not jobs(client).get("done"):
            assert time.monotonic() < deadline
            _turns(client, "chatty", 1)
        assert len(client.memory("session/chatty").entries) >= 1


def test_restart_rebuilds_timers(make_daemon) -> None:
    daemon: InProcessDaemon = make_daemon(config=_config(idle_after=4.0))
    with daemon.client() as client:
        _turns(client, "s", 4)
    quiet_since = time.monotonic()
    daemon.restart()
    with daemon.client() as client:
        if time.monotonic() - quiet_since < 3.5:  # still before the deadline: nothing ran yet
            assert jobs(client) == {}
        poll(lambda: jobs(client).get("done") == 1)  # the timer survived the restart


def test_nothing_vanishes_with_16_appenders_while_consolidating(
    make_daemon, fake_llm: FakeLLM
) -> None:
    daemon: InProcessDaemon = make_daemon(config=_config(fake_llm))
    acked: list[str] = []
    lock = threading.Lock()

    def appender(n: int) -> None:
        with daemon.client() as client:
            for i in range(40):
                role = "user" if i % 2 == 0 else "assistant"
                ack = client.append("shared", role, f"writer {n} says {i}: " + " ".join(WORDS))
                with lock:
                    acked.append(ack.id)

    threads = [threading.Thread(target=appender, args=(n,)) for n in range(16)]
    for t in threads:
        t.start()
    with daemon.client() as client:
        while any(t.is_alive() for t in threads):
            client.consolidate("shared", wait=True)
        for t in threads:
            t.join()
        poll(
            lambda: (
                client.status().consolidation["default"].running == 0
                and jobs(client).get("done", 0) >= 2
            )
        )
        assert len(acked) == 640
        assert_each_id_once(client, "shared", "session/shared", acked)


def test_at_most_max_concurrent_calls_and_none_during_a_stream(
    make_daemon, fake_llm: FakeLLM
) -> None:
    daemon: InProcessDaemon = make_daemon(config=_config(fake_llm))
    fake_llm.script(hold(), hold(), hold())
    with daemon.client() as client:
        lease = client.stream_begin("default", ttl=30)
        for s in ("a", "b", "c"):
            _turns(client, s, 4)
        time.sleep(1.0)  # all three are idle and due, but the stream holds them back
        assert fake_llm.requests == []
        assert client.stream_end(lease) is True
        poll(lambda: fake_llm.in_flight == 1)
        fake_llm.release()
        poll(lambda: jobs(client).get("done") == 3)
    assert fake_llm.max_in_flight == 1


def test_an_expired_stream_lease_unblocks(make_daemon, fake_llm: FakeLLM) -> None:
    daemon: InProcessDaemon = make_daemon(config=_config(fake_llm))
    with daemon.client() as client:
        client.stream_begin("default", ttl=1.0)
        _turns(client, "s", 4)
        poll(lambda: jobs(client).get("done") == 1)
        assert client.status().consolidation["default"].streams == 0


def test_a_lease_ends_with_its_connection(make_daemon, fake_llm: FakeLLM) -> None:
    daemon: InProcessDaemon = make_daemon(config=_config(fake_llm))
    with daemon.client() as host:
        host.stream_begin("default", ttl=3600)  # then the host crashes without stream_end
        with daemon.client() as client:
            _turns(client, "s", 4)
            assert client.status().consolidation["default"].streams == 1
    with daemon.client() as client:
        poll(lambda: jobs(client).get("done") == 1, what="the job, once the host is gone")
        assert client.status().consolidation["default"].streams == 0


def test_one_connection_holds_a_bounded_number_of_leases(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        leases = [client.stream_begin("default", ttl=3600) for _ in range(MAX_LEASES)]
        with pytest.raises(Busy, match="stream leases"):
            client.stream_begin("default", ttl=3600)
        assert client.stream_end(leases[0]) is True
        client.stream_begin("default", ttl=3600)  # an ended one frees its place
        assert client.status().consolidation["default"].streams == MAX_LEASES
        with daemon.client() as other:  # the bound is per connection
            other.stream_begin("default", ttl=3600)


def test_system_prompt_is_byte_identical_and_prefix_stable(make_daemon, fake_llm: FakeLLM) -> None:
    daemon: InProcessDaemon = make_daemon(config=_config(fake_llm))
    answer = {"summary": "s", "facts": ["The user likes tea."]}
    fake_llm.script(ok(answer), ok(answer))
    with daemon.client() as client:
        client.append("a", "user", "I like tea.")
        _turns(client, "a", 4, prefix="alpha ")
        poll(lambda: jobs(client).get("done") == 1)
        first = client.context("a").memory
        # the claim once, first (dated; sources in the file), then the other turns' facts
        fact = first.removeprefix("# Memory\n\n").splitlines()[0]
        assert fact.startswith("- [") and fact.endswith("] The user likes tea.")
        assert '] The user likes tea. <!-- from {"a":[' in client.memory("session/a").memory
        client.append("a", "user", "more")
        assert client.context("a").memory == first
        _turns(client, "b", 4, prefix="beta ")
        poll(lambda: jobs(client).get("done") == 2)
    systems = {r.body["messages"][0]["content"].encode() for r in fake_llm.requests}
    assert len(fake_llm.requests) == 2
    assert len(systems) == 1
    users = [r.body["messages"][1]["content"] for r in fake_llm.requests]
    assert "alpha" in users[0]
    assert "beta" in users[1]


@pytest.mark.parametrize(
    ("kind", "slot", "expect_cache", "expect_slot"),
    [("local", 3, True, 3), ("local", -1, True, None), ("openai", 3, False, None)],
)
def test_local_backends_get_slot_and_cache_prompt(
    make_daemon,
    fake_llm: FakeLLM,
    kind: str,
    slot: int,
    expect_cache: bool,
    expect_slot: int | None,
) -> None:
    config = _config(fake_llm) + f'kind = "{kind}"\nslot_id = {slot}\n'
    daemon: InProcessDaemon = make_daemon(config=config)
    with daemon.client() as client:
        _turns(client, "s", 4)
        poll(lambda: jobs(client).get("done") == 1)
    (request,) = fake_llm.requests
    assert request.body.get("cache_prompt") is (True if expect_cache else None)
    assert request.body.get("id_slot") == expect_slot


@pytest.mark.parametrize(
    "fault",
    [status(500), status(429, retry_after=0.2), hang(5), garbage(), invalid_schema()],
    ids=["500", "429-retry-after", "timeout", "invalid-json", "schema-invalid"],
)
def test_transient_faults_are_retried(make_daemon, fake_llm: FakeLLM, fault: Any) -> None:
    daemon: InProcessDaemon = make_daemon(config=_config(fake_llm))
    fake_llm.script(fault)
    with daemon.client() as client:
        ids = _turns(client, "s", 4)
        poll(lambda: jobs(client).get("done") == 1)
        assert client.status().consolidation["default"].failed_calls == 1
        entry = client.memory("session/s").entries[0]
        assert entry.raw is False
        assert_each_id_once(client, "s", "session/s", ids)
    assert len(fake_llm.requests) == 2


def test_kill_9_during_the_llm_call_completes_the_job_once(
    make_daemon_process, fake_llm: FakeLLM
) -> None:
    daemon: DaemonProcess = make_daemon_process(config=_config(fake_llm))
    fake_llm.script(hold())
    with daemon.client() as client:
        ids = _turns(client, "s", 4)
        poll(lambda: fake_llm.in_flight == 1)
    daemon.kill9()
    fake_llm.release()
    daemon.start()
    with daemon.client() as client:
        poll(lambda: jobs(client).get("done") == 1)
        assert len(client.memory("session/s").entries) == 1
        assert_each_id_once(client, "s", "session/s", ids)


def test_memory_edit_changes_the_prefix_and_forget_removes_memory(make_daemon) -> None:
    daemon: InProcessDaemon = make_daemon(config=_config())
    with daemon.client() as client:
        client.append("s", "user", "hello")
        client.memory_edit("session/s", "- Prefers short answers.\n")
        assert client.context("s").memory == "- Prefers short answers.\n"
        client.forget("s")
        assert client.memory("session/s").memory == ""


def test_a_tail_over_the_job_cap_is_consolidated_in_several_jobs(
    make_daemon, fake_llm: FakeLLM
) -> None:
    """Each job takes at most ``llm.max_job_tokens`` of whole turns; the next follows at once."""
    config = _config(fake_llm) + "max_job_tokens = 40\n"
    daemon: InProcessDaemon = make_daemon(config=config)
    fake_llm.script(*[hang(0.5)] * 6)  # each job ends after the session's idle deadline passed
    with daemon.client() as client:
        acked = _turns(client, "s", 6)
        poll(lambda: _tail_tokens(client) <= 60 and jobs(client).get("done", 0) >= 2)
        poll(lambda: client.status().consolidation["default"].running == 0)
        entries = client.memory("session/s", limit=100).entries
        assert len(entries) >= 2
        assert all(len(e.message_ids) <= 2 for e in entries)  # one turn (user + assistant) each
        assert_each_id_once(client, "s", "session/s", acked)
