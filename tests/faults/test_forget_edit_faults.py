"""Forget and hand edits under load and abuse: searches never fail, nothing else is lost.

A forget rewrites the search index into a new directory and removes the old
one once no search reads it; searches running meanwhile must all succeed.
A hand edit can be anything a person's editor writes, including bytes that
are not UTF-8 and files removed: the daemon reports it, keeps serving, and
recovers once the file is fixed.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from reverie.store import prompt_view
from reverie.store.files.memory_files import encode_scope
from tests.checks import poll, whole_history
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM

from .support import fault_config, turns


@dataclass
class _Searcher:
    daemon: DaemonProcess
    done: int = 0
    acked: list[str] = field(default_factory=list)
    errors: list[BaseException] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        try:
            with self.daemon.client() as client:
                i = 0
                while not self.stop.is_set():
                    client.search(
                        "quick brown fox", k=5, mode=("hybrid", "vector")[i % 2], everywhere=True
                    )
                    client.search(
                        "Question", kinds=["episode", "fact"], k=5, mode="text", everywhere=True
                    )
                    self.acked.append(client.append("bystander", "user", f"still here {i}").id)
                    self.done += 1
                    i += 1
        except BaseException as exc:  # reported by the test
            self.errors.append(exc)


def test_forgets_while_searching_never_fail_a_search(make_daemon, fake_llm: FakeLLM) -> None:
    daemon: DaemonProcess = make_daemon(config=fault_config(fake_llm))
    sessions = [f"gone-{n}" for n in range(4)]
    with daemon.client() as client:
        for session in sessions:
            turns(client, session, 3, prefix=f"{session} ")
            assert client.consolidate(session, wait=True) is not None
        poll(lambda: client.status().index.messages_behind == 0)
        searcher = _Searcher(daemon)
        thread = threading.Thread(target=searcher.run)
        thread.start()
        try:
            for session in sessions:
                before = searcher.done
                assert client.forget(session) == 6
                poll(lambda b=before: searcher.done > b + 2 or searcher.errors, what="searches")
        finally:
            searcher.stop.set()
            thread.join(timeout=60)
        assert not searcher.errors, f"a search or append failed during a forget: {searcher.errors}"
        for session in sessions:
            assert client.search(f"{session} Question", session=session, k=5).hits == []
        assert [m.id for m in whole_history(client, "bystander")] == searcher.acked
        assert client.status().forgets.finished == len(sessions)
    indexes = sorted(p.name for p in daemon.data_dir.iterdir() if p.name.startswith("index"))
    assert len(indexes) == 1, f"old index directories left behind: {indexes}"


def test_a_hand_edit_that_is_not_utf8_is_reported_and_healed(
    make_daemon, fake_llm: FakeLLM
) -> None:
    daemon: DaemonProcess = make_daemon(config=fault_config(fake_llm))
    scope = "session/s"
    with daemon.client() as client:
        turns(client, "s", 3)
        assert client.consolidate("s", wait=True) is not None
        path = daemon.data_dir / "memory" / encode_scope(scope) / "MEMORY.md"
        good = path.read_text()

        path.write_bytes(b"- caf\xe9 latte\n")  # Latin-1, not UTF-8

        problems = poll(lambda: client.status().memory.problems.get(scope), what="reported")
        assert "UTF-8" in problems[0]
        client.append("s", "user", "the daemon goes on")
        assert client.search("quick", k=1, everywhere=True)
        path.write_text(good)
        poll(lambda: scope not in client.status().memory.problems, what="healed")
        assert client.memory(scope).memory == good
        assert client.context("s").memory == prompt_view(good)  # the prompt: no source comments
    assert daemon.proc is not None and daemon.proc.poll() is None
