"""SIGHUP reloads the live configuration keys; a bad file keeps the old configuration."""

from __future__ import annotations

import os
import signal

import pytest

from tests.checks import hup_and_wait, poll
from tests.daemon_process import DaemonProcess


def test_sighup_reloads_log_level_and_limits(make_daemon) -> None:
    daemon: DaemonProcess = make_daemon(config="[daemon]\nlog_level = 'info'\nmax_in_flight = 64\n")
    with daemon.client() as client:
        before = client.status()
    assert before.log_level == "info"
    assert before.config_reloads == 0
    assert daemon.config_path is not None
    daemon.config_path.write_text(
        "[daemon]\nlog_level = 'debug'\nmax_in_flight = 8\nallowed_uids = [4242]\n"
        "[consolidation]\nidle_after = 5.0\n"
    )
    status = hup_and_wait(daemon, 1)
    assert status.log_level == "debug"
    log = daemon.log()
    line = next(line for line in log.splitlines() if "config reloaded; changed:" in line)
    for key in (
        "daemon.log_level",
        "daemon.max_in_flight",
        "daemon.allowed_uids",
        "consolidation.idle_after",
    ):
        assert key in line
    assert daemon.proc is not None and daemon.proc.poll() is None


def test_sighup_with_a_broken_file_keeps_the_old_config(make_daemon) -> None:
    daemon: DaemonProcess = make_daemon(config="[daemon]\nlog_level = 'warning'\n")
    assert daemon.config_path is not None
    daemon.config_path.write_text("[daemon]\nlog_level = 'debug'\nno_such_key = 1\n")
    assert daemon.proc is not None
    daemon.proc.send_signal(signal.SIGHUP)
    poll(lambda: "config reload failed" in daemon.log())
    with daemon.client() as client:
        status = client.status()
    assert status.log_level == "warning"
    assert status.config_reloads == 0
    daemon.config_path.write_text("[daemon]\nlog_level = 'error'\n")
    assert hup_and_wait(daemon, 1).log_level == "error"


def test_sighup_warns_about_keys_that_need_a_restart(make_daemon) -> None:
    daemon: DaemonProcess = make_daemon(config="[store]\nmax_batch = 100\n")
    assert daemon.config_path is not None
    daemon.config_path.write_text("[store]\nmax_batch = 200\n")
    hup_and_wait(daemon, 1)
    poll(lambda: "store.max_batch" in daemon.log())


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to connect as another uid")
def test_sighup_adds_an_allowed_uid(make_daemon) -> None:
    daemon: DaemonProcess = make_daemon(
        config="[daemon]\nsocket_mode = 0o666\nallowed_gids = [4242]\n"
    )
    assert daemon.status_as_nobody() == "refused unauthorized"
    assert daemon.config_path is not None
    daemon.config_path.write_text(
        "[daemon]\nsocket_mode = 0o666\nallowed_gids = [4242]\nallowed_uids = [65534]\n"
    )
    hup_and_wait(daemon, 1)
    assert daemon.status_as_nobody() == "allowed"


def test_sighup_lowers_the_consolidation_budget(make_daemon) -> None:
    config = "[consolidation]\nidle_after = 0.2\nbudget_tokens = {budget}\ntarget_tokens = 20\n"
    daemon: DaemonProcess = make_daemon(config=config.format(budget=1_000_000))
    words = " ".join(["the quick brown fox jumps over the lazy dog"] * 3)
    with daemon.client() as client:
        for i in range(6):
            client.append("r:budget", "user", f"{i} {words}")
    assert daemon.config_path is not None
    daemon.config_path.write_text(config.format(budget=60))
    hup_and_wait(daemon, 1)
    with daemon.client() as client:
        client.append("r:budget", "user", "one more turn")  # the next decision uses the new budget
        jobs = poll(lambda: client.status().consolidation["default"].jobs.get("done"))
        assert jobs >= 1
        assert client.context("r:budget").tokens < 200
