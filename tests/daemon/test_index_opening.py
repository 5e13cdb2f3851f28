"""A default daemon serves before its search index has opened (docs/design.md, "Start-up").

LanceDB is imported on a worker thread after the socket is served. These
tests hold that import at a gate the test opens (a ``sitecustomize`` on the
daemon's ``PYTHONPATH`` that waits on a file before ``pyarrow.lib`` loads,
the first thing LanceDB's import loads, with ``pyarrow`` itself half
imported), so the window in which the index is not open yet lasts as long
as the test needs, on any machine: appends are acknowledged in it,
``status`` answers and says the index is not ready and not settled, a
search waits for the index instead of answering from none, and past
``index.open_wait`` it answers ``busy``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from reverie import Busy
from reverie.daemon import protocol as p
from reverie.daemon.protocol.search import Search, SearchReply
from tests.checks import index_open, poll
from tests.daemon_process import DaemonProcess
from tests.protocol_fuzz import raw

#: Loaded by the daemon's interpreter at start (it is first on ``PYTHONPATH``): the first
#: ``import pyarrow.lib`` waits until the file ``REVERIE_TEST_ARROW_GATE`` names exists,
#: after touching ``<gate>.reached``; a bound keeps a forgotten gate from hanging a run.
GATE_SITECUSTOMIZE = """\
import importlib.abc, os, sys, time

class _Gate(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "pyarrow.lib":
            sys.meta_path.remove(self)
            gate = os.environ["REVERIE_TEST_ARROW_GATE"]
            open(gate + ".reached", "w").close()
            deadline = time.monotonic() + 300
            while not os.path.exists(gate) and time.monotonic() < deadline:
                time.sleep(0.02)
        return None

sys.meta_path.insert(0, _Gate())
"""


class GatedDaemon:
    """A daemon process whose LanceDB import waits (at Arrow's) until ``open`` is called."""

    def __init__(self, root: Path, config: str | None = None) -> None:
        site = root / "site"
        site.mkdir(parents=True)
        (site / "sitecustomize.py").write_text(GATE_SITECUSTOMIZE)
        self.gate = root / "arrow.gate"
        path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
        env = {"PYTHONPATH": path, "REVERIE_TEST_ARROW_GATE": str(self.gate)}
        self.daemon = DaemonProcess(root, env=env, config=config)

    def start(self) -> DaemonProcess:
        self.daemon.start()
        # The index's open has reached LanceDB's import, and waits there.
        poll(lambda: Path(f"{self.gate}.reached").exists(), 120, "the import of pyarrow.lib")
        return self.daemon

    def open(self) -> None:
        self.gate.touch()


@pytest.fixture
def gated() -> Iterator[list[GatedDaemon]]:
    """The gated daemons a test starts; each gate opened and its daemon stopped after."""
    made: list[GatedDaemon] = []
    yield made
    for each in made:
        each.open()
        each.daemon.stop()


def _not_open(status: p.DaemonStatus) -> bool:
    index = status.index
    return index.enabled and not index.ready and not index.settled


def test_appends_are_acked_and_a_search_waits_while_the_index_opens(
    tmp_path: Path, gated: list[GatedDaemon]
) -> None:
    # A bound far past the rest of the import's time, even on a loaded machine.
    gate = GatedDaemon(tmp_path, config="[index]\nopen_wait = 120\n")
    gated.append(gate)
    daemon = gate.start()
    with daemon.client() as client:
        assert _not_open(client.status())
        ack = client.append("s", "user", "The heron nests by the old canal lock", id="heron")
        assert client.history("s")[0].id == ack.id == "heron"
    with raw(daemon) as conn:
        # Frames are read in order and answered as each is done: the status answered first
        # says the search was read, and is waiting, while the index is not open.
        search = Search(rid=1, query="heron canal", k=3, session="s")
        assert conn.send(p.frame(p.encode(search)) + p.frame(p.encode(p.Status(rid=2))))
        first = conn.next_reply()
        assert isinstance(first, p.StatusReply) and _not_open(first.status), first
        gate.open()
        answer = conn.next_reply()
    assert isinstance(answer, SearchReply) and answer.rid == 1, answer
    assert [h.message_ids for h in answer.hits] == [["heron"]]
    with daemon.client() as client:
        assert client.status().index.ready
        poll(lambda: client.status().index.settled, what="the index settled")


def test_a_search_past_open_wait_answers_busy_then_the_opened_index_answers(
    tmp_path: Path, gated: list[GatedDaemon]
) -> None:
    gate = GatedDaemon(tmp_path, config="[index]\nopen_wait = 0.2\n")
    gated.append(gate)
    daemon = gate.start()
    with daemon.client() as client:
        client.append("s", "user", "The kettle whistles at dawn", id="kettle")
        with pytest.raises(Busy, match=r"index\.open_wait"):
            client.search("kettle", k=3, session="s")
        with pytest.raises(Busy, match="still opening"):
            client.reindex()
        assert _not_open(client.status())
        gate.open()
        index_open(client)
        assert [h.message_ids for h in client.search("kettle", k=3, session="s")] == [["kettle"]]
        assert client.reindex() is True
