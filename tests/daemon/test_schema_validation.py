"""The wire schema validates: a value outside a field's type or bounds is ``invalid_argument``.

The constraints live on the protocol's Structs (``Literal`` and
``Annotated[..., Meta(...)]``), so the daemon rejects the request when it is
decoded, names the field, and the connection and the session go on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from reverie import Client
from reverie.config import InvalidArgument
from reverie.daemon import protocol as p
from tests.daemon_process import DaemonProcess

BAD: dict[str, tuple[Callable[[Client], Any], str]] = {
    "page too small": (lambda c: c.history("s", limit=0), "$.limit"),
    "page too big": (lambda c: c.sessions(limit=p.MAX_PAGE + 1), "$.limit"),
    "seq beyond SQLite": (lambda c: c.history("s", after_seq=2**63), "$.after_seq"),
    "memory page": (lambda c: c.memory("s", limit=0), "$.limit"),
    "unknown role": (lambda c: c.append("s", "bot", "hi"), "role"),  # type: ignore[arg-type]
    "empty batch": (lambda c: c.append_many("s", []), "$.messages"),
    "long id": (lambda c: c.append("s", "user", "hi", id="x" * 129), "id"),
    "lease ttl": (lambda c: c.stream_begin(ttl=0), "$.ttl"),
    "lease too long": (lambda c: c.stream_begin(ttl=p.MAX_STREAM_TTL + 1), "$.ttl"),
    "search mode": (lambda c: c.search("x", mode="fuzzy", everywhere=True), "$.mode"),  # type: ignore[arg-type]
    "task status": (lambda c: c.task_set("s", "t", "d", status="maybe"), "$.status"),  # type: ignore[arg-type]
    "negative step": (lambda c: c.task_update("s", step=-1), "$.step"),
    "scratch last": (lambda c: c.scratch_get("s", last=-1), "$.last"),
    "key ttl": (lambda c: c.wm_set("s", "k", 1, ttl=0), "$.ttl"),
    "version": (lambda c: c.wm_set("s", "k", 1, expected_version=-1), "$.expected_version"),
    "total steps": (lambda c: c.task_set("s", "t", "d", total_steps=2**63), "$.total_steps"),
}


@pytest.mark.parametrize("case", BAD)
def test_a_value_outside_the_schema_is_invalid_argument(daemon: DaemonProcess, case: str) -> None:
    call, field = BAD[case]
    with daemon.client() as client:
        with pytest.raises(InvalidArgument) as caught:
            call(client)
        assert field in str(caught.value)
        # The same connection goes on, and nothing was written for the bad request.
        assert client.append("s", "user", "after").seq == 1
