"""The wire schema validates: a value outside a field's type or bounds is ``invalid_argument``.

The constraints live on the protocol's Structs (``Literal`` and
``Annotated[..., Meta(...)]``), so the daemon rejects the request when it is
decoded, names the field, and the connection and the session go on.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from reverie import Client
from reverie.config import InvalidArgument
from reverie.daemon import protocol as p
from reverie.daemon.protocol.framing import frame
from reverie.store import search_query
from tests.checks import read_reply
from tests.inprocess import InProcessDaemon

BAD: dict[str, tuple[Callable[[Client, str], Any], str]] = {
    "page too small": (lambda c, s: c.history(s, limit=0), "$.limit"),
    "page too big": (lambda c, s: c.sessions(limit=p.MAX_PAGE + 1), "$.limit"),
    "seq beyond SQLite": (lambda c, s: c.history(s, after_seq=2**63), "$.after_seq"),
    "memory page": (lambda c, s: c.memory(s, limit=0), "$.limit"),
    "unknown role": (lambda c, s: c.append(s, "bot", "hi"), "role"),  # type: ignore[arg-type]
    "empty batch": (lambda c, s: c.append_many(s, []), "$.messages"),
    "long id": (lambda c, s: c.append(s, "user", "hi", id="x" * 129), "id"),
    "lease ttl": (lambda c, s: c.stream_begin(ttl=0), "$.ttl"),
    "lease too long": (lambda c, s: c.stream_begin(ttl=p.MAX_STREAM_TTL + 1), "$.ttl"),
    "search mode": (lambda c, s: c.search("x", mode="fuzzy", everywhere=True), "$.mode"),  # type: ignore[arg-type]
    "task status": (lambda c, s: c.task_set(s, "t", "d", status="maybe"), "$.status"),  # type: ignore[arg-type]
    "negative step": (lambda c, s: c.task_update(s, step=-1), "$.step"),
    "scratch last": (lambda c, s: c.scratch_get(s, last=-1), "$.last"),
    "key ttl": (lambda c, s: c.wm_set(s, "k", 1, ttl=0), "$.ttl"),
    "version": (lambda c, s: c.wm_set(s, "k", 1, expected_version=-1), "$.expected_version"),
    "total steps": (lambda c, s: c.task_set(s, "t", "d", total_steps=2**63), "$.total_steps"),
}


@pytest.mark.parametrize("case", BAD)
def test_a_value_outside_the_schema_is_invalid_argument(
    shared_daemon: InProcessDaemon, unique: Callable[[str], str], case: str
) -> None:
    call, field = BAD[case]
    session = unique("s")
    with shared_daemon.client() as client:
        with pytest.raises(InvalidArgument) as caught:
            call(client, session)
        assert field in str(caught.value)
        # The same connection goes on, and nothing was written for the bad request.
        assert client.append(session, "user", "after").seq == 1


#: Integers at and past the edges of what SQLite (signed 64 bits) and msgpack (-2**63 to
#: 2**64-1) hold: ``scratch_get(last=2**64-1)`` dropped the connection with an OverflowError.
EDGES = (2**63, 2**64 - 1, 2**64, -(2**63) - 1)
_I = msgspec.inspect


def _ints(t: _I.Type) -> list[_I.IntType]:
    """The integer types a field's type admits (through ``X | None``)."""
    types = t.types if isinstance(t, _I.UnionType) else (t,)
    return [u for u in types if isinstance(u, _I.IntType)]


def _filler(t: _I.Type) -> Any:
    """A value of the right type for a required field, so only the integer is wrong."""
    if isinstance(t, _I.ListType):
        return [p.MessageIn(role="user", content="x")]
    return 1 if isinstance(t, _I.AnyType) else "probe"


def _int_fields() -> list[tuple[type[p.Frame], str]]:
    """Every integer field (but ``rid``) of every request type, read from the union."""
    union = _I.type_info(p.Request)
    assert isinstance(union, _I.UnionType)
    return [
        (t.cls, f.name)
        for t in union.types
        if isinstance(t, _I.StructType)
        for f in t.fields
        if f.name != "rid" and _ints(f.type)
    ]


def _request(cls: type[p.Frame], field: str, value: int) -> p.Frame:
    info = _I.type_info(cls)
    assert isinstance(info, _I.StructType)
    required = {f.name: _filler(f.type) for f in info.fields if f.required and f.name != "rid"}
    return cls(rid=7, **{**required, field: value})


def test_every_integer_field_of_every_request_is_bounded() -> None:
    fields = _int_fields()
    assert len(fields) >= 12  # history, context, search, working memory...
    for cls, name in fields:
        info = _I.type_info(cls)
        assert isinstance(info, _I.StructType)
        (field,) = [f for f in info.fields if f.name == name]
        for t in _ints(field.type):
            assert t.ge is not None and t.le is not None, f"{cls.__name__}.{name} is unbounded"
    assert p.search.MAX_K == search_query.MAX_K


def test_integers_past_64_bits_are_typed_errors_and_the_connection_goes_on(
    shared_daemon: InProcessDaemon,
) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        sock.connect(str(shared_daemon.socket))
        for cls, field in _int_fields():
            for value in EDGES:
                request = _request(cls, field, value)
                try:
                    body = p.encode(request)
                except InvalidArgument as refused:  # msgpack cannot carry it: the client says so
                    assert f"`$.{field}`" in str(refused)
                    continue
                sock.sendall(frame(body))
                reply = read_reply(sock)
                assert isinstance(reply, p.ErrorReply), (cls.__name__, field, value, reply)
                assert (reply.rid, reply.code) == (7, "invalid_argument")
                assert f"`$.{field}`" in reply.message
                sock.sendall(frame(p.encode(p.Hello(rid=8))))
                assert isinstance(read_reply(sock), p.HelloReply), (cls.__name__, field, value)
        # A request id is only echoed: any integer msgpack carries is answered with it.
        for rid in (2**63, 2**64 - 1, -(2**63)):
            sock.sendall(frame(p.encode(p.Hello(rid=rid))))
            reply = read_reply(sock)
            assert isinstance(reply, p.HelloReply) and reply.rid == rid


def test_the_client_refuses_integers_the_wire_cannot_carry(
    shared_daemon: InProcessDaemon, unique: Callable[[str], str]
) -> None:
    session = unique("s")
    with shared_daemon.client() as client:
        for last in (2**64 - 1, 2**64):
            with pytest.raises(InvalidArgument, match=r"\$\.last"):
                client.scratch_get(session, last=last)
        with pytest.raises(InvalidArgument, match=r"\$\.after_seq"):
            client.history(session, after_seq=-(2**63) - 1)
        assert client.append(session, "user", "after").seq == 1
