"""Forget is complete: after it, no file under the data dir holds a forgotten string."""

from __future__ import annotations

import random
import sqlite3
import threading
import uuid

import apsw
import pytest

from reverie.config import NotFound
from reverie.daemon import Client, ConnectionLost
from reverie.daemon import protocol as p
from reverie.store.base.journal import _COMPACTION_DUE
from reverie.store.files.index_tables import Keys
from tests.checks import poll
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, extractive_config
from tests.inprocess import InProcessDaemon

from .forget_checks import everywhere, holders, say_secret

pytestmark = [pytest.mark.engines, pytest.mark.in_process]


def test_forget_own_scope_leaves_no_byte_behind(make_daemon, fake_llm: FakeLLM) -> None:
    daemon: InProcessDaemon = make_daemon(config=extractive_config(fake_llm))
    with daemon.client() as client:
        secret = say_secret(client, "bob")
        client.append("other", "user", "Unrelated things about the weather today.")
        everywhere(daemon, client, "bob", secret)

        assert client.forget("bob") == 2

        assert holders(daemon, secret) == []
        assert client.search(secret, mode="text", everywhere=True).hits == []
        assert [m.content for m in client.history("other")]  # others untouched


def test_a_forget_made_while_the_index_is_off_does_not_come_back(
    make_daemon, fake_llm: FakeLLM
) -> None:
    daemon: InProcessDaemon = make_daemon(config=extractive_config(fake_llm))
    with daemon.client() as client:
        secret = say_secret(client, "dave")
        client.append("other", "user", "Unrelated things about the weather in Braga.")
        everywhere(daemon, client, "dave", secret)
    daemon.env["REVERIE_INDEX__ENABLED"] = "false"
    daemon.restart()
    with daemon.client() as client:
        assert client.forget("dave") == 2
    assert holders(daemon, secret) == []  # the index files too, though it was off
    del daemon.env["REVERIE_INDEX__ENABLED"]
    daemon.restart()
    with daemon.client() as client:
        poll(
            lambda: (
                client.status().index.settled
                and client.search("Braga", mode="text", everywhere=True).hits
            ),
            what="the index rebuilt from what is left",
        )
        assert client.search(secret, mode="text", everywhere=True).hits == []
        assert client.history("dave") == []
    assert holders(daemon, secret) == []


def test_forget_takes_the_working_memory_of_the_sessions_own_scope(daemon: InProcessDaemon) -> None:
    own, other = "session/erin", "user/erin"
    with daemon.client() as client:
        client.append("erin", "user", "hello")
        for scope in (own, other):
            client.wm_set(scope, "pin", "4711")
            client.task_set(scope, "t", "find the PIN", "running", 1, 2)
            client.scratch_append(scope, "PIN is 4711")
            client.checkpoint_create(scope, label="before")
        client.wm_set("session/never-appended", "k", 1)

        client.forget("erin")
        client.forget("never-appended")

        assert client.wm_list(own) == [] and client.checkpoint_list(own) == []
        assert client.scratch_get(own) == []
        with pytest.raises(NotFound):
            client.task_get(own)
        assert client.wm_list("session/never-appended") == []
        assert [k.key for k in client.wm_list(other)] == ["pin"]  # another scope is not its own
        assert len(client.checkpoint_list(other)) == 1


def test_forget_in_a_shared_scope_keeps_what_others_support(make_daemon, fake_llm) -> None:
    daemon: InProcessDaemon = make_daemon(config=extractive_config(fake_llm))
    shared = "I always drink green tea at Porto station every morning."
    with daemon.client() as client:
        secret = say_secret(client, "carl-a", scope="user/carl")
        client.append("carl-a", "user", shared)
        client.append("carl-b", "user", shared, scope="user/carl")
        client.append("carl-b", "assistant", "Lovely.")
        assert client.consolidate("carl-b", wait=True) is not None
        everywhere(daemon, client, "carl-a", secret)

        client.forget("carl-a")

        assert holders(daemon, secret) == []
        view = client.memory("user/carl")
        assert "green tea" in view.memory, "a fact another session supports went"
        assert "carl-a" not in view.memory and "carl-b" in view.memory
        assert {e.session for e in view.entries} == {"carl-b"}
        facts = client.search("locker code", kinds=["fact"], scope="user/carl")
        assert not any(secret in h.text for h in facts)


def test_kill_9_during_forget_is_finished_at_restart(
    make_daemon_process, fake_llm, tmp_path
) -> None:
    hold = tmp_path / "hold-forget"
    env = {"REVERIE_TEST_HOLD_FORGET": str(hold)}
    daemon: DaemonProcess = make_daemon_process(config=extractive_config(fake_llm), env=env)
    with daemon.client() as client:
        secret = say_secret(client, "dave", scope="user/dave")
        everywhere(daemon, client, "dave", secret)
    hold.touch()
    errors: list[BaseException] = []

    def forget() -> None:
        try:
            with Client(daemon.socket, timeout=60) as c:
                c.forget("dave")
        except (ConnectionLost, OSError) as exc:
            errors.append(exc)

    thread = threading.Thread(target=forget)
    thread.start()
    poll(hold.with_suffix(".reached").exists, what="the forget paused mid-way")
    daemon.kill9()
    thread.join(timeout=30)
    hold.unlink()

    daemon.start()
    with daemon.client() as client:
        poll(lambda: client.status().forgets == p.ForgetStatus(running=0, pending=0, finished=1))
        assert client.history("dave") == []
        assert client.memory("user/dave").entries == []
    assert holders(daemon, secret) == []


