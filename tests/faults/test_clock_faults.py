"""Wall-clock jumps, forward and backward, and hosts whose clocks are wrong.

Which clock drives what (the design choice these tests pin):

- durations are monotonic: idle timers, passivation, stream leases, LLM
  timeouts and backoff use trio's clock, so a wall-clock jump neither fires
  them early nor stalls them;
- working-memory expiry is wall time (``expires_at`` is stored, so TTLs hold
  across restarts), read through the daemon's ``Clock``, which the test-only
  ``REVERIE_TEST_CLOCK_FILE`` shifts: a forward jump expires keys, a backward
  jump keeps them longer, never shorter;
- message timestamps are what the host sends (or wall time): a host with a
  wrong clock must not break consolidation or the dated history files.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from reverie.config import NotFound, ReverieError
from reverie.daemon import Client
from tests.checks import assert_each_id_once, poll
from tests.daemon_process import DaemonProcess

from .support import turns

DAY = 86_400.0


class JumpingClock:
    """The daemon's wall clock, as an offset in seconds from the real one."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.set(0.0)

    def set(self, offset: float) -> None:
        self.path.write_text(repr(offset))


@pytest.fixture(scope="module")
def clocked(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[DaemonProcess, JumpingClock]]:
    root = tmp_path_factory.mktemp("clock-faults")
    clock = JumpingClock(root / "clock-offset")
    config = (
        "[consolidation]\nidle_after = 0.5\nbudget_tokens = 60\ntarget_tokens = 20\n"
        "[index]\nenabled = false\n"
    )
    daemon = DaemonProcess(root, env={"REVERIE_TEST_CLOCK_FILE": str(clock.path)}, config=config)
    daemon.start()
    try:
        yield daemon, clock
        assert daemon.proc is not None and daemon.proc.poll() is None, "the daemon died"
    finally:
        daemon.stop()


def _value(client: Client, scope: str, key: str) -> object:
    try:
        return client.wm_get(scope, key).value
    except NotFound:
        return None


def test_ttl_keys_survive_a_backward_jump_and_expire_after_a_forward_one(
    clocked: tuple[DaemonProcess, JumpingClock],
) -> None:
    daemon, clock = clocked
    clock.set(0.0)
    with daemon.client() as client:
        client.wm_set("jumps", "k", "v", ttl=60)
        clock.set(-DAY)  # backwards: never lost early
        assert _value(client, "jumps", "k") == "v"
        assert [k.key for k in client.wm_list("jumps")] == ["k"]
        client.wm_set("jumps", "set-in-the-past", "p", ttl=30)  # expires at (now - 1 day) + 30
        clock.set(30.0)  # forward again, 30 s after the first set: k still has 30 s
        assert _value(client, "jumps", "k") == "v"
        assert _value(client, "jumps", "set-in-the-past") is None
        clock.set(61.0)  # past k's deadline: never returned, then swept
        assert _value(client, "jumps", "k") is None
        assert _value(client, "jumps", "set-in-the-past") is None
        poll(lambda: client.wm_stats("jumps").keys == 0, what="expired keys swept")
    clock.set(0.0)


@pytest.mark.parametrize("offset", [DAY, -DAY], ids=["forward", "backward"])
def test_idle_timers_fire_on_time_whatever_the_wall_clock_says(
    clocked: tuple[DaemonProcess, JumpingClock], offset: float
) -> None:
    daemon, clock = clocked
    session = f"idle-{'fwd' if offset > 0 else 'back'}"
    with daemon.client() as client:
        acked = turns(client, session, 2)
        clock.set(offset)  # jump while the idle timer is armed
        acked += turns(client, session, 2)
        quiet_at = time.monotonic()
        entries = poll(lambda: client.memory(f"session/{session}").entries, what="idle job")
        assert time.monotonic() - quiet_at >= 0.5 * 0.9, "fired before idle_after"
        assert_each_id_once(client, session, f"session/{session}", acked)
    clock.set(0.0)
    assert len(entries) == 1


@pytest.mark.parametrize(
    "stamp",
    [0.0, -DAY, 4.0e9, 1.0e12, -1.0e12, math.inf, math.nan],
    ids=["epoch", "before-epoch", "year-2096", "year-33658", "far-past", "inf", "nan"],
)
def test_host_with_a_wrong_clock_gets_a_typed_error_or_sane_history(
    clocked: tuple[DaemonProcess, JumpingClock], stamp: float
) -> None:
    """A message stamped absurdly is refused (invalid_argument) or consolidated into a
    history file whose date parses; either way the daemon and the session go on."""
    daemon, _ = clocked
    session = f"stamp-{stamp}"
    with daemon.client() as client:
        acked = []
        try:  # first, so that it opens the history entry (and names its day file)
            acked.append(client.append(session, "user", "odd clock " * 20, ts=stamp).id)
        except ReverieError as exc:
            assert exc.code == "invalid_argument", f"{exc.code}: {exc.message}"
        acked += turns(client, session, 2)
        outcome = client.consolidate(session, wait=True)
        assert outcome is not None and outcome.state == "done"
        assert_each_id_once(client, session, f"session/{session}", acked)
        history = client.history(session, limit=1000)
        assert all(math.isfinite(m.ts) for m in history), "an absurd stamp was stored"
        for entry in client.memory(f"session/{session}").entries:
            assert math.isfinite(entry.start_ts) and math.isfinite(entry.end_ts)
        assert client.append(session, "user", "still here").seq > 0
