"""The examples in examples/ run against a real daemon and the fake LLM."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakellm import FakeLLM, content
from tests.inprocess import InProcessDaemon

pytestmark = pytest.mark.in_process

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
MEMORY = "- The user lives in Lisbon.\n"
SYSTEM = "You are a helpful assistant. What you remember about the user:\n"


def _run(daemon: InProcessDaemon, *cmd: str, llm: FakeLLM | None = None, **env: str) -> str:
    """Run from the checkout's root, as the README says; the venv is not on PATH."""
    full_env = {**os.environ, "REVERIE_SOCKET": str(daemon.socket), **env}
    full_env.pop("REVERIE_EXAMPLE_LLM_URL", None)
    bindir = str(Path(sys.executable).parent)
    full_env["PATH"] = os.pathsep.join(
        d for d in os.environ.get("PATH", "").split(os.pathsep) if d != bindir
    )
    if not (ROOT / ".venv" / "bin" / "reverie").exists():  # tests run from another venv
        full_env["REVERIE"] = str(Path(bindir) / "reverie")
    if llm is not None:
        full_env["REVERIE_EXAMPLE_LLM_URL"] = llm.base_url
    out = subprocess.run(
        list(cmd), capture_output=True, text=True, env=full_env, timeout=120, cwd=ROOT
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Traceback" not in out.stderr
    return out.stdout


@pytest.mark.parametrize(
    ("script", "session", "scope"),
    [("nanobot_style_agent.py", "nanobot:t", "nanobot"), ("trio_host.py", "trio:t", "trio")],
)
def test_agent_example_appends_turns_and_puts_memory_first(
    daemon: InProcessDaemon, fake_llm: FakeLLM, script: str, session: str, scope: str
) -> None:
    with daemon.client() as client:
        client.memory_edit(scope, MEMORY)
    fake_llm.script(content("reply one"), content("reply two"), content("reply three"))
    out = _run(
        daemon,
        sys.executable,
        f"examples/{script}",
        llm=fake_llm,
        REVERIE_EXAMPLE_SESSION=session,
        REVERIE_EXAMPLE_SCOPE=scope,
    )
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["turn 1", "turn 2", "turn 3"]
    assert lines[0].endswith("reply: reply one") and lines[2].endswith("reply: reply three")
    assert lines[3] == f"done: 3 turns in session {session}"
    assert lines[4] == "consolidated: 6 messages"
    assert lines[5].startswith("memory now leads the prompt (") and lines[6:], out

    requests = [r.body["messages"] for r in fake_llm.requests]
    assert len(requests) == 3
    for i, messages in enumerate(requests):
        # The memory prefix comes first and is byte-identical on every turn.
        assert messages[0] == {"role": "system", "content": SYSTEM + MEMORY}
        assert messages[-1]["role"] == "user"
        assert len(messages) == 1 + 2 * i + 1

    with daemon.client() as client:
        history = client.history(session)
        status = client.status()
    assert [m.role for m in history] == ["user", "assistant"] * 3
    with daemon.client() as client:
        memory = client.context(session).memory
    assert len(memory.encode()) > len(MEMORY) and f"({len(memory)} bytes)" in lines[5]
    assert [m.content for m in history if m.role == "assistant"] == [
        "reply one",
        "reply two",
        "reply three",
    ]
    assert history[0].id == f"{session}:user:1"
    assert status.consolidation["default"].streams == 0, "every stream lease was ended"

    # A rerun (a retried host) re-sends the same ids and content: nothing is stored twice.
    fake_llm.script(content("reply one"), content("reply two"), content("reply three"))
    _run(
        daemon,
        sys.executable,
        f"examples/{script}",
        llm=fake_llm,
        REVERIE_EXAMPLE_SESSION=session,
        REVERIE_EXAMPLE_SCOPE=scope,
    )
    with daemon.client() as client:
        assert len(client.history(session)) == 6


@pytest.mark.parametrize("script", ["nanobot_style_agent.py", "trio_host.py"])
def test_agent_example_runs_without_an_llm_and_shows_memory(
    daemon: InProcessDaemon, script: str
) -> None:
    """As the README says: `.venv/bin/python examples/X.py` against `make run`, no model."""
    out = _run(daemon, sys.executable, f"examples/{script}").splitlines()
    assert "canned reply" in out[0]
    assert out[4] == "consolidated: 6 messages"
    bytes_of_memory = int(out[5].split("(")[1].split()[0])
    assert bytes_of_memory > 0 and out[6:], out


def test_shell_example_uses_the_cli(daemon: InProcessDaemon) -> None:
    out = _run(daemon, "bash", "examples/shell_example.sh", "shell:t")
    assert "appended seq 1" in out
    assert "appended seq 2" in out
    context, _, rest = out.partition("== context\n")[2].partition("== history\n")
    assert "I live in Lisbon" in context
    history_json, _, tail = rest.partition("== consolidate")
    history = json.loads(history_json)
    assert [(m["seq"], m["id"]) for m in history] == [(1, "shell:t:1"), (2, "shell:t:2")]
    assert "done: 2 messages into history entry ep_" in tail
    assert "I live in Lisbon" in tail.partition("history entry")[2]
    with daemon.client() as client:
        sessions = {s.name: s for s in client.sessions()}
    assert sessions["shell:t"].messages == 2
    assert sessions["shell:t"].scope == "shell"

    again = _run(daemon, "bash", "examples/shell_example.sh", "shell:t")  # re-runnable
    assert "appended seq 2" in again and "I live in Lisbon" in again
    with daemon.client() as client:  # its ids: nothing stored twice
        assert [s.messages for s in client.sessions(prefix="shell:t")] == [2]


def test_nanobot_example_stores_every_turn_and_a_new_session_reads_the_memory(
    daemon: InProcessDaemon, fake_llm: FakeLLM
) -> None:
    """examples/nanobot_agent.py, a real nanobot, run twice: each run a new conversation."""
    scope = "user/ada-nanobot-example"
    for run in (1, 2):
        before = len(fake_llm.requests)
        out = _run(daemon, sys.executable, "examples/nanobot_agent.py", llm=fake_llm).splitlines()
        key = out[0].split(": ", 1)[0]  # example:<run>:1, nanobot's session key
        session_one, session_two = f"nanobot:{key}", f"nanobot:{key[:-1]}2"
        assert out[2] == "consolidated: 4 messages", out
        with daemon.client() as client:
            memory = client.memory(scope, limit=1)
            block = client.context("nanobot:probe", scope=scope).memory
            stored = {s.name: s for s in client.sessions(prefix="nanobot:example:")}
        assert "Porto" in block and memory.memory, out
        requests = fake_llm.requests[before:]
        assert len(requests) == 3, [r.body["messages"][-1] for r in requests]
        systems = [r.body["messages"][0]["content"] for r in requests]
        # Each run's first session starts before its consolidation; only the second run's
        # memory already holds the first run's facts.
        assert ("Long-term Memory" in systems[0]) == (run == 2)
        assert f"# Memory\n\n## Long-term Memory\n{block}" in systems[2]
        assert stored[session_one].messages == 4 and stored[session_two].messages == 2
        assert out[-2:] == [
            f"stored in {session_one}: ['user', 'assistant', 'user', 'assistant']",
            f"stored in {session_two}: ['user', 'assistant']",
        ]
    with daemon.client() as client:
        assert len(client.sessions(prefix="nanobot:example:")) == 4
