"""What every client command of the CLI shares: its options, its runner shape, JSON output.

A client command is a *runner*: it takes the connected ``Client`` and the
parsed arguments, calls the daemon, and returns the result together with
how to print it as text; ``main`` prints the result as JSON instead when
``--json`` is given. A runner may set ``args.exit_code`` to exit non-zero
after printing.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from reverie.config import ConfigError

__all__ = [
    "BoundedInt",
    "Common",
    "Runner",
    "add_client_options",
    "add_json",
    "add_socket",
    "counted",
    "every_session",
    "plain",
    "request_timeout",
]

#: Seconds a command waits for one reply unless ``$REVERIE_TIMEOUT`` says otherwise.
REQUEST_TIMEOUT = 60.0

#: ``(client, args) -> (result, render)``: see the module docstring.
Runner = Callable[[Any, argparse.Namespace], tuple[Any, Callable[[Any], None]]]
#: Adds the options every client command takes (``--socket``, ``--json``).
Common = Callable[[argparse.ArgumentParser], None]


def add_socket(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--socket", help="daemon socket (default: $REVERIE_SOCKET, then the daemon's default)"
    )


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def add_client_options(parser: argparse.ArgumentParser) -> None:
    add_socket(parser)
    add_json(parser)


class BoundedInt:
    """An argparse ``type``: an integer from ``low`` to ``high``.

    Anything else is argparse's error naming the flag, before the daemon is
    asked: an integer past 64 bits used to end in a traceback.
    """

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def __call__(self, text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if not self.low <= value <= self.high:
            raise argparse.ArgumentTypeError(f"must be from {self.low} to {self.high}, not {value}")
        return value

    @classmethod
    def of(cls, bounded: Any) -> BoundedInt:
        """The bounds of a protocol integer type (``Page``, ``Count``, ``Seq``)."""
        info = msgspec.inspect.type_info(bounded)
        if not isinstance(info, msgspec.inspect.IntType) or info.ge is None or info.le is None:
            raise TypeError(f"{bounded!r} is not a bounded integer type")
        return cls(info.ge, info.le)


def request_timeout() -> float:
    """Seconds the CLI waits for one reply: ``$REVERIE_TIMEOUT``, else ``REQUEST_TIMEOUT``.

    ``reverie consolidate`` waits for its job on its own bound (``--wait``).
    """
    raw = os.environ.get("REVERIE_TIMEOUT", "").strip()
    if not raw:
        return REQUEST_TIMEOUT
    try:
        seconds = float(raw)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds < math.inf:
        raise ConfigError(f"REVERIE_TIMEOUT must be a number of seconds above 0, not {raw!r}")
    return seconds


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1: "1 message", "2 messages", "0 entries"."""
    if n == 1:
        return f"1 {noun}"
    return f"{n} {noun[:-1]}ies" if noun.endswith("y") else f"{n} {noun}s"


def plain(value: Any) -> Any:
    """``value`` as JSON-ready builtins (Structs become dicts)."""
    return msgspec.to_builtins(value)


def every_session(client: Any, *, page: int = 1000) -> Iterator[Any]:
    """Each session's ``SessionInfo``, in name order, asked for ``page`` at a time.

    Lazy: a caller that stops early asks for no further page.
    """
    after = ""
    while True:
        infos = client.sessions(after=after, limit=page)
        yield from infos
        if len(infos) < page:
            return
        after = infos[-1].name