def test_forget_one_fact(make_daemon, fake_llm: FakeLLM) -> None:
    daemon: InProcessDaemon = make_daemon(config=extractive_config(fake_llm))
    with daemon.client() as client:
        secret = say_secret(client, "erin")
        client.append("erin", "user", "I always drink green tea at Porto station every morning.")
        assert client.consolidate("erin", wait=True) is not None
        fact = next(
            line for line in client.memory("session/erin").memory.splitlines() if secret in line
        )
        text = fact.split("] ", 1)[1].split(" <!--")[0]

        assert client.memory_forget_fact("session/erin", text) >= 2

        view = client.memory("session/erin")
        assert secret not in view.memory and "green tea" in view.memory
        assert not any(secret in f for e in view.entries for f in e.facts)
        facts = client.search("locker code", kinds=["fact"], everywhere=True)
        assert not any(secret in h.text for h in facts)
        assert client.memory_forget_fact("session/erin", text) == 0


@pytest.mark.parametrize("bad", ["", "   ", "!!!"])
def test_forget_fact_without_words_is_invalid(daemon: InProcessDaemon, bad: str) -> None:
    with daemon.client() as client, pytest.raises(Exception) as caught:
        client.memory_forget_fact("session/x", bad)
    assert getattr(caught.value, "code", "") == "invalid_argument"


def test_a_facts_history_outlives_its_supersession(make_daemon, fake_llm: FakeLLM) -> None:
    daemon: InProcessDaemon = make_daemon(config=extractive_config(fake_llm))
    with daemon.client() as client:
        client.append("carl", "user", "I live in Porto and I work at Acme.", name="Carl")
        first = client.consolidate("carl", wait=True)
        (home,) = [f for f in client.facts("session/carl") if "Porto" in f.text]
        client.append("carl", "user", "I moved to Lisbon in March.", name="Carl")
        second = client.consolidate("carl", wait=True)
        texts = [f.text for f in client.facts("session/carl")]
        assert "Carl lives in Porto." not in texts and "Carl moved to Lisbon in March." in texts
        history = client.fact_history("session/carl", home.id)  # the superseded fact's id
        # Recorded by the first entry, retired by the second (issue 47: "until" that day).
        assert [e.id for e in history] == [first.entry, second.entry]
        assert history[0].until == "" and history[1].until != ""
        assert history[1].retired == ["Carl lives in Porto."]
        assert client.fact_history("session/carl", "00000000") == []


@pytest.mark.parametrize("name", ["д" * 60, "会" * 200], ids=["cyrillic-60", "cjk-200"])
def test_a_long_non_ascii_session_lives_and_is_forgotten(make_daemon, fake_llm, name) -> None:
    """Its default scope's name is cut to fit a file name, the same for every step."""
    daemon: InProcessDaemon = make_daemon(config=extractive_config(fake_llm))
    with daemon.client() as client:
        secret = say_secret(client, name)
        assert len(client.history(name)) == 2
        assert len(client.context(name).messages) == 2
        everywhere(daemon, client, name, secret)
        assert secret in client.context(name).memory

        assert client.forget(name) == 2

        assert client.history(name) == []
        assert client.search(secret, mode="text", everywhere=True).hits == []
    assert holders(daemon, secret) == []
    assert holders(daemon, name) == []


def test_forget_leaves_no_byte_of_the_sessions_working_memory(daemon: InProcessDaemon) -> None:
    own, other = "session/wm-a", "session/wm-b"
    secret = f"Zq{uuid.uuid4().hex[:12]}x"
    with daemon.client() as client:
        client.append("wm-a", "user", "hello")
        client.wm_set(own, "door", secret)
        client.task_set(own, "t1", f"open the door with {secret}")
        client.scratch_append(own, f"tried {secret}")
        client.checkpoint_create(own, label="before")
        client.wm_set(other, "door", "kept")

        client.forget("wm-a")

        assert client.wm_list(own) == []
        with pytest.raises(NotFound):
            client.task_get(own)
        assert client.scratch_get(own) == []
        assert client.checkpoint_list(own) == []
        assert client.wm_get(other, "door").value == "kept"
    assert holders(daemon, secret) == []


