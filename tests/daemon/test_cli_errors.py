"""No user error in the CLI prints a traceback: one line on stderr, a non-zero exit."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from reverie.config import InvalidArgument
from reverie.daemon.cli.common import BoundedInt
from reverie.daemon.cli.main import _parser as cli_parser
from tests.checks import reverie_cli
from tests.inprocess import InProcessDaemon

pytestmark = pytest.mark.in_process


@dataclass(frozen=True)
class Case:
    name: str
    args: tuple[str, ...]
    code: int
    says: str  # the one stderr line contains this ("{socket}", "{tmp}" are filled in)
    stderr_lines: int | None = 1  # None: argparse's usage block (still no traceback)


CASES = [
    Case(
        "missing file",
        ("memory", "edit", "session/cli:a", "--file", "{tmp}/missing.md"),
        1,
        "missing.md: No such file or directory",
    ),
    Case("no daemon", ("status", "--socket", "{tmp}/nobody.sock"), 1, "is it running"),
    Case("bad flag", ("status", "--bogus"), 2, "unrecognized arguments: --bogus", None),
    Case(
        "bad flag of a subcommand",
        ("memory", "show", "user/a", "--bogus"),
        2,
        "reverie memory show: error: unrecognized arguments: --bogus",
        None,
    ),
    Case("unknown command", ("frobnicate",), 2, "invalid choice", None),
    Case(
        "busy socket",
        ("serve", "--socket", "{socket}", "--data-dir", "{tmp}/second"),
        2,
        "another daemon is already listening on {socket}",
    ),
    Case("bad config", ("serve", "--config", "{tmp}/missing.toml"), 2, "missing.toml"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_user_error_is_one_line(daemon: InProcessDaemon, tmp_path: Path, case: Case) -> None:
    fill = {"socket": str(daemon.socket), "tmp": str(tmp_path)}
    out = reverie_cli(daemon.socket, *(a.format(**fill) for a in case.args))
    assert out.returncode == case.code, out.stderr
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert case.says.format(**fill) in lines[-1]
    if case.stderr_lines is not None:
        assert len(lines) == case.stderr_lines, out.stderr
    assert not (tmp_path / "second" / "reverie.sqlite3").exists(), "opened the store first"


def test_no_daemon_answers_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No reconnect loop (it waited 10 s) when no daemon was ever reached: no sleep at all."""
    from reverie.config import ConnectionLost
    from reverie.daemon import Client

    pauses: list[float] = []
    for sock in (tmp_path / "nobody.sock", tmp_path / "stale.sock"):
        if sock.name == "stale.sock":  # a socket file with no listener: ECONNREFUSED
            import socket as stdsocket

            s = stdsocket.socket(stdsocket.AF_UNIX)
            s.bind(str(sock))
            s.close()
        out = reverie_cli(sock, "status")
        assert out.returncode == 1 and "is it running" in out.stderr
        with monkeypatch.context() as patch, pytest.raises(ConnectionLost, match="is it running"):
            patch.setattr(time, "sleep", pauses.append)
            Client(sock).status()
    assert pauses == []


def test_closed_pipe_is_quiet(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        client.append_many("cli:long", [{"role": "user", "content": "x" * 400}] * 400)
    env = {**os.environ, "REVERIE_SOCKET": str(daemon.socket)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "reverie.daemon", "history", "cli:long", "--limit", "400"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().strip().startswith(b"1")  # like `| head -1`
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141
    assert err == ""


def test_version() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "reverie.daemon", "--version"], capture_output=True, text=True
    )
    assert out.returncode == 0
    assert out.stdout.startswith("reverie ") and out.stdout.split()[1][0].isdigit()


@pytest.mark.parametrize("kind", ["file", "directory"])
def test_serve_refuses_a_socket_path_that_is_not_a_socket(
    daemon: InProcessDaemon, tmp_path: Path, kind: str
) -> None:
    """A stale socket is replaced; a database (or any other file) there is never unlinked."""
    there = daemon.data_dir / "reverie.sqlite3"  # the live database
    if kind == "directory":
        there = tmp_path / "a-dir"
        there.mkdir()
    inode = there.stat().st_ino
    out = reverie_cli(
        daemon.socket, "serve", "--socket", str(there), "--data-dir", str(tmp_path / "second")
    )
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    assert f"{there} exists and is not a socket" in out.stderr.strip().splitlines()[-1]
    assert there.stat().st_ino == inode


