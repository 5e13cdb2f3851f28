"""Every public client method is typed with what it returns: no ``Any`` for an editor."""

from __future__ import annotations

import asyncio
import inspect
import typing
from typing import Any

import pytest

from reverie.daemon import protocol as p
from reverie.daemon.client import AsyncClient, Client
from reverie.daemon.client.api import Api
from reverie.daemon.client.calls import Call, op
from tests.inprocess import InProcessDaemon

pytestmark = pytest.mark.in_process

OPS = sorted(
    name
    for klass in Api.__mro__
    for name, value in vars(klass).items()
    if isinstance(value, op) and not name.startswith("_")
)
PUBLIC = sorted(
    name
    for klass in (Client, AsyncClient)
    for name in dir(klass)
    if not name.startswith("_") and name != "close"
)


def test_every_public_method_is_a_typed_op() -> None:
    assert sorted(set(PUBLIC)) == OPS and len(PUBLIC) == 2 * len(OPS), (
        "a public client method is not an `op` (typed for both transports)"
    )
    assert len(OPS) >= 30
    for name in OPS:
        build = inspect.getattr_static(Client, name)._build
        hints = typing.get_type_hints(build, globalns=vars(inspect.getmodule(build)))
        ret = hints["return"]
        assert typing.get_origin(ret) is Call, f"{name} returns {ret}"
        (result,) = typing.get_args(ret)
        assert result is not Any, f"{name} returns Call[Any]"
        assert build.__doc__, f"{name} has no docstring"


def test_both_transports_return_the_typed_struct(daemon: InProcessDaemon) -> None:
    with Client(daemon.socket) as client:
        ack = client.append("types:s", "user", "hello")
        assert isinstance(ack, p.Ack) and ack.seq == 1
        assert all(isinstance(m, p.Message) for m in client.history("types:s"))
        assert client.append.__doc__ and client.append.__name__ == "append"

    async def run() -> p.Ack:
        async with AsyncClient(daemon.socket) as client:
            pending = client.append("types:s", "user", "again")
            assert inspect.isawaitable(pending)
            return await pending

    ack = asyncio.run(run())
    assert isinstance(ack, p.Ack) and ack.seq == 2


@pytest.mark.parametrize("name", ["append", "context", "wm_get", "search"])
def test_signatures_show_the_real_parameters(name: str) -> None:
    params = inspect.signature(getattr(Client(), name)).parameters
    assert "self" not in params and "args" not in params and len(params) >= 1
