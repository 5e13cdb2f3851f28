"""The cluster seen from a daemon: ``status().cluster``, its metrics, ``reverie cluster``.

On the file engine there is no cluster: ``status`` and the metrics are as they
were, and ``reverie cluster`` says why it has nothing to show. On Postgres two
real daemons share one database (one ``store_env`` URL, two data dirs and
sockets); each shows both, the one killed with -9 is shown dead by the other,
and ``reverie cluster --store`` reads the same view without any daemon.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from reverie.daemon import Client
from tests.checks import accepts, free_port, poll, reverie_cli
from tests.daemon_process import DaemonProcess

pytestmark = pytest.mark.engines

#: A short TTL, so a daemon killed is dead to the others soon; no model, no index.
CONFIG = """
[cluster]
owner_ttl = 1.0

[consolidation]
idle_after = 3600.0

[index]
enabled = false
"""

MakeDaemon = Callable[..., DaemonProcess]


@pytest.fixture
def pair(
    daemon_engine: str, make_daemon: MakeDaemon, store_env: Callable[[str], dict[str, str]]
) -> tuple[DaemonProcess, DaemonProcess]:
    """Two daemons on the database of ``a``, each with its own data dir and socket."""
    if daemon_engine != "postgres":
        pytest.skip("a cluster is several daemons on one Postgres store")
    a = make_daemon(name="a", config=CONFIG)
    return a, make_daemon(name="b", config=CONFIG, env=store_env("a"))


def _health_page(daemon: DaemonProcess) -> str:
    """The inspector's health page for ``daemon`` (``reverie ui``, started and stopped)."""
    port, token = free_port(), "a-token-long-enough-0123"
    cmd = [sys.executable, "-m", "reverie.daemon", "ui", "--socket", str(daemon.socket)]
    env = {**os.environ, "REVERIE_UI_TOKEN": token}
    ui = subprocess.Popen(
        [*cmd, "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        poll(lambda: accepts(port) or ui.poll() is not None, 60, "reverie ui listening")
        headers = {"Authorization": f"Bearer {token}"}
        page = httpx.get(f"http://127.0.0.1:{port}/health", headers=headers, timeout=30)
        assert page.status_code == 200, page.text
        return page.text
    finally:
        ui.terminate()
        ui.wait(30)


def _member_of(client: Client) -> str:
    cluster = client.status().cluster
    assert cluster is not None
    return cluster.member


def test_the_file_engine_has_no_cluster(daemon_engine: str, make_daemon: MakeDaemon) -> None:
    if daemon_engine != "sqlite":
        pytest.skip("the file engine's behaviour")
    daemon = make_daemon(config=CONFIG)
    with daemon.client() as client:
        assert client.status().cluster is None
        metrics = client.metrics()
    assert "reverie_cluster" not in metrics
    assert "reverie_sessions{state=" in metrics  # the rest is rendered as before
    status = reverie_cli(daemon.socket, "status", check=True)
    assert not any(line.startswith("cluster") for line in status.stdout.splitlines())
    assert "cluster" not in json.loads(reverie_cli(daemon.socket, "status", "--json").stdout)
    refused = reverie_cli(daemon.socket, "cluster")
    assert refused.returncode == 2, refused.stderr
    assert refused.stderr.count("\n") == 1 and "postgresql" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_two_daemons_on_one_database_see_each_other(
    pair: tuple[DaemonProcess, DaemonProcess], store_env: Callable[[str], dict[str, str]]
) -> None:
    a, b = pair
    with a.client() as client_a, b.client() as client_b:
        client_a.append("cv:a", "user", "I keep my bike at the Porto station.")
        client_a.consolidate("cv:a", wait=True)
        ids = {_member_of(client_a), _member_of(client_b)}
        assert len(ids) == 2
        view = client_b.status().cluster
        assert view is not None and view.role == "daemon" and view.owner_ttl == 1.0
        assert {m.id for m in view.members} == ids
        assert all(m.alive and m.role == "daemon" for m in view.members)
        assert {m.serves for m in view.members} == {str(a.socket), str(b.socket)}
        # Jobs are every member's: the one made through a shows in b's status too.
        assert view.jobs.get("done", 0) >= 1 and view.jobs.get("running", 0) == 0
        metrics = client_b.metrics()
    assert 'reverie_cluster_members{role="daemon",state="alive"} 2' in metrics
    assert 'reverie_cluster_members{role="daemon",state="dead"} 0' in metrics
    assert "reverie_cluster_sessions_owned " in metrics
    assert 'reverie_cluster_jobs{state="running"} 0' in metrics

    line = next(
        s
        for s in reverie_cli(b.socket, "status", check=True).stdout.splitlines()
        if s.startswith("cluster")
    )
    assert view.member in line and "2 members (2 alive" in line
    table = reverie_cli(b.socket, "cluster", check=True).stdout.splitlines()
    assert table[0].startswith("cluster   2 members (2 alive, owner_ttl 1s), jobs [")
    assert table[1].split()[:3] == ["MEMBER", "ROLE", "STATE"]
    assert sorted(row.split()[0] for row in table[2:]) == sorted(
        [view.member + "*", *(ids - {view.member})]
    )
    as_json = json.loads(reverie_cli(a.socket, "cluster", "--json", check=True).stdout)
    assert {m["id"] for m in as_json["members"]} == ids and as_json["role"] == "daemon"

    page = _health_page(b)
    assert f"this daemon is {view.member}" in page
    assert f"{view.member} on {b.socket}: alive" in page
    assert page.count("sessions owned") == 2

    # Straight from the database, with no daemon asked: the same members, no asker.
    url = store_env("a")["REVERIE_STORE__URL"]
    raw = reverie_cli(a.root / "none.sock", "cluster", "--store", url, "--json", check=True)
    read = json.loads(raw.stdout)
    assert {m["id"] for m in read["members"]} == ids
    assert read["member"] == "" and read["role"] == ""
    assert read["jobs"] == dict(sorted(view.jobs.items()))


def _owned(client: Client) -> dict[str, int]:
    cluster = client.status().cluster
    assert cluster is not None
    return {m.id: m.sessions for m in cluster.members}


def test_sessions_owned_follow_the_daemon_that_wrote_them_last(
    pair: tuple[DaemonProcess, DaemonProcess],
) -> None:
    a, b = pair
    with a.client() as client_a, b.client() as client_b:
        id_a, id_b = _member_of(client_a), _member_of(client_b)
        client_a.append("own:1", "user", "first through a")
        client_a.append("own:2", "user", "second through a")
        assert _owned(client_b) == {id_a: 2, id_b: 0}
        assert "reverie_cluster_sessions_owned 2\n" in client_a.metrics()
        client_b.append("own:1", "user", "then through b, which takes it over")
        assert _owned(client_a) == {id_a: 1, id_b: 1}
        assert "reverie_cluster_sessions_owned 1\n" in client_b.metrics()


def test_a_daemon_killed_is_shown_dead_by_the_other(
    pair: tuple[DaemonProcess, DaemonProcess],
) -> None:
    a, b = pair
    with b.client() as client:
        killed = _member_of(client)
        client.append("kill:1", "user", "owned by the daemon about to die")
        assert _owned(client)[killed] == 1
    b.kill9()
    with a.client() as client:

        def dead_and_freed() -> bool:
            view = client.status().cluster
            assert view is not None
            return any(m.id == killed and not m.alive and not m.sessions for m in view.members)

        # Shown dead at once (its connection is gone), its session freed by a's next beat.
        poll(dead_and_freed, 30, "the killed daemon shown dead, its session freed")
        metrics = client.metrics()
    assert 'reverie_cluster_members{role="daemon",state="alive"} 1' in metrics
    assert 'reverie_cluster_members{role="daemon",state="dead"} 1' in metrics
    table = reverie_cli(a.socket, "cluster", check=True).stdout
    assert "1 alive" in table
    assert next(r for r in table.splitlines() if r.startswith(killed)).split()[2] == "dead"


def test_cluster_store_unreachable_is_one_line_and_exit_2(tmp_path: Path) -> None:
    url = f"postgresql://nobody:secret@127.0.0.1:{free_port()}/reverie"
    out = reverie_cli(tmp_path / "none.sock", "cluster", "--store", url)
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and "store." in out.stderr
    assert "secret" not in out.stderr and "Traceback" not in out.stderr