@pytest.mark.parametrize("opening", ['{"a":', "["], ids=["jsonl", "array"])
def test_import_of_json_nested_too_deeply_is_one_line(
    daemon: InProcessDaemon, tmp_path: Path, opening: str
) -> None:
    deep = tmp_path / "deep.jsonl"
    deep.write_text(opening * 100_000 + "\n")
    out = reverie_cli(daemon.socket, "import", str(deep))
    assert out.returncode != 0
    assert "Traceback" not in out.stderr
    (line,) = out.stderr.strip().splitlines()
    assert f"{deep}" in line and "nested too deeply" in line


def test_a_full_listen_queue_is_not_taken_for_a_stopped_daemon(tmp_path: Path) -> None:
    """EAGAIN from connect() means a daemon listens but is swamped: retry, not start one."""
    import socket as stdsocket

    from reverie.config import ConnectionLost
    from reverie.daemon.client import Client

    path = tmp_path / "busy.sock"
    listener = stdsocket.socket(stdsocket.AF_UNIX)
    listener.bind(str(path))
    listener.listen(0)  # never accepts: the queue fills after a client or two
    waiting: list[stdsocket.socket] = []
    try:
        while True:
            peer = stdsocket.socket(stdsocket.AF_UNIX)
            peer.setblocking(False)
            waiting.append(peer)
            try:
                peer.connect(str(path))
            except BlockingIOError:
                break
        with pytest.raises(ConnectionLost, match="listen queue is full") as refused:
            Client(path, timeout=5).status()
        assert "is it running" not in str(refused.value)
    finally:
        for peer in waiting:
            peer.close()
        listener.close()


def test_import_of_a_message_over_the_daemons_limit_is_one_line_and_imports_nothing(
    daemon: InProcessDaemon, tmp_path: Path
) -> None:
    rows = [{"session": "imp", "role": "user", "content": "fine"}]
    rows.append({"session": "imp", "role": "user", "content": "x" * (256 * 1024 + 1)})
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    out = reverie_cli(daemon.socket, "import", str(path))
    assert out.returncode == 1
    assert "Traceback" not in out.stderr
    (line,) = out.stderr.strip().splitlines()
    assert f"{path}: message 2 (session 'imp') has 262145 bytes" in line
    assert "daemon.max_message_bytes" in line
    with daemon.client() as client:
        assert client.history("imp") == []


def test_import_of_a_message_the_wire_refuses_names_its_line_and_imports_nothing(
    daemon: InProcessDaemon, tmp_path: Path
) -> None:
    """A role the daemon does not know was a msgspec traceback from the client."""
    rows = [
        {"session": "imp:role", "role": "user", "content": "fine", "id": "r1"},
        {"session": "imp:role", "role": "wizard", "content": "no such role", "id": "r2"},
    ]
    path = tmp_path / "roles.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    out = reverie_cli(daemon.socket, "import", str(path))
    assert out.returncode == 1 and "Traceback" not in out.stderr
    (line,) = out.stderr.strip().splitlines()
    assert f"{path}:2:" in line and "wizard" in line
    with daemon.client() as client:
        assert client.sessions(prefix="imp:role") == []
        with pytest.raises(InvalidArgument, match="role"):
            client.append_many("imp:role", [{"role": "wizard", "content": "x"}])


def _integer_flags() -> list[tuple[tuple[str, ...], str]]:
    """(command words and positionals, flag) for each integer flag of every command.

    Read from the CLI's own parser, so a flag added later is swept too; a flag that
    takes an unbounded ``int`` fails here.
    """
    found: list[tuple[tuple[str, ...], str]] = []

    def walk(parser: argparse.ArgumentParser, words: tuple[str, ...]) -> None:
        positionals = tuple(
            next(iter(a.choices)) if a.choices else "x"
            for a in parser._actions
            if not a.option_strings and not isinstance(a, argparse._SubParsersAction)
        )
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in {id(s): (n, s) for n, s in action.choices.items()}.values():
                    walk(sub, (*words, name))
            elif action.type is int:
                raise AssertionError(f"reverie {' '.join(words)} {action.dest}: unbounded int")
            elif isinstance(action.type, BoundedInt):
                found.append(((*words, *positionals), action.option_strings[-1]))

    walk(cli_parser(), ())
    return found


INTEGER_FLAGS = _integer_flags()


@pytest.mark.parametrize(
    ("words", "flag"), INTEGER_FLAGS, ids=[" ".join((*w[:3], f)) for w, f in INTEGER_FLAGS]
)
def test_an_integer_flag_past_64_bits_is_one_line(
    tmp_path: Path, words: tuple[str, ...], flag: str
) -> None:
    """``history --after-seq 2**64`` and six more commands printed an OverflowError."""
    out = reverie_cli(tmp_path / "nobody.sock", *words, flag, str(2**64))
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    line = out.stderr.strip().splitlines()[-1]
    assert flag in line and f"not {2**64}" in line, line
