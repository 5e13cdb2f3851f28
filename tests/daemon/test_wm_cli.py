"""``reverie wm`` against a real daemon: JSON values in, text and --json out, errors."""

from __future__ import annotations

import json

import pytest

from tests.daemon.test_cli import _reverie
from tests.inprocess import InProcessDaemon

pytestmark = pytest.mark.in_process

SCOPE = "project/p/agent/a"


def test_wm_keys_task_scratch_and_checkpoints(daemon: InProcessDaemon) -> None:
    def ok(*args: str) -> str:
        out = _reverie(daemon, "wm", *args)
        assert out.returncode == 0, out.stderr
        return out.stdout

    assert "version 1" in ok("set", SCOPE, "plan", '{"steps": [1, 2]}')
    ok("set", "global", "lang", '"pt"')
    assert json.loads(ok("get", SCOPE, "plan", "--json"))["value"] == {"steps": [1, 2]}
    inherited = json.loads(ok("get", SCOPE, "lang", "--inherit", "--json"))
    assert (inherited["value"], inherited["scope"]) == ("pt", "global")
    assert ok("get", SCOPE, "plan").strip() == '{"steps": [1, 2]}'
    assert [k["key"] for k in json.loads(ok("list", SCOPE, "--json"))] == ["plan"]
    assert json.loads(ok("stats", SCOPE, "--json"))["keys"] == 1

    task = ("task", "set", SCOPE, "t1", "write docs", "--status", "running", "--step", "1")
    assert "50%" in ok(*task, "--total-steps", "2")
    assert json.loads(ok("task", "update", SCOPE, "--step", "2", "--json"))["progress"] == 100
    ok("scratch", "append", SCOPE, "first idea")
    assert "first idea" in ok("scratch", "get", SCOPE)

    checkpoint = ok("checkpoint", "create", SCOPE, "--label", "v1").strip()
    ok("clear", SCOPE)
    assert json.loads(ok("list", SCOPE, "--json")) == []
    listed = json.loads(ok("checkpoint", "list", SCOPE, "--json"))
    assert [(c["id"], c["label"]) for c in listed] == [(checkpoint, "v1")]
    assert "restored (1 key)" in ok("checkpoint", "restore", SCOPE, checkpoint)
    assert json.loads(ok("get", SCOPE, "plan", "--json"))["value"] == {"steps": [1, 2]}
    ok("checkpoint", "delete", SCOPE, checkpoint)
    assert json.loads(ok("checkpoint", "list", SCOPE, "--json")) == []


def test_wm_errors_say_what_to_do(daemon: InProcessDaemon) -> None:
    not_json = _reverie(daemon, "wm", "set", "s", "k", "hello")
    assert not_json.returncode == 1
    assert "not JSON" in not_json.stderr
    missing = _reverie(daemon, "wm", "get", "s", "nope")
    assert missing.returncode == 1
    assert missing.stderr.startswith("reverie: not_found:")
    assert _reverie(daemon, "wm", "set", "s", "k", "1").returncode == 0
    stale = _reverie(daemon, "wm", "set", "s", "k", "2", "--expected-version", "0")
    assert stale.returncode == 1
    assert "conflict" in stale.stderr
