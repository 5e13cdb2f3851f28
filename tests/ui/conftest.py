"""``reverie ui`` started for real against a real daemon filled with a small conversation.

The daemon runs extractive consolidation (no model), so facts come with
their sources; the fake LLM server only embeds, to be quick. The inspector
is the real command on a free loopback port, with its token in the data
dir as a user would have it (``ui.token``, made on first use).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from reverie.daemon.door_token import UI_TOKEN_ENV, UI_TOKEN_FILE
from tests.checks import accepts, free_port, poll
from tests.fakellm import FakeLLM, extractive_config
from tests.inprocess import InProcessDaemon

#: The conversation the inspector is checked on: one session consolidated, one not.
TRIP = "trip/<planning> & co"  # a hostile name: markup, a slash, an ampersand
TRIP_TURNS = [
    ("user", "I always drink green tea at Porto station every morning."),
    ("user", "My sister Ana moved to Lisbon last spring and works at a bakery there."),
    ("assistant", "Noted: green tea at Porto, and Ana at the Lisbon bakery."),
]
ERRANDS = "errands"
ERRANDS_TURNS = [
    ("user", "Remind me to renew the kayak permit before the regatta on Saturday."),
    ("assistant", "I will remind you about the kayak permit before the regatta."),
]


@dataclass(frozen=True)
class Inspector:
    url: str
    token: str
    daemon: InProcessDaemon
    link: str  # the one-time sign-in link `reverie ui` printed


def fill(daemon: InProcessDaemon) -> None:
    """Two sessions; the first consolidated into facts with sources."""
    with daemon.client() as client:
        for role, text in TRIP_TURNS:
            client.append(TRIP, role, text)
        for role, text in ERRANDS_TURNS:
            client.append(ERRANDS, role, text)
        assert client.consolidate(TRIP, wait=True) is not None
        assert client.facts(f"session/{TRIP}"), "extractive consolidation kept no fact"


@pytest.fixture
def inspector(
    make_served: Callable[..., InProcessDaemon], fake_llm: FakeLLM
) -> Iterator[Inspector]:
    daemon = make_served(config=extractive_config(fake_llm))  # the daemon runs in-process
    fill(daemon)
    port = free_port()
    env = {**os.environ, "REVERIE_DAEMON__DATA_DIR": str(daemon.data_dir)}
    env.pop(UI_TOKEN_ENV, None)
    cmd = [sys.executable, "-m", "reverie.daemon", "ui", "--socket", str(daemon.socket)]
    cmd += ["--port", str(port), "--sample-seconds", "0.5"]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        poll(lambda: accepts(port) or server.poll() is not None, 60, "reverie ui listening")
        assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
        token_file = Path(daemon.data_dir) / UI_TOKEN_FILE
        assert token_file.stat().st_mode & 0o777 == 0o600
        assert server.stderr is not None
        said = server.stderr.readline().decode()  # printed before it listens
        (link,) = [word for word in said.split() if "?once=" in word]
        url = f"http://127.0.0.1:{port}"
        yield Inspector(url, token_file.read_text().strip(), daemon, link)
    finally:
        server.terminate()
        server.wait(30)
