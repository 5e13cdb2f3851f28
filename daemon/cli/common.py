"""What every client command of the CLI shares: its options, its runner shape, JSON output.

A client command is a *runner*: it takes the connected ``Client`` and the
parsed arguments, calls the daemon, and returns the result together with
how to print it as text; ``main`` prints the result as JSON instead when
``--json`` is given. A runner may set ``args.exit_code`` to exit non-zero
after printing.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from typing import Any

import msgspec

__all__ = [
    "Common",
    "Runner",
    "add_client_options",
    "add_json",
    "add_socket",
    "every_session",
    "plain",
]

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
