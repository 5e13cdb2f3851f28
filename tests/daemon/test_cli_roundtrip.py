"""CLI output a user feeds back or reads: history --json → import, search columns, wm --inherit."""

from __future__ import annotations

import json
import subprocess
from datetime import datetime
from pathlib import Path

import pytest

from tests.checks import reverie_cli
from tests.inprocess import InProcessDaemon

pytestmark = pytest.mark.in_process  # the engine is not what these check: SQLite only


def _reverie(daemon: InProcessDaemon, *args: str) -> subprocess.CompletedProcess[str]:
    return reverie_cli(daemon.socket, *args, check=True)


def test_history_json_feeds_import_and_reimport_says_already_present(
    daemon: InProcessDaemon, tmp_path: Path
) -> None:
    _reverie(daemon, "append", "cli:a", "user", "I moved to Lisbon", "--id", "a1", "--scope", "p/a")
    _reverie(daemon, "append", "cli:a", "assistant", "Noted.", "--id", "a2")
    rows = json.loads(_reverie(daemon, "history", "cli:a", "--json").stdout)
    assert [(r["session"], r["scope"], r["id"]) for r in rows] == [
        ("cli:a", "p/a", "a1"),
        ("cli:a", "p/a", "a2"),
    ]
    assert datetime.fromisoformat(rows[0]["ts"]).utcoffset() is not None
    dump = tmp_path / "a.json"
    dump.write_text(json.dumps(rows))
    again = _reverie(daemon, "import", str(dump))
    assert "imported 0 messages into 1 session (2 already present)" in again.stdout
    # Into another daemon's session name: new messages, same times, same scope.
    moved = [{**r, "session": "cli:b", "id": r["id"] + "b"} for r in rows]
    dump.write_text("".join(json.dumps(r) + "\n" for r in moved))
    assert "imported 2 messages into 1 session (0 already present)" in (
        _reverie(daemon, "import", str(dump)).stdout
    )
    with daemon.client() as client:
        copied = client.history("cli:b")
        assert [m.ts for m in copied] == [datetime.fromisoformat(r["ts"]).timestamp() for r in rows]
        assert {s.name: s.scope for s in client.sessions()}["cli:b"] == "p/a"


def test_search_takes_several_kinds_and_time_bounds_and_shows_session_and_scope(
    daemon: InProcessDaemon,
) -> None:
    _reverie(daemon, "append", "trip:1", "user", "We fly to Lisbon on May 3", "--scope", "trips")
    out = _reverie(
        daemon,
        "search",
        "fly to Lisbon",
        "--kinds",
        "message",
        "episode",
        "--since",
        "2000-01-01",
        "--until",
        "2999-01-01T00:00:00+00:00",
        "--everywhere",
    ).stdout.splitlines()
    assert out[0].split() == ["score", "kind", "time", "(UTC)", "session", "scope", "text"]
    assert out[1].split()[4:7] == ["trip:1", "trips", "We"]
    none = _reverie(daemon, "search", "fly to Lisbon", "--scope", "trips", "--until", "2000-01-01")
    assert none.stdout.strip() == "no hits"
    unnamed = reverie_cli(daemon.socket, "search", "fly to Lisbon")
    assert unnamed.returncode == 1 and "--everywhere" in unnamed.stderr
    assert "Traceback" not in unnamed.stderr and unnamed.stdout == ""


def test_wm_get_inherit_says_which_scope_answered(daemon: InProcessDaemon) -> None:
    _reverie(daemon, "wm", "set", "project/p", "lang", '"pt"')
    out = _reverie(daemon, "wm", "get", "project/p/agent/a", "lang", "--inherit")
    assert out.stdout.strip() == '"pt"'
    assert "from scope project/p" in out.stderr