@pytest.mark.files
def test_a_reader_holding_the_wal_leaves_the_truncation_pending_not_the_writer_stalled(
    daemon_process: DaemonProcess,
) -> None:
    # A process of its own: SQLite's POSIX locks do not keep a reader in the daemon's own
    # process from the checkpoint that truncates the WAL.
    daemon = daemon_process
    secret = f"Zq{uuid.uuid4().hex[:12]}x"
    with daemon.client() as client:
        client.append("r", "user", f"my code is {secret}")
        reader = sqlite3.connect(daemon.data_dir / "reverie.sqlite3", isolation_level=None)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM messages").fetchall()  # a snapshot on the WAL
        try:
            with Client(daemon.socket, timeout=20) as quick:  # the writer would wait 30 s
                assert quick.forget("r") == 1
                assert quick.status().forgets.checkpoint_pending
                quick.append("after", "user", "the writer is free")
        finally:
            reader.close()

        poll(lambda: not client.status().forgets.checkpoint_pending, what="the WAL truncated")
        assert holders(daemon, secret) == []


def _left_in_a_gap(client: Client) -> str:
    """A session of two messages whose index entry SQLite also copied into a page's free
    gap, where it stays after a delete: the session's name.

    When SQLite splits or rebalances a b-tree page it rewrites the page's cells and
    leaves the bytes where cells were in the gap, out of ``secure_delete``'s reach.
    These ids (seeded) make it do so with the session's entry.
    """
    rng = random.Random(11)
    name = f"bob-{rng.getrandbits(40):010x}"

    def turns(session: str, n: int) -> list[dict[str, str]]:
        return [
            {"role": "user", "content": f"{session} line {i}", "id": f"{rng.getrandbits(128):032x}"}
            for i in range(n)
        ]

    client.append_many("early", turns("early", 1100))
    client.append_many(name, turns(name, 2))
    client.append_many("late", turns("late", 1100))
    return name


@pytest.mark.files
def test_a_forget_leaves_no_copy_that_sqlite_left_when_it_rebuilt_a_page(
    daemon: InProcessDaemon,
) -> None:
    with daemon.client() as client:
        name = _left_in_a_gap(client)

        assert client.forget(name) == 2

        assert holders(daemon, name) == []
        assert [m.content for m in client.history("late", after_seq=1099)] == ["late line 1099"]


@pytest.mark.files
def test_a_compaction_a_stop_left_due_is_made_at_the_next_start(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        name = _left_in_a_gap(client)
    daemon.stop()
    # Where a stop between a forget's last commit and its compaction leaves the file.
    db = apsw.Connection(str(daemon.data_dir / "reverie.sqlite3"))
    db.execute("PRAGMA secure_delete=ON")
    with db:
        db.execute("DELETE FROM messages WHERE session = ?", (name,))
        db.execute("DELETE FROM sessions WHERE name = ?", (name,))
        db.execute("INSERT INTO meta (key, value) VALUES (?, 1)", (_COMPACTION_DUE,))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    assert holders(daemon, name) != []  # the copy in the gap

    daemon.start()
    poll(lambda: holders(daemon, name) == [], what="the file compacted at start")
    with daemon.client() as client:
        assert client.history(name) == []
        assert [m.content for m in client.history("early", after_seq=1099)] == ["early line 1099"]


def test_forget_of_the_newest_messages_leaves_the_index_cursor_at_the_log_end(
    daemon: InProcessDaemon,
) -> None:
    with daemon.client() as client:
        client.append("kept", "user", "an older message")
        client.append("newest", "user", "the newest message, forgotten")
        poll(lambda: client.status().index.settled, what="indexed")

        client.forget("newest")
        poll(lambda: client.status().index.settled, what="settled after the forget")
        assert client.status().index.messages_behind == 0

        client.append("later", "user", "a saxophone arrives after the forget")
        poll(lambda: client.status().index.settled, what="the new message indexed")
        hits = client.search("saxophone", mode="vector", kinds=["message"], everywhere=True).hits
        assert any("saxophone" in h.text for h in hits)


@pytest.mark.files
def test_a_forget_in_one_generation_of_the_index_leaves_no_byte_and_keeps_the_others(
    make_daemon, fake_llm: FakeLLM
) -> None:
    config = extractive_config(fake_llm) + "\n[index]\ngeneration_rows = 1024\n"
    daemon: InProcessDaemon = make_daemon(config=config)
    name = f"bob-{uuid.uuid4().hex[:10]}"
    with daemon.client() as client:

        def filler(session: str) -> None:
            turns = [{"role": "user", "content": f"{session} note {i}"} for i in range(1100)]
            client.append_many(session, turns)

        filler("early")  # the home table's messages: it is sealed at 1,024 rows
        secret = say_secret(client, name)  # in the second generation
        filler("late")  # the rest of the second, and a third
        everywhere(daemon, client, name, secret)
        poll(lambda: client.status().index.tables == 3, what="three tables")

        assert client.forget(name) == 2

        assert holders(daemon, secret) == []
        assert holders(daemon, name) == []
        assert client.status().index.tables == 3
        # Nor the hash of its name in the sealed tables' saved keys (index_tables).
        saved = [Keys.load(f) for f in daemon.data_dir.rglob("*.keys.npz")]
        assert len(saved) == 2
        assert all(k is not None and not k.may_hold(session=name) for k in saved)
        assert any(k is not None and k.may_hold(session="late") for k in saved)
        for session in ("early", "late"):
            hits = client.search(f"{session} note 1000", session=session, mode="vector", k=3)
            assert hits and {h.session for h in hits} == {session}
