"""The ``reverie`` command: run the daemon, and talk to it from a shell.

Every reading command takes ``--json``. Errors print one line that says what
to do and exit non-zero (2 for usage and configuration, 1 for the rest).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence

from reverie.config import ConfigError, ReverieError

from ..version import package_version
from .cluster import add_cluster_parser, run_cluster
from .common import Runner, add_client_options, plain, request_timeout
from .data import DATA_COMMANDS, add_data_parsers, run_data_command
from .facts import FACT_RUNNERS, add_fact_parser
from .mcp import add_mcp_parser, run_mcp
from .memory import MEMORY_RUNNERS, add_memory_parser
from .search import SEARCH_RUNNERS, add_search_parser
from .serve import (
    add_serve_parser,
    add_units_parser,
    add_worker_parser,
    run_install_units,
    run_serve,
    run_worker,
)
from .sessions import SESSION_RUNNERS, add_session_parsers
from .status import STATUS_RUNNERS, add_status_parsers
from .ui import add_ui_parser, run_ui
from .working_memory import WM_RUNNERS, add_wm_parser

__all__ = ["main"]

#: Commands that talk to the daemon through one ``Client``, by name.
_RUNNERS: dict[str, Runner] = {
    **SESSION_RUNNERS,
    **STATUS_RUNNERS,
    **WM_RUNNERS,
    **MEMORY_RUNNERS,
    **FACT_RUNNERS,
    **SEARCH_RUNNERS,
}
#: Commands that run on their own terms (the daemon itself, MCP, long data copies).
_OWN: dict[str, Callable[[argparse.Namespace], int]] = {
    "serve": run_serve,
    "install-units": run_install_units,
    "mcp": run_mcp,
    "ui": run_ui,
    "worker": run_worker,
    "cluster": run_cluster,
    **dict.fromkeys(DATA_COMMANDS, run_data_command),
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reverie", description="Memory daemon for AI-agent sessions."
    )
    parser.add_argument("--version", action="version", version=f"reverie {package_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_serve_parser(sub)
    add_session_parsers(sub, add_client_options)
    add_memory_parser(sub, add_client_options)
    add_fact_parser(sub, add_client_options)
    add_units_parser(sub)
    add_worker_parser(sub)
    add_status_parsers(sub, add_client_options)
    add_cluster_parser(sub)
    add_wm_parser(sub, add_client_options)
    add_search_parser(sub, add_client_options)
    add_mcp_parser(sub)
    add_ui_parser(sub)
    add_data_parsers(sub)
    return parser


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse; an unknown flag is reported with the usage of the command it was given to.

    argparse hands a subcommand's unknown arguments up to the top-level
    parser, whose usage (``reverie [-h] COMMAND``) says nothing about them.
    """
    args, extra = parser.parse_known_args(argv)
    if extra:
        _innermost(parser, args).error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def _innermost(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> argparse.ArgumentParser:
    """The (sub)command parser ``args`` came through, deepest first."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = action.choices.get(getattr(args, action.dest, None) or "")
            if chosen is not None:
                return _innermost(chosen, args)
    return parser


def _client_command(args: argparse.Namespace) -> int:
    from ..client import Client

    with Client(args.socket, timeout=request_timeout()) as client:
        result, render = _RUNNERS[args.command](client, args)
    if args.json:
        print(json.dumps(plain(result), ensure_ascii=False, indent=2))
    else:
        render(result)
    return int(getattr(args, "exit_code", 0))


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; a user error prints one line (never a traceback) and exits non-zero."""
    args = _parse(_parser(), argv)
    try:
        code = _dispatch(args)
        if not sys.stdout.closed:  # `reverie mcp` over stdio: the MCP SDK closed it
            sys.stdout.flush()  # a closed pipe surfaces here, not at interpreter exit
        return code
    except BrokenPipeError:  # `reverie ... | head`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a command killed by SIGPIPE
    except KeyboardInterrupt:
        return 130
    except BaseException as exc:
        error = _user_error(exc)
        if error is None:
            raise
        print(f"reverie: {error[0]}", file=sys.stderr)
        return error[1]


def _dispatch(args: argparse.Namespace) -> int:
    own = _OWN.get(args.command)
    return own(args) if own is not None else _client_command(args)


def _user_error(exc: BaseException) -> tuple[str, int] | None:
    """The one line and exit code for an error the user can fix; None for a bug.

    The daemon runs under trio, which wraps errors in exception groups: a
    group whose leaves are all user errors is reported by its first leaf.
    """
    if isinstance(exc, BaseExceptionGroup):
        leaves = [_user_error(e) for e in exc.exceptions]
        return leaves[0] if leaves and all(leaves) else None
    if isinstance(exc, ConfigError):
        return exc.message, 2
    if isinstance(exc, ReverieError):
        return f"{exc.code}: {exc.message}", 1
    if isinstance(exc, OSError) and exc.strerror:  # a file named on the command line
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror}", 1
    return None
