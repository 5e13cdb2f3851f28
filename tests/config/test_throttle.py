"""A repeated warning is said once per interval, with how many were held back."""

from __future__ import annotations

from reverie.config import Throttle


def test_a_kind_is_said_once_per_interval_then_with_the_count_held_back() -> None:
    now = [100.0]
    throttle = Throttle(10.0, clock=lambda: now[0])
    assert throttle.due("store.full") == 0  # the first is said at once
    said = [throttle.due("store.full") for _ in range(50)]
    assert said == [None] * 50  # a burst of 50 refusals: no line
    assert throttle.due("store.read_only") == 0  # another kind is its own
    now[0] += 10.0
    assert throttle.due("store.full") == 50
    assert throttle.due("store.full") is None
