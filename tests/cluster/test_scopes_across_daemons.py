"""A scope's working memory written through several daemons on one Postgres at once:
compare-and-set, first creations and scratchpad lines lose nothing to a race."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from reverie.config import Conflict
from reverie.daemon import Client
from tests.daemon_process import DaemonProcess

pytestmark = pytest.mark.in_process  # the daemons in this process (tests/inprocess.py)

Make = Callable[..., DaemonProcess]
SCOPE = "user/carl"


def _together(daemons: list[DaemonProcess], work: Callable[[Client, int], None]) -> None:
    """``work(client, i)`` from a thread per daemon, released at once; errors re-raised."""
    start, errors = threading.Barrier(len(daemons)), []

    def run(daemon: DaemonProcess, i: int) -> None:
        try:
            with Client(daemon.socket, timeout=60) as client:
                start.wait()
                work(client, i)
        except BaseException as exc:  # re-raised below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(d, i)) for i, d in enumerate(daemons)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def test_two_daemons_writing_one_scope_lose_no_line_and_create_a_key_once(
    make_daemon: Make, pg_url: str
) -> None:
    env = {"REVERIE_STORE__URL": pg_url}
    daemons = [make_daemon(env=env, name=n) for n in ("a", "b")]
    created: list[int] = []

    def work(client: Client, i: int) -> None:
        for k in range(25):
            client.scratch_append(SCOPE, f"daemon {i} line {k}")
            try:
                client.wm_set(SCOPE, f"k{k}", i, expected_version=0)  # create only
                created.append(k)
            except Conflict:
                pass

    _together(daemons, work)
    with daemons[0].client() as client:
        lines = client.scratch_get(SCOPE)
        assert [e.n for e in lines] == list(range(1, 51))
        assert sorted(e.text for e in lines) == sorted(
            f"daemon {i} line {k}" for i in range(2) for k in range(25)
        )
        assert sorted(created) == list(range(25))  # each key made by exactly one daemon
        assert all(client.wm_get(SCOPE, f"k{k}").version == 1 for k in range(25))
