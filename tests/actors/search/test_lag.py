"""The index lag clock: the wait of the oldest unindexed message, also under a steady stream."""

from __future__ import annotations

from reverie.actors.search.lag import LagClock


def test_lag_follows_the_oldest_unindexed_message_not_the_first_append() -> None:
    clock = LagClock()
    assert clock.since() is None
    clock.appended(100.0)
    clock.appended(101.0)
    assert clock.since() == 100.0  # nothing read yet: the first append stands in
    clock.seen(10, 102.0)  # gids 1..10 in the log
    clock.seen(10, 103.0)  # nothing new: no new sample
    clock.seen(20, 104.0)
    clock.indexed(10)
    assert clock.since() == 104.0  # a steady stream: the lag is the batch's, not since 100
    clock.indexed(20)
    assert clock.since() is None
    clock.appended(110.0)
    assert clock.since() == 110.0
