"""LLM faults while hosts keep working: a hanging backend, resets, a 429 storm, garbage.

``tests/daemon/test_consolidation.py`` checks one fault per job (retried once,
or archived after ``max_attempts``). Here each fault lasts long enough to open
the circuit breaker while clients keep appending, reading context and
searching, and the checks are the fault contract: the degradation is logged
and counted in ``status``/``metrics``, the daemon stays up and never makes a
host wait on the model (invariant 4), nothing acked is lost (invariant 2), and
once the fake server is healthy again consolidation works without a restart.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.checks import assert_each_id_once, poll
from tests.daemon_process import DaemonProcess
from tests.fakellm import Behaviour, FakeLLM, garbage, hang, reset_mid_body, status

from .support import turns

LLM_TIMEOUT = 1.5
IDLE_AFTER = 0.3
BREAKER_THRESHOLD = 3


def _config(llm: FakeLLM) -> str:
    return f"""
[consolidation]
idle_after = {IDLE_AFTER}
budget_tokens = 60
target_tokens = 20
hard_tokens = 100000
max_delay = 600.0
retry_base = 0.01
max_attempts = 8

[llm]
base_url = "{llm.base_url}"
model = "fake"
timeout = {LLM_TIMEOUT}
breaker_threshold = {BREAKER_THRESHOLD}
breaker_cooldown = 0.3

[embeddings]
provider = "openai"
base_url = "{llm.base_url}"
model = "fake-embed"
"""


@dataclass
class _Traffic:
    """A host that keeps using the daemon while consolidation struggles."""

    daemon: DaemonProcess
    fake: FakeLLM
    session: str
    acked: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    during_a_call: int = 0  # operations that started and ended inside one in-flight LLM call
    errors: list[BaseException] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def _timed(self, op: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        before = (len(self.fake.requests), self.fake.in_flight)
        started = time.monotonic()
        result = op(*args, **kwargs)
        self.latencies.append(time.monotonic() - started)
        if before == (len(self.fake.requests), self.fake.in_flight) and before[1] >= 1:
            self.during_a_call += 1
        return result

    def run(self) -> None:
        try:
            with self.daemon.client() as client:
                i = 0
                while not self.stop.is_set():
                    role = "user" if i % 2 == 0 else "assistant"
                    ack = self._timed(client.append, self.session, role, f"live {i} river fox")
                    self.acked.append(ack.id)
                    self._timed(client.append, f"{self.session}-other", "user", f"elsewhere {i}")
                    self._timed(client.context, self.session)
                    self._timed(client.search, "river fox", k=3, everywhere=True)
                    i += 1
                    if i % 5 == 0:  # a host's pause: consolidation waits for a quiet session
                        self.stop.wait(2 * IDLE_AFTER)
        except BaseException as exc:  # reported by the test, not lost in the thread
            self.errors.append(exc)


FAULTS: dict[str, tuple[list[Behaviour], bool]] = {
    # name: (what the server does, whether those failures count against the breaker)
    "hang-past-timeout": ([hang(LLM_TIMEOUT + 1.5)] * BREAKER_THRESHOLD, True),
    "reset-mid-body": ([reset_mid_body()] * BREAKER_THRESHOLD, True),
    "429-storm": ([status(429, retry_after=0.1)] * 12, True),
    # answers that cannot be used count too: the breaker is what backs off from them
    "garbage-body": ([garbage()] * BREAKER_THRESHOLD, True),
}


@pytest.fixture(scope="module")
def llm() -> Iterator[FakeLLM]:
    with FakeLLM() as server:
        yield server


@pytest.fixture(scope="module")
def llm_daemon(tmp_path_factory: pytest.TempPathFactory, llm: FakeLLM) -> Iterator[DaemonProcess]:
    """One daemon lives through every fault in turn, as a production daemon would.

    Each test leaves the backend healthy (script cleared, breaker closed), and
    the checks are per session or per difference, so the order does not matter.
    """
    daemon = DaemonProcess(tmp_path_factory.mktemp("llm-faults"), config=_config(llm))
    daemon.start()
    try:
        yield daemon
        assert daemon.proc is not None and daemon.proc.poll() is None, "the daemon died"
        assert daemon.stop() == 0
    finally:
        daemon.stop()


@pytest.mark.parametrize("fault", list(FAULTS))
def test_llm_fault_is_counted_never_blocks_hosts_and_heals(
    llm_daemon: DaemonProcess, llm: FakeLLM, fault: str
) -> None:
    behaviours, trips_breaker = FAULTS[fault]
    daemon, session, healed = llm_daemon, fault, f"{fault}-healed"
    log_from = len(daemon.log())
    with daemon.client() as client:
        failed_before = client.status().consolidation["default"].failed_calls
        calls_before = len(llm.requests)
        llm.script(*behaviours)
        acked = turns(client, session, 4)
        poll(lambda: len(llm.requests) > calls_before, what="the first LLM call")  # job started
        traffic = _Traffic(daemon, llm, session)
        thread = threading.Thread(target=traffic.run)
        thread.start()
        try:
            entries = poll(
                lambda: client.memory(f"session/{session}").entries, timeout=60, what="job finished"
            )
            poll(lambda: len(traffic.latencies) >= 20 or traffic.errors, what="host traffic")
        finally:
            traffic.stop.set()
            thread.join(timeout=30)
        assert not traffic.errors, f"a host operation failed during the fault: {traffic.errors}"
        consolidation = client.status().consolidation["default"]

        # Counted and logged, in status and in metrics.
        failed = consolidation.failed_calls - failed_before
        assert failed >= min(len(behaviours), BREAKER_THRESHOLD)
        total = consolidation.failed_calls
        assert f'reverie_llm_failed_calls_total{{backend="default"}} {total}' in client.metrics()
        log = daemon.log()[log_from:]
        assert ("circuit open after" in log) is trips_breaker

        # Hosts never waited on the model (typical latencies are in bench/, not asserted here):
        # waiting on it would take the whole fault: three hung calls are 3 x LLM_TIMEOUT.
        assert max(traffic.latencies) < 2 * LLM_TIMEOUT, "a host operation waited on the LLM"
        if fault == "hang-past-timeout":
            assert traffic.during_a_call >= 3, "no host operation completed while the LLM hung"

        # Nothing acked was lost: each id in the tail xor one history entry.
        assert_each_id_once(client, session, f"session/{session}", acked + traffic.acked)
        assert entries[0].message_ids[0] == acked[0], "the oldest turns were consolidated"

        # The fault goes away: the next consolidation goes through the model, breaker closed.
        llm.clear()
        more = turns(client, healed, 4)
        entries = poll(lambda: client.memory(f"session/{healed}").entries, what="healed job")
        assert [e.raw for e in entries] == [False], "the healed backend was not used"
        assert client.status().consolidation["default"].breaker == "closed"
        assert_each_id_once(client, healed, f"session/{healed}", more)
