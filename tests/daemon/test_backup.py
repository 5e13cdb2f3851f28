"""``reverie backup`` while 64 clients append: the copy starts as a daemon holding every acked message."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from reverie.config import InvalidArgument, ReverieError
from reverie.daemon import Client
from tests.checks import assert_each_id_once, poll, whole_history
from tests.daemon_process import DaemonProcess
from tests.inprocess import InProcessDaemon
from tests.postgres import PgServer

CLIENTS = 64
SESSIONS = [f"load:{i}" for i in range(8)]
CONSOLIDATING = (
    "[consolidation]\nidle_after = 0.3\nbudget_tokens = 60\ntarget_tokens = 20\n"
    "hard_tokens = 300\nmax_delay = 0.5\nretry_base = 0.05\n"
)
STILL = "[consolidation]\nidle_after = 3600.0\nhard_tokens = 100000\n"


def _appender(
    socket: Path, n: int, stop: threading.Event, acked: list[tuple[str, str]], lock: threading.Lock
) -> None:
    session = SESSIONS[n % len(SESSIONS)]
    with Client(socket) as client:
        i = 0
        while not stop.is_set():
            mid = f"c{n}-{i}"
            try:
                client.append(
                    session, "user", f"client {n} says the river is high, note {i}", id=mid
                )
            except ReverieError:  # busy under load: not acked, so not owed
                continue
            with lock:
                acked.append((session, mid))
            i += 1


def _all_ids(client: Client, session: str) -> Counter[str]:
    return Counter(m.id for m in whole_history(client, session))


def test_backup_under_64_appenders_restores_every_acked_message(
    make_daemon: Callable[..., DaemonProcess], tmp_path: Path
) -> None:
    daemon = make_daemon(config=CONSOLIDATING)
    stop, lock = threading.Event(), threading.Lock()
    acked: list[tuple[str, str]] = []
    threads = [
        threading.Thread(target=_appender, args=(daemon.socket, n, stop, acked, lock))
        for n in range(CLIENTS)
    ]
    for t in threads:
        t.start()
    try:
        with daemon.client() as client:
            poll(lambda: len(acked) >= 2000, timeout=120, what="2000 acked appends")
            poll(
                lambda: client.status().consolidation["default"].jobs.get("done", 0) >= 2,
                timeout=120,
                what="consolidations during the load",
            )
            with lock:
                before = list(acked)
            dest = tmp_path / "restored" / "data"
            dest.parent.mkdir()
            env = {**os.environ, "REVERIE_SOCKET": str(daemon.socket)}
            out = subprocess.run(
                [sys.executable, "-m", "reverie.daemon", "backup", str(dest)],
                capture_output=True,
                text=True,
                env=env,
                timeout=300,
            )
            assert out.returncode == 0, out.stderr
            assert f"serve --data-dir {dest}" in out.stdout
            with lock:
                assert len(acked) > len(before), "the clients kept appending during the backup"
    finally:
        stop.set()
        for t in threads:
            t.join(60)

    assert (dest / "reverie.sqlite3").is_file()
    assert any((dest / "memory").rglob("*.md")), "the Markdown tree was copied"
    restored = DaemonProcess(tmp_path / "restored", config=STILL).start()
    try:
        with restored.client() as client:
            poll(
                lambda: client.status().consolidation["default"].running == 0,
                timeout=60,
                what="recovered jobs finished",
            )
            for session in SESSIONS:
                owed = [mid for s, mid in before if s == session]
                ids = _all_ids(client, session)
                missing = [mid for mid in owed if ids[mid] != 1]
                assert not missing, f"{session}: {len(missing)} acked messages not restored"
                assert_each_id_once(client, session, f"session/{session}", owed)
            # the index was not copied: the restored daemon rebuilds it from the log
            poll(
                lambda: client.status().index.messages_behind == 0,
                timeout=120,
                what="the index rebuilt",
            )
            hits = client.search("river", session=SESSIONS[0], mode="vector").hits
            assert hits and all(h.session == SESSIONS[0] for h in hits)
    finally:
        restored.stop()


def test_backup_into_a_non_empty_directory_is_refused(
    daemon: DaemonProcess, tmp_path: Path
) -> None:
    with daemon.client() as client:
        client.append("s", "user", "hi")
        (tmp_path / "full").mkdir()
        (tmp_path / "full" / "x").write_text("keep me")
        env = {**os.environ, "REVERIE_SOCKET": str(daemon.socket)}
        out = subprocess.run(
            [sys.executable, "-m", "reverie.daemon", "backup", str(tmp_path / "full")],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert out.returncode == 1
        assert out.stderr.startswith("reverie: invalid_argument: ") and "not empty" in out.stderr
        assert (tmp_path / "full" / "x").read_text() == "keep me"
        view = client.backup(tmp_path / "ok")
        assert view.messages == 1 and Path(view.path) == tmp_path / "ok"
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "no temp dir left"


def test_backup_inside_the_data_dir_is_refused_in_one_line(daemon: DaemonProcess) -> None:
    with daemon.client() as client:
        client.append("s", "user", "hi")
        assert client.consolidate("s", wait=True) is not None  # a memory tree to copy
        for inside in (daemon.data_dir / "memory" / "copy", daemon.data_dir / "backup"):
            with pytest.raises(InvalidArgument, match="inside the data dir") as refused:
                client.backup(inside)
            assert len(refused.value.message) < 300
            assert not inside.exists()


def test_a_postgresql_store_refuses_backup_and_names_its_own_tools(
    pg_server: PgServer, tmp_path: Path
) -> None:
    """``Store.features.backs_up_data_dir`` is the file engine's: a database server is
    backed up by its own tools, and nothing is written to ``dest``."""
    database = pg_server.create_database()
    (tmp_path / "d").mkdir()
    daemon = InProcessDaemon(tmp_path / "d", env={"REVERIE_STORE__URL": pg_server.url(database)})
    daemon.start()
    try:
        with Client(daemon.socket) as client, pytest.raises(InvalidArgument, match="pg_dump"):
            client.backup(tmp_path / "copy")
        assert not (tmp_path / "copy").exists()
    finally:
        daemon.stop()
        pg_server.drop_database(database)
