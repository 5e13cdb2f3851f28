"""The reverie command against a real daemon: output, --json, errors with exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.inprocess import InProcessDaemon

pytestmark = pytest.mark.in_process  # the engine is not what these check: SQLite only


def _reverie(
    daemon: InProcessDaemon, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REVERIE_SOCKET": str(daemon.socket)}
    return subprocess.run(
        [sys.executable, "-m", "reverie.daemon", *args],
        capture_output=True,
        text=True,
        env=env,
        input=stdin,
        timeout=60,
    )


def test_append_history_context_sessions_forget(daemon: InProcessDaemon) -> None:
    out = _reverie(daemon, "append", "cli:alice", "user", "I live in Lisbon", "--id", "m1")
    assert out.returncode == 0, out.stderr
    assert "seq 1" in out.stdout
    assert _reverie(daemon, "append", "cli:alice", "assistant", "-", stdin="Noted.").returncode == 0
    history = json.loads(_reverie(daemon, "history", "cli:alice", "--json").stdout)
    assert [(m["seq"], m["role"], m["content"]) for m in history] == [
        (1, "user", "I live in Lisbon"),
        (2, "assistant", "Noted."),
    ]
    ctx = json.loads(_reverie(daemon, "context", "cli:alice", "--json").stdout)
    assert ctx["memory"] == ""
    assert ctx["tokens"] == sum(m["tokens"] for m in ctx["messages"]) > 0
    assert "Lisbon" in _reverie(daemon, "context", "cli:alice").stdout
    sessions = json.loads(_reverie(daemon, "sessions", "--json").stdout)
    assert [s["name"] for s in sessions] == ["cli:alice"]
    status = json.loads(_reverie(daemon, "status", "--json").stdout)
    assert status["sessions"]["known"] == 1
    assert "passivated" in _reverie(daemon, "status").stdout
    assert _reverie(daemon, "forget", "cli:alice").returncode == 0
    assert json.loads(_reverie(daemon, "sessions", "--json").stdout) == []


def test_one_of_a_thing_is_singular(daemon: InProcessDaemon) -> None:
    """ "1 messages" and "1 places" read as a slip."""
    assert _reverie(daemon, "append", "cli:one", "user", "hi").returncode == 0
    assert "1 message and" in _reverie(daemon, "context", "cli:one").stdout
    assert _reverie(daemon, "forget", "cli:one").stdout == "forgot cli:one: 1 message deleted\n"


def test_sessions_by_prefix(daemon: InProcessDaemon) -> None:
    for name in ("bot:al", "bot:alice", "bot:alicia", "bot:b", "bot:al\u00e9"):
        assert _reverie(daemon, "append", name, "user", "hi").returncode == 0
    listed = json.loads(_reverie(daemon, "sessions", "--prefix", "bot:al", "--json").stdout)
    assert [s["name"] for s in listed] == ["bot:al", "bot:alice", "bot:alicia", "bot:al\u00e9"]
    page = json.loads(
        _reverie(daemon, "sessions", "--prefix", "bot:ali", "--after", "bot:alice", "--json").stdout
    )
    assert [s["name"] for s in page] == ["bot:alicia"]


def test_mix_ups_are_said_not_silent(daemon: InProcessDaemon) -> None:
    assert (
        _reverie(daemon, "append", "mybot:dave", "user", "hi", "--scope", "user/dave").returncode
        == 0
    )
    shown = _reverie(daemon, "memory", "show", "mybot:dave")
    assert shown.returncode == 0
    assert "a session has that name: its memory is in scope 'user/dave'" in shown.stderr
    assert "session has that name" not in _reverie(daemon, "memory", "show", "user/dave").stderr
    forgot = _reverie(daemon, "forget", "mybot:dvae")
    assert forgot.returncode == 1
    assert forgot.stderr.startswith("reverie: no session named 'mybot:dvae'")
    assert [s["name"] for s in json.loads(_reverie(daemon, "sessions", "--json").stdout)] == [
        "mybot:dave"
    ]
    # Reading a mistyped session printed nothing and exited 0; a prefix of a real name is a
    # typo too, and a real session past its last message is an empty page, not a typo.
    for typo in ("mybot:dvae", "mybot:dav"):
        for command in ("history", "context", "consolidate"):
            read = _reverie(daemon, command, typo)
            assert (read.returncode, read.stdout) == (1, ""), (command, typo, read)
            (line,) = read.stderr.splitlines()
            assert line.startswith(f"reverie: no session named {typo!r}"), line
    queued = _reverie(daemon, "consolidate", "mybot:dvae", "--no-wait")
    assert (queued.returncode, queued.stdout) == (1, "")
    assert queued.stderr.startswith("reverie: no session named 'mybot:dvae': nothing to")
    past = _reverie(daemon, "history", "mybot:dave", "--after-seq", "1")
    assert (past.returncode, past.stdout, past.stderr) == (0, "", "")
    assert "hi" in _reverie(daemon, "context", "mybot:dave").stdout


def test_facts_by_id_from_the_shell(daemon: InProcessDaemon) -> None:
    added = json.loads(
        _reverie(daemon, "fact", "add", "user/eve", "Eve plays the cello.", "--json").stdout
    )
    other = _reverie(daemon, "fact", "add", "user/eve", "Eve lives in Faro.")
    assert other.returncode == 0 and other.stdout.endswith("Eve lives in Faro.\n")
    listed = _reverie(daemon, "fact", "list", "user/eve").stdout.splitlines()
    assert listed[0] == f"{added['id']}  [{added['date']}] Eve plays the cello."
    assert len(listed) == 2
    clash = _reverie(daemon, "fact", "update", "user/eve", added["id"], "eve LIVES in faro")
    assert clash.returncode == 1 and clash.stderr.startswith("reverie: conflict: ")
    empty = _reverie(daemon, "fact", "add", "user/eve", "  ...  ")
    assert empty.returncode == 1 and empty.stderr.startswith("reverie: invalid_argument: ")
    updated = _reverie(daemon, "fact", "update", "user/eve", added["id"], "Eve plays the viola.")
    assert updated.returncode == 0, updated.stderr
    assert (
        _reverie(daemon, "fact", "list", "user/eve")
        .stdout.splitlines()[0]
        .endswith("Eve plays the viola.")
    )  # in its place
    gone = _reverie(daemon, "fact", "delete", "user/eve", added["id"])
    assert gone.returncode == 1 and gone.stderr.startswith("reverie: not_found: ")


def test_errors_print_one_line_and_exit_nonzero(daemon: InProcessDaemon, tmp_path) -> None:
    assert _reverie(daemon, "append", "s", "user", "a", "--id", "x").returncode == 0
    out = _reverie(daemon, "append", "s", "user", "b", "--id", "x")
    assert out.returncode == 1
    assert out.stderr.startswith("reverie: conflict:")
    assert len(out.stderr.strip().splitlines()) == 1
    env = {**os.environ, "REVERIE_SOCKET": str(tmp_path / "nobody.sock")}
    down = subprocess.run(
        [sys.executable, "-m", "reverie.daemon", "status"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert down.returncode == 1
    assert "is it running" in down.stderr


def test_bad_config_exits_2_naming_the_key(tmp_path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[daemon]\nsokcet = 1\n")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "reverie.daemon",
            "serve",
            "--config",
            str(bad),
            "--data-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "sokcet" in out.stderr


def test_consolidate_and_memory_show_edit(daemon: InProcessDaemon, tmp_path) -> None:
    assert (
        _reverie(
            daemon, "append", "cli:bob", "user", "My cat is called Miso and she is 3 years old."
        ).returncode
        == 0
    )
    assert _reverie(daemon, "append", "cli:bob", "assistant", "Miso sounds lovely.").returncode == 0
    out = _reverie(daemon, "consolidate", "cli:bob", "--json")
    assert out.returncode == 0, out.stderr
    outcome = json.loads(out.stdout)
    assert (outcome["state"], outcome["messages"]) == ("done", 2)
    shown = _reverie(daemon, "memory", "show", "session/cli:bob")
    assert "Miso" in shown.stdout
    assert outcome["entry"] in shown.stdout
    new = tmp_path / "MEMORY.md"
    new.write_text("- Bob's cat: Miso (3).\n")
    assert _reverie(daemon, "memory", "edit", "session/cli:bob", "--file", str(new)).returncode == 0
    ctx = json.loads(_reverie(daemon, "context", "cli:bob", "--json").stdout)
    assert ctx["memory"] == "- Bob's cat: Miso (3).\n"
    assert ctx["messages"] == []
