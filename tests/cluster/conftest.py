"""Fixtures of the cluster tests: ``reverie worker`` processes on the test's database."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .worker_process import WorkerProcess


@pytest.fixture
def make_worker(tmp_path: Path, pg_url: str) -> Iterator[Callable[[str, str], WorkerProcess]]:
    started: list[WorkerProcess] = []

    def make(name: str, config: str) -> WorkerProcess:
        worker = WorkerProcess(tmp_path / name, pg_url, config)
        started.append(worker)
        return worker.start()

    yield make
    for worker in started:
        worker.stop()
