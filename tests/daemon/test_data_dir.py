"""The daemon writes under its data dir only: nothing in the temp dir."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.daemon_process import DaemonProcess


def test_tiktoken_cache_lives_in_the_data_dir(
    make_daemon: Callable[..., DaemonProcess], tmp_path: Path
) -> None:
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    if "TIKTOKEN_CACHE_DIR" in os.environ:
        pytest.skip("TIKTOKEN_CACHE_DIR is set for this run; the daemon keeps an explicit choice")
    daemon = make_daemon(env={"TMPDIR": str(tmp)})
    with daemon.client() as client:
        client.append("s", "user", "count my tokens")
    assert list(tmp.iterdir()) == []
    assert any((daemon.data_dir / "cache" / "tiktoken").iterdir())
