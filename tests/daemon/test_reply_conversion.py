"""A result that does not convert to its wire reply: ``internal``, and the connection goes on.

The conversion of an actor's result into the wire reply runs on the
connection's side, not in the actor: a result the wire cannot carry is a bug
or a damaged row, not an actor crash, and the request still gets its answer.
"""

from __future__ import annotations

import socket
import sqlite3
from collections.abc import Callable

import pytest

from reverie.daemon import protocol as p
from reverie.daemon.protocol.framing import frame
from tests.checks import read_reply
from tests.inprocess import InProcessDaemon

pytestmark = pytest.mark.in_process

#: One request in flight per connection: a slot that leaked would make the next one ``busy``.
CONFIG = "[daemon]\nmax_in_flight = 1\n[index]\nenabled = false\n"


def _reply(sock: socket.socket, request: p.Request) -> p.Reply:
    sock.sendall(frame(p.encode(request)))
    return read_reply(sock)


def test_a_result_that_fails_to_convert_answers_internal_and_frees_its_slot(
    make_daemon: Callable[..., InProcessDaemon],
) -> None:
    daemon = make_daemon(config=CONFIG)
    with daemon.client() as client:
        client.append("s", "user", "hello")
    daemon.stop()
    # SQLite keeps whatever a column is given: a damaged or hand-edited database can
    # hold a message whose timestamp is text, which the wire's Message (a float) refuses.
    db = sqlite3.connect(daemon.data_dir / "reverie.sqlite3")
    with db:
        db.execute("UPDATE messages SET ts = 'not a time' WHERE session = 's'")
    db.close()
    daemon.start()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)  # no reply at all was the bug: fail, do not hang
        sock.connect(str(daemon.socket))
        reply = _reply(sock, p.History(rid=1, session="s"))
        assert isinstance(reply, p.ErrorReply), reply
        assert (reply.rid, reply.code) == (1, "internal")
        again = _reply(sock, p.Hello(rid=2))
        assert isinstance(again, p.HelloReply), f"the slot of request 1 leaked: {again}"
    with daemon.client() as client:
        status = client.status()
        assert status.counters.get("actor_crashes", 0) == 0, "a bad reply is not an actor crash"
        assert status.errors["internal"] == 1
        assert client.append("s", "user", "still served").seq == 2
