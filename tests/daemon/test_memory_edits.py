"""The Markdown is the truth both ways: edits (by op or by hand) reach the index and the prompt."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from reverie import StoreError
from reverie.daemon import Client
from reverie.store.files.memory_files import encode_scope
from tests.checks import index_open, poll
from tests.daemon_process import DaemonProcess
from tests.fakellm import extractive_config
from tests.inprocess import InProcessDaemon

pytestmark = [pytest.mark.engines, pytest.mark.in_process]

# Generous for a loaded machine (the watcher polls twice a second), counted once the index
# is open (``index_open``): its open, after a start, may take longer.
EDIT_DEADLINE = 5.0


def _facts(client: Client, query: str, scope: str) -> list[str]:
    return [h.text for h in client.search(query, kinds=["fact"], scope=scope, mode="text")]


def _found(client: Client, word: str, scope: str) -> bool:
    return any(word in text for text in _facts(client, word, scope))


def test_memory_edit_reaches_fact_search_without_reindex(make_daemon, fake_llm) -> None:
    daemon: InProcessDaemon = make_daemon(config=extractive_config(fake_llm))
    with daemon.client() as client:
        index_open(client)
        client.append("s", "user", "hello there")
        assert client.memory_edit("session/s", "- Carl likes saxophone jazz\n") == []
        poll(lambda: _found(client, "saxophone", "session/s"), EDIT_DEADLINE, "edit indexed")

        client.memory_edit("session/s", "- Carl likes violin concertos\n")

        poll(lambda: not _found(client, "saxophone", "session/s"), EDIT_DEADLINE, "fact gone")
        # The index deletes the edited scope's old facts, then adds its new ones: a search
        # between the two finds neither (actors/search/follow.py, _index_edits).
        poll(lambda: _found(client, "violin", "session/s"), EDIT_DEADLINE, "new fact indexed")


@pytest.mark.files
def test_hand_edit_is_noticed_and_reaches_prompt_and_search(make_daemon, fake_llm) -> None:
    daemon: InProcessDaemon = make_daemon(config=extractive_config(fake_llm))
    with daemon.client() as client:
        index_open(client)
        client.append("s", "user", "My locker code is 4417 and I live in Porto.")
        assert client.consolidate("s", wait=True) is not None
        poll(lambda: _found(client, "Porto", "session/s"), EDIT_DEADLINE, "fact indexed")
        path = daemon.data_dir / "memory" / encode_scope("session/s") / "MEMORY.md"
        text = path.read_text().replace("Porto", "Braga")

        path.write_text(text)  # in place, as an editor might

        shown = re.sub(r" <!-- from .* -->", "", text)  # the prompt has no source comments
        poll(lambda: client.context("s").memory == shown, EDIT_DEADLINE, "prefix re-read")
        poll(lambda: _found(client, "Braga", "session/s"), EDIT_DEADLINE, "hand edit indexed")
        assert not _found(client, "Porto", "session/s")
        assert client.status().memory.edits_noticed >= 1


@pytest.mark.files
def test_broken_edits_are_reported_and_lose_nothing(make_daemon_process, fake_llm) -> None:
    daemon: DaemonProcess = make_daemon_process(config=extractive_config(fake_llm))
    scope = "session/s"
    with daemon.client() as client:
        client.append("s", "user", "My locker code is 4417 and I live in Porto.")
        assert client.consolidate("s", wait=True) is not None
        history = next((daemon.data_dir / "memory" / encode_scope(scope) / "history").glob("*.md"))
        broken = history.read_text().replace('"session":"s"', '"session":')  # not JSON any more
        assert broken != history.read_text()
        history.write_text(broken)

        problems = poll(
            lambda: client.status().memory.problems.get(scope), EDIT_DEADLINE, "reported"
        )
        assert "unreadable metadata" in problems[0]
        bad_fact = '- Carl plays chess <!-- from {"s": [oops -->\n'
        reported = client.memory_edit(scope, client.memory(scope).memory + bad_fact)
        assert any("kept as text" in p for p in reported), reported

        client.append("s", "user", "I always drink green tea at Porto station every morning.")
        assert client.consolidate("s", wait=True) is not None  # rewrites both files

        assert "Carl plays chess" in client.memory(scope).memory, "an unreadable fact was lost"
        assert broken.split("\n## ")[1] in "".join(p.read_text() for p in history.parent.iterdir())
    shown = subprocess.run(
        [
            sys.executable,
            "-m",
            "reverie.daemon",
            "memory",
            "show",
            scope,
            "--socket",
            str(daemon.socket),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    assert "reverie: warning: history/" in shown.stderr
    assert "unreadable metadata" in daemon.log()


@pytest.mark.files
def test_a_symlink_in_the_memory_tree_is_refused_and_forget_removes_it(
    make_daemon, fake_llm, tmp_path
) -> None:
    daemon: InProcessDaemon = make_daemon(config=extractive_config(fake_llm))
    outside = tmp_path / "passwd"
    outside.write_text("root:x:0:0:Zqpasswdline:/root:/bin/bash\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    memory = daemon.data_dir / "memory"
    with daemon.client() as client:
        client.append("s", "user", "hello there")
        client.append("t", "user", "hello there")
        client.memory_edit("session/s", "- Carl likes jazz\n")
        link = memory / encode_scope("session/s") / "MEMORY.md"
        link.unlink()
        link.symlink_to(outside)
        (memory / encode_scope("session/t")).symlink_to(elsewhere, target_is_directory=True)

        view = client.context("s")  # the tail, served without the file that is refused
        assert "Zqpasswdline" not in view.memory and len(view.messages) == 1
        with pytest.raises(StoreError, match="symbolic link"):
            client.memory_edit("session/t", "- written outside\n")
        assert list(elsewhere.iterdir()) == []
        assert not any(
            "Zqpasswdline" in h.text for h in client.search("Zqpasswdline", everywhere=True).hits
        )

        client.forget("t")

        assert not (memory / encode_scope("session/t")).is_symlink() and elsewhere.is_dir()
    assert "Zqpasswdline" in outside.read_text()


@pytest.mark.files
def test_a_memory_md_that_is_not_utf8_leaves_the_tail_served_and_is_reported(
    make_daemon, fake_llm
) -> None:
    daemon: InProcessDaemon = make_daemon(config=extractive_config(fake_llm))
    with daemon.client() as client:
        client.append("s", "user", "hello there")
        client.append("s2", "user", "hi", scope="session/s")
        client.memory_edit("session/s", "- Carl likes jazz\n")
        path = daemon.data_dir / "memory" / encode_scope("session/s") / "MEMORY.md"

        path.write_bytes(b"- Carl likes caf\xe9 jazz\n")  # Latin-1, as an old editor saves

        for session in ("s", "s2"):
            view = client.context(session)
            assert view.memory == "" and len(view.messages) == 1
        problems = poll(
            lambda: client.status().memory.problems.get("session/s"), EDIT_DEADLINE, "reported"
        )
        assert "not UTF-8" in problems[0]
