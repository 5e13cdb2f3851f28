"""What every client command of the CLI shares: its options, its runner shape, JSON output.

A client command is a *runner*: it takes the connected ``Client`` and the
parsed arguments, calls the daemon, and returns the result together with
how to print it as text; ``main`` prints the result as JSON instead when
``--json`` is given. A runner may set ``args.exit_code`` to exit non-zero
after printing.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import msgspec

__all__ = ["Common", "Runner", "add_client_options", "add_json", "add_socket", "plain"]

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
