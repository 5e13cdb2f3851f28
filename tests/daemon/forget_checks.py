"""Checks the forget tests share: a secret said, spread to every kind of file, and looked for."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from pathlib import Path

import apsw
import psycopg
from psycopg import sql

from reverie.daemon import Client
from tests.checks import poll
from tests.daemon_process import DaemonProcess
from tests.inprocess import InProcessDaemon


def holders(daemon: DaemonProcess | InProcessDaemon, needle: str) -> list[str]:
    """Every file of the daemon's data dir whose bytes contain ``needle`` (binary-safe),
    and on the Postgres engine every table with a row whose text does (``table:<name>``).

    A running daemon is first let finish a forget's scrub that a reader put off.
    """
    _scrubbed(daemon)
    root, raw = daemon.data_dir, needle.encode()
    found = []
    for path in sorted(root.rglob("*")):
        try:
            if path.is_file() and raw in (data := path.read_bytes()):
                where = str(path.relative_to(root))
                if path.suffix == ".sqlite3":
                    where += f" ({_pages_holding(path, data, raw)})"
                found.append(where)
        except FileNotFoundError:  # a temp file that went while we walked
            continue
    url = daemon.env.get("REVERIE_STORE__URL")
    if url:
        found += [f"table:{name}" for name in tables_holding(url, needle)]
    return found


def _pages_holding(path: Path, data: bytes, raw: bytes) -> str:
    """Which b-trees of the SQLite file ``path`` have a page whose bytes hold ``raw``,
    and whether a live row does: a failure says whether a row was left or written back,
    or deleted bytes stayed in a page (read from a copy, so the daemon is not held)."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / path.name
        shutil.copy(path, copy)
        conn = apsw.Connection(str(copy), flags=apsw.SQLITE_OPEN_READONLY)
        try:
            size = int(conn.execute("PRAGMA page_size").get)
            pages = {at // size + 1 for at in _offsets(data, raw)}
            trees = sorted(
                f"{name}:{kind}:{page}"
                for page in pages
                for name, kind in conn.execute(
                    "SELECT name, pagetype FROM dbstat WHERE pageno = ?", (page,)
                )
            )
            tables = [
                t for (t,) in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")
            ]
            live = [t for t in tables if _row_holds(conn, t, raw.decode())]
        finally:
            conn.close()
    return f"pages {trees or sorted(pages)}, live rows in {live}"


def _offsets(data: bytes, raw: bytes) -> list[int]:
    found, at = [], data.find(raw)
    while at >= 0:
        found.append(at)
        at = data.find(raw, at + 1)
    return found


def _row_holds(conn: apsw.Connection, table: str, needle: str) -> bool:
    columns = [row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')]
    for column in columns:
        try:
            query = f'SELECT 1 FROM "{table}" WHERE CAST("{column}" AS TEXT) LIKE ? LIMIT 1'
            if conn.execute(query, (f"%{needle}%",)).fetchone():
                return True
        except apsw.Error:  # a virtual table that cannot be scanned by a column
            continue
    return False


def _scrubbed(daemon: DaemonProcess | InProcessDaemon) -> None:
    """Wait for a running daemon's pending scrub (``status().forgets.checkpoint_pending``).

    A forget answers once its rows are deleted with ``secure_delete`` on; if
    a reader's snapshot kept the WAL busy, the truncation that takes the old
    pages out of the files is retried in the background, as documented. Until
    then a partial checkpoint can leave the database file with a page of
    the forget's own transaction (its job, which names the session).
    """
    if not daemon.running():
        return
    with daemon.client() as client:
        poll(lambda: not client.status().forgets.checkpoint_pending, what="the forget's scrub")


def tables_holding(url: str, needle: str) -> list[str]:
    """The tables of the database at ``url`` with a row whose text holds ``needle``."""
    with psycopg.connect(url, autocommit=True) as conn:
        names = [
            name
            for (name,) in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
            )
        ]
        return [
            name
            for name in names
            if conn.execute(
                sql.SQL("SELECT 1 FROM {} t WHERE t::text LIKE %s LIMIT 1").format(
                    sql.Identifier(name)
                ),
                (f"%{needle}%",),
            ).fetchone()
        ]


def say_secret(client: Client, session: str, scope: str | None = None) -> str:
    """A user statement the extractive path keeps as a fact, with a unique token in it."""
    secret = f"Zq{uuid.uuid4().hex[:12]}x"
    client.append(session, "user", f"My locker code is {secret} and I live in Porto.", scope=scope)
    client.append(session, "assistant", "Noted, I will remember that.")
    return secret


def everywhere(
    daemon: DaemonProcess | InProcessDaemon, client: Client, session: str, secret: str
) -> None:
    """Consolidated into Markdown and indexed: the secret is in every kind of file."""
    assert client.consolidate(session, wait=True) is not None
    poll(
        lambda: (
            client.status().index.settled
            and any(
                secret in h.text
                for h in client.search(secret, kinds=["episode", "fact"], everywhere=True)
            )
        ),
        what="the secret indexed and the index settled",
    )
    held = holders(daemon, secret)
    if "REVERIE_STORE__URL" in daemon.env:  # every durable state in the database
        assert {"table:memory_versions", "table:index_docs"} <= set(held), held
        return
    assert any(p.startswith("memory/") for p in held), held
    assert any(p.startswith("index") for p in held), held
