"""``reverie export`` → ``reverie import`` into an empty data dir → ``export`` gives the same JSONL."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from reverie.config import InvalidArgument
from tests.checks import reverie_cli
from tests.inprocess import InProcessDaemon

pytestmark = pytest.mark.in_process  # the engine is not what these check: SQLite only

TOOL_CALLS = [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]


def _fill(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        client.append_many(
            "tg:1",
            [
                {"role": "user", "content": "hello, ünïcode ✓", "id": "a", "ts": 1700000000.125},
                {"role": "assistant", "content": "", "tool_calls": TOOL_CALLS, "ts": 1700000001.5},
                {"role": "tool", "content": "42", "tool_call_id": "c1", "name": "f"},
            ],
            scope="user/bob",
        )
        client.append("cli:alice", "user", "line one\nline two", id="x")
        client.append("cli:alice", "assistant", "ok", ts=1.0)  # timestamps need not be ordered
        for i in range(3):
            client.append("cli:zed", "user", f"msg {i}", scope="user/bob")


def test_export_import_export_is_identical_and_reimport_is_a_noop(
    make_daemon: Callable[..., InProcessDaemon], tmp_path: Path
) -> None:
    first = make_daemon(name="first")
    _fill(first)
    exported = tmp_path / "first.jsonl"
    out = reverie_cli(first.socket, "export", "-o", str(exported))
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in exported.read_text(encoding="utf-8").splitlines()]
    assert [(r["session"], r["scope"]) for r in rows] == [
        ("cli:alice", "session/cli:alice"),
        ("cli:alice", "session/cli:alice"),
        ("cli:zed", "user/bob"),
        ("cli:zed", "user/bob"),
        ("cli:zed", "user/bob"),
        ("tg:1", "user/bob"),
        ("tg:1", "user/bob"),
        ("tg:1", "user/bob"),
    ]
    assert rows[5]["id"] == "a" and rows[5]["ts"] == 1700000000.125
    assert rows[6]["tool_calls"] == TOOL_CALLS and rows[7]["tool_call_id"] == "c1"

    second = make_daemon(name="second")
    for _ in range(2):  # the second import changes nothing
        out = reverie_cli(second.socket, "import", str(exported))
        assert out.returncode == 0, out.stderr
        again = reverie_cli(second.socket, "export")
        assert again.returncode == 0, again.stderr
        assert again.stdout == exported.read_text(encoding="utf-8")
    with second.client() as client:
        assert {s.name: s.messages for s in client.sessions()} == {
            "cli:alice": 2,
            "cli:zed": 3,
            "tg:1": 3,
        }


def test_export_by_scope_and_by_session(daemon: InProcessDaemon) -> None:
    _fill(daemon)
    by_scope = reverie_cli(daemon.socket, "export", "--scope", "user/bob")
    assert by_scope.returncode == 0, by_scope.stderr
    sessions = [json.loads(line)["session"] for line in by_scope.stdout.splitlines()]
    assert sessions == ["cli:zed"] * 3 + ["tg:1"] * 3
    by_session = reverie_cli(daemon.socket, "export", "--session", "cli:alice")
    assert [json.loads(line)["id"] for line in by_session.stdout.splitlines()] == [
        "x",
        json.loads(by_session.stdout.splitlines()[1])["id"],
    ]
    missing = reverie_cli(daemon.socket, "export", "--session", "nobody")
    assert missing.returncode == 1
    assert missing.stderr.strip() == "reverie: not_found: no session 'nobody'"
    both = reverie_cli(daemon.socket, "export", "--session", "a", "--scope", "b")
    assert both.returncode == 2 and "not allowed with" in both.stderr


def test_import_of_large_messages_is_batched_by_bytes(
    make_daemon: Callable[..., InProcessDaemon], tmp_path: Path
) -> None:
    first = make_daemon(name="first")
    with first.client() as client:
        for i in range(300):
            client.append("big", "user", f"{i:04d} " + "x" * 8 * 1024)
    exported = tmp_path / "big.jsonl"
    assert reverie_cli(first.socket, "export", "-o", str(exported)).returncode == 0

    second = make_daemon(name="second")
    out = reverie_cli(second.socket, "import", str(exported))

    assert out.returncode == 0, out.stderr
    assert "imported 300 messages" in out.stdout
    again = reverie_cli(second.socket, "export")
    assert again.stdout == exported.read_text(encoding="utf-8")


def test_an_import_with_taken_ids_skips_and_lists_them_and_imports_everything_else(
    daemon: InProcessDaemon, tmp_path: Path
) -> None:
    """The red team's case: the second line collides; the rest of its batch, and every later
    session, must still be imported, and a rerun must do the same and append nothing twice.
    """
    with daemon.client() as client:
        client.append("b-taken", "user", "what the daemon already holds", id="m2")
        client.append("d-scoped", "user", "a session of another scope", id="d0", scope="user/x")
    rows = [
        {"session": "b-taken", "role": "user", "content": "first", "id": "m1"},
        {"session": "b-taken", "role": "user", "content": "not what is held", "id": "m2"},
        {"session": "b-taken", "role": "assistant", "content": "third", "id": "m3"},
        {"session": "c-later", "role": "user", "content": "a later session", "id": "c1"},
        {"session": "d-scoped", "role": "user", "content": "other scope", "id": "d1", "scope": "y"},
        {"session": "e-last", "role": "user", "content": "the last session", "id": "e1"},
    ]
    path = tmp_path / "colliding.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")

    first = reverie_cli(daemon.socket, "import", "--json", str(path))
    assert first.returncode == 0, first.stderr
    result = json.loads(first.stdout)
    assert (result["messages"], result["already_present"]) == (4, 0)
    assert [(s["session"], s["id"]) for s in result["skipped"]] == [
        ("b-taken", "m2"),
        ("d-scoped", "d1"),
    ]
    assert "other content" in result["skipped"][0]["reason"]
    with daemon.client() as client:
        taken = [(m.id, m.content) for m in client.history("b-taken")]
        assert taken == [("m2", "what the daemon already holds"), ("m1", "first"), ("m3", "third")]
        assert [m.id for m in client.history("c-later")] == ["c1"]
        assert [m.id for m in client.history("e-last")] == ["e1"]
        assert [m.id for m in client.history("d-scoped")] == ["d0"]

    again = reverie_cli(daemon.socket, "import", str(path))
    assert again.returncode == 0, again.stderr
    assert "imported 0 messages into 4 sessions (4 already present, 2 skipped" in again.stdout
    assert "skipped 'b-taken' id 'm2'" in again.stderr
    with daemon.client() as client:
        assert {s.name: s.messages for s in client.sessions()} == {
            "b-taken": 3,
            "c-later": 1,
            "d-scoped": 1,
            "e-last": 1,
        }


@pytest.mark.engines  # what each engine's text can hold
def test_a_nul_character_is_refused_at_the_door_and_an_import_lists_it_and_goes_on(
    daemon: InProcessDaemon, tmp_path: Path
) -> None:
    """Both engines refuse it alike (Postgres text cannot hold it); an export made before,
    from files, that holds one imports everything else."""
    with daemon.client() as client:
        for fields in ({"content": "a\x00b"}, {"content": "ok", "name": "n\x00"}):
            with pytest.raises(InvalidArgument, match="NUL character"):
                client.append_many("nul", [{"role": "user", "id": "x", **fields}])
        with pytest.raises(InvalidArgument, match="NUL character"):
            client.sessions(prefix="n\x00")
        assert client.sessions() == []
    rows = [
        {"session": "s", "role": "user", "content": "before", "id": "m1"},
        {"session": "s", "role": "user", "content": "held a \x00 once", "id": "m2"},
        {"session": "s", "role": "assistant", "content": "after", "id": "m3"},
    ]
    path = tmp_path / "nul.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = reverie_cli(daemon.socket, "import", "--json", str(path))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["messages"] == 2
    assert [(s["id"], "NUL" in s["reason"]) for s in result["skipped"]] == [("m2", True)]
    with daemon.client() as client:
        assert [m.content for m in client.history("s")] == ["before", "after"]
